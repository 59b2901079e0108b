"""Graphs and machines: read by the library's readers, whatever the source.

A path goes through the reader the command line uses (format sniffed from the extension and the
content, docs/formats.md); a dict is a native gaus document (the same JSON reader, with the same
checks and messages); a networkx DiGraph becomes such a document, its node and edge attributes
named as the native format names them.
"""

import json
import os

from . import _gaus

# networkx graph attributes that are members of the native document; any other is left out.
_DOCUMENT_MEMBERS = ("name", "machine", "reference")


def _json_value(value):
    """JSON for values numpy and networkx hand out (numpy scalars and arrays, tuples)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as JSON")


def _is_networkx_graph(source):
    return type(source).__module__.startswith("networkx.") and hasattr(source, "is_directed")


def networkx_document(graph):
    """The native document (a dict) of a networkx DiGraph (docs/python.md, "networkx").

    Each node is an op named str(node); its attributes are the op's members (latency, uses,
    reservation, mem, weight, ...). Each edge's attributes are the edge's members (delay,
    distance, blocking, comm). The graph attributes name, machine and reference are the
    document's. The reader checks every member as it checks a file: an unknown attribute is an
    error naming it.
    """
    if not graph.is_directed():
        raise _gaus.Error(
            "networkx graph: expected a directed graph (DiGraph or MultiDiGraph), found an "
            "undirected one"
        )
    document = {"format": "gaus-0.1"}
    for member in _DOCUMENT_MEMBERS:
        if member in graph.graph:
            document[member] = graph.graph[member]
    if "name" not in document:
        document["name"] = "networkx"
    document["ops"] = [{"name": str(node), **attributes} for node, attributes in graph.nodes(data=True)]
    document["edges"] = [
        {"from": str(source), "to": str(target), **attributes}
        for source, target, attributes in graph.edges(data=True)
    ]
    return document


def _document_instance(document, source):
    text = json.dumps(document, indent=1, default=_json_value)
    return _gaus.graph_from_json(text, source)


class Machine:
    """A machine: a name in configs/machines ("hopper"), a YAML or JSON file, or a dict with the
    members of docs/formats.md "machine"."""

    def __init__(self, source):
        if isinstance(source, Machine):
            self._machine = source._machine
        elif isinstance(source, dict):
            text = json.dumps(source, default=_json_value)
            self._machine = _gaus.machine_from_json(text, source.get("name", "machine") + ".json")
        elif isinstance(source, (str, os.PathLike)):
            self._machine = _gaus.find_machine(os.fspath(source))
        elif isinstance(source, _gaus.Machine):
            self._machine = source
        else:
            raise TypeError(f"Machine: expected a name, a path or a dict, found {type(source).__name__}")

    @property
    def name(self):
        return self._machine.name

    @property
    def warps(self):
        return self._machine.warps

    @property
    def resources(self):
        """{resource: capacity}, None for an unlimited one."""
        return dict(self._machine.resources)

    @property
    def memories(self):
        """{memory: capacity}."""
        return dict(self._machine.memories)

    def __repr__(self):
        return f"gaus.Machine({self.name!r}, resources={self.resources})"


class Graph:
    """A graph and the machine it runs on, read the way every gaus command reads its input.

    ``Graph(path)``: any format the command line reads (HeuriGym, native JSON/YAML, GML, AIGER,
    Triton dumps, HatScheT GraphML), sniffed as ``gaus`` sniffs it; "FILE#N" or "FILE#NAME"
    picks one loop of a Triton dump; a bare name is a built-in kernel ("fa_fwd_hopper").
    ``Graph(dict)``: a native document (docs/formats.md "Native format").
    ``Graph(networkx.DiGraph)``: see :func:`networkx_document`.

    ``machine`` (a Machine, a name, a path or a dict) replaces the machine the input carries, as
    ``--machine`` does; ``format``, ``resources`` and ``raw_comm`` are ``--format``,
    ``--resources`` and ``--raw-comm``.
    """

    def __init__(self, source, *, machine=None, format=None, resources=None, raw_comm=False):
        if isinstance(source, Graph):
            instance = source._instance
        elif isinstance(source, dict):
            instance = _document_instance(source, "<dict>")
        elif _is_networkx_graph(source):
            instance = _document_instance(networkx_document(source), "<networkx>")
        elif isinstance(source, (str, os.PathLike)):
            instance = _gaus.read_graph(
                os.fspath(source),
                format,
                os.fspath(resources) if resources is not None else None,
                raw_comm,
            )
        else:
            raise TypeError(
                "Graph: expected a path, a native document (dict) or a networkx DiGraph, found "
                f"{type(source).__name__}"
            )
        if machine is not None:
            instance = _gaus.with_machine(instance, Machine(machine)._machine)
        self._instance = instance
        self._op_names = None

    @property
    def name(self):
        return self._instance.name

    @property
    def source(self):
        """The file it was read from ("<dict>", "<networkx>" for the others)."""
        return self._instance.source

    @property
    def machine(self):
        return Machine(self._instance.machine)

    @property
    def op_names(self):
        """Op names in op order: the order of Result.start_array."""
        if self._op_names is None:
            self._op_names = list(self._instance.op_names)
        return self._op_names

    @property
    def num_ops(self):
        return self._instance.num_ops

    @property
    def num_edges(self):
        return self._instance.num_edges

    @property
    def reference(self):
        """Figures the source recorded (a dump's min II, a benchmark's baseline), by name."""
        return dict(self._instance.reference)

    def to_dict(self):
        """The native document, as ``gaus convert IN OUT.json`` writes it."""
        return json.loads(_gaus.graph_to_json(self._instance))

    def starts_in_op_order(self, starts):
        """Start times in op order from a dict {op: start}, a sequence or a numpy array."""
        if isinstance(starts, dict):
            missing = [name for name in self.op_names if name not in starts]
            unknown = sorted(set(starts) - set(self.op_names))
            if unknown:
                raise _gaus.Error(f"{self.name}: op {unknown[0]!r} in the starts is not in the graph")
            if missing:
                raise _gaus.Error(f"{self.name}: expected a start for op {missing[0]!r}")
            return [int(starts[name]) for name in self.op_names]
        return [int(start) for start in starts]

    def __len__(self):
        return self.num_ops

    def __repr__(self):
        return (
            f"gaus.Graph({self.name!r}, ops={self.num_ops}, edges={self.num_edges}, "
            f"machine={self._instance.machine.name!r})"
        )
