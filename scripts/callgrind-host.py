#!/usr/bin/env python3
"""The host side's instructions in a callgrind profile.

Reads a callgrind output file (one event, Ir) and prints the instructions
executed by the host side of clboxblur: the self cost of every function in
the host objects (the plugin, or the benchmark that links the engine, and
the GLib and GStreamer libraries they call), plus the inclusive cost of
every call from a host object into another object that is not the OpenCL
runtime (the C library, the dynamic loader: malloc, memcpy and the like
are the host's work when the host asks for them), except code callgrind
cannot name (the vDSO, PLT stubs). The OpenCL runtime (the
ICD loader, PoCL, the kernels it compiled, LLVM) is left out, and so is
what it calls: that is the device's work, counted on Oclgrind by
scripts/work-guard.sh.

    callgrind-host.py FILE          the count
    callgrind-host.py -v FILE       the count, then each object's share
"""
import re
import sys
from collections import Counter

HOST = re.compile(r"(libgstclboxblur\.so|clboxblur-bench|libglib-2\.0|"
                  r"libgobject-2\.0|libgstreamer-1\.0|libgstbase-1\.0|"
                  r"libgstvideo-1\.0|libgstgl-1\.0)")


def is_runtime(obj):
    # PoCL's compiled kernels are shared objects in its cache, named after
    # the kernel; everything else that is not a host object is a library
    # the host may call (libc, ld.so) or the runtime.
    return bool(re.search(r"(libOpenCL|libpocl|/pocl/|kcache|libLLVM|"
                          r"liboclgrind|libclang)", obj or "")) \
        or (obj is not None and "/PL/" in obj)


def parse(path):
    names = {"ob": {}, "fl": {}, "fn": {}}

    def name(kind, rest):
        m = re.match(r"\((\d+)\)(?:\s+(.*))?$", rest)
        if not m:
            return rest
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
            return m.group(2)
        return names[kind][m.group(1)]

    self_cost = Counter()
    calls_out = Counter()
    ob = cob = None
    in_call = False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("ob="):
                ob = name("ob", line[3:])
                cob = None
            elif line.startswith("cob="):
                cob = name("ob", line[4:])
            elif line.startswith("cfn="):
                name("fn", line[4:])
            elif line.startswith(("cfi=", "cfl=")):
                name("fl", line[4:])
            elif line.startswith("fn="):
                name("fn", line[3:])
                cob = None
            elif line.startswith(("fl=", "fi=", "fe=")):
                name("fl", line[3:])
            elif line.startswith("calls="):
                in_call = True
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                parts = line.split()
                if len(parts) < 2:
                    continue
                cost = int(parts[1])
                if in_call:
                    # the inclusive cost of a call from ob into cob (cob
                    # unset: the same object)
                    calls_out[(ob, cob if cob is not None else ob)] += cost
                    in_call = False
                    cob = None
                else:
                    self_cost[ob] += cost
    return self_cost, calls_out


def main():
    args = sys.argv[1:]
    verbose = args[:1] == ["-v"]
    if verbose:
        args = args[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    self_cost, calls_out = parse(args[0])
    share = Counter()
    for ob, cost in self_cost.items():
        if ob and HOST.search(ob):
            share[ob] += cost
    for (ob, cob), cost in calls_out.items():
        # "???": code callgrind cannot name (the vDSO, PLT stubs): left
        # out, its count moves from run to run
        if ob and HOST.search(ob) and cob and cob != "???" \
                and not HOST.search(cob) and not is_runtime(cob):
            share[cob + " (called from the host)"] += cost
    print(sum(share.values()))
    if verbose:
        for ob, cost in share.most_common():
            print(f"{cost:>12}  {ob}")


if __name__ == "__main__":
    main()
