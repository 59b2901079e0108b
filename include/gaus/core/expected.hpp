// A value or an error message. Status values, not exceptions, cross the library boundary
// (STYLE.md); std::expected is C++23, so this is the small subset the project needs.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace gaus {

struct Error {
  std::string message;
};

template <typename T>
class Expected {
 public:
  Expected(T value) : storage_(std::move(value)) {}      // NOLINT: implicit by design
  Expected(Error error) : storage_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(storage_); }
  explicit operator bool() const { return ok(); }

  const T& value() const& {
    assert(ok());
    return std::get<T>(storage_);
  }
  T& value() & {
    assert(ok());
    return std::get<T>(storage_);
  }
  T&& value() && {
    assert(ok());
    return std::get<T>(std::move(storage_));
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  const std::string& error() const {
    assert(!ok());
    return std::get<Error>(storage_).message;
  }

 private:
  std::variant<T, Error> storage_;
};

// The result of an operation that yields nothing but may fail: `return Done{};` or an Error.
struct Done {};
using Status = Expected<Done>;

}  // namespace gaus
