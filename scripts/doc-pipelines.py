#!/usr/bin/python3
# Runs the gst-launch-1.0 pipelines of the docs (the meson test
# doc_pipelines): README.md, docs/*.md and docs/reference-examples.txt
# (docs/clboxblur.md is generated from the latter and not read again).
#
#   scripts/doc-pipelines.py [--plugin-path build/gst] [--workdir DIR]
#                            [--only FILE:LINE] [--list] [--keep]
#
# Every gst-launch-1.0 pipeline carries a marker that says whether it runs
# here, how to substitute what this machine lacks and what to check; the
# markers decide, nothing is guessed from the shell text. In Markdown an
# HTML comment before the fenced block, one for each pipeline of the block,
# in order:
#
#   <!-- pipeline: run; camera smpte 800x600; sink video/x-raw; buffers 5; check blurred -->
#
# in reference-examples.txt a comment line (which scripts/gen-reference.py
# skips) before the launch line:
#
#   # pipeline: run; sink video/x-raw; buffers 5; check blurred
#
# Clauses, separated by ';':
#   run | skip: REASON   first: run it here, or why it cannot be run here
#   camera PATTERN WxH   v4l2src (with its properties) becomes a live source
#                        of that size: videotestsrc is-live=true
#                        pattern=PATTERN, or PATTERN `face`: the photograph
#                        docs/images/astronaut.jpg (a face at 168,63 88x88
#                        in 480x480), scaled to WxH, through imagefreeze
#                        is-live=true
#   sink CAPS            each window or device sink (autovideosink,
#                        glimagesink, xvimagesink, ximagesink, v4l2sink)
#                        becomes a capsfilter of CAPS then fakesink
#   buffers N            num-buffers=N on every test source (videotestsrc,
#                        gltestsrc, the camera's stand-in)
#   input FILE [face]    FILE (in.webm) is made first: 10 frames of VP8 in
#                        WebM, 320x240 smpte, or with `face` the
#                        photograph at 480x480
#   display              needs an X display (a virtual one through
#                        scripts/with-display.sh when DISPLAY is unset)
#   gl                   the frames at clboxblur are GL memory (the taps
#                        download them)
#   allow NAME...        lines that GStreamer or OpenCV on Debian 12
#                        print for a pipeline that works, each matched
#                        narrowly (ALLOWANCES below: facedetect-cascades,
#                        filesrc-activation, matroska-cues,
#                        vp8enc-first-pts); no other is let through
#   check WHAT           what the frames must show; several `check`s may
#                        follow one another. The frames going into the first
#                        clboxblur and out of the last are taken (tee, then
#                        RGB through videoconvert without chroma resampling,
#                        pnmenc, filesink) and the first and last compared,
#                        output against input (R, G, B; alpha is not seen):
#     runs                 nothing but a clean run to EOS
#     blurred [RECT]       the squared gradients in RECT (whole frame) fall
#                          below 0.8 of the input's
#     blurred outside RECT the same over the frame except RECT
#     unchanged [RECT]     every byte in RECT (whole frame) as it came
#     unchanged outside RECT
#     changed [RECT]       at least 0.1% of RECT's pixels differ
#     pixelated RECT B     each block of BxB (on the frame's grid) inside RECT
#                          one colour, where the input's was not
#     color RECT 0xRRGGBB  every pixel of RECT that colour (+-8: through a
#                          camera's YUV, black may come out as 5,5,5)
#   RECT is X,Y,W,H in pixels of the frame at clboxblur.
#
# A `location=` naming a file of the repository (docs/images/...) is
# taken from the repository's top, where the docs say to run those.
#
# Each pipeline runs in a folder of its own under --workdir, with
# GST_DEBUG=*:2, under a time limit of 120 s (a cold start compiles the
# kernels); it passes when gst-launch-1.0 exits 0 after EOS, prints no
# WARN, WARNING, ERROR or CRITICAL (stdout and stderr) and every check
# holds. The test fails when any fails, when a gst-launch-1.0 line lacks a
# marker or a marker is malformed, and when fewer pipelines ran than are
# marked `run`.
#
# The interpreter is Debian's (/usr/bin/python3); nothing beyond the
# standard library is used here.
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME_LIMIT = 120
WINDOW_SINKS = {"autovideosink", "glimagesink", "xvimagesink", "ximagesink",
                "v4l2sink", "waylandsink", "kmssink"}
