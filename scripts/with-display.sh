#!/bin/sh
# Runs a command with an X display: the caller's when DISPLAY is set, else a
# virtual one from xvfb-run (Mesa's llvmpipe GL). Without either the command
# runs as it is and says itself what it lacks (the GL suite fails in CI).
# Decided at each run, so a build folder configured before xvfb was
# installed still gets a display (tests/meson.build, clboxblur_gl).
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s '-screen 0 1280x1024x24' "$@"
fi
exec "$@"
