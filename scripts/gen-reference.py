#!/usr/bin/python3
# Writes docs/clboxblur.md, the element reference, from the built plugin
# (GObject introspection of the element: pad templates, properties with
# type, range, default and flags, enum values, signals) merged with the
# hand-written notes and example launch lines of docs/reference-examples.txt.
#
#   scripts/gen-reference.py [--plugin-path build/gst] [-o docs/clboxblur.md]
#   scripts/gen-reference.py --check docs/clboxblur.md -o build/tests/clboxblur.md
#
# --check compares what it generates with the committed file and fails with
# a diff and the command that regenerates it (the meson test
# doc_reference). It also fails when a property has no example, an example
# names a property the element lacks or gives it a value outside its type
# or range, or a property's default differs from a new element's value.
#
# The interpreter is Debian's (/usr/bin/python3), which has python3-gi; a
# pyenv or venv python first in PATH usually lacks it. Needs the Debian
# packages python3-gi and gir1.2-gstreamer-1.0.
import argparse
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gstplugin import load_gst  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg, status=1):
    print("gen-reference: " + msg, file=sys.stderr)
    sys.exit(status)


# ---------------------------------------------------------------- examples

def read_examples(path):
    """[key] blocks: text lines and '$ ' launch lines (backslash continues)."""
    blocks, key, cont = {}, None, False
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if cont:
                # continuation lines may repeat the "$ " for legibility
                blocks[key][-1][1].append(
                    line[2:] if line.startswith("$ ") else line)
                cont = line.endswith("\\")
                continue
            if line.startswith("#") or (not line.strip() and key is None):
                continue
            m = re.fullmatch(r"\[([a-z0-9-]+)\]", line.strip())
            if m:
                key = m.group(1)
                if key in blocks:
                    die("%s:%d: [%s] twice" % (path, n, key))
                blocks[key] = []
                continue
            if key is None:
                die("%s:%d: text before the first [key]" % (path, n))
            if line.startswith("$ "):
                blocks[key].append(("cmd", [line[2:]]))
                cont = line.endswith("\\")
            else:
                blocks[key].append(("text", line))
    return blocks


def render_block(items):
    out, para = [], []
    for kind, val in items:
        if kind == "text":
            out.append(val)
        else:
            out += ["", "```sh"] + val + ["```", ""]
    # collapse runs of blank lines
    text = "\n".join(out).strip("\n")
    return re.sub(r"\n{3,}", "\n\n", text)


def clboxblur_args(cmd):
    """The key=value arguments given to clboxblur in a launch line."""
    flat = " ".join(part.rstrip("\\") for part in cmd)
    args = []
    for seg in flat.split("!"):
        words = seg.split()
        if words and words[0] == "clboxblur":
            args += [w for w in words[1:] if "=" in w]
    return args


def check_value(GObject, pspec, value):
    """None if `value` (as written on a gst-launch line) suits pspec."""
    vt = pspec.value_type
    if vt.is_a(GObject.TYPE_ENUM):
        vals = pspec.enum_class.__enum_values__
        names = {v.value_nick for v in vals.values()} | \
            {v.value_name for v in vals.values()} | {str(k) for k in vals}
        return None if value in names else "not one of %s" % sorted(
            v.value_nick for v in vals.values())
    if vt == GObject.TYPE_BOOLEAN:
        return None if value.lower() in ("true", "false", "yes", "no", "1",
                                         "0") else "not a boolean"
    if vt == GObject.TYPE_STRING:
        return None
    try:
        # integers as gst-launch takes them: decimal or 0x hexadecimal
        x = float(value) if vt in (GObject.TYPE_DOUBLE,
                                   GObject.TYPE_FLOAT) else int(value, 0)
    except ValueError:
        return "not a number"
    if hasattr(pspec, "minimum") and not pspec.minimum <= x <= pspec.maximum:
        return "outside %s..%s" % (fmt_num(pspec.minimum),
                                   fmt_num(pspec.maximum))
    return None


# ------------------------------------------------------------- formatting

