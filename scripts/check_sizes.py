#!/usr/bin/env python3
"""The size limits of the library's code: no file over 600 lines, no function over 120.

Every .cpp and .hpp under src/ and include/ is held to both (docs/contributing.md, "Size
limits"). A file may pass the line limit only if it is listed in LONG_FILES below and its opening
comment says why it is one file ("Why one file"). A function's length runs from the line of its
opening brace to the line of its closing one; a lambda counts as part of the function it is
written in, and a lambda at namespace scope as a function of its own. The scan strips comments,
strings and character literals and follows braces; it does not parse C++, so a brace that opens
a function is recognized by what precedes it (a closing parenthesis, const, override, noexcept,
mutable or a trailing return type) and not a control statement.

    scripts/check_sizes.py          # what is over a limit, one a line; exit 1 if anything is
    scripts/check_sizes.py --top 10 # also the ten longest files and functions
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 120
# Files allowed past MAX_FILE_LINES; each must say why in its opening comment.
LONG_FILES = {"include/gaus/codegen/protocol_runtime.hpp"}
LONG_FILE_REASON = "Why one file"

CONTROL = re.compile(r"\b(if|for|while|switch|catch)\s*\([^{};]*\)\s*$")
OPENS_FUNCTION = re.compile(r"(\)|\bconst|\boverride|\bnoexcept|\bmutable|->\s*[\w:<>,\s*&]+)\s*$")


def library_files():
    for top in ("src", "include"):
        for directory, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith((".cpp", ".hpp")):
                    yield os.path.relpath(os.path.join(directory, name), ROOT)


def strip_code(text):
    """The text with comments, strings and character literals emptied, lines kept."""
    keep_lines = lambda match: "\n" * match.group(0).count("\n")
    text = re.sub(r'R"(\w*)\((?:.|\n)*?\)\1"', keep_lines, text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", keep_lines, text)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(?:\\.|[^'\\\n])*'", "''", text)


def function_lengths(text):
    """(first line, lines) of every outermost function body in `text`."""
    code = strip_code(text)
    found = []
    stack = []  # (line of the brace, whether it opens a function)
    line = 1
    for index, char in enumerate(code):
        if char == "\n":
            line += 1
        elif char == "{":
            before = code[max(0, index - 300):index].rstrip()
            opens = bool(OPENS_FUNCTION.search(before)) and not CONTROL.search(before)
            stack.append((line, opens))
        elif char == "}" and stack:
            start, opens = stack.pop()
            if opens and not any(outer for _, outer in stack):
                found.append((start, line - start + 1))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=0, help="also list the N longest of each")
    args = parser.parse_args()
    problems = []
    files = []
    functions = []
    for path in library_files():
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        lines = text.count("\n")
        files.append((lines, path))
        if path in LONG_FILES:
            if LONG_FILE_REASON not in text[:4000]:
                problems.append(f"{path}: over {MAX_FILE_LINES} lines by exception, but its "
                                f"opening comment does not say why ('{LONG_FILE_REASON}')")
        elif lines > MAX_FILE_LINES:
            problems.append(f"{path}: {lines} lines (limit {MAX_FILE_LINES})")
        for start, length in function_lengths(text):
            functions.append((length, f"{path}:{start}"))
            if length > MAX_FUNCTION_LINES:
                problems.append(f"{path}:{start}: a function of {length} lines "
                                f"(limit {MAX_FUNCTION_LINES})")
    for problem in problems:
        print(problem)
    if args.top:
        print(f"\nlongest files:")
        for lines, path in sorted(files, reverse=True)[:args.top]:
            print(f"  {lines:5} {path}")
        print(f"longest functions:")
        for length, where in sorted(functions, reverse=True)[:args.top]:
            print(f"  {length:5} {where}")
    print(f"{len(files)} files, {len(functions)} functions; {len(problems)} over a limit")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
