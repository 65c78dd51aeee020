# Sourced: starts a private Xvfb (-noreset keeps the root background when clients leave) and
# exports DISPLAY; stops it on exit.
start_xvfb() {
  local size="${1:-1280x800}"
  for n in $(seq 90 140); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
    Xvfb ":$n" -screen 0 "${size}x24" -nolisten tcp -noreset >/dev/null 2>&1 &
    XVFB_PID=$!
    export DISPLAY=":$n"
    for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
    trap 'kill $XVFB_PID 2>/dev/null' EXIT
    return 0
  done
  echo "no free display number" >&2; return 1
}
