#!/usr/bin/env bash
# Installs the Debian packages xhud needs; idempotent (installs only what is missing), as root
# or with sudo.
#   scripts/deps.sh        everything scripts/test uses
#   scripts/deps.sh run    only what scripts/run uses: the build, the HUD, a headless Xvfb
# libgdk-pixbuf-2.0-0 is loaded at run time for images other than PNG and SVG (JPEG, GIF, BMP;
# WebP with webp-pixbuf-loader, which the image tests use).
# libdbus-1-3 is loaded at run time by `xhud server --notifications` (dlopen: the build needs no
# D-Bus headers); the notification tests use a private dbus-daemon, gdbus (libglib2.0-bin),
# dbus-send (dbus-bin), notify-send (libnotify-bin) and dunst.
# pytest comes from Debian (python3-pytest): Debian 12's Python refuses pip installs outside a
# virtual environment (PEP 668).
set -euo pipefail
# shellcheck source=scripts/python.sh
. "$(dirname "$0")/python.sh"
run=(
  libcairo2-dev libx11-dev libxext-dev libxrender-dev libxrandr-dev libxfixes-dev libxdamage-dev libx11-xcb-dev libstdc++-12-dev
  libpangocairo-1.0-0 libharfbuzz0b librsvg2-2 fonts-dejavu-core
  xvfb x11-utils imagemagick
  # A release build's first link profiles the binaries' function order (scripts/layout) under
  # callgrind, on a private Xvfb.
  valgrind
  libdbus-1-3 libgdk-pixbuf-2.0-0
  # The Wayland backend's build: wayland-util.h's types for Sources/CWayland (the library
  # itself, libwayland-client0, comes with it and is loaded with dlopen).
  libwayland-dev
)
test=(
  xdotool xcompmgr picom hsetroot x11-xserver-utils x11-apps
  fonts-noto-cjk fonts-noto-color-emoji
  # Tests/Integration/test_appearance.py: the desktop's font and theme served as XSETTINGS.
  xsettingsd
  # Tests/Integration/test_wayland_input.py: keys through sway's virtual keyboard.
  wtype
  groff-base man-db shellcheck dash gnuplot-nox strace
  # Tests/Integration/test_window_managers.py: real window managers (each one's tests are
  # skipped without its package), the test windows and the commands that fullscreen them.
  i3-wm openbox xfwm4 xfconf xfce4-settings dbus weston xwayland xterm wmctrl
  # Tests/Integration/test_notifications.py: a private bus, the real clients, dunst.
  dbus-daemon libglib2.0-bin dbus-bin libnotify-bin dunst python3-dbus
  # Tests/HUDRenderTests/ImageDecoderTests.swift, test_notification_images.py: WebP images.
  webp-pixbuf-loader
  # Tests/Integration/test_libnotify.py: libnotify's test programs, through python-gi.
  python3-gi gir1.2-notify-0.7
  # Tests/Integration/test_zenity.py: the same scripts run with zenity itself, side by side.
  zenity
  # Tests/Integration/test_wayland*.py: a headless sway, its background (swaybg) and its
  # screenshots (grim); weston-eventdemo (weston, above) as the window beneath a HUD.
  sway swaybg grim
  # Tests/Integration/test_bench.py: wob and mako, the Wayland section's alternatives.
  wob mako-notifier
  # test_protocol_tables_are_what_the_scanner_makes: scripts/wayland-protocols.sh --check
  # (wayland-scanner and the protocols' XML).
  libwayland-bin wayland-protocols
  # Tests/Integration/test_accessibility.py: the accessibility bus and its registry, and a
  # screen reader's view of them (pyatspi, for Debian's /usr/bin/python3).
  at-spi2-core python3-pyatspi
)
# Installed without their recommends (KDE's would bring 470 packages more).
# Tests/Integration/test_kwin.py: KWin headless, the fractional scale (150 %) and KDE's layer shell.
lean=(kwin-wayland)
case "${1:-test}" in
  run) packages=("${run[@]}") ;;
  test) packages=("${run[@]}" "${test[@]}" "${lean[@]}")
        "$python" -c 'import pytest' 2>/dev/null || packages+=(python3-pytest)
        # The integration tests two files at a time (scripts/test; without it, one at a time).
        "$python" -c 'import xdist' 2>/dev/null || packages+=(python3-pytest-xdist) ;;
  *) echo "usage: scripts/deps.sh [run|test]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps.sh: run as root or install sudo; missing: ${missing[*]}" >&2; exit 1; }
    SUDO=(sudo)
  fi
  echo "deps.sh: installing ${missing[*]}"
  "${SUDO[@]}" apt-get update -qq
  # env, not a prefix assignment: sudo would drop it from the environment.
  plain=() bare=()
  for p in "${missing[@]}"; do
    if [[ " ${lean[*]} " == *" $p "* ]]; then bare+=("$p"); else plain+=("$p"); fi
  done
  [ ${#plain[@]} -eq 0 ] || "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${plain[@]}" >/dev/null
  [ ${#bare[@]} -eq 0 ] || "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${bare[@]}" >/dev/null
fi
if [ "${1:-test}" = test ] && ! "$python" -c 'import pytest' 2>/dev/null; then
  echo "deps.sh: $python cannot import pytest: install python3-pytest, or name a Python that can in XHUD_PYTHON" >&2
  exit 1
fi
