"""Experiments: ``gaus run CONFIG`` from Python, its records read back from results.jsonl."""

import json
import os
import subprocess
import tempfile

from . import _gaus
from ._cli import cli_path


def _read_records(path):
    records = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.strip()
            if line:
                records.append(json.loads(line))
    return records


def run(
    config,
    *,
    output=None,
    jobs=None,
    resume=False,
    memory_limit=None,
    report=True,
    as_frame=False,
    quiet=True,
):
    """Runs an experiment (docs/experiments.md) and returns its records.

    ``config`` is a YAML file or a dict with the same keys; a dict's relative paths are relative
    to the current folder. The experiment runs as ``gaus run`` runs it, with the bundled program:
    each run in a process of its own under its time and memory limits (which is why this call
    starts the program rather than running the matrix inside Python), the records appended to
    OUTPUT/results.jsonl and the report written at the end. ``output``, ``jobs``, ``resume`` and
    ``memory_limit`` are the flags of the same names.

    Returns the records of results.jsonl (docs/formats.md "Results") as a list of dicts, or, with
    ``as_frame=True``, a pandas DataFrame with one row per run and the nested members flattened
    ("objective.value", "graph.id"): records need nothing beyond Python, the frame needs pandas,
    so the frame is asked for, never guessed. Raises gaus.Error with the program's message when
    the experiment cannot run.
    """
    written = None
    if isinstance(config, dict):
        # JSON is YAML: the dict goes through the same config reader as a file, from a file in
        # the current folder so that its relative paths mean what they mean here.
        name = str(config.get("name", "experiment"))
        written = tempfile.NamedTemporaryFile(
            "w", suffix=".yaml", prefix=f".{name}-", dir=os.getcwd(), delete=False
        )
        with written:
            json.dump({"name": name, **config}, written, indent=1)
        path = written.name
    else:
        path = os.fspath(config)
    try:
        # The config is read here first, by the library's reader: a bad key raises with the
        # message `gaus run` would print, and the output folder comes from it.
        results = os.path.join(
            os.fspath(output) if output is not None else _gaus.experiment_output(path),
            "results.jsonl",
        )
        command = [cli_path(), "run", path, "--progress", "quiet" if quiet else "lines"]
        if output is not None:
            command += ["--output", os.fspath(output)]
        if jobs is not None:
            command += ["--jobs", str(jobs)]
        if resume:
            command.append("--resume")
        if memory_limit is not None:
            command += ["--memory-limit", str(memory_limit)]
        if not report:
            command.append("--no-report")
        finished = subprocess.run(command, capture_output=quiet, text=True)
    finally:
        if written is not None:
            os.unlink(written.name)
    if finished.returncode != 0 or not os.path.exists(results):
        # 130: interrupted (resume=True goes on where it stopped).
        message = (finished.stderr or "").strip().replace("gaus: error: ", "", 1)
        raise _gaus.Error(message or f"gaus run exited with status {finished.returncode}")
    records = _read_records(results)
    if not as_frame:
        return records
    import pandas

    return pandas.json_normalize(records)