TEST_SOURCES = {"videotestsrc", "gltestsrc", "audiotestsrc"}
FACE_PICTURE = os.path.join(TOP, "docs", "images", "astronaut.jpg")
BAD_WORDS = re.compile(r"\b(WARN|WARNING|ERROR|CRITICAL)\b")
# What `allow NAME` lets through: lines GStreamer 1.22 and OpenCV as
# Debian 12 ships them print for pipelines that work, each matched
# narrowly. Any other WARN, WARNING, ERROR or CRITICAL line fails the run.
ALLOWANCES = {
    # facedetect loads its default eye, nose and mouth cascades when it is
    # made, before any property is set; opencv-data does not ship those
    # three files (OpenCV's "Can't open file" and facedetect's "Invalid
    # profile file" for each)
    "facedetect-cascades": re.compile(
        r"haarcascade_mcs_(nose|mouth|eyepair_small)\.xml"),
    # decodebin's typefind takes filesrc into pull mode after its start
    "filesrc-activation": re.compile(
        r"gst_base_src_start_complete:<filesrc\d+> pad not activated yet$"),
    # webmmux writes the Cues after the clusters; matroskademux peeks at
    # them while it looks for the next cluster
    "matroska-cues": re.compile(
        r"matroskademux\d+> Unknown ebml id 0x1c53bb6b \(possibly garbage\), "
        r"bailing out$"),
    # vp8enc 1.22.0 compares the first frame's pts with its initial 0
    "vp8enc-first-pts": re.compile(
        r"<vp8enc\d+> decreasing pts 0:00:00\.000000000 previous buffer was "
        r"0:00:00\.000000000 enforce increasing pts$"),
}


class MarkerError(Exception):
    pass


# ---------------------------------------------------------------- reading

class Pipeline:
    def __init__(self, where, text, marker, marker_where):
        self.where = where            # "README.md:77"
        self.text = text              # the command, continuations joined
        self.marker = marker          # the marker's clauses, unparsed
        self.marker_where = marker_where
        self.spec = None


def join_continued(lines, i, strip_dollar=False):
    """The command starting at lines[i], backslash continuations joined;
    returns (text, index after it)."""
    parts = []
    while i < len(lines):
        line = lines[i]
        if strip_dollar and line.startswith("$ "):
            line = line[2:]
        i += 1
        if line.rstrip().endswith("\\"):
            parts.append(line.rstrip()[:-1])
            continue
        parts.append(line)
        break
    return " ".join(p.strip() for p in parts), i


def is_launch(text):
    words = text.split()
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words.pop(0)
    return bool(words) and words[0] == "gst-launch-1.0"


MD_MARKER = re.compile(r"^\s*<!--\s*pipeline:\s*(.*?)\s*-->\s*$")
TXT_MARKER = re.compile(r"^#\s*pipeline:\s*(.*?)\s*$")


def read_markdown(path, problems):
    rel = os.path.relpath(path, TOP)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, pending, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        m = MD_MARKER.match(line)
        if m:
            pending.append((m.group(1), "%s:%d" % (rel, i + 1)))
            i += 1
            continue
        fence = re.match(r"^(\s*)(```+|~~~+)", line)
        if fence:
            close = fence.group(2)
            i += 1
            found = []
            while i < len(lines) and not lines[i].strip().startswith(close):
                if lines[i].strip().startswith("#") or not lines[i].strip():
                    i += 1
                    continue
                start = i
                text, i = join_continued(lines, i)
                if is_launch(text):
                    found.append(("%s:%d" % (rel, start + 1), text))
            i += 1
            if len(pending) != len(found):
                problems.append(
                    "%s: %d gst-launch-1.0 pipeline(s) in the block, %d "
                    "marker(s) before it (one `<!-- pipeline: ... -->` a "
                    "pipeline, in order)" % (
                        "%s:%d" % (rel, i) if not found else found[0][0],
                        len(found), len(pending)))
            for (where, text), (mk, mw) in zip(found, pending):
                out.append(Pipeline(where, text, mk, mw))
            pending = []
            continue
        if pending and line.strip():
            problems.append("%s: marker not followed by a code block"
                            % pending[0][1])
            pending = []
        # a gst-launch-1.0 command outside a code block is not a pipeline
        # to copy; inline code in prose is not read
        i += 1
    if pending:
        problems.append("%s: marker not followed by a code block"
                        % pending[0][1])
    return out


