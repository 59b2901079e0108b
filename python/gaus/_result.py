"""What a method returns, as Python objects over the JSON the command line prints."""

import json


class Verification:
    """The independent verifier's report (core/verify.hpp), as ``gaus verify --json`` prints it."""

    def __init__(self, record):
        self._record = record

    @property
    def verified(self):
        return bool(self._record["verified"])

    @property
    def violation_count(self):
        return self._record["violation_count"]

    @property
    def violations(self):
        """The first violations, each a message naming the ops, times and numbers."""
        return list(self._record["violations"])

    @property
    def violations_by_family(self):
        return dict(self._record["violations_by_family"])

    @property
    def unchecked_loop_carried_edges(self):
        return self._record["unchecked_loop_carried_edges"]

    @property
    def metrics(self):
        """Latency, stages, peak usage per resource, peak live memory; None for a schedule of the
        wrong shape."""
        return self._record.get("metrics")

    def to_dict(self):
        return dict(self._record)

    def __bool__(self):
        return self.verified

    def __repr__(self):
        return f"gaus.Verification(verified={self.verified}, violations={self.violation_count})"


class Result:
    """One method's result on one graph (core/result.hpp).

    ``call_status`` ("ok" or "error") is kept apart from ``solution_status`` ("optimal",
    "feasible", "infeasible", "timeout", "unknown"), as in the library; ``status`` is what the
    command line prints (the call's "error", else the solution status). A failed call raises
    gaus.Error instead of returning, so a Result in hand has call_status "ok".
    """

    def __init__(self, graph, record, call_status, solution_status, starts):
        self._graph = graph
        self._record = record
        self.call_status = call_status
        self.solution_status = solution_status
        self._starts = starts

    # ---- status and objective ----
    @property
    def status(self):
        return self._record["status"]

    @property
    def method(self):
        return self._record["method"]

    @property
    def kind(self):
        """The problem kind that was posed: latency, latency-bounded, modulo, modulo-warp, stages."""
        return self._record["kind"]

    @property
    def message(self):
        return self._record.get("message", "")

    @property
    def objective(self):
        """The method's objective value (an int when it is whole, as cycles are), or None."""
        objective = self._record.get("objective")
        if objective is None:
            return None
        value = objective["value"]
        return int(value) if float(value).is_integer() else value

    @property
    def objective_name(self):
        objective = self._record.get("objective")
        return objective["name"] if objective else None

    @property
    def bounds(self):
        """{"lower_bound", "gap", "ii_proven_optimal", "latency_proven_optimal", "ii_bound"?}."""
        return dict(self._record["bounds"])

    @property
    def lower_bound(self):
        return self._record["bounds"]["lower_bound"]

    @property
    def gap(self):
        """(objective - lower bound) / objective: 0 when proven optimal, None without either."""
        return self._record["bounds"].get("gap")

    @property
    def seconds(self):
        return self._record["seconds"]

    # ---- the schedule ----
    @property
    def has_schedule(self):
        return self._starts is not None

    @property
    def starts(self):
        """{op name: start cycle} in op order; empty without a schedule."""
        if self._starts is None:
            return {}
        return dict(zip(self._graph.op_names, self._starts))

    @property
    def start_array(self):
        """The starts as a numpy int64 array in op order (Graph.op_names); None without a
        schedule."""
        if self._starts is None:
            return None
        import numpy

        return numpy.asarray(self._starts, dtype=numpy.int64)

    @property
    def ii(self):
        return self._record.get("ii")

    @property
    def warps(self):
        """{op name: [warp, ...]} of a warp-specialized schedule, else None."""
        schedule = self._record.get("schedule")
        return dict(schedule["warps"]) if schedule and "warps" in schedule else None

    @property
    def schedule(self):
        """The schedule in its file format (docs/formats.md "Schedule JSON"), as ``-o`` writes
        it; None without one."""
        return self._record.get("schedule")

    def write_schedule(self, path):
        """Writes the schedule file ``gaus schedule -o`` writes (for gaus verify, render,
        codegen)."""
        if self.schedule is None:
            raise ValueError(f"{self._graph.name}: the result has no schedule to write")
        with open(path, "w", encoding="utf-8") as file:
            json.dump(self.schedule, file, indent=2)
            file.write("\n")

    # ---- the verifier, the search, the figures ----
    @property
    def verification(self):
        record = self._record.get("verification")
        return Verification(record) if record is not None else None

    @property
    def verified(self):
        return bool(self._record["verified"])

    @property
    def attempts(self):
        """Each step of the search in order: {"phase", "ii", "latency", "horizon", "status",
        "seconds", "bound", "detail"}."""
        return [dict(attempt) for attempt in self._record["attempts"]]

    @property
    def figures(self):
        """What the method reports beside its objective, by declared name (gaus.methods() lists
        each method's figures with units and docs)."""
        return dict(self._record["extra"])

    @property
    def options(self):
        """Every option of the method with the value the run used."""
        return dict(self._record["options"])

    @property
    def notes(self):
        return dict(self._record["notes"])

    @property
    def roles(self):
        """Warp roles of a warp-specialized schedule (as ``gaus twill --json``), else None."""
        return self._record.get("roles")

    @property
    def buffers(self):
        return self._record.get("buffers")

    @property
    def ignored_settings(self):
        """Settings given (time_limit, seed, ...) that the method does not declare."""
        return list(self._record.get("ignored_settings", []))

    def to_dict(self):
        """The record ``gaus schedule --json`` prints."""
        return dict(self._record)

    def __repr__(self):
        objective = (
            f", {self.objective_name}={self.objective}" if self.objective is not None else ""
        )
        return f"gaus.Result({self.method} on {self._graph.name}: {self.status}{objective})"
