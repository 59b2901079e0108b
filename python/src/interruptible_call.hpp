// Runs library work from Python without holding the interpreter: the work runs on a thread of its
// own while the calling thread, with the GIL released, waits for it and looks for signals every
// few milliseconds. A Ctrl-C (KeyboardInterrupt, or any exception a signal handler raises) sets
// the cancel flag the library's methods already poll (RunContext::cancel: GauS, list, ims and the
// stage refinement stop at their next check), waits for the work to return and raises.
// PyErr_CheckSignals runs Python's handlers only on the main thread with the GIL held, which is
// why the waiting, not the work, stays on the calling thread.
#pragma once

#include <atomic>
#include <chrono>
#include <future>
#include <nanobind/nanobind.h>
#include <utility>

namespace gaus::python {

// How often the waiting thread looks for a signal: short enough that Ctrl-C feels immediate.
inline constexpr std::chrono::milliseconds kSignalPollInterval{50};

template <class Work>
auto runInterruptibly(Work&& work, std::atomic<bool>& cancel) {
  auto future = std::async(std::launch::async, std::forward<Work>(work));
  while (true) {
    {
      nanobind::gil_scoped_release released;
      if (future.wait_for(kSignalPollInterval) == std::future_status::ready) break;
    }
    if (PyErr_CheckSignals() != 0) {
      cancel.store(true, std::memory_order_relaxed);
      {
        nanobind::gil_scoped_release released;
        future.wait();
      }
      throw nanobind::python_error();
    }
  }
  return future.get();
}

}  // namespace gaus::python
