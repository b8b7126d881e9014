#!/bin/sh
# The whole test suite on Mesa's rusticl (Debian 12: mesa-opencl-icd, 22.3)
# with its llvmpipe CPU device the only OpenCL device visible: the ICD
# loader reads a folder holding rusticl's .icd alone, and RUSTICL_ENABLE
# turns llvmpipe on (rusticl lists no device without it). Installs
# mesa-opencl-icd when missing; builds the build folder if needed.
#   usage: suite-rusticl.sh [build dir]   (default: build)
# Every test runs, the GL one included: it passes on rusticl (llvmpipe has
# no cl_khr_gl_sharing, so the GL path copies textures, as it does on
# PoCL).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${1:-build}

"$top/scripts/ensure-packages.sh" mesa-opencl-icd

icd=$(mktemp -d)
trap 'rm -rf "$icd"' EXIT
cp /etc/OpenCL/vendors/rusticl.icd "$icd/"
export OCL_ICD_VENDORS="$icd"
export RUSTICL_ENABLE=llvmpipe

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build"
fi
ninja -C "$build"
meson test -C "$build" --print-errorlogs
