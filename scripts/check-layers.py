#!/usr/bin/env python3
"""The floors of gst/ and gst/clblur/, checked on the objects the build made.

    usage: check-layers.py BUILD_DIR [--graph] [--self-test]
                           [--pretend A B ...]

A file calls another when one of its object's undefined symbols (a
function called or a variable read, through a table or not) is defined in
the other's object: `nm` on every object the build compiled from a file
of gst/ (compile_commands.json names each object's source), which is
exact for calls between files (the compiler cannot inline across them; a
static function or a header's inline one is no file's call). Fails
(exit 1) when

  - files call each other, directly or around a circle: each circle is
    printed as a chain of file names, each call with the symbols it uses;
  - a file calls a file of a floor above its own (FLOORS below, top
    first; docs/design.md, "Layers", writes them down), or a file of its
    own floor where the floor's files are apart (the method files);
  - an object's source is in no floor, or a floor names a file the build
    did not compile (the table is kept with the tree).

--graph prints every call between files, by floor. --pretend A B adds a
call from file A to file B (paths as printed, gst/...), to see the check
fail. --self-test checks the check: it adds, one at a time, calls that
make a circle, a call to a floor above and a call between method files
(SELF_TEST below), and passes only when each is reported as it should
be (the meson test `layers_selftest`). Exit 2: no build folder, no
compile_commands.json, no nm.
Python's standard library only; nm from binutils (or $NM).
"""
import fnmatch
import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict, deque

# Top first. A file may call the files of its own floor and of the floors
# below it; where "apart" is set, not those of its own floor. Patterns
# (fnmatch) are paths from the source root; a file takes the first floor
# that names it.
FLOORS = [
    ("the element", False,
     ["gst/plugin.c", "gst/gstclboxblur.c"]),
    ("the base class", False,
     ["gst/gstclbasefilter.c"]),
    ("the base class's and the element's helpers", False,
     ["gst/gstclboxblurprops.c", "gst/gstclboxblurregion.c",
      "gst/gstclerror.c", "gst/gstclfields.c", "gst/gstclgl.c",
      "gst/gstcllayout.c", "gst/gstclpool.c", "gst/gstclwarm.c",
      "gst/gstclflight.c"]),
    ("the engine: a frame's orchestration", False,
     ["gst/clblur/engineframe.c", "gst/clblur/enginemem.c",
      "gst/clblur/enginerun.c", "gst/clblur/engineregions.c"]),
    ("the engine: plan and dispatch (the variant table)", False,
     ["gst/clblur/engineplan.c", "gst/clblur/enginevariants.c"]),
    ("the engine: the method files", True,
     ["gst/clblur/enginesat.c", "gst/clblur/engineseparable.c",
      "gst/clblur/enginebilateral.c", "gst/clblur/enginemosaic.c",
      "gst/clblur/enginemask.c", "gst/clblur/enginecomposite.c",
      "gst/clblur/enginetemporal.c"]),
    ("the engine: services", False,
     ["gst/clblur/engine.c", "gst/clblur/enginelaunch.c",
      "gst/clblur/engineargs.c", "gst/clblur/engineprofile.c",
      "gst/clblur/engineradii.c"]),
    ("the runtime", False,
     ["gst/clblur/runtime*.c", "gst/clblur/progcache.c",
      "gst/clblur/glshare.c"]),
]


def fail_setup(message):
    print("check-layers: " + message, file=sys.stderr)
    sys.exit(2)


def objects(build, top):
    """{source file (from top): [object paths]} for the files of gst/."""
    path = os.path.join(build, "compile_commands.json")
    try:
        with open(path, encoding="utf-8") as f:
            commands = json.load(f)
    except (OSError, ValueError) as e:
        fail_setup("cannot read %s (%s): give the build folder" % (path, e))
    gst = os.path.join(top, "gst") + os.sep
    found = defaultdict(list)
    for c in commands:
        source = os.path.normpath(os.path.join(c["directory"], c["file"]))
        output = os.path.normpath(os.path.join(c["directory"], c["output"]))
        # gst/'s own targets only (tests/fuzz/ compiles gstcllayout.c again)
        if not source.startswith(gst) or not os.path.relpath(
                output, build).startswith("gst" + os.sep):
            continue
        if not os.path.exists(output):
            fail_setup("%s not built (ninja -C %s)" % (output, build))
        found[os.path.relpath(source, top)].append(output)
    if not found:
        fail_setup("no object of gst/ in %s" % path)
    return found