def read_examples(path, problems):
    rel = os.path.relpath(path, TOP)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, pending, i = [], None, 0
    while i < len(lines):
        line = lines[i]
        m = TXT_MARKER.match(line)
        if m:
            if pending:
                problems.append("%s: two markers for one launch line"
                                % pending[1])
            pending = (m.group(1), "%s:%d" % (rel, i + 1))
            i += 1
            continue
        if line.startswith("$ "):
            start = i
            text, i = join_continued(lines, i, strip_dollar=True)
            if is_launch(text):
                where = "%s:%d" % (rel, start + 1)
                if not pending:
                    problems.append("%s: launch line without a `# pipeline: "
                                    "...` marker before it" % where)
                else:
                    out.append(Pipeline(where, text, *pending))
            pending = None
            continue
        if pending and line.strip():
            problems.append("%s: marker not followed by a launch line"
                            % pending[1])
            pending = None
        i += 1
    return out


def doc_files():
    files = [os.path.join(TOP, "README.md")]
    for p in sorted(glob.glob(os.path.join(TOP, "docs", "**", "*.md"),
                              recursive=True)):
        if os.path.basename(p) == "clboxblur.md":
            continue    # generated from reference-examples.txt
        files.append(p)
    return files


# ---------------------------------------------------------------- markers

RECT = r"(\d+),(\d+),(\d+),(\d+)"


def parse_rect(s):
    m = re.fullmatch(RECT, s)
    if not m:
        raise MarkerError("not a rectangle X,Y,W,H: %r" % s)
    return tuple(int(x) for x in m.groups())


def parse_check(words):
    what = words[0]
    rest = words[1:]
    if what == "runs" and not rest:
        return ("runs",)
    if what in ("blurred", "unchanged", "changed"):
        if not rest:
            return (what, False, None)
        if rest and rest[0] == "outside" and len(rest) == 2:
            return (what, True, parse_rect(rest[1]))
        if len(rest) == 1:
            return (what, False, parse_rect(rest[0]))
    if what == "pixelated" and len(rest) == 2:
        return ("pixelated", parse_rect(rest[0]), int(rest[1]))
    if what == "color" and len(rest) == 2 and re.fullmatch(
            r"0x[0-9a-fA-F]{6}", rest[1]):
        return ("color", parse_rect(rest[0]), int(rest[1], 16))
    raise MarkerError("unknown check: %r" % " ".join(words))


def parse_marker(text):
    clauses = [c.strip() for c in text.split(";")]
    spec = {"run": False, "skip": None, "camera": None, "sink": None,
            "buffers": None, "input": [], "display": False, "gl": False,
            "allow": set(), "checks": []}
    if not clauses or not clauses[0]:
        raise MarkerError("empty marker")
    first = clauses[0]
    if first == "run":
        spec["run"] = True
    elif first.startswith("skip:") and first[5:].strip():
        spec["skip"] = first[5:].strip()
        return spec
    else:
        raise MarkerError("the first clause is `run` or `skip: REASON`, "
                          "not %r" % first)
    for c in clauses[1:]:
        words = c.split()
        if not words:
            raise MarkerError("empty clause")
        key, rest = words[0], words[1:]
        if key == "camera" and len(rest) == 2 and re.fullmatch(
                r"\d+x\d+", rest[1]):
            w, h = (int(x) for x in rest[1].split("x"))
            spec["camera"] = (rest[0], w, h)
        elif key == "sink" and len(rest) == 1:
            spec["sink"] = rest[0]
        elif key == "buffers" and len(rest) == 1 and rest[0].isdigit():
            spec["buffers"] = int(rest[0])
        elif key == "input" and len(rest) in (1, 2) and (
                len(rest) == 1 or rest[1] == "face"):
            spec["input"].append((rest[0], len(rest) == 2))
        elif key == "display" and not rest:
            spec["display"] = True
        elif key == "gl" and not rest:
            spec["gl"] = True
        elif key == "allow" and rest and all(r in ALLOWANCES for r in rest):
            spec["allow"].update(rest)
        elif key == "check" and rest:
            spec["checks"].append(parse_check(rest))
        else:
            raise MarkerError("unknown clause %r" % c)
    if not spec["checks"]:
        raise MarkerError("a pipeline that runs needs at least one check "
                          "(`check runs`: a clean run only)")
    return spec


