#!/usr/bin/env bash
# Builds a Debian package of xhud with dpkg-deb (no debian/ source tree needed):
#
#   packaging/deb/build.sh                 release build, then out/xhud_<version>_<arch>.deb
#
# Environment:
#   SCRATCH=DIR        SwiftPM scratch path for the release build (default .build-pkg)
#   NO_BUILD=1         package the binaries already in $SCRATCH/release (no swift build)
#   VERSION=X.Y.Z      the version (default: the VERSION file at the top, else 0.1.0)
#   MAINTAINER="Name <mail>"   the Maintainer field (default: $DEBFULLNAME <$DEBEMAIL>, else a
#                      placeholder)
#   OUT=DIR            where the .deb goes (default out/)
#
# Installs:
#   /usr/bin/xhud                                   the front door
#   /usr/bin/xhud-volume, /usr/bin/xhud-brightness  the scripts the keybinding examples call
#   /usr/lib/xhud/xhud-host                         the command (found via ../lib/xhud): HUDs, the server,
#                                                   configuration files, --help, completions
#   /usr/lib/xhud/xhud-fonts                        the font helper a first start runs beside the server
#   /usr/share/xhud/{themes/*.toml,config.example.toml}   Resources/: themes, example configuration
#   /etc/xdg/autostart/xhud.desktop, /usr/lib/systemd/user/xhud.service   `xhud server` at login
#   /usr/share/man/man1/xhud.1.gz
#   /usr/share/bash-completion/completions/xhud
#   /usr/share/zsh/vendor-completions/_xhud
#   /usr/share/fish/vendor_completions.d/xhud.fish
#   /usr/share/doc/xhud/{copyright,changelog.gz,examples/*}
#   /usr/share/lintian/overrides/xhud
set -euo pipefail
umask 022