def symbols(nm, obj):
    """(defined global symbols, undefined symbols) of one object."""
    out = subprocess.run([nm, "-P", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper():        # lower case: local to the object
            defined.add(name)
    return defined, undefined


def call_graph(build, top):
    """{caller: {callee: set of symbols}} between files of gst/."""
    nm = os.environ.get("NM", "nm")
    if shutil.which(nm) is None:
        fail_setup("%s not found (binutils)" % nm)
    owner, wants = {}, {}
    for source, objs in objects(build, top).items():
        wants[source] = set()
        for obj in objs:
            defined, undefined = symbols(nm, obj)
            wants[source] |= undefined
            for s in defined:
                owner[s] = source
    calls = {f: defaultdict(set) for f in wants}
    for f, syms in wants.items():
        for s in syms:
            if s in owner and owner[s] != f:
                calls[f][owner[s]].add(s)
    return calls


def circles(calls):
    """Strongly connected parts of more than one file (Tarjan), each with
    the shortest circle through each of its calls, without repeats."""
    index, low, stack, on, parts = {}, {}, [], set(), []

    def visit(v):
        # iterative: no recursion limit to meet
        work = [(v, iter(sorted(calls[v])))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(calls[w]))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    part.append(w)
                    if w == node:
                        break
                if len(part) > 1:
                    parts.append(sorted(part))

    for v in sorted(calls):
        if v not in index:
            visit(v)

    found = []
    for part in parts:
        inside = set(part)
        seen = set()
        chains = []
        for a in part:
            for b in sorted(calls[a]):
                if b not in inside:
                    continue
                path = shortest(calls, inside, b, a)
                chain = [a] + path      # a -> b ... -> a
                ring = chain[:-1]
                k = ring.index(min(ring))
                key = tuple(ring[k:] + ring[:k])
                if key not in seen:
                    seen.add(key)
                    chains.append(list(key) + [key[0]])
        found.append((part, chains))
    return found


def shortest(calls, inside, start, goal):
    """The shortest path of calls from start to goal within inside."""
    before = {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        if v == goal:
            break
        for w in sorted(calls[v]):
            if w in inside and w not in before:
                before[w] = v
                queue.append(w)
    path = [goal]
    while before[path[-1]] is not None:
        path.append(before[path[-1]])
    return path[::-1]


def floor_of(files):
    """{file: floor's index} and the problems of the table."""
    where, problems = {}, []
    for f in sorted(files):
        for i, (_, _, patterns) in enumerate(FLOORS):
            if any(fnmatch.fnmatchcase(f, p) for p in patterns):
                where[f] = i
                break
        else:
            problems.append("%s is on no floor: add it to FLOORS "
                            "(scripts/check-layers.py) and to docs/design.md"
                            % f)
    for name, _, patterns in FLOORS:
        for p in patterns:
            if not any(fnmatch.fnmatchcase(f, p) for f in files):
                problems.append("floor '%s' names %s, which the build did "
                                "not compile" % (name, p))
    return where, problems


def symbols_text(syms, most=6):
    syms = sorted(syms)
    more = "" if len(syms) <= most else ", ... (%d in all)" % len(syms)
    return ", ".join(syms[:most]) + more


def check(calls, where):
    """[(kind, text)]: kind "circle", "above" (a call to a floor above) or
    "apart" (between files of a floor whose files are apart)."""
    problems = []
    for part, chains in circles(calls):
        problems.append(("circle", "circle of %d files: %s"
                         % (len(part), ", ".join(part))))
        for chain in chains:
            lines = ["  " + " -> ".join(chain)]
            for a, b in zip(chain, chain[1:]):
                lines.append("      %s -> %s: %s" % (
                    a, b, symbols_text(calls[a][b])))
            problems.append(("circle", "\n".join(lines)))
    for f in sorted(where):
        for g in sorted(calls[f]):
            if g not in where:
                continue
            fa, fb = where[f], where[g]
            name, apart, _ = FLOORS[fa]
            if fb < fa:
                problems.append(("above", "%s (%s) calls %s (%s), a floor "
                                 "above: %s" % (f, name, g, FLOORS[fb][0],
                                                symbols_text(calls[f][g]))))
            elif fb == fa and apart:
                problems.append(("apart", "%s calls %s, both %s, which "
                                 "call only floors below: %s"
                                 % (f, g, name, symbols_text(calls[f][g]))))
    return problems


# --self-test: calls added to the build's graph, one at a time, and what
# the check must then report
SELF_TEST = [
    ("gst/clblur/runtime.c", "gst/clblur/engine.c", {"circle", "above"}),
    ("gst/clblur/engineargs.c", "gst/clblur/enginelaunch.c", {"circle"}),
    ("gst/clblur/enginesat.c", "gst/clblur/enginemask.c", {"apart"}),
    ("gst/clblur/enginemask.c", "gst/clblur/enginevariants.c",
     {"above", "circle"}),
    ("gst/clblur/engineradii.c", "gst/clblur/enginecomposite.c", {"above"}),
]


def self_test(calls, where):
    """0 when the check reports each of SELF_TEST's pretended calls as it
    should (and nothing else new), else 1."""
    before = {text for _, text in check(calls, where)}
    status = 0
    for a, b, want in SELF_TEST:
        if a not in calls or b not in calls:
            fail_setup("--self-test: %s or %s is no file of the build"
                       % (a, b))
        if b in calls[a]:
            fail_setup("--self-test: %s calls %s already" % (a, b))
        calls[a][b].add("(pretended)")
        found = [(k, t) for k, t in check(calls, where) if t not in before]
        del calls[a][b]
        got = {k for k, _ in found}
        ok = got == want
        print("check-layers self-test: %s -> %s: %s (%s)"
              % (a, b, "caught" if ok else "MISSED",
                 ", ".join(sorted(got)) or "nothing reported"))
        if not ok:
            for _, t in found:
                print("  " + t)
            status = 1
    return status


def main(argv):
    args = argv[1:]
    flags = {a for a in args if a in ("--graph", "--self-test")}
    args = [a for a in args if a not in flags]
    pretend = []
    while "--pretend" in args:
        i = args.index("--pretend")
        if i + 2 >= len(args):
            fail_setup("--pretend takes two files")
        pretend.append((args[i + 1], args[i + 2]))
        del args[i:i + 3]
    if len(args) != 1 or args[0].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    build = os.path.abspath(args[0])
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isdir(build):
        fail_setup("no build folder %s" % build)

    calls = call_graph(build, top)
    for a, b in pretend:
        if a not in calls or b not in calls:
            fail_setup("--pretend: %s or %s is no file of the build" % (a, b))
        calls[a][b].add("(pretended)")
    where, problems = floor_of(calls)
    if "--self-test" in flags:
        return self_test(calls, where)

    if "--graph" in flags:
        for i, (name, _, _) in enumerate(FLOORS):
            print("floor %d: %s" % (len(FLOORS) - i, name))
            for f in sorted(x for x in where if where[x] == i):
                for g in sorted(calls[f]):
                    print("  %s -> %s (%s)" % (f, g,
                                               symbols_text(calls[f][g], 3)))

    problems += [text for _, text in check(calls, where)]
    n_calls = sum(len(c) for c in calls.values())
    if problems:
        for p in problems:
            print("check-layers: " + p)
        print("check-layers: FAILED (%d files, %d calls between them)"
              % (len(calls), n_calls))
        return 1
    print("check-layers: %d files of gst/ on %d floors, %d calls between "
          "files, no circle, every call to its own floor or below"
          % (len(calls), len(FLOORS), n_calls))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
