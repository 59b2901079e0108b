"""The package's functions, each against a value derived by hand or held by the command line."""

import json

import pytest

import gaus
from conftest import SHARED, cli_json, run_cli


def test_graph_reads_every_format_the_cli_reads(ewf_path):
    # ewf has 34 operations and 47 edges (gaus info says the same).
    graph = gaus.Graph(str(ewf_path))
    info = cli_json("info", ewf_path)
    assert (graph.num_ops, graph.num_edges) == (34, 47)
    assert (info["ops"], info["edges"]) == (34, 47)
    # A Triton dump holds one instance per loop; "#0" picks the first, as on the command line.
    triton = SHARED / "benchmarks/triton-ddg/case1_simple_gemm.ddg.json"
    if triton.exists():
        assert gaus.Graph(f"{triton}#0").num_ops > 0


def test_dict_round_trip_keeps_the_graph(ewf_path):
    # to_dict is the native writer; reading it back gives the same ops in the same order.
    graph = gaus.Graph(str(ewf_path))
    again = gaus.Graph(graph.to_dict())
    assert again.op_names == graph.op_names and again.num_edges == graph.num_edges


def test_result_carries_the_cli_record(ewf_path):
    result = gaus.schedule(str(ewf_path), method="list")
    # Every op has a start, in op order in the array and by name in the dict.
    assert list(result.start_array) == [result.starts[name] for name in gaus.Graph(str(ewf_path)).op_names]
    assert result.start_array.dtype.name == "int64"
    assert result.verification.verified and result.verification.metrics["latency"] == result.objective
    assert result.objective_name == "latency"
    assert result.call_status == "ok" and result.solution_status in ("feasible", "optimal")
    assert result.to_dict()["method"] == "list"


def test_verify_judges_a_schedule(ewf_path, tmp_path):
    graph = gaus.Graph(str(ewf_path))
    result = gaus.schedule(graph, method="list")
    assert gaus.verify(graph, result).verified
    # All ops at cycle 0 breaks every edge with a positive delay: the verifier counts them.
    broken = gaus.verify(graph, {name: 0 for name in graph.op_names})
    assert not broken.verified and broken.violations_by_family["precedence"] > 0
    # The command line's verdict on the same schedule file is the same.
    path = tmp_path / "ewf.schedule.json"
    result.write_schedule(path)
    assert cli_json("verify", ewf_path, path)["verified"] is True


def test_methods_lists_the_catalog():
    methods = {method["name"]: method for method in gaus.methods()}
    cli = {method["name"]: method for method in json.loads(run_cli("methods", "--json").stdout)}
    assert set(methods) == set(cli) >= {"list", "ims", "balanced", "gaus", "ilp", "twill"}
    assert methods["list"]["options"] == cli["list"]["options"]


def test_twill_schedules_toy_fa_at_ii_2():
    # toy_fa (configs/kernels/toy_fa.yaml) reaches II 2, its ResMII: docs/formats.md shows the
    # same schedule.
    result = gaus.twill("toy_fa", time_limit=60)
    assert result.ii == 2 and result.verified
    assert result.roles and all("ops" in role for role in result.roles)


def test_twill_returns_what_twill_json_prints():
    # One view of a method run (report::methodRunToJson) for the command and Python: the same
    # fields, and the same values where they do not measure time.
    result = gaus.twill("toy_fa", time_limit=60).to_dict()
    printed = cli_json("twill", "toy_fa", "--time-limit", "60")
    assert set(result) == set(printed)
    assert result["ii_proof"] == printed["ii_proof"] == "every_length"
    for field in ("status", "objective", "ii", "schedule", "roles", "buffers", "verified"):
        assert result[field] == printed[field], field
    assert result["bounds"]["mii"] == printed["bounds"]["mii"] == 2


def test_codegen_and_render_give_the_cli_text(tmp_path):
    # The listing and the picture of the same schedule are the command line's, byte for byte.
    result = gaus.twill("toy_fa", time_limit=60)
    path = tmp_path / "toy_fa.schedule.json"
    result.write_schedule(path)
    files = gaus.codegen("toy_fa", path, target="text")
    assert list(files) == ["toy_fa.listing.txt"]
    assert "II 2" in files["toy_fa.listing.txt"]
    assert files["toy_fa.listing.txt"] == run_cli("codegen", "toy_fa", path).stdout
    svg = gaus.render("toy_fa", path, view="units")
    assert svg.rstrip().endswith("</svg>")
    assert svg == run_cli("render", "toy_fa", path, "--view", "units", "-o", "-").stdout


def test_run_returns_records_and_a_frame(tmp_path, ewf_path):
    # One graph and one method: one record, whose objective is the list schedule's.
    config = {
        "name": "python_run",
        "graphs": [{"glob": str(ewf_path)}],
        "methods": [{"method": "list"}],
        "budgets": {"time_limit": 10, "jobs": 1},
    }
    records = gaus.run(config, output=tmp_path / "out", report=False)
    assert len(records) == 1
    expected = gaus.schedule(str(ewf_path), method="list").objective
    assert records[0]["objective"]["value"] == expected
    frame = gaus.run(config, output=tmp_path / "again", report=False, as_frame=True)
    assert frame.loc[0, "objective.value"] == expected


def test_bad_experiment_key_raises(tmp_path):
    # The library's config reader names the key and the one it resembles, before any run.
    with pytest.raises(gaus.Error, match="methdos.*methods"):
        gaus.run({"name": "typo", "graphs": [], "methdos": []})
