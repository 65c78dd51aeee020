#!/usr/bin/env bash
# Writes the Wayland protocols' interface tables (C, `wayland-scanner private-code`) that
# Sources/CWayland compiles: the core protocol, xdg-shell (layer-shell's get_popup names
# xdg_popup), viewporter (an input blocker's one pixel stretched over its output; a fractionally scaled
# buffer shown at its surface's size), fractional-scale, xdg-output (an output's logical size) and
# wlr-layer-shell (Resources/protocols). Checked in rather than made by the
# build: a SwiftPM build-tool plugin's output cannot be a C target's source.
#   scripts/wayland-protocols.sh           write them
#   scripts/wayland-protocols.sh --check   exit 1 when what is checked in differs
# Needs wayland-scanner (libwayland-bin), wayland.xml (libwayland-dev) and wayland-protocols.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/Sources/CWayland
inputs=(
  "wayland-protocol.c:/usr/share/wayland/wayland.xml"
  "xdg-shell-protocol.c:/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml"
  "viewporter-protocol.c:/usr/share/wayland-protocols/stable/viewporter/viewporter.xml"
  "fractional-scale-protocol.c:/usr/share/wayland-protocols/staging/fractional-scale/fractional-scale-v1.xml"
  "xdg-output-protocol.c:/usr/share/wayland-protocols/unstable/xdg-output/xdg-output-unstable-v1.xml"
  "wlr-layer-shell-protocol.c:$root/Resources/protocols/wlr-layer-shell-unstable-v1.xml"
)
check=false
[ "${1:-}" = --check ] && check=true
status=0
for pair in "${inputs[@]}"; do
  name=${pair%%:*} xml=${pair#*:}
  tmp=$(mktemp)
  {
    echo "/* Made by scripts/wayland-protocols.sh from ${xml#"$root"/}: run it again to regenerate. */"
    wayland-scanner private-code < "$xml"
  } > "$tmp"
  if $check; then
    cmp -s "$tmp" "$out/$name" || { echo "wayland-protocols.sh: $name differs from what $xml gives" >&2; status=1; }
    rm -f "$tmp"
  else
    mv "$tmp" "$out/$name"
  fi
done
exit $status
