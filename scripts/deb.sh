#!/bin/sh
# Builds the Debian package gstreamer1.0-clboxblur from this tree, installs
# it with apt and checks that GStreamer finds the element with no
# GST_PLUGIN_PATH.
#
#   scripts/deb.sh [--remove] [OUTDIR]
#
# 1. installs the build dependencies (debian/control) with apt;
# 2. copies the source (tracked and untracked files git does not ignore) to
#    a temporary folder and runs `dpkg-buildpackage -us -uc -b` there, so
#    this tree gets no build products;
# 3. copies the .deb to OUTDIR (default build-deb/, ignored by git) and
#    installs it with apt (pulling in an OpenCL driver, PoCL, through the
#    package's Recommends when none is installed);
# 4. runs `gst-inspect-1.0 clboxblur` and one frame through the element,
#    with GST_PLUGIN_PATH unset and a fresh registry.
# --remove uninstalls the package at the end (apt-get purge).
# Run as root, or as a user who may sudo. Debian 12.
set -eu

remove=false
if [ "${1:-}" = --remove ]; then remove=true; shift; fi
top=$(cd "$(dirname "$0")/.." && pwd)
outdir=${1:-$top/build-deb}
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive

echo "== build dependencies"
"$top/scripts/ensure-packages.sh" dpkg-dev debhelper
# apt reads Build-Depends from debian/control in the folder named.
$sudo apt-get build-dep -y -q "$top/" | tail -n 1

echo "== dpkg-buildpackage -us -uc -b (out of tree)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/clboxblur"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$top" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$top" && xargs -0 tar cf - --no-recursion) |
    tar xf - -C "$work/clboxblur"
else
  tar cf - -C "$top" --exclude=./build --exclude=./build-deb . |
    tar xf - -C "$work/clboxblur"
fi
(cd "$work/clboxblur" && dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1 ||
  { tail -n 60 "$work/build.log"; echo "dpkg-buildpackage failed" >&2; exit 1; }
grep -E '^(dpkg-deb: building|gst-inspect-1.0:|dpkg-buildpackage: info: binary-only)' \
  "$work/build.log" || true
mkdir -p "$outdir"
cp "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$outdir/"
# (the debug symbols are in gstreamer1.0-clboxblur-dbgsym_*.deb)
for deb in "$outdir"/gstreamer1.0-clboxblur_*.deb; do :; done
echo "package: $deb"
dpkg-deb --info "$deb" | sed -n '/Package:/,/Description:/p'
echo "contents:"
dpkg-deb --contents "$deb" | awk '{ print "  " $NF }'

echo "== apt-get install $deb"
$sudo apt-get install -y -q --reinstall "$deb" | grep -E -A1 '^(The following NEW)' | grep -v '^--' || true
dpkg-query -W -f='installed: ${Package} ${Version} ${Status}\n' gstreamer1.0-clboxblur

echo "== gst-inspect-1.0 clboxblur (no GST_PLUGIN_PATH, fresh registry)"
unset GST_PLUGIN_PATH GST_PLUGIN_PATH_1_0
GST_REGISTRY_1_0="$work/registry.bin"
export GST_REGISTRY_1_0
gst-inspect-1.0 clboxblur > "$work/inspect.txt"
head -n 25 "$work/inspect.txt"
echo "  ..."
grep -E '^  Filename' "$work/inspect.txt"
echo "== one frame through the installed element"
gst-launch-1.0 -q videotestsrc num-buffers=1 \
  ! video/x-raw,format=RGBA,width=320,height=240 ! clboxblur radius=8 \
  ! fakesink
echo "ok: gst-launch-1.0 ran videotestsrc ! clboxblur ! fakesink"

if $remove; then
  echo "== apt-get purge gstreamer1.0-clboxblur"
  $sudo apt-get purge -y -q gstreamer1.0-clboxblur | grep -E '^Removing' || true
fi
