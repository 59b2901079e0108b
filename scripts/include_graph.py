#!/usr/bin/env python3
"""The graph of folders that the #include lines draw, with its arrows counted.

A node is a folder that holds code: a module (src/<m> and include/gaus/<m> together), an app
(apps/<app>, and each folder under it), the Python bindings (python/src), a test folder (tests/unit/<m>, tests/support, ...). An
arrow A -> B means some file of A includes a header of B. Only the repository's own headers
count; system and library headers are left out.

A module's private headers are those in src/<m> (its public ones are in include/gaus/<m>). Only
the module itself and its unit tests (tests/unit/<m>) may include them: an arrow from anywhere
else into them is listed as a private include, and --check fails on one.

    scripts/include_graph.py            # arrows, one a line, and the counts
    scripts/include_graph.py --dot      # the graph for Graphviz
    scripts/include_graph.py --check    # exit 1 on a cycle, an arrow between or into apps, or a
                                        # private include
"""
import argparse
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE = (".cpp", ".hpp", ".h", ".cpp.in", ".hpp.in", ".cu")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def folder_of(path):
    """The node a repository file belongs to."""
    parts = path.split("/")
    if parts[0] == "include" and len(parts) > 2 and parts[1] == "gaus":
        return "src/" + parts[2]
    if parts[0] == "src" and len(parts) > 2:
        return "src/" + parts[1]
    if parts[0] == "apps" and len(parts) > 2:
        return "/".join(parts[:-1])
    if parts[0] == "python" and len(parts) > 2:  # the Python bindings, python/src
        return "/".join(parts[:2])
    if parts[0] == "tests" and len(parts) > 2:
        return "/".join(parts[:3]) if parts[1] == "unit" and len(parts) > 3 else "/".join(parts[:2])
    return None


def code_files():
    for top in ("src", "include", "apps", "tests", "python"):
        for directory, _, names in os.walk(os.path.join(ROOT, top)):
            if "/tests/data" in directory or "/tests/fuzz/corpus" in directory:
                continue
            for name in names:
                if name.endswith(CODE):
                    yield os.path.relpath(os.path.join(directory, name), ROOT)


def resolve(including, spelled, files):
    """The repository file an include names, or None for a library header."""
    if spelled.startswith("gaus/"):
        candidate = "include/" + spelled
        return candidate if candidate in files else None
    local = os.path.normpath(os.path.join(os.path.dirname(including), spelled))
    if local in files:
        return local
    # Include directories (tests/support, a module's src folder): the one file whose path ends so.
    matches = [f for f in files if f.endswith("/" + spelled)]
    return matches[0] if len(matches) == 1 else None


def private_owner(path):
    """The module whose private header `path` is, or None for a public or non-module file."""
    parts = path.split("/")
    return parts[1] if parts[0] == "src" and len(parts) > 2 else None


def may_include_privately(source, module):
    """Whether folder `source` may include module `module`'s private headers."""
    return source in (f"src/{module}", f"tests/unit/{module}")


def arrows():
    """The arrows between folders, and the private includes: (from, to) -> including files."""
    files = set(code_files())
    edges = collections.defaultdict(set)  # (from, to) -> including files
    private = collections.defaultdict(set)
    for path in sorted(files):
        source = folder_of(path)
        if source is None:
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as text:
            for line in text:
                match = INCLUDE.match(line)
                if not match:
                    continue
                target_file = resolve(path, match.group(2), files)
                target = folder_of(target_file) if target_file else None
                if target and target != source:
                    edges[(source, target)].add(path)
                owner = private_owner(target_file) if target_file else None
                if owner and not may_include_privately(source, owner):
                    private[(source, target)].add(f"{path} -> {target_file}")
    return edges, private


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dot", action="store_true", help="print the graph for Graphviz")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 on a cycle, an app arrow or a private include")
    args = parser.parse_args()
    edges, private = arrows()
    if args.dot:
        print("digraph includes {\n  rankdir=LR;")
        for source, target in sorted(edges):
            print(f'  "{source}" -> "{target}";')
        print("}")
        return 0
    for (source, target), including in sorted(edges.items()):
        print(f"{source} -> {target}  ({len(including)} files)")
    nodes = {n for edge in edges for n in edge}
    app_to_app = [
        e for e in edges
        if e[0].startswith("apps/") and e[1].startswith("apps/")
        and e[0].split("/")[1] != e[1].split("/")[1]
    ]
    into_apps = [e for e in edges if e[1].startswith("apps/") and not e[0].startswith("apps/")]
    cycles = [e for e in edges if (e[1], e[0]) in edges and e[0] < e[1]]
    print(f"\n{len(nodes)} folders, {len(edges)} arrows; "
          f"{len(app_to_app)} from one app into another, {len(into_apps)} into apps/ from "
          f"outside, {len(cycles)} pairs of folders that include each other")
    for source, target in cycles:
        print(f"  cycle: {source} <-> {target}")
    print(f"{len(private)} arrows into another module's private headers (src/<module>/ from "
          f"outside the module and its unit tests)")
    for (source, target), including in sorted(private.items()):
        print(f"  private: {source} -> {target}")
        for line in sorted(including):
            print(f"    {line}")
    if args.check and (app_to_app or into_apps or cycles or private):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