# ---------------------------------------------------------- substitution

PROP = re.compile(r"^[a-z][a-z0-9-]*=")


def elements(tokens):
    """[(start, end, name)]: each element or pad reference with its
    properties, in token order."""
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t == "!" or PROP.match(t):
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and tokens[j] != "!" and PROP.match(tokens[j]):
            j += 1
        out.append((i, j, t))
        i = j
    return out


def set_prop(tokens, start, end, key, value):
    for k in range(start + 1, end):
        if tokens[k].startswith(key + "="):
            tokens[k] = "%s=%s" % (key, value)
            return tokens
    tokens.insert(start + 1, "%s=%s" % (key, value))
    return tokens


def face_raw(w, h, workdir, env):
    """The photograph as one raw RGB frame of WxH, made once (the
    camera's stand-in reads it: jpegdec after filesrc warns of a buffer
    without a segment, decodebin of its pull mode)."""
    path = os.path.join(workdir, "face-%dx%d.rgb" % (w, h))
    if not os.path.exists(path):
        cmd = ["gst-launch-1.0", "-q", "filesrc", "location=" + FACE_PICTURE,
               "!", "jpegdec", "!", "videoconvert", "!", "videoscale", "!",
               "video/x-raw,format=RGB,width=%d,height=%d" % (w, h), "!",
               "filesink", "location=" + path + ".part"]
        r = subprocess.run(cmd, env=env, capture_output=True, text=True,
                           timeout=TIME_LIMIT)
        if r.returncode != 0:
            raise RuntimeError("making %s failed: %s" % (path,
                                                         r.stderr[-2000:]))
        os.rename(path + ".part", path)
    return path


