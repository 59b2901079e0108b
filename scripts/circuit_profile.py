#!/usr/bin/env python3
"""The structure of and-inverter graphs that matters for peak live memory, as gaus reads them.

Each graph is read through `gaus convert` (any format gaus reads: an .aig file as the AIGER
reader maps it, a generated .json as it is), so a real circuit and a generated one are measured
by the same code. Levels: inputs (ops without fan-in) at 0, a gate one above its deeper fan-in;
D = depth + 1 cycles, the critical path; live intervals as gaus counts them (a value is live from
its op's start until its last reader starts).

    scripts/circuit_profile.py FILE...             # one table row per file
    scripts/circuit_profile.py --fit FILE...       # the generator's parameters, per file and the
                                                   # medians of each family (docs/random_graphs.md)
    scripts/circuit_profile.py --compare FILE...   # each file beside `gaus generate --circuit`
                                                   # with its profile and its family's defaults
Options: --gaus PATH (default build/apps/gaus/gaus), --seed S (--compare), --json.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The suite's two folders (lsils/benchmarks: arithmetic/, random_control/).
ARITHMETIC = {"adder", "bar", "div", "hyp", "log2", "max", "multiplier", "sin", "sqrt", "square"}


def family_of(path):
    return "arithmetic" if os.path.basename(path).split(".")[0] in ARITHMETIC else "control"


def read_graph(gaus, path):
    """(names, edges as (source, target) index pairs) of any file gaus reads."""
    if path.endswith(".json"):
        with open(path) as f:
            doc = json.load(f)
    else:
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "graph.json")
            subprocess.run([gaus, "convert", path, out], check=True, capture_output=True)
            with open(out) as f:
                doc = json.load(f)
    names = [op["name"] for op in doc["ops"]]
    index = {name: i for i, name in enumerate(names)}
    edges = []
    for edge in doc["edges"]:
        source, target = (edge[0], edge[1]) if isinstance(edge, list) else (edge["from"], edge["to"])
        edges.append(tuple(x if isinstance(x, int) else index[x] for x in (source, target)))
    return names, edges


class Circuit:
    def __init__(self, names, edges):
        n = len(names)
        self.n = n
        self.fanin = [[] for _ in range(n)]
        self.fanout = [[] for _ in range(n)]
        for s, t in edges:
            self.fanin[t].append(s)
            self.fanout[s].append(t)
        self.edges = len(edges)
        order, indegree = [], [len(f) for f in self.fanin]
        ready = [v for v in range(n) if indegree[v] == 0]
        while ready:
            v = ready.pop()
            order.append(v)
            for w in self.fanout[v]:
                indegree[w] -= 1
                if indegree[w] == 0:
                    ready.append(w)
        self.level = [0] * n
        for v in order:
            for w in self.fanout[v]:
                self.level[w] = max(self.level[w], self.level[v] + 1)
        self.height = [0] * n  # edges on the longest path to a sink
        for v in reversed(order):
            for w in self.fanout[v]:
                self.height[v] = max(self.height[v], self.height[w] + 1)
        self.depth = max(self.level)
        self.inputs = [v for v in range(n) if not self.fanin[v]]
        self.gates = [v for v in range(n) if self.fanin[v]]


def components(c):
    parent = list(range(c.n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for v in range(c.n):
        for w in c.fanout[v]:
            parent[find(v)] = find(w)
    return len({find(v) for v in range(c.n)})


def live_profile(c, start):
    """Values live at each cycle of [0, D): [start(v), last reader's start)."""
    D = c.depth + 1
    diff = [0] * (D + 1)
    for v in range(c.n):
        end = max((start[w] for w in c.fanout[v]), default=start[v])
        if end > start[v]:
            diff[start[v]] += 1
            diff[end] -= 1
    profile, live = [], 0
    for t in range(D):
        live += diff[t]
        profile.append(live)
    return profile


def mandatory_profile(c, asap, alap):
    """Live in every schedule at D: [alap(v), max over readers of asap(reader))."""
    D = c.depth + 1
    diff = [0] * (D + 1)
    for v in range(c.n):
        end = max((asap[w] for w in c.fanout[v]), default=0)
        if end > alap[v]:
            diff[alap[v]] += 1
            diff[end] -= 1
    profile, live = [], 0
    for t in range(D):
        live += diff[t]
        profile.append(live)
    return profile


def median(values):
    return statistics.median(values) if values else float("nan")


def width_fit(c):
    """Levels 2..depth: exponential decay fitted to the mean position, log-width noise, lag-1."""
    widths = [0] * (c.depth + 1)
    for v in c.gates:
        widths[c.level[v]] += 1
    rest = widths[2:]
    if len(rest) < 3:
        return None
    m = len(rest)
    xs = [(i + 0.5) / m for i in range(m)]
    mean_x = sum(x * w for x, w in zip(xs, rest)) / sum(rest)

    def mean_of(lam):
        return 0.5 if abs(lam) < 1e-9 else 1 / lam - math.exp(-lam) / (1 - math.exp(-lam))

    low, high = -50.0, 50.0
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if mean_of(mid) > mean_x else (low, mid)
    lam = (low + high) / 2
    residual = [math.log(w) + lam * x for x, w in zip(xs, rest)]
    mu = statistics.mean(residual)
    residual = [r - mu for r in residual]
    sd = statistics.pstdev(residual)
    denominator = sum(r * r for r in residual)
    corr = sum(a * b for a, b in zip(residual, residual[1:])) / denominator if denominator else 0
    return lam, sd, corr


def measure(c):
    """The figures of one graph (a dict)."""
    D = c.depth + 1
    lv, fo = c.level, c.fanout
    widths = [0] * (c.depth + 1)
    for v in c.gates:
        widths[lv[v]] += 1
    level_widths = widths[1:]
    r = {"ops": c.n, "inputs": len(c.inputs), "gates": len(c.gates), "edges": c.edges,
         "depth": c.depth, "components": components(c)}
    sinks = [v for v in c.gates if not fo[v]]
    r["outputs"] = len(sinks)
    r["unread_inputs"] = sum(1 for v in c.inputs if not fo[v])
    mean_width = statistics.mean(level_widths)
    r["width_cv"] = statistics.pstdev(level_widths) / mean_width
    r["level1_per_input"] = widths[1] / len(c.inputs)
    fit = width_fit(c)
    r["width_decay"], r["width_noise"], r["width_correlation"] = fit if fit else (None,) * 3
    # second (shallower) fan-in of each gate
    deep = input_read = near = 0
    far = []
    for v in c.gates:
        l = lv[v]
        if l < 2 or len(c.fanin[v]) < 2:
            continue
        deep += 1
        low = min(lv[u] for u in c.fanin[v])
        if low == 0:
            input_read += 1
        elif l >= 3:
            d = l - low
            if d == 1:
                near += 1
            else:
                far.append(math.log(d - 1) / math.log(l - 1))
    r["input_reads"] = input_read / deep if deep else None
    gate_seconds = near + len(far)
    r["same_level_fanin"] = near / gate_seconds if gate_seconds else None
    r["far_fanin_log_position"] = statistics.mean(far) if far else None
    # where inputs are read
    readers = [[lv[w] for w in fo[v]] for v in c.inputs if fo[v]]
    r["input_read_depth"] = statistics.mean(l / c.depth for rs in readers for l in rs)
    r["input_read_span"] = statistics.mean((max(rs) - min(rs)) / c.depth for rs in readers)
    r["input_fanout_max"] = max(len(fo[v]) for v in c.inputs)
    read_gates = [len(fo[v]) for v in c.gates if fo[v]]
    r["gate_fanout_1"] = sum(1 for k in read_gates if k == 1) / len(c.gates)
    r["gate_fanout_mean"] = statistics.mean(read_gates) if read_gates else 0
    r["gate_fanout_max"] = max(read_gates, default=0)
    last = sum(1 for v in sinks if lv[v] == c.depth)
    r["outputs_on_last_level"] = last / len(sinks) if sinks else None
    inner = [lv[v] / c.depth for v in sinks if lv[v] < c.depth]
    r["inner_output_depth"] = statistics.mean(inner) if inner else None
    critical = [v for v in c.gates if lv[v] + c.height[v] == c.depth]
    per_level = [0] * (c.depth + 1)
    for v in critical:
        per_level[lv[v]] += 1
    r["critical_gates"] = statistics.median(per_level[1:])
    seconds = [lv[v] - min(lv[u] for u in c.fanin[v]) for v in critical if lv[v] >= 2]
    r["critical_far_second"] = (sum(1 for d in seconds if d >= 3) / len(seconds)
                                if seconds else None)
    taller = [c.height[v] / (c.depth - lv[v]) for v in c.gates
              if fo[v] and lv[v] + c.height[v] < c.depth]
    r["height_fraction"] = statistics.mean(taller) if taller else None
    # slack and live memory at D
    asap = lv
    alap = [D - 1 - c.height[v] for v in range(c.n)]
    slack = [alap[v] - asap[v] for v in range(c.n)]
    r["slack_fraction"] = sum(1 for s in slack if s > 0) / c.n
    r["slack_mean"] = statistics.mean(slack)
    for name, start in (("asap", asap), ("alap", alap)):
        profile = live_profile(c, start)
        r[name + "_peak"], r[name + "_mean"] = max(profile), statistics.mean(profile)
    mandatory = mandatory_profile(c, asap, alap)
    r["mandatory_peak"], r["mandatory_mean"] = max(mandatory), statistics.mean(mandatory)
    return r


def list_peak(gaus, path, depth):
    out = subprocess.run([gaus, "schedule", path, "--kind", "latency-bounded", "--horizon",
                          str(depth + 1), "--method", "list", "--json"],
                         check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    return result.get("objective", {}).get("value")


FIT_KEYS = ["level1_per_input", "width_decay", "width_noise", "width_correlation", "input_reads",
            "same_level_fanin", "outputs_on_last_level", "inner_output_depth", "critical_gates",
            "height_fraction", "critical_far_second"]


def fit_table(rows):
    families = {"epfl": rows, "arithmetic": [r for r in rows if r["family"] == "arithmetic"],
                "control": [r for r in rows if r["family"] == "control"]}
    lines = ["| circuit | family | " + " | ".join(k.replace("_", "-") for k in FIT_KEYS) + " |",
             "|---|---|" + "---|" * len(FIT_KEYS)]
    for r in rows:
        lines.append(f"| {r['name']} | {r['family']} | " +
                     " | ".join(fmt(r[k]) for k in FIT_KEYS) + " |")
    for family, members in families.items():
        medians = [median([r[k] for r in members if r[k] is not None]) for k in FIT_KEYS]
        lines.append(f"| **median** | {family} | " + " | ".join(fmt(m, 3) for m in medians) + " |")
    return "\n".join(lines)


def fmt(value, digits=2):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.{digits}f}"


# gaus info's figures and the structure, then what a schedule at D = depth + 1 can do with it.
STRUCTURE_KEYS = [("ops", "ops"), ("edges", "edges"), ("depth", "depth"),
                  ("comp.", "components"), ("outputs", "outputs"),
                  ("unread in", "unread_inputs"), ("width cv", "width_cv"),
                  ("in reads", "input_reads"), ("same lvl", "same_level_fanin"),
                  ("far pos", "far_fanin_log_position"), ("in depth", "input_read_depth"),
                  ("fanout 1", "gate_fanout_1"), ("fanout max", "gate_fanout_max")]
SCHEDULE_KEYS = [("crit/level", "critical_gates"), ("height", "height_fraction"),
                 ("slack %", "slack_fraction"), ("mean slack", "slack_mean"),
                 ("ASAP peak", "asap_peak"), ("ALAP peak", "alap_peak"),
                 ("mand. peak", "mandatory_peak"), ("mand. mean", "mandatory_mean"),
                 ("list peak", "list_peak")]


def compare_table(pairs):
    tables = []
    for keys in (STRUCTURE_KEYS, SCHEDULE_KEYS):
        lines = ["| circuit | " + " | ".join(k for k, _ in keys) + " |",
                 "|---|" + "---|" * len(keys)]
        for real, generated in pairs:
            for label, r in ((real["name"], real), ("generated", generated)):
                if not r:
                    continue
                cells = []
                for _, key in keys:
                    value = r.get(key)
                    if key == "slack_fraction" and value is not None:
                        cells.append(fmt(100 * value, 0))
                    elif key == "list_peak" and value is not None:
                        cells.append(fmt(int(value)))
                    else:
                        cells.append(fmt(value))
                lines.append(f"| {label} | " + " | ".join(cells) + " |")
        tables.append("\n".join(lines))
    return "\n\n".join(tables)


def generate_like(gaus, real, seed, out):
    command = [gaus, "generate", "--circuit", "--inputs", str(real["inputs"]), "--ands",
               str(real["gates"]), "--depth", str(real["depth"]), "--outputs",
               str(real["outputs"]), "--components", str(real["components"]), "--family",
               real["family"], "--seed", str(seed), "-o", out]
    subprocess.run(command, check=True, capture_output=True)
    return command


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--gaus", default=os.path.join(ROOT, "build/apps/gaus/gaus"))
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for path in args.files:
        r = measure(Circuit(*read_graph(args.gaus, path)))
        r["name"] = os.path.basename(path).split(".")[0]
        r["family"] = family_of(path)
        if not args.fit:
            r["list_peak"] = list_peak(args.gaus, path, r["depth"])
        rows.append(r)
    if args.fit:
        print(json.dumps(rows, indent=1) if args.json else fit_table(rows))
        return
    if not args.compare:
        print(json.dumps(rows, indent=1) if args.json else compare_table([(r, {}) for r in rows]))
        return
    pairs = []
    with tempfile.TemporaryDirectory() as folder:
        for real in rows:
            out = os.path.join(folder, real["name"] + ".json")
            generate_like(args.gaus, real, args.seed, out)
            generated = measure(Circuit(*read_graph(args.gaus, out)))
            generated["name"] = "generated"
            generated["list_peak"] = list_peak(args.gaus, out, generated["depth"])
            pairs.append((real, generated))
    print(json.dumps(pairs, indent=1) if args.json else compare_table(pairs))


if __name__ == "__main__":
    sys.exit(main())
