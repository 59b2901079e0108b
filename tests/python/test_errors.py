"""Bad input raises gaus.Error carrying the message the command line prints (file, line, what was
expected), since both read through the same readers and run through the same path."""

import json

import networkx
import pytest

import gaus
from conftest import cli_error, run_cli


def test_error_is_a_value_error():
    # Bad input is a bad value handed to a function: except ValueError catches it.
    assert issubclass(gaus.Error, ValueError)


def test_bad_file_has_the_cli_message(tmp_path):
    # An edge to an op the graph lacks, on line 5 of the file.
    path = tmp_path / "broken.json"
    path.write_text(
        '{\n "format": "gaus-0.1",\n "ops": [{"name": "a"}],\n "edges": [\n  {"from": "a", "to": "b"}\n ]\n}\n'
    )
    expected = cli_error("schedule", path, "--method", "list")
    assert str(path) in expected and ":5:" in expected
    with pytest.raises(gaus.Error) as raised:
        gaus.Graph(str(path))
    assert str(raised.value) == expected


def test_missing_file_has_the_cli_message(tmp_path):
    path = tmp_path / "absent.json"
    expected = cli_error("info", path)
    assert expected.startswith(f"{path}: no such file")
    with pytest.raises(gaus.Error) as raised:
        gaus.Graph(str(path))
    assert str(raised.value) == expected


def test_unknown_method_has_the_cli_message(ewf_path):
    # "lsit" is one letter swap from "list": the message suggests it.
    expected = cli_error("schedule", ewf_path, "--method", "lsit")
    assert "did you mean 'list'" in expected
    with pytest.raises(gaus.Error) as raised:
        gaus.schedule(gaus.Graph(str(ewf_path)), method="lsit")
    assert str(raised.value) == expected


def test_unknown_option_has_the_cli_message(ewf_path):
    # The option table refuses the name inside the run: the command prints the failed result
    # (status "error" and its message) and exits 1; Python raises with that message.
    finished = run_cli("schedule", ewf_path, "--method", "list", "-O", "priorty=height", "--json",
                       check=False)
    assert finished.returncode == 1
    cli = json.loads(finished.stdout)
    assert cli["status"] == "error" and "priorty" in cli["message"]
    with pytest.raises(gaus.Error) as raised:
        gaus.schedule(str(ewf_path), method="list", priorty="height")
    assert str(raised.value) == cli["message"]
    # The failed call's result rides along for a caller who wants the status pair.
    assert raised.value.result.call_status == "error"


def test_unknown_kind_has_the_cli_message(ewf_path):
    expected = cli_error("schedule", ewf_path, "--method", "list", "--kind", "modulus")
    with pytest.raises(gaus.Error) as raised:
        gaus.schedule(str(ewf_path), method="list", kind="modulus")
    assert str(raised.value) == expected


def test_networkx_attribute_typo_is_named():
    # "latncy" is not an op member: the native reader names the key and the one it resembles.
    graph = networkx.DiGraph()
    graph.add_node("a", latncy=1)
    with pytest.raises(gaus.Error) as raised:
        gaus.Graph(graph)
    message = str(raised.value)
    assert message.startswith("<networkx>:") and "latncy" in message and "latency" in message


def test_undirected_networkx_graph_is_refused():
    with pytest.raises(gaus.Error, match="expected a directed graph"):
        gaus.Graph(networkx.Graph([("a", "b")]))
