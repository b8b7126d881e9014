#!/usr/bin/python3
# method=sat against method=separable in the engine (issue 24's target:
# sat at most 1.3x separable where sat_ring's ring of 2 r + 2 table rows
# fits a core's L2 cache, at most 2x beyond), before and after a change.
#
#   scripts/sat-separable.py [--rounds N] BUILD [BASE_BUILD]
#   e.g. scripts/sat-separable.py --rounds 4 build-rel ../old/build-rel
#
# Each round runs BUILD's tools/clboxblur-bench once (and BASE_BUILD's
# right after it, the builds alternating round by round) with
#   --sat --separable --sizes 1920x1080,3840x2160
#   --formats RGBA,RGB,GRAY8,I420,NV12 --radii 2,15,50 -i 20
# (a format's sat rows, then its separable rows, in one process), takes
# sat / separable of each case in each run and prints the median over the
# rounds, with the ring's size (the widest plane's, 4-byte entries, rows
# padded by 2 r + 1 pixels as sat_ring pads dense 8-bit rows) against
# the L2 cache of cpu0 (/sys/devices/system/cpu/cpu0/cache) and the
# target that applies; the load average before and after.
import argparse
import glob
import os
import re
import statistics
import subprocess
import time

ARGS = ["--sat", "--separable", "--sizes", "1920x1080,3840x2160",
        "--formats", "RGBA,RGB,GRAY8,I420,NV12", "--radii", "2,15,50",
        "-i", "20"]
# each format's planes: (width divisor, channels)
PLANES = {"RGBA": [(1, 4)], "RGB": [(1, 3)], "GRAY8": [(1, 1)],
          "I420": [(1, 1), (2, 1)], "NV12": [(1, 1), (2, 2)]}


def l2_bytes():
    for d in sorted(glob.glob("/sys/devices/system/cpu/cpu0/cache/index*")):
        with open(d + "/level") as f:
            if f.read().strip() != "2":
                continue
        with open(d + "/size") as f:
            s = f.read().strip()
        mult = {"K": 1024, "M": 1024 * 1024}.get(s[-1], 1)
        return int(s.rstrip("KM")) * mult
    return None


def run(build):
    out = subprocess.run([os.path.join(build, "tools", "clboxblur-bench")]
                         + ARGS, check=True, capture_output=True,
                         text=True).stdout
    ms = {}
    for line in out.splitlines():
        m = re.match(r"(sat|separable)\s+(\d+x\d+)\s+(\S+)\s+(\d+)\s+([\d.]+)",
                     line)
        if m:
            ms[(m[2], m[3], int(m[4]), m[1])] = float(m[5])
    return {k[:3]: v / ms[k[:3] + ("separable",)]
            for k, v in ms.items() if k[3] == "sat"}


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("build")
    p.add_argument("base", nargs="?")
    a = p.parse_args()
    builds = [a.build] + ([a.base] if a.base else [])
    ratios = [{} for _ in builds]
    l2 = l2_bytes()
    print("# scripts/sat-separable.py --rounds %d %s; %s; load average %s "
          "(1, 5, 15 min) at the start"
          % (a.rounds, " ".join(builds),
             time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load()))
    print("# clboxblur-bench " + " ".join(ARGS) + "; the builds alternating "
          "round by round; sat/sep: the median over the rounds of each "
          "run's ratio; L2 %d KiB a core" % (l2 // 1024))
    for _ in range(a.rounds):
        for i, b in enumerate(builds):
            for k, v in run(b).items():
                ratios[i].setdefault(k, []).append(v)
    head = "%-10s %-6s %3s %8s %4s %7s" % ("size", "format", "r", "ring KiB",
                                          "L2", "target")
    head += "".join(" %12s" % ("sat/sep" if i == 0 else "base sat/sep")
                    for i in range(len(builds)))
    print(head)
    for k in ratios[0]:
        w, r = int(k[0].split("x")[0]), k[2]
        ring = max((2 * r + 2) * ((w // d) * c + (2 * r + 1) * c) * 4
                   for d, c in PLANES[k[1]])
        fits = ring <= l2
        line = "%-10s %-6s %3d %8.0f %4s %7s" % (
            k[0], k[1], r, ring / 1024, "fits" if fits else "over",
            "<=1.3x" if fits else "<=2x")
        line += "".join(" %11.2fx" % statistics.median(x[k]) for x in ratios)
        print(line)
    print("# load average %s at the end" % load())


if __name__ == "__main__":
    main()
