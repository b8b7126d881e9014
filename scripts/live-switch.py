#!/usr/bin/python3
"""The longest gap between frames at the sink of a live stream whose
settings change while it plays (issue 39): 320x240 RGBA at 30 fps,
method separable, then bilateral, mosaic and sat, then alpha-mask on, a
second apart. The caches (PoCL's and the element's, in a new folder) hold
only what a first run of the first method compiled, as after a first
start.

    scripts/live-switch.py [ROUNDS]

Each round prints the longest gap and the frames seen; a gap of 33 ms is
the source's own pace. Run from the top of the repository after a build.
"""
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, os.environ.get("CLBOXBLUR_BUILD_DIR", "build"))

CHILD = r'''
import sys, time
import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst, GLib
Gst.init(None)
switch = sys.argv[1] == "switch"
p = Gst.parse_launch(
    "videotestsrc is-live=true pattern=ball num-buffers=%d "
    "! video/x-raw,format=RGBA,width=320,height=240,framerate=30/1 "
    "! clboxblur name=b radius=4 ! fakesink name=s sync=true "
    "signal-handoffs=true" % (190 if switch else 10))
b, s = p.get_by_name("b"), p.get_by_name("s")
times = []
s.connect("handoff", lambda *a: times.append(time.monotonic()))
changes = [("method", "bilateral"), ("method", "mosaic"), ("method", "sat"),
           ("alpha-mask", True)]
loop = GLib.MainLoop()
def change():
    if changes:
        b.set_property(*changes.pop(0))
        return True
    return False
if switch:
    GLib.timeout_add(1000, change)
bus = p.get_bus()
bus.add_signal_watch()
def on_msg(bus, msg):
    if msg.type in (Gst.MessageType.EOS, Gst.MessageType.ERROR):
        if msg.type == Gst.MessageType.ERROR:
            print("error:", msg.parse_error()[0].message)
        loop.quit()
bus.connect("message", on_msg)
p.set_state(Gst.State.PLAYING)
loop.run()
p.set_state(Gst.State.NULL)
gaps = [b - a for a, b in zip(times, times[1:])]
# the first frame's start-up is not a gap of the stream
gaps = gaps[1:]
if switch:
    print("longest gap %.0f ms, %d frames" % (1000 * max(gaps), len(times)))
'''


# Debian's python3-gi is for Debian's python3
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") \
    else sys.executable


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    env = dict(os.environ)
    env["GST_PLUGIN_PATH"] = os.path.join(BUILD, "gst")
    print("machine: %d cores, %s" % (os.cpu_count(), subprocess.run(
        ["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
        capture_output=True, text=True).stdout.strip()))
    print("commit: %s" % subprocess.run(
        ["git", "-C", TOP, "describe", "--always", "--dirty"],
        capture_output=True, text=True).stdout.strip())
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            for d in ("pocl", "cl", "xdg"):
                os.mkdir(os.path.join(tmp, d))
            env["POCL_CACHE_DIR"] = os.path.join(tmp, "pocl")
            env["CLBOXBLUR_CACHE_DIR"] = os.path.join(tmp, "cl")
            env["XDG_CACHE_HOME"] = os.path.join(tmp, "xdg")
            subprocess.run([PYTHON, "-c", CHILD, "first"], env=env,
                           check=True)
            out = subprocess.run([PYTHON, "-c", CHILD, "switch"],
                                 env=env, check=True, capture_output=True,
                                 text=True).stdout
            print(out.strip())


if __name__ == "__main__":
    main()