def substitute(p, spec, rundir, taps, workdir, env0):
    """argv for gst-launch-1.0 and the environment additions."""
    words = shlex.split(p.text)
    env = {}
    while words and words[0] != "gst-launch-1.0":
        k, v = words.pop(0).split("=", 1)
        env[k] = v.replace("$PWD", TOP).replace("${PWD}", TOP)
    tokens = words[1:]
    buffers = spec["buffers"]
    # a file of the repository (location=docs/...): the docs say to run
    # those from its top; each pipeline runs in a folder of its own
    tokens = ["location=" + os.path.join(TOP, t[9:])
              if t.startswith("location=") and not os.path.isabs(t[9:])
              and os.path.exists(os.path.join(TOP, t[9:])) else t
              for t in tokens]

    cams = [e for e in elements(tokens) if e[2] == "v4l2src"]
    if cams and not spec["camera"]:
        raise MarkerError("v4l2src in the pipeline, no `camera` clause")
    if spec["camera"] and not cams:
        raise MarkerError("`camera` clause, no v4l2src in the pipeline")
    for start, end, _ in reversed(cams):
        pattern, w, h = spec["camera"]
        if pattern == "face":
            sub = ["filesrc", "location=" + face_raw(w, h, workdir, env0),
                   "!", "queue", "!", "rawvideoparse", "format=rgb",
                   "width=%d" % w, "height=%d" % h, "colorimetry=sRGB", "!",
                   "imagefreeze", "is-live=true"]
        else:
            sub = ["videotestsrc", "is-live=true", "pattern=" + pattern, "!",
                   "video/x-raw,width=%d,height=%d" % (w, h)]
        tokens[start:end] = sub
    sources = set(TEST_SOURCES)
    if spec["camera"] and spec["camera"][0] == "face":
        sources.add("imagefreeze")

    sinks = [e for e in elements(tokens) if e[2] in WINDOW_SINKS]
    if sinks and not spec["sink"]:
        raise MarkerError("%s in the pipeline, no `sink` clause"
                          % sinks[0][2])
    if spec["sink"] and not sinks:
        raise MarkerError("`sink` clause, no window or device sink")
    for start, end, _ in reversed(sinks):
        tokens[start:end] = ["capsfilter", "caps=" + spec["sink"], "!",
                             "fakesink"]

    srcs = [e for e in elements(tokens) if e[2] in sources]
    if srcs and buffers is None and not all(
            any(t.startswith("num-buffers=") for t in tokens[s + 1:e])
            for s, e, _ in srcs):
        raise MarkerError("a test source without num-buffers, no `buffers` "
                          "clause")
    if buffers is not None:
        if not srcs:
            raise MarkerError("`buffers` clause, no test source")
        for start, end, _ in reversed(srcs):
            set_prop(tokens, start, end, "num-buffers", buffers)

    if taps:
        blurs = [e for e in elements(tokens) if e[2] == "clboxblur"]
        if not blurs:
            raise MarkerError("a check on the frames, no clboxblur")
        first, last = blurs[0], blurs[-1]
        down = ["gldownload", "!"] if spec["gl"] else []
        tokens[last[1]:last[1]] = ["!", "tee", "name=dp_out", "!", "queue"]
        tokens[first[0]:first[0]] = ["tee", "name=dp_in", "!", "queue", "!"]
        for tap in ("in", "out"):
            tokens += ["dp_%s." % tap, "!", "queue", "!"] + down + [
                "videoconvert", "chroma-resampler=nearest", "chroma-mode=none",
                "dither=none", "!", "video/x-raw,format=RGB", "!", "pnmenc",
                "!", "filesink",
                "location=" + os.path.join(rundir, "dp_%s.pnm" % tap)]
    return ["gst-launch-1.0"] + tokens, env


# ------------------------------------------------------------- the frames

PNM = re.compile(rb"P6\s+(\d+)\s+(\d+)\s+255\s")


def read_pnm(path):
    """[(w, h, RGB bytes)] of a file of PPM frames (pnmenc)."""
    with open(path, "rb") as f:
        data = f.read()
    out, k = [], 0
    while k < len(data):
        m = PNM.match(data, k)
        if not m:
            raise RuntimeError("%s: no PPM header at byte %d" % (path, k))
        w, h = int(m.group(1)), int(m.group(2))
        k = m.end()
        out.append((w, h, data[k:k + w * h * 3]))
        k += w * h * 3
    return out


def clip(rect, w, h):
    x, y, rw, rh = rect
    return max(0, x), max(0, y), min(w, x + rw), min(h, y + rh)


def spans(w, h, rect, outside):
    """Row spans (y, x0, x1) of RECT, or of the frame outside it."""
    if rect is None:
        return [(y, 0, w) for y in range(h)]
    x0, y0, x1, y1 = clip(rect, w, h)
    if not outside:
        return [(y, x0, x1) for y in range(y0, y1) if x1 > x0]
    out = []
    for y in range(h):
        if y < y0 or y >= y1:
            out.append((y, 0, w))
        else:
            if x0 > 0:
                out.append((y, 0, x0))
            if x1 < w:
                out.append((y, x1, w))
    return out


BPP = 3     # the taps' frames: RGB, from pnmenc


def row(frame, w, y, x0, x1):
    return frame[(y * w + x0) * BPP:(y * w + x1) * BPP]