LIMITS = {2147483647: "G_MAXINT", 4294967295: "G_MAXUINT",
          -2147483648: "G_MININT"}


def fmt_num(x):
    if isinstance(x, float):
        return str(int(x)) if x == int(x) and abs(x) < 1e15 else repr(x)
    return str(x)


def fmt_limit(x):
    s = fmt_num(x)
    return "%s (%s)" % (s, LIMITS[x]) if x in LIMITS else s


def type_name(GObject, pspec):
    vt = pspec.value_type
    if vt.is_a(GObject.TYPE_ENUM):
        return "enum `%s`" % vt.name
    return {
        "guint": "unsigned int", "gint": "int", "gdouble": "double",
        "gboolean": "boolean", "gchararray": "string",
        "guint64": "unsigned int64", "gint64": "int64", "gfloat": "float",
    }.get(vt.name, "`%s`" % vt.name)


def fmt_default(GObject, pspec):
    d = pspec.default_value
    if pspec.value_type.is_a(GObject.TYPE_ENUM):
        return "`%s` (%d)" % (d.value_nick, int(d))
    if isinstance(d, bool):
        return "`%s`" % str(d).lower()
    if d is None:
        return "NULL (none)"
    if isinstance(d, str):
        return '`"%s"`' % d
    return "`%s`" % fmt_num(d)


def cell(text):
    """Text safe inside a Markdown table cell."""
    return (text or "").replace("|", "\\|")


def fmt_range(pspec):
    if hasattr(pspec, "enum_class"):
        return ", ".join("`%s`" % e.value_nick for _, e in
                         sorted(pspec.enum_class.__enum_values__.items()))
    if hasattr(pspec, "minimum"):
        return "%s to %s" % (fmt_limit(pspec.minimum),
                             fmt_limit(pspec.maximum))
    return ""


def fmt_flags(Gst, GObject, pspec):
    f = int(pspec.flags)
    out = []
    rw = [w for w, b in (("readable", GObject.ParamFlags.READABLE),
                         ("writable", GObject.ParamFlags.WRITABLE))
          if f & int(b)]
    out.append(", ".join(rw))
    if f & int(Gst.PARAM_CONTROLLABLE):
        out.append("controllable")
    out.append(changeable(Gst, f))
    return "; ".join(x for x in out if x)


def changeable(Gst, f):
    if f & int(Gst.PARAM_MUTABLE_PLAYING):
        return "changeable in NULL, READY, PAUSED or PLAYING"
    if f & int(Gst.PARAM_MUTABLE_PAUSED):
        return "changeable only in NULL, READY or PAUSED"
    if f & int(Gst.PARAM_MUTABLE_READY):
        return "changeable only in NULL or READY"
    return ""


