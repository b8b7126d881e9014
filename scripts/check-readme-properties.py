#!/usr/bin/python3
# Checks the property table of README.md ("## Properties") against the
# built element's GParamSpecs, so that the two cannot drift apart (the
# README once gave sigma-spatial 0..1e6 where the element takes 0..21):
#
#   scripts/check-readme-properties.py [--plugin-path build/gst] [README.md]
#
# Each row names one or more properties (`a`, `b`) and, in its second
# cell, their type, range and default, one spec for all of them or one
# each, separated by commas:
#
#   uint, 0..2047 (4)             numbers: type, min..max (default)
#   double, 0..1e6 (30)           (G_MAXINT, G_MAXUINT, G_MAXINT/4 allowed)
#   enum: `a`, `b`, `c` (`b`)     every value nick in order (default)
#   boolean (false)   string (none)
#
# Fails, naming the row, when a name is not a property of clboxblur, a type,
# range, default or enum list differs from the element's, or a property of
# the element has no row. The controllable properties listed after the
# table must be exactly the element's controllable ones. The meson test
# readme_properties runs it. Needs python3-gi and gir1.2-gstreamer-1.0
# (skips without them, fails in CI), like scripts/gen-reference.py.
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gstplugin import load_gst  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LIMITS = {"G_MAXINT": 2147483647, "G_MAXUINT": 4294967295,
          "G_MININT": -2147483648, "G_MAXINT/4": 2147483647 // 4}

SPEC = re.compile(r"(?P<type>enum|uint|int|double|boolean|string)"
                  r"(?P<rest>[^()]*)\((?P<default>[^)]*)\)")


def die(msg, status=1):
    print("check-readme-properties: " + msg, file=sys.stderr)
    sys.exit(status)


def number(text):
    text = text.strip()
    if text in LIMITS:
        return LIMITS[text]
    return float(text) if re.search(r"[.eE]", text) else int(text)


def readme_rows(path):
    """(line number, names, spec cell) of each row of the table, and the
    paragraph after it."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        start = lines.index("## Properties")
    except ValueError:
        die("%s has no '## Properties' section" % path)
    rows, i = [], start + 1
    while i < len(lines) and not lines[i].startswith("| property"):
        i += 1
    i += 2  # header and its rule
    while i < len(lines) and lines[i].startswith("|"):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", lines[i])[1:-1]]
        names = re.findall(r"`([a-z-]+)`", cells[0])
        rows.append((i + 1, names, cells[1]))
        i += 1
    para = []
    while i < len(lines) and not lines[i].startswith("#"):
        para.append(lines[i])
        i += 1
    return rows, "\n".join(para)


def type_word(GObject, pspec):
    vt = pspec.value_type
    if vt.is_a(GObject.TYPE_ENUM):
        return "enum"
    return {"guint": "uint", "gint": "int", "gdouble": "double",
            "gboolean": "boolean", "gchararray": "string"}.get(vt.name,
                                                              vt.name)


def check_spec(GObject, pspec, m):
    """Differences between the README's spec @m and @pspec."""
    problems = []
    want = type_word(GObject, pspec)
    kind, rest, default = m.group("type"), m.group("rest"), \
        m.group("default").strip()
    if kind != want:
        return ["type %s, the element's is %s" % (kind, want)]
    if kind == "enum":
        vals = [e.value_nick for _, e in
                sorted(pspec.enum_class.__enum_values__.items())]
        listed = re.findall(r"`([^`]+)`", rest)
        if listed != vals:
            problems.append("values %s, the element's are %s"
                            % (listed, vals))
        if default != "`%s`" % pspec.default_value.value_nick:
            problems.append("default %s, the element's is `%s`"
                            % (default, pspec.default_value.value_nick))
        return problems
    if kind == "boolean":
        if default != str(pspec.default_value).lower():
            problems.append("default %s, the element's is %s"
                            % (default, str(pspec.default_value).lower()))
        return problems
    if kind == "string":
        got = "none" if pspec.default_value is None else \
            '"%s"' % pspec.default_value
        if default != got:
            problems.append("default %s, the element's is %s"
                            % (default, got))
        return problems
    r = re.fullmatch(r",\s*(\S+)\.\.(\S+)\s*", rest)
    if r is None:
        return ["no range (write %s, MIN..MAX (DEFAULT))" % kind]
    try:
        lo, hi, d = number(r.group(1)), number(r.group(2)), number(default)
    except ValueError as e:
        return ["not a number: %s" % e]
    if (lo, hi) != (pspec.minimum, pspec.maximum):
        problems.append("range %s..%s, the element's is %r..%r"
                        % (r.group(1), r.group(2), pspec.minimum,
                           pspec.maximum))
    if d != pspec.default_value:
        problems.append("default %s, the element's is %r"
                        % (default, pspec.default_value))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--plugin-path", default=os.path.join(TOP, "build", "gst"))
    ap.add_argument("readme", nargs="?", default=os.path.join(TOP,
                                                              "README.md"))
    a = ap.parse_args()

    GObject, Gst = load_gst(os.path.abspath(a.plugin_path), die)
    factory = Gst.ElementFactory.find("clboxblur")
    if factory is None:
        die("no clboxblur element in %s (build it first)" % a.plugin_path)
    elem = factory.load().create(None)
    etype = type(elem).__gtype__
    own = {p.name: p for p in elem.list_properties()
           if p.owner_type == etype}

    rows, para = readme_rows(a.readme)
    problems, seen = [], set()
    rel = os.path.relpath(a.readme, TOP)
    for line, names, cell in rows:
        specs = list(SPEC.finditer(cell))
        if not names or not specs:
            problems.append("%s:%d: no property names or no type in the row"
                            % (rel, line))
            continue
        if len(specs) not in (1, len(names)):
            problems.append("%s:%d: %d names, %d type specs"
                            % (rel, line, len(names), len(specs)))
            continue
        for k, name in enumerate(names):
            seen.add(name)
            if name not in own:
                problems.append("%s:%d: %s is not a property of clboxblur"
                                % (rel, line, name))
                continue
            m = specs[0] if len(specs) == 1 else specs[k]
            for p in check_spec(GObject, own[name], m):
                problems.append("%s:%d: %s: %s" % (rel, line, name, p))
    for name in own:
        if name not in seen:
            problems.append("%s: property %s has no row in the table"
                            % (rel, name))

    # "`a`, `b`, the `region-*` properties and `c` are controllable"
    m = re.search(r"(.*?)\bare controllable", para, re.S)
    if m is None:
        problems.append("%s: no 'are controllable' list after the table"
                        % rel)
    else:
        listed = set()
        for n in re.findall(r"`([a-z*-]+)`", m.group(1)):
            if n.endswith("*"):
                listed |= {p for p in own if p.startswith(n[:-1])}
            else:
                listed.add(n)
        ctl = {n for n, p in own.items()
               if int(p.flags) & int(Gst.PARAM_CONTROLLABLE)}
        for n in sorted(listed - ctl):
            problems.append("%s: %s listed as controllable, it is not"
                            % (rel, n))
        for n in sorted(ctl - listed):
            problems.append("%s: %s is controllable, not listed as such"
                            % (rel, n))

    for p in problems:
        print("check-readme-properties: " + p, file=sys.stderr)
    if problems:
        print("The README's property table differs from the element built "
              "in %s; correct README.md." % a.plugin_path, file=sys.stderr)
        sys.exit(1)
    print("README.md: %d rows, %d properties, as the element has them"
          % (len(rows), len(seen)))


if __name__ == "__main__":
    main()
