"""Compares the two sides of an identity check (identity-check.sh): for every run of each
experiment, its status, value and bound (results.jsonl, format gaus-result-1 or -2), then the
schedules byte for byte, then the deterministic GauS runs' schedules.

    python3 scripts/identity/compare.py BEFORE_DIR AFTER_DIR
"""
import filecmp
import json
import pathlib
import sys


def outcomes(results):
    """run id -> (status, value, lower bound) of a results.jsonl."""
    table = {}
    for number, line in enumerate(results.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            sys.exit(f"{results}:{number}: not a JSON record ({error})")
        if record.get("format") == "gaus-result-1":
            bound = record.get("lower_bound")
        else:
            bound = (record.get("bounds") or {}).get("lower_bound")
        value = (record.get("objective") or {}).get("value")
        table[record["run_id"]] = (record["status"], value, bound)
    return table


def compare_files(before, after, pattern):
    names = sorted(path.name for path in before.glob(pattern))
    same = [n for n in names if (after / n).exists() and filecmp.cmp(before / n, after / n, shallow=False)]
    return names, same


def main():
    before, after = map(pathlib.Path, sys.argv[1:3])
    for experiment in ("kernels", "heurigym", "proofs"):
        results_before = before / experiment / "results.jsonl"
        results_after = after / experiment / "results.jsonl"
        if not results_before.exists() or not results_after.exists():
            print(f"{experiment}: missing ({results_before} or {results_after})")
            continue
        was, now = outcomes(results_before), outcomes(results_after)
        same = [run for run in was if now.get(run) == was[run]]
        print(f"{experiment}: {len(was)} runs before, {len(now)} after, {len(same)} with the same status, value and bound")
        for run in was:
            if run in now and now[run] != was[run]:
                print(f"   differs: {run} {was[run]} -> {now[run]}")
        names, identical = compare_files(before / experiment / "schedules", after / experiment / "schedules", "*")
        print(f"   schedules: {len(identical)} of {len(names)} byte-identical")
        for name in sorted(set(names) - set(identical)):
            print(f"   schedule differs: {name}")
    names, identical = compare_files(before / "gaus", after / "gaus", "*.schedule.json")
    print(f"gaus runs: {len(identical)} of {len(names)} schedules byte-identical")
    for name in sorted(set(names) - set(identical)):
        print(f"   differs: {name}")


if __name__ == "__main__":
    main()
