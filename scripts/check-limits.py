#!/usr/bin/env python3
"""The size limits of issue 39, measured: kernels/ at most 3,400 lines of
code (blank and comment lines not counted), no file over 900 lines and no
function over 120 lines (a multi-line macro's body counts as a function)
in gst/, tools/ and kernels/. Prints what is over and the kernels' code
lines; exits 1 when a limit does not hold.

    scripts/check-limits.py [--report]

--report prints the counts and always exits 0 (for reading the state of
the tree while the limits do not hold yet).
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ("gst", "tools", "kernels")
EXTS = (".c", ".h", ".cl")
MAX_FILE, MAX_FUNCTION, MAX_KERNEL_CODE = 900, 120, 3400


def code_lines(text):
    """Lines that hold something other than blanks and comments."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return sum(1 for line in text.split("\n") if line.strip())


def functions(lines):
    """(name, first line, length) of each function body (GNU style: the
    body's braces at column 0) and each macro continued over lines."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\s*#\s*define\s+(\w+)", line)
        if m and line.rstrip().endswith("\\"):
            j = i
            while j < len(lines) and lines[j].rstrip().endswith("\\"):
                j += 1
            out.append((m.group(1) + " (macro)", i + 1, j - i + 1))
            i = j + 1
            continue
        if line.startswith("{"):
            # the name: the last identifier before '(' in the lines above
            name = "?"
            for k in range(i - 1, max(i - 16, -1), -1):
                n = re.match(r"^(?:[\w\s\*]*\s)?\**(\w+)\s*\(", lines[k])
                if n:
                    name = n.group(1)
                    break
            j = i + 1
            while j < len(lines) and not lines[j].startswith("}"):
                j += 1
            out.append((name, i + 1, j - i + 1))
            i = j + 1
            continue
        i += 1
    return out


def main():
    report = "--report" in sys.argv[1:]
    over = []
    kernel_code = 0
    for d in DIRS:
        for root, _, names in os.walk(os.path.join(TOP, d)):
            for name in sorted(names):
                if not name.endswith(EXTS):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, TOP)
                text = open(path, encoding="utf-8").read()
                lines = text.split("\n")
                if d == "kernels":
                    kernel_code += code_lines(text)
                if len(lines) - 1 > MAX_FILE:
                    over.append("%s: %d lines (at most %d)"
                                % (rel, len(lines) - 1, MAX_FILE))
                for fn, first, length in functions(lines):
                    if length > MAX_FUNCTION:
                        over.append("%s:%d: %s: %d lines (at most %d)"
                                    % (rel, first, fn, length, MAX_FUNCTION))
    if kernel_code > MAX_KERNEL_CODE:
        over.append("kernels/: %d lines of code (at most %d)"
                    % (kernel_code, MAX_KERNEL_CODE))
    for line in over:
        print(line)
    print("kernels/: %d lines of code; %d limit(s) exceeded"
          % (kernel_code, len(over)))
    sys.exit(0 if report or not over else 1)


if __name__ == "__main__":
    main()
