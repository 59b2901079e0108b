"""A networkx graph scheduled from Python gives the answers the command line gives on the same
graph: the same objective and the same start times, for list, ilp and gaus. Both go through
runMethod, so any difference would be a second path."""

import json

import networkx
import pytest

import gaus
from conftest import cli_json

# Two additions feed two multiplications that feed a third, then an addition, on one adder and
# one multiplier; a multiplication holds its unit for its 2 cycles of latency.
#   a1 -> m1 -> m3 -> s
#   a2 -> m2 ----^
# The latency is 8 at best and list scheduling reaches it: the adder can start only one
# addition in cycle 0, so the first multiplication starts at 1; the three multiplications hold
# the one multiplier for 3 x 2 = 6 cycles (1..7), and s starts after the last, at 7, ending at 8.
EXPECTED_LATENCY = 8


def diamond():
    graph = networkx.DiGraph(
        name="diamond",
        machine={"name": "one_each", "resources": [
            {"name": "ADD", "capacity": 1}, {"name": "MUL", "capacity": 1}]},
    )
    for name in ("a1", "a2", "s"):
        graph.add_node(name, latency=1, uses="ADD")
    for name in ("m1", "m2", "m3"):
        graph.add_node(name, latency=2, uses="MUL")
    graph.add_edges_from([("a1", "m1"), ("a2", "m2"), ("m1", "m3"), ("m2", "m3"), ("m3", "s")])
    return graph


@pytest.fixture(scope="module")
def diamond_file(tmp_path_factory):
    """The same graph as a native document for the command line, written from the package's
    reading of the networkx graph (Graph.to_dict is `gaus convert`'s writer)."""
    path = tmp_path_factory.mktemp("agreement") / "diamond.json"
    path.write_text(json.dumps(gaus.Graph(diamond()).to_dict()))
    return path


@pytest.mark.parametrize(
    "method,options",
    [
        ("list", {}),
        ("ilp", {}),
        # GauS is seeded and runs one thread, so its run is the same run in both; a step budget
        # ends it in both before the time limit, whatever the machine's load (a run ended by
        # the time limit is `timeout`, one ended by its steps `feasible`).
        ("gaus", {"seed": 1, "threads": 1, "max_steps": 200}),
    ],
)
def test_networkx_graph_gets_the_cli_answer(diamond_file, method, options):
    result = gaus.schedule(diamond(), method=method, time_limit=20, **options)
    flags = ["--time-limit", "20"]
    for name, value in options.items():
        flags += ["-O", f"{name}={value}"]
    cli = cli_json("schedule", diamond_file, "--method", method, *flags)

    assert result.objective == EXPECTED_LATENCY
    assert cli["objective"]["value"] == EXPECTED_LATENCY
    assert result.starts == cli["schedule"]["start"]
    assert result.status == cli["status"]
    assert result.verified and cli["verified"]


def test_ewf_ilp_is_21_as_on_the_command_line(ewf_path):
    # 21 cycles is the ilp optimum of HeuriGym's ewf on its own machine (the done-when figure of
    # the Python package); the command line must agree.
    result = gaus.schedule(gaus.Graph(str(ewf_path)), method="ilp")
    cli = cli_json("schedule", ewf_path, "--method", "ilp")
    assert result.objective == 21
    assert cli["objective"]["value"] == 21
    assert result.solution_status == "optimal" and result.call_status == "ok"
    assert result.starts == cli["schedule"]["start"]
