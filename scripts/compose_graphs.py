#!/usr/bin/env python3
"""Larger graphs made of copies of smaller ones, for benchmarks of large circuits.

    scripts/compose_graphs.py OUT.json NAME PART [PART ...]
    PART = GRAPH.json:COUNT:parallel   COUNT copies side by side (separate components)
         | GRAPH.json:COUNT:series     COUNT copies in a chain: the i-th source (op without
                                       predecessors) of each copy reads the (i mod s)-th of the
                                       s sinks (ops without successors) of the copy before

GRAPH.json is a native gaus graph (`gaus convert circuit.aig circuit.json`). OUT.json holds
the union of the parts, with the machine of the last one (the AIGER reader gives every circuit
the same machine); an op of part p, copy c keeps its name behind the prefix "p{p}c{c}_". A chain
of copies is as deep as the copies together; components of different depths side by side give
their ops frames as wide as the depth they lack (docs/benchmarks.md, "Force-directed
scheduling").
"""
import json
import sys


def load(path):
    """The graph and its edges as (source, target, attributes): op indices and the edge's
    other members (delay, distance, ...) as a dict."""
    graph = json.load(open(path))
    index = {op["name"]: i for i, op in enumerate(graph["ops"])}
    endpoint = lambda e: e if isinstance(e, int) else index[e]
    edges = []
    for edge in graph["edges"]:  # [from, to, delay?, distance?] or {"from", "to", ...}
        if isinstance(edge, list):
            attributes = dict(zip(("delay", "distance"), edge[2:]))
            edges.append((endpoint(edge[0]), endpoint(edge[1]), attributes))
        else:
            attributes = {k: v for k, v in edge.items() if k not in ("from", "to")}
            edges.append((endpoint(edge["from"]), endpoint(edge["to"]), attributes))
    return graph, edges


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    out, name, parts = argv[1], argv[2], argv[3:]
    ops, edges, machine = [], [], None
    for p, part in enumerate(parts):
        try:
            path, count, how = part.rsplit(":", 2)
            count = int(count)
        except ValueError:
            sys.exit(f"compose_graphs: {part}: expected GRAPH.json:COUNT:parallel|series")
        if how not in ("parallel", "series") or count < 1:
            sys.exit(f"compose_graphs: {part}: expected a count >= 1 and parallel or series")
        graph, graph_edges = load(path)
        machine = graph["machine"]
        n = len(graph["ops"])
        has_in = {e[1] for e in graph_edges}
        has_out = {e[0] for e in graph_edges}
        sources = [i for i in range(n) if i not in has_in]
        sinks = [i for i in range(n) if i not in has_out]
        for c in range(count):
            base = len(ops)
            for op in graph["ops"]:
                ops.append(dict(op, name=f"p{p}c{c}_{op['name']}"))
            edges += [(u + base, v + base, attributes) for u, v, attributes in graph_edges]
            if how == "series" and c > 0:
                edges += [(base - n + sinks[i % len(sinks)], base + s, {})
                          for i, s in enumerate(sources)]
    graph = {"format": "gaus-0.1", "name": name, "machine": machine, "ops": ops}
    graph["edges"] = [{"from": u, "to": v, **attributes} for u, v, attributes in edges]
    json.dump(graph, open(out, "w"))
    print(f"wrote {out} ({len(ops)} ops, {len(edges)} edges)")


if __name__ == "__main__":
    main(sys.argv)
