# shellcheck shell=sh
# Sourced (not run) by the scripts that run clboxblur-bench on Oclgrind's
# runtime: scripts/oclgrind-check.sh (checks) and scripts/work-guard.sh
# (instruction and memory counts). It loads the runtime as the oclgrind
# command does (LD_PRELOAD of liboclgrind-rt.so, settings in OCLGRIND_*
# variables), so that a shim can go ahead of it (oclgrind_preload).
#   oclgrind_init BUILD_DIR   checks the runtime, builds the bench if needed;
#                             sets $bench
#   oclgrind_methods          the methods the bench lists in its --help
#   oclgrind_run [VAR=VALUE...] COMMAND [ARG...]
#                             COMMAND on Oclgrind's runtime, $oclgrind_preload
#                             (a library, or empty) ahead of it
oclgrind_rt=/usr/lib/oclgrind/liboclgrind-rt.so
oclgrind_preload=

oclgrind_init() {
  bench="$1/tools/clboxblur-bench"
  if [ ! -f "$oclgrind_rt" ]; then
    echo "$(basename "$0"): $oclgrind_rt missing (apt-get install oclgrind)" >&2
    exit 1
  fi
  [ -x "$bench" ] || ninja -C "$1"
}

oclgrind_methods() {
  "$bench" --help \
    | sed -n 's/^ *--\(sat\|separable\|bilateral\|mosaic\|fill\|temporal\|[a-z]*box[a-z]*\) .*/\1/p'
}

oclgrind_run() {
  env LD_PRELOAD="${oclgrind_preload:+$oclgrind_preload:}$oclgrind_rt" "$@"
}
