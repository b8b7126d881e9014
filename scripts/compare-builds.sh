#!/bin/sh
# One gst-launch pipeline through two builds of the plugin, paired run by
# run with farm-bench --vs (A = the first build, B = the second), so that
# the ratio A/B holds while the machine's speed drifts.
#
#   scripts/compare-builds.sh BUILD_A BUILD_B FRAMES FORMAT "ELEMENT-ARGS" [RUNS]
#   e.g. scripts/compare-builds.sh build ../old/build 300 RGBA "method=separable radius=15" 9
set -eu
a=$(cd "$1" && pwd)
b=$(cd "$2" && pwd)
frames=$3
format=$4
args=$5
runs=${6:-5}
one=$(mktemp)
trap 'rm -f "$one"' EXIT
cat >"$one" <<SCRIPT
#!/bin/sh
# \$1: a build; its own registry, so that the two builds do not share one
d=\$1
shift
exec env GST_PLUGIN_PATH="\$d/gst" GST_REGISTRY="\$d/compare-builds.registry" \\
  gst-launch-1.0 -q videotestsrc num-buffers=$frames \\
  ! video/x-raw,format=$format,width=1920,height=1080 ! clboxblur "\$@" ! fakesink
SCRIPT
chmod +x "$one"
echo "pipeline: videotestsrc num-buffers=$frames ! video/x-raw,format=$format,width=1920,height=1080 ! clboxblur $args ! fakesink"
echo "A: $a  B: $b"
# shellcheck disable=SC2086
farm-bench -n "$runs" --timeout 3600 --vs "$one $b $args" -- "$one" "$a" $args
