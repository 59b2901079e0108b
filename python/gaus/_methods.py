"""Scheduling, verifying, drawing and generating code: each the call the matching ``gaus``
command makes (schedule, twill, verify, render, codegen, methods)."""

import json
import os

from . import _gaus
from ._graph import Graph
from ._result import Result, Verification

def _graph(source):
    return source if isinstance(source, Graph) else Graph(source)


def _option_text(value):
    """An option value as the command line's -O KEY=VALUE spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_option_text(item) for item in value)
    return str(value)


def _schedule_parts(graph, schedule, ii=None, warps=None):
    """(starts in op order, ii, warp lists in op order) of a Result, a schedule file's path, a
    dict {op: start} or a sequence of starts in op order."""
    if isinstance(schedule, Result):
        if not schedule.has_schedule:
            raise _gaus.Error(f"{graph.name}: the result has no schedule ({schedule.status})")
        starts = list(schedule.start_array)
        ii = schedule.ii if ii is None else ii
        warps = schedule.warps if warps is None else warps
    elif isinstance(schedule, (str, os.PathLike)):
        starts, file_ii, file_warps = _gaus.read_schedule(graph._instance, os.fspath(schedule))
        return starts, file_ii if ii is None else ii, file_warps if warps is None else warps
    else:
        starts = graph.starts_in_op_order(schedule)
    if isinstance(warps, dict):
        warps = [list(warps[name]) for name in graph.op_names]
    return starts, ii, warps


def schedule(
    graph,
    method="gaus",
    *,
    kind=None,
    time_limit=None,
    horizon=None,
    ii=None,
    ratio=None,
    objective=None,
    init=None,
    progress=None,
    memory_limit=None,
    seed=None,
    device=None,
    formulation=None,
    warps=None,
    max_ii=None,
    explain=False,
    **options,
):
    """Schedules ``graph`` with ``method``: ``gaus schedule GRAPH --method METHOD``.

    The run takes the library's one path (runMethod): the problem is posed as the command poses
    it (``kind``, or inferred: modulo for a graph with loop-carried edges or a fixed ``ii``,
    latency-bounded with a ``horizon``, else latency), the method runs, and the independent
    verifier judges its schedule. Keyword arguments after the settings are the method's own
    options (``-O KEY=VALUE``; gaus.methods() lists them): ``schedule(g, "gaus", steps=200)``.

    ``objective`` is what to minimize (``--objective``: "latency", "ii", "peak_memory",
    "stage_cost"; None: the method's default). ``time_limit`` (seconds) bounds the call; ``progress`` is a callable that receives the
    method's progress lines. The call releases the GIL, and Ctrl-C stops the methods that poll
    for it (gaus, list, ims, balanced, fds) at their next check and raises KeyboardInterrupt.

    Raises gaus.Error with the command line's message for bad input, an unknown method or option,
    a method that cannot run (its engine is missing) or a schedule that fails verification.
    Returns a Result; an infeasible problem or a timeout is a Result, not an exception.
    """
    graph = _graph(graph)
    # Settings, as the command line's --seed, --device, ...: a method that does not declare one
    # ignores it (Result.ignored_settings), where an unknown method option is an error. The time
    # limit is the call's deadline, its one channel: what is left of it reaches the method as
    # its time_limit, as --time-limit does on the command line.
    settings = {"explain": "true"} if explain else {}
    for name, value in (
        ("memory_limit", memory_limit),
        ("seed", seed),
        ("device", device),
        ("formulation", formulation),
        ("warps", warps),
        ("max_ii", max_ii),
    ):
        if value is not None:
            settings[name] = _option_text(value)
    own = {name: _option_text(value) for name, value in options.items()}
    initial = None
    if init is not None:
        initial, _, _ = _schedule_parts(graph, init)
    record, call, solution, starts = _gaus.run_method(
        graph._instance,
        method,
        kind or "",
        horizon,
        ii,
        ratio,
        objective or "",
        own,
        settings,
        float(time_limit) if time_limit is not None else None,
        initial,
        progress,
    )
    result = Result(graph, json.loads(record), call, solution, starts)
    if call == "error":
        error = _gaus.Error(result.message)
        error.result = result
        raise error
    return result


def twill(kernel, *, machine=None, warps=None, time_limit=None, explain=False, **options):
    """Joint software pipelining and warp specialization of a loop body: ``gaus twill KERNEL``.

    ``kernel`` is a built-in kernel name ("fa_fwd_hopper"), a graph file or a Graph. The Result
    carries ``roles`` and ``buffers`` as ``gaus twill --json`` prints them.
    """
    graph = Graph(kernel, machine=machine)
    return schedule(
        graph, "twill", warps=warps, time_limit=time_limit, explain=explain, **options
    )


def verify(graph, starts, *, ii=None, warps=None, horizon=None, stages=False, max_messages=20):
    """Checks a schedule with the independent verifier: ``gaus verify GRAPH SCHEDULE``.

    ``starts`` is a Result, a schedule file's path, a dict {op: start} or starts in op order;
    ``ii`` and ``warps`` ({op: [warp]}) make it a modulo (warp) schedule, ``horizon`` a
    latency-bounded one, ``stages`` a stage schedule (with ``horizon`` stages).
    """
    graph = _graph(graph)
    start_list, ii, warp_lists = _schedule_parts(graph, starts, ii, warps)
    record = _gaus.verify(
        graph._instance, start_list, ii, warp_lists, horizon, stages, max_messages
    )
    return Verification(json.loads(record))


def methods():
    """Every method with its problem kinds, options and figures, as ``gaus methods --json``
    prints them. A method whose engine plugin did not load (the gaus method without LibTorch;
    ilp and twill without Z3) has "unavailable" with the reason."""
    return json.loads(_gaus.methods_json())


def render(graph=None, schedule=None, *, view="units", horizon=None, iterations=None, title="", trace=None):
    """A picture as SVG text: ``gaus render GRAPH SCHEDULE --view VIEW -o -``.

    ``view`` is units, warps, mrt (schedule views) or graph (the graph alone); ``trace`` draws
    a GauS trace file (``trace=`` option of the gaus method) instead of a graph.
    """
    if trace is not None:
        return _gaus.render_trace(os.fspath(trace), iterations, title)
    if graph is None:
        raise _gaus.Error("render needs a graph (and a schedule), or trace=PATH")
    graph = _graph(graph)
    starts = ii = warps = None
    if schedule is not None:
        starts, ii, warps = _schedule_parts(graph, schedule)
    return _gaus.render(graph._instance, view, starts, ii, warps, horizon, iterations, title)


def codegen(graph, schedule, *, target="text", trips=10):
    """The loop a modulo schedule describes: ``gaus codegen GRAPH SCHEDULE --target TARGET``.

    Returns the generated files as {file name: text}: the listing (text), the memory layout
    (layout), the CUDA kernel (cuda), its GPU self-test (selftest), the self-checking CPU
    program (cpu) or a Perfetto trace of ``trips`` iterations (trace).
    """
    graph = _graph(graph)
    starts, ii, warps = _schedule_parts(graph, schedule)
    source = os.fspath(schedule) if isinstance(schedule, (str, os.PathLike)) else "python"
    return dict(_gaus.codegen(graph._instance, starts, ii, warps, target, trips, source))