def thin(sp, limit=160000):
    """Every k-th row of the spans, k such that about `limit` pixels are
    left (a 1080p frame's gradients in pure Python take seconds)."""
    n = sum(x1 - x0 for _, x0, x1 in sp)
    k = max(1, -(-n // limit))
    return [s for s in sp if s[0] % k == 0]


def energy(frame, w, sp):
    """Sum of squared differences between neighbouring pixels (R, G, B)
    inside the spans, across, and down to the next row of the frame (on
    a share of the rows for large areas: thin())."""
    total = 0
    by_row = {}
    for y, x0, x1 in sp:
        by_row.setdefault(y, []).append((x0, x1))
    for y, x0, x1 in thin(sp):
        r = row(frame, w, y, x0, x1)
        for c in range(3):
            ch = r[c::BPP]
            total += sum((a - b) * (a - b) for a, b in zip(ch, ch[1:]))
        for a0, a1 in by_row.get(y + 1, []):
            lo, hi = max(x0, a0), min(x1, a1)
            if hi <= lo:
                continue
            r0 = row(frame, w, y, lo, hi)
            r1 = row(frame, w, y + 1, lo, hi)
            for c in range(3):
                total += sum((a - b) * (a - b)
                             for a, b in zip(r0[c::BPP], r1[c::BPP]))
    return total


def differing(fin, fout, w, sp):
    n = total = 0
    for y, x0, x1 in sp:
        a, b = row(fin, w, y, x0, x1), row(fout, w, y, x0, x1)
        total += x1 - x0
        if a != b:
            n += sum(1 for k in range(0, len(a), BPP)
                     if a[k:k + BPP] != b[k:k + BPP])
    return n, total


def check_frame(chk, fin, fout, w, h):
    """None when it holds, else why not."""
    kind = chk[0]
    if kind == "runs":
        return None
    if kind in ("blurred", "unchanged", "changed"):
        _, outside, rect = chk
        sp = spans(w, h, rect, outside)
        if kind == "unchanged":
            n, total = differing(fin, fout, w, sp)
            return None if n == 0 else "%d of %d pixels changed" % (n, total)
        if kind == "changed":
            n, total = differing(fin, fout, w, thin(sp))
            return None if total and n >= 0.001 * total else \
                "%d of %d pixels changed" % (n, total)
        ein, eout = energy(fin, w, sp), energy(fout, w, sp)
        if ein == 0:
            return "the input is flat there: nothing to show a blur on"
        return None if eout < 0.8 * ein else \
            "squared gradients %.3g of the input's (blurred: < 0.8)" % (
                eout / ein)
    if kind == "pixelated":
        _, rect, b = chk
        x0, y0, x1, y1 = clip(rect, w, h)
        blocks = flat_in = 0
        for by in range((y0 + b - 1) // b * b, y1 - b + 1, b):
            for bx in range((x0 + b - 1) // b * b, x1 - b + 1, b):
                blocks += 1
                for frame, label in ((fout, "out"), (fin, "in")):
                    px = set()
                    for y in range(by, by + b):
                        r = row(frame, w, y, bx, bx + b)
                        px.update(r[k:k + 3] for k in range(0, len(r), BPP))
                    flat = max(max(c[i] for c in px) - min(c[i] for c in px)
                               for i in range(3)) <= 2
                    if label == "out" and not flat:
                        return "block at %d,%d not one colour" % (bx, by)
                    if label == "in" and flat:
                        flat_in += 1
        if not blocks:
            return "no whole block inside the rectangle"
        if flat_in == blocks:
            return "the input's blocks were one colour already"
        return None
    if kind == "color":
        _, rect, rgb = chk
        want = ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255)
        for y, x0, x1 in spans(w, h, rect, False):
            r = row(fout, w, y, x0, x1)
            for k in range(0, len(r), BPP):
                if any(abs(r[k + i] - want[i]) > 8 for i in range(3)):
                    return "pixel %d,%d is %s, not %s" % (
                        x0 + k // BPP, y, tuple(r[k:k + 3]), want)
        return None
    return "unknown check %r" % (chk,)


def describe(chk):
    out = []
    for x in chk:
        if isinstance(x, tuple):
            out.append("%d,%d,%d,%d" % x)
        elif x is True:
            out.append("outside")
        elif x is False or x is None:
            continue
        else:
            out.append(str(x))
    return " ".join(out)


# ---------------------------------------------------------------- running

def make_input(name, face, workdir, env):
    path = os.path.join(workdir, ("face-" if face else "plain-") + name)
    if os.path.exists(path):
        return path
    if not name.endswith(".webm"):
        raise MarkerError("the test makes only .webm inputs, not %s" % name)
    if face:
        src = ["filesrc", "location=" + FACE_PICTURE, "!", "jpegdec", "!",
               "videoconvert", "!", "videoscale", "!",
               "video/x-raw,width=480,height=480", "!", "imagefreeze",
               "num-buffers=10", "!", "videoconvert"]
    else:
        src = ["videotestsrc", "num-buffers=10", "pattern=smpte", "!",
               "video/x-raw,width=320,height=240,framerate=30/1"]
    cmd = ["gst-launch-1.0", "-q"] + src + [
        "!", "vp8enc", "deadline=1", "!", "webmmux", "!", "filesink",
        "location=" + path]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=TIME_LIMIT)
    if r.returncode != 0 or not os.path.getsize(path):
        raise RuntimeError("making %s failed: %s" % (name, r.stderr[-2000:]))
    return path


def run_one(p, spec, workdir, base_env, keep):
    rundir = os.path.join(workdir, re.sub(r"[^A-Za-z0-9]+", "-", p.where))
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    taps = any(c[0] != "runs" for c in spec["checks"])
    argv, extra = substitute(p, spec, rundir, taps, workdir, base_env)
    env = dict(base_env)
    env.update(extra)
    for name, face in spec["input"]:
        os.symlink(make_input(name, face, workdir, base_env),
                   os.path.join(rundir, name))
    if spec["display"]:
        argv = [os.path.join(TOP, "scripts", "with-display.sh")] + argv
    t0 = time.monotonic()
    try:
        r = subprocess.run(argv, cwd=rundir, env=env, capture_output=True,
                           text=True, errors="replace", timeout=TIME_LIMIT)
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = "timeout", e.stdout or "", e.stderr or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        if isinstance(err, bytes):
            err = err.decode(errors="replace")
    secs = time.monotonic() - t0
    why = []
    if rc == "timeout":
        why.append("no end within %d s" % TIME_LIMIT)
    elif rc != 0:
        why.append("exit status %s" % rc)
    if rc != "timeout" and "Got EOS from element" not in out:
        why.append("no EOS")
    bad = []
    for line in (out + "\n" + err).splitlines():
        if not BAD_WORDS.search(line):
            continue
        if any(ALLOWANCES[a].search(line.rstrip()) for a in spec["allow"]):
            continue
        bad.append(line)
    if bad:
        why.append("%d warning/error line(s), the first: %s"
                   % (len(bad), bad[0].strip()[:300]))
    if not why and taps:
        try:
            why += check_frames(spec, rundir)
        except (OSError, RuntimeError) as e:
            why.append(str(e))
    if why or keep:
        for name, text in (("stdout.txt", out), ("stderr.txt", err)):
            with open(os.path.join(rundir, name), "w") as f:
                f.write(text)
    if not keep and not why:
        shutil.rmtree(rundir, ignore_errors=True)
    return why, secs, argv, env, extra, out, err


def check_frames(spec, rundir):
    fin = read_pnm(os.path.join(rundir, "dp_in.pnm"))
    fout = read_pnm(os.path.join(rundir, "dp_out.pnm"))
    if not fin or len(fin) != len(fout):
        return ["%d frames in, %d out" % (len(fin), len(fout))]
    why = []
    for k in sorted({0, len(fin) - 1}):
        (w, h, a), (wo, ho, b) = fin[k], fout[k]
        if (w, h) != (wo, ho):
            return ["frame %d: %dx%d in, %dx%d out" % (k, w, h, wo, ho)]
        for chk in spec["checks"]:
            r = check_frame(chk, a, b, w, h)
            if r:
                why.append("frame %d (%dx%d): %s: %s"
                           % (k, w, h, describe(chk), r))
    return why


def main():
    ap = argparse.ArgumentParser(
        description="Runs the gst-launch-1.0 pipelines of the docs.")
    ap.add_argument("--plugin-path", default=os.path.join(TOP, "build", "gst"))
    ap.add_argument("--workdir", default=os.path.join(TOP, "build", "tests",
                                                      "doc-pipelines"))
    ap.add_argument("--only", action="append", default=[],
                    help="FILE:LINE of a pipeline (repeatable)")
    ap.add_argument("--list", action="store_true",
                    help="print the pipelines and their markers, run none")
    ap.add_argument("--keep", action="store_true",
                    help="keep every run's folder (frames, outputs)")
    ap.add_argument("--docs", nargs="*",
                    help="read these files instead of README.md, docs/*.md "
                    "and docs/reference-examples.txt")
    a = ap.parse_args()

    problems, pipelines = [], []
    files = a.docs if a.docs else doc_files() + [
        os.path.join(TOP, "docs", "reference-examples.txt")]
    for path in files:
        path = os.path.abspath(path)
        if path.endswith(".txt"):
            pipelines += read_examples(path, problems)
        else:
            pipelines += read_markdown(path, problems)
    for p in pipelines:
        try:
            p.spec = parse_marker(p.marker)
        except MarkerError as e:
            problems.append("%s (%s): %s" % (p.marker_where, p.where, e))
    for pr in problems:
        print("doc-pipelines: " + pr)
    if problems:
        print("doc-pipelines: FAIL: %d marker problem(s)" % len(problems))
        return 1

    if a.only:
        pipelines = [p for p in pipelines if p.where in a.only]
        if not pipelines:
            print("doc-pipelines: no pipeline at %s" % ", ".join(a.only))
            return 1
    runnable = [p for p in pipelines if p.spec["run"]]
    skipped = [p for p in pipelines if not p.spec["run"]]
    if a.list:
        for p in pipelines:
            print("%s\n  %s\n  %s" % (p.where, p.text, p.marker))
        print("%d pipelines: %d to run, %d skipped"
              % (len(pipelines), len(runnable), len(skipped)))
        return 0

    # each pipeline runs in a folder of its own: paths made absolute
    a.workdir = os.path.abspath(a.workdir)
    os.makedirs(a.workdir, exist_ok=True)
    env = dict(os.environ)
    for var in ("GST_REGISTRY", "CLBOXBLUR_CACHE_DIR", "POCL_CACHE_DIR"):
        if env.get(var):
            env[var] = os.path.abspath(env[var])
    env["GST_PLUGIN_PATH"] = os.path.abspath(a.plugin_path)
    env["GST_DEBUG"] = "*:2"
    env["GST_DEBUG_NO_COLOR"] = "1"
    env.pop("GST_PLUGIN_LOADING_WHITELIST", None)

    # The registry first (a new one scans every plugin, and some print
    # warnings as they are probed: msdk without Intel's media driver), so
    # that no pipeline's output carries the scan's.
    subprocess.run(["gst-inspect-1.0", "clboxblur"], env=env,
                   capture_output=True, timeout=TIME_LIMIT)

    t0 = time.monotonic()
    ran = failed = 0
    for p in skipped:
        print("skip %s: %s" % (p.where, p.spec["skip"]))
    for p in runnable:
        try:
            why, secs, argv, _, extra, out, err = run_one(
                p, p.spec, a.workdir, env, a.keep)
        except (MarkerError, RuntimeError) as e:
            why, secs, argv, extra, out, err = [str(e)], 0, [], {}, "", ""
        if why:
            failed += 1
            print("FAIL %s (%.1f s)\n  text: %s\n  marker: %s" % (
                p.where, secs, p.text, p.marker))
            if argv:
                print("  ran: %s%s" % (
                    "".join("%s=%s " % kv for kv in extra.items()),
                    " ".join(shlex.quote(x) for x in argv)))
            for w in why:
                print("  - " + w)
            tail = (out.strip().splitlines() + err.strip().splitlines())[-15:]
            for line in tail:
                print("  | " + line[:300])
        else:
            ran += 1
            print("ok   %s (%.1f s): %s" % (
                p.where, secs,
                ", ".join(describe(c) for c in p.spec["checks"])))
    secs = time.monotonic() - t0
    print("doc-pipelines: %d marked, %d to run, %d ran and passed, %d "
          "failed, %d skipped (%.0f s)" % (len(pipelines), len(runnable),
                                         ran, failed, len(skipped), secs))
    if ran < len(runnable):
        print("doc-pipelines: FAIL: %d of the %d pipelines marked `run` did "
              "not pass" % (len(runnable) - ran, len(runnable)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
