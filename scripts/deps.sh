#!/usr/bin/env bash
# Installs the Debian packages xhud builds, runs and is tested with (idempotent; needs root).
set -euo pipefail
packages=(
  libcairo2-dev libpangocairo-1.0-0 libharfbuzz0b libx11-dev libxext-dev libxrender-dev libxrandr-dev libxfixes-dev
  xvfb xdotool imagemagick xcompmgr x11-utils x11-xserver-utils x11-apps
  fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji
  groff-base man-db shellcheck dash gnuplot-nox hsetroot
  librsvg2-2 picom libstdc++-12-dev strace

)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -c 'import pytest' 2>/dev/null || python3 -m pip install -q pytest