def split_top(s, sep=","):
    """Split at `sep` outside brackets and braces."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[{(<":
            depth += 1
        elif ch in "]})>":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def caps_lines(caps):
    lines = []
    for i in range(caps.get_size()):
        st = caps.get_structure(i)
        feat = caps.get_features(i)
        feats = feat.to_string() if feat and not feat.is_any() else ""
        name = st.get_name() + ("(%s)" % feats if feats and
                                feats != "memory:SystemMemory" else "")
        lines += ["", "`%s`" % name, "", "| field | values |",
                  "| --- | --- |"]
        for field in split_top(st.to_string().rstrip(";"))[1:]:
            k, v = field.split("=", 1)
            v = re.sub(r"\((string|int|fraction)\)", "", v).strip()
            v = v.replace("[ ", "").replace(" ]", "").replace(
                "{ ", "").replace(" }", "")
            if v.count(",") and not re.match(r"^[0-9/]+, ", v):
                v = ", ".join("`%s`" % x.strip() for x in v.split(","))
            elif re.match(r"^-?[0-9/]+, -?[0-9/]+$", v):
                a, b = v.split(", ")
                v = "%s to %s" % (a, b)
            else:
                v = "`%s`" % v
            lines.append("| `%s` | %s |" % (k.strip(), v))
    return lines


# --------------------------------------------------------------- the page

def generate(GObject, Gst, examples_path, regen_cmd):
    factory = Gst.ElementFactory.find("clboxblur")
    if factory is None:
        die("no clboxblur element in the plugin path (build it first)")
    factory = factory.load()
    elem = factory.create(None)
    plugin = factory.get_plugin()
    examples = read_examples(examples_path)
    problems = []

    etype = type(elem).__gtype__
    own = [p for p in elem.list_properties() if p.owner_type == etype]
    inherited = [p for p in elem.list_properties() if p.owner_type != etype]
    own_names = {p.name for p in own}

    for key in examples:
        if key != "element" and key not in own_names:
            problems.append("examples: [%s] is not a property of clboxblur"
                            % key)
    for key, items in examples.items():
        for kind, val in items:
            if kind != "cmd":
                continue
            for arg in clboxblur_args(val):
                k, v = arg.split("=", 1)
                ps = elem.find_property(k)
                if ps is None:
                    problems.append("examples [%s]: no property %s" % (key, k))
                    continue
                why = check_value(GObject, ps, v)
                if why:
                    problems.append("examples [%s]: %s=%s: %s"
                                    % (key, k, v, why))
    for p in own:
        if p.name not in examples:
            problems.append("examples: property %s has no [%s] block"
                            % (p.name, p.name))
        if int(p.flags) & int(GObject.ParamFlags.READABLE):
            cur = elem.get_property(p.name)
            if cur != p.default_value:
                problems.append("property %s: pspec default %r, but a new "
                                "element holds %r" % (p.name,
                                                      p.default_value, cur))

    hier = []
    t = etype
    while t != GObject.TYPE_INVALID:
        hier.insert(0, t.name)
        t = t.parent
    rank = factory.get_rank()
    rank_name = {0: "none", 64: "marginal", 128: "secondary",
                 256: "primary"}.get(rank, "")

    L = []
    w = L.append
    w("# clboxblur: element reference")
    w("")
    w("<!-- Generated by scripts/gen-reference.py from the built plugin and")
    w("     docs/reference-examples.txt; do not edit by hand. Regenerate:")
    w("     %s -->" % regen_cmd)
    w("")
    w("| | |")
    w("| --- | --- |")
    for key, label in (("long-name", "Long name"), ("klass", "Class"),
                       ("description", "Description"),
                       ("author", "Author")):
        w("| %s | %s |" % (label, factory.get_metadata(key)))
    w("| Rank | %s (%d) |" % (rank_name, rank))
    w("| Plugin | `%s` %s: %s |" % (plugin.get_name(), plugin.get_version(),
                                   plugin.get_description()))
    w("| Licence | %s |" % plugin.get_license())
    w("| Type | %s |" % " → ".join("`%s`" % h for h in hier))
    w("")
    if "element" in examples:
        w(render_block(examples["element"]))
        w("")

    w("## Pad templates")
    for tmpl in sorted(factory.get_static_pad_templates(),
                       key=lambda t: t.direction != Gst.PadDirection.SINK):
        w("")
        w("### %s (%s, %s)" % (
            tmpl.name_template,
            tmpl.direction.value_nick, tmpl.presence.value_nick))
        L.extend(caps_lines(tmpl.get_caps()))
    w("")

    w("## Properties")
    w("")
    w("| property | type | range | default | controllable | "
      "changeable |")
    w("| --- | --- | --- | --- | --- | --- |")
    for p in own:
        f = int(p.flags)
        ch = changeable(Gst, f).replace("changeable ", "")
        w("| [`%s`](#%s) | %s | %s | %s | %s | %s |" % (
            p.name, p.name, type_name(GObject, p), fmt_range(p) or "",
            cell(fmt_default(GObject, p)),
            "yes" if f & int(Gst.PARAM_CONTROLLABLE) else "no", ch))
    w("")
    w("A controllable property can be driven by a `GstControlSource` "
      "(`gst_object_add_control_binding`); the values are taken at each "
      "frame's timestamp. \"in NULL, READY, PAUSED or PLAYING\" means a "
      "change applies from the next frame while the pipeline runs; \"only "
      "in NULL or READY\" means it applies when the element next starts.")
    for p in own:
        w("")
        w("### %s" % p.name)
        w("")
        w("%s." % p.blurb.rstrip(".") if p.blurb else "")
        w("")
        w("| | |")
        w("| --- | --- |")
        w("| Nick | %s |" % p.nick)
        w("| Type | %s |" % type_name(GObject, p))
        if hasattr(p, "minimum"):
            w("| Range | %s |" % fmt_range(p))
        w("| Default | %s |" % fmt_default(GObject, p))
        w("| Flags | %s |" % fmt_flags(Gst, GObject, p))
        if p.value_type.is_a(GObject.TYPE_ENUM):
            w("")
            w("| value | nick | meaning |")
            w("| --- | --- | --- |")
            for v, e in sorted(p.enum_class.__enum_values__.items()):
                w("| %d | `%s` | %s |" % (v, e.value_nick,
                                          cell(e.value_name)))
        if p.name in examples:
            w("")
            w(render_block(examples[p.name]))
    w("")
    w("### Inherited properties")
    w("")
    w("| property | from | type | value in a new clboxblur | what it does |")
    w("| --- | --- | --- | --- | --- |")
    for p in inherited:
        cur = elem.get_property(p.name) if p.name != "name" else None
        cur = "`%s`" % str(cur).lower() if isinstance(cur, bool) else \
            ("NULL" if cur is None else "`%s`" % cur)
        if p.name == "name":
            cur = "`clboxblur0`, `clboxblur1`, ..."
        w("| `%s` | `%s` | %s | %s | %s |" % (
            p.name, p.owner_type.name, type_name(GObject, p), cur,
            cell(p.blurb)))
    w("")

    w("## Signals")
    w("")
    own_sigs = GObject.signal_list_names(etype)
    if own_sigs:
        for s in own_sigs:
            w("- `%s`" % s)
    else:
        w("clboxblur adds no signals or actions of its own; it has those "
          "of `GstElement` (`pad-added`, `pad-removed`, `no-more-pads`), "
          "which never fire here: both pads are always there.")
    w("")
    return "\n".join(L), problems


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--plugin-path", default=os.path.join(TOP, "build", "gst"))
    ap.add_argument("--examples",
                    default=os.path.join(TOP, "docs", "reference-examples.txt"))
    ap.add_argument("-o", "--output",
                    default=os.path.join(TOP, "docs", "clboxblur.md"))
    ap.add_argument("--check", metavar="COMMITTED",
                    help="compare with this file; fail with a diff")
    a = ap.parse_args()

    GObject, Gst = load_gst(os.path.abspath(a.plugin_path), die)
    regen = "scripts/gen-reference.py --plugin-path build/gst"
    text, problems = generate(GObject, Gst, a.examples, regen)
    with open(a.output, "w", encoding="utf-8") as f:
        f.write(text)
    for p in problems:
        print("gen-reference: " + p, file=sys.stderr)
    if not a.check:
        print("wrote %s" % a.output)
        sys.exit(1 if problems else 0)

    try:
        with open(a.check, encoding="utf-8") as f:
            committed = f.read()
    except OSError as e:
        die("cannot read %s: %s" % (a.check, e))
    if committed != text:
        sys.stdout.writelines(difflib.unified_diff(
            committed.splitlines(True), text.splitlines(True),
            os.path.relpath(a.check, TOP) + " (committed)",
            "generated from the plugin just built"))
        print()
        print("docs/clboxblur.md is out of date with the plugin. Regenerate "
              "it from the top of the tree with\n  %s\n(after building "
              "into build/), check the diff and commit it." % regen)
        sys.exit(1)
    if problems:
        sys.exit(1)
    print("docs/clboxblur.md matches the plugin (%d lines)"
          % text.count("\n"))


if __name__ == "__main__":
    main()