if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    # The comment block at the top is the help.
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi
if [ $# -gt 0 ]; then
    echo "build.sh: no arguments are taken (see --help); settings come from the environment" >&2
    exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
packaging="$top/packaging"
cd "$top"

scratch=${SCRATCH:-.build-pkg}
outdir=${OUT:-out}
if [ -n "${VERSION:-}" ]; then
    version=$VERSION
elif [ -s VERSION ]; then
    version=$(tr -d ' \t\r\n' < VERSION)
else
    version=0.1.0
fi
if ! [[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]]; then
    echo "build.sh: '$version' is not a Debian version" >&2; exit 2
fi
arch=$(dpkg --print-architecture)
if [ -n "${MAINTAINER:-}" ]; then
    maintainer=$MAINTAINER
elif [ -n "${DEBFULLNAME:-}" ] && [ -n "${DEBEMAIL:-}" ]; then
    maintainer="$DEBFULLNAME <$DEBEMAIL>"
else
    maintainer="xhud maintainers <xhud@example.org>"
fi
# Reproducible dates: the last commit's, else now.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)}

for tool in dpkg-deb gzip strip readelf; do
    command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing (apt-get install dpkg-dev binutils)" >&2; exit 2; }
done

# --- build ---------------------------------------------------------------------------------
if [ -z "${NO_BUILD:-}" ]; then
    echo "== scripts/build-release --scratch-path $scratch"
    for product in xhud xhud-host xhud-fonts; do
        "$top/scripts/build-release" --scratch-path "$scratch" --product "$product" 2>&1 | tail -n 3
    done
fi
bindir="$scratch/release"
for b in xhud xhud-host xhud-fonts; do
    [ -x "$bindir/$b" ] || { echo "build.sh: $bindir/$b is missing (build first, or unset NO_BUILD)" >&2; exit 1; }
done
# scripts/build-release made the release link's function order ($scratch/layout/*.order) anew
# where it was stale; binaries packaged with NO_BUILD may not have been linked by it. A stale
# list only places code less well, so it is said, not fatal, and nothing is built here.
"$top/scripts/layout" --check --no-build --scratch-path "$scratch" || echo "build.sh: the packaged binaries' code is placed by a stale list" >&2

# --- stage ---------------------------------------------------------------------------------
stage=$(mktemp -d "${TMPDIR:-/tmp}/xhud-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root="$stage/root"
doc="$root/usr/share/doc/xhud"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/xhud" "$root/usr/share/man/man1" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d" "$doc/examples"

# Binaries, stripped as dh_strip does (the Swift runtime's metadata is in sections strip keeps).
install -m 755 "$bindir/xhud" "$root/usr/bin/xhud"
install -m 755 "$bindir/xhud-host" "$root/usr/lib/xhud/xhud-host"
install -m 755 "$bindir/xhud-fonts" "$root/usr/lib/xhud/xhud-fonts"
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
    "$root/usr/bin/xhud" "$root/usr/lib/xhud/xhud-host" "$root/usr/lib/xhud/xhud-fonts"

gzip -9n < "$packaging/xhud.1" > "$root/usr/share/man/man1/xhud.1.gz"
# bash-completion sources its files: no #! line (lintian: bash-completion-with-hashbang).
sed '1{/^#!/d}' "$packaging/completions/xhud.bash" > "$root/usr/share/bash-completion/completions/xhud"
chmod 644 "$root/usr/share/bash-completion/completions/xhud"
install -m 644 "$packaging/completions/_xhud" "$root/usr/share/zsh/vendor-completions/_xhud"
install -m 644 "$packaging/completions/xhud.fish" "$root/usr/share/fish/vendor_completions.d/xhud.fish"
# The scripts every keybinding example calls are commands on the PATH; the configurations are
# documentation.
for f in xhud-volume xhud-brightness; do
    install -m 755 "$packaging/examples/$f" "$root/usr/bin/$f"
done
for f in i3-config sxhkdrc openbox-rc.xml awesome-rc.lua picom.conf; do
    install -m 644 "$packaging/examples/$f" "$doc/examples/$f"
done
install -m 644 "$here/copyright" "$doc/copyright"
# Data, not code: the themes and the example configuration (found through ../share/xhud).
install -d "$root/usr/share/xhud/themes"
install -m 644 "$top"/Resources/themes/*.toml "$root/usr/share/xhud/themes/"
install -m 644 "$top/Resources/config.example.toml" "$root/usr/share/xhud/config.example.toml"
# The server at login: XDG autostart (every desktop) and a systemd user unit (not enabled).
install -d "$root/etc/xdg/autostart" "$root/usr/lib/systemd/user"
install -m 644 "$top/Resources/autostart/xhud.desktop" "$root/etc/xdg/autostart/xhud.desktop"
install -m 644 "$top/Resources/systemd/xhud.service" "$root/usr/lib/systemd/user/xhud.service"
install -d "$root/usr/share/lintian/overrides"
install -m 644 "$here/lintian-overrides" "$root/usr/share/lintian/overrides/xhud"

# A native package's changelog.
date_rfc=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
cat > "$stage/changelog" <<EOF
xhud ($version) unstable; urgency=medium

  * Packaged from git $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo "(no git)").

 -- $maintainer  $date_rfc
EOF
gzip -9n < "$stage/changelog" > "$doc/changelog.gz"

# --- dependencies --------------------------------------------------------------------------
# dpkg-shlibdeps wants a debian/control to read; a throwaway one is enough.
fallback="libc6, libcairo2, libpango-1.0-0, libpangocairo-1.0-0, libglib2.0-0, libharfbuzz0b, libfontconfig1, libx11-6, libxext6, libxrender1, libxrandr2, libxfixes3, libxdamage1, libx11-xcb1, libxcb1, libstdc++6, libgcc-s1"
depends=""
if command -v dpkg-shlibdeps >/dev/null; then
    mkdir -p "$stage/src/debian"
    printf 'Source: xhud\n\nPackage: xhud\nArchitecture: any\n' > "$stage/src/debian/control"
    # Only dynamically linked binaries: the front door may be linked statically (no NEEDED).
    dynamic=()
    for b in "$root/usr/bin/xhud" "$root/usr/lib/xhud/xhud-host" "$root/usr/lib/xhud/xhud-fonts"; do
        if LC_ALL=C readelf -d "$b" 2>/dev/null | grep -q NEEDED; then dynamic+=("$b"); fi
    done
    if [ ${#dynamic[@]} -gt 0 ] &&
       out=$(cd "$stage/src" && dpkg-shlibdeps -O "${dynamic[@]}" 2>"$stage/shlibdeps.err"); then
        depends=${out#shlibs:Depends=}
    fi
    [ -f "$stage/shlibdeps.err" ] && sed 's/^dpkg-shlibdeps: //; s/^/dpkg-shlibdeps: /' "$stage/shlibdeps.err" >&2
fi
if [ -z "$depends" ]; then
    echo "build.sh: dpkg-shlibdeps unavailable or failed; using the fixed list" >&2
    depends=$fallback
fi
# Pango is loaded with dlopen when text is first laid out (Sources/CPango): no NEEDED entry
# tells dpkg-shlibdeps about it.
case $depends in *libpangocairo-1.0-0*) ;; *) depends="$depends, libpangocairo-1.0-0" ;; esac
# gdk-pixbuf too, when an image other than PNG or SVG (JPEG, GIF, BMP, ...) is first decoded.
case $depends in *libgdk-pixbuf-2.0-0*) ;; *) depends="$depends, libgdk-pixbuf-2.0-0" ;; esac

# libwayland-client0 is loaded with dlopen on a Wayland compositor with layer-shell alone: an
# X11 desktop needs none of it.
# --- control -------------------------------------------------------------------------------
installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: xhud
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: librsvg2-2, adwaita-icon-theme | hicolor-icon-theme, xcompmgr | picom, libwayland-client0
Suggests: pulseaudio-utils | pipewire-pulse, brightnessctl, webp-pixbuf-loader
Section: x11
Priority: optional
Description: progress HUD (MBProgressHUD / SVProgressHUD style) for X11
 xhud shows a translucent rounded bezel over the desktop with a spinner,
 a pie, a ring, a bar, a success/error/info/warning icon, an image or text
 only, a label, a details label and an optional button, with fade and zoom
 animations. It looks the same with or without a compositing manager.
 .
 It replaces zenity --progress in scripts (the same stdin protocol), shows
 a HUD while wrapping a command, shows self-dismissing notifications, and
 serves named HUDs for volume and brightness keys that update in place.
 Keybinding examples for i3, sxhkd, Openbox and awesome are included.
EOF
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
echo /etc/xdg/autostart/xhud.desktop > "$root/DEBIAN/conffiles"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums" "$root/DEBIAN/conffiles"

# --- build the .deb --------------------------------------------------------------------------
mkdir -p "$outdir"
deb="$outdir/xhud_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "== $deb"
dpkg-deb -f "$deb" Package Version Architecture Installed-Size Depends
