#!/usr/bin/env bash
# Start-up benchmark: time from exec to the first frame on screen, for xhud and for other
# on-screen-display clients, against a floor (bench/floor.c: Xlib + Cairo, nothing else).
#
#   bench/startup.sh [--runs N] [--compositor] [--xhud PATH] [--timeout MS] [--keep-going]
#
# Builds bench/floor.c and bench/firstframe.c with cc into a temporary directory, starts its
# own Xvfb (and xcompmgr with --compositor), paints a solid background, then runs each client
# N times (default 15) under firstframe, which prints the milliseconds from fork+exec until
# the screen centre first differs from the background. Prints a Markdown table: min / median /
# max per client and the ratio of its median to the floor's.
#
# Clients: the floor; `xhud --mode annular --label Loading` (XHUD_BIN or --xhud, default
# .build/debug/xhud) twice: cold (no server: each run starts the display's server, ended
# before the next) and warm (the server of the previous run still up); and, when installed, osd_cat, aosd_cat, zenity --progress --pulsate,
# yad --progress --pulsate ("not installed" otherwise).
# Exit status: 0 when the floor was measured (other clients may fail: their rows say so),
# 1 when the floor could not be measured, 2 on usage errors.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
runs=15
compositor=0
timeout_ms=10000
xhud=${XHUD_BIN:-$repo/.build/debug/xhud}
bg=3366cc

while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --runs=*) runs=${1#*=}; shift ;;
        --compositor) compositor=1; shift ;;
        --xhud) xhud=${2:?--xhud needs a path}; shift 2 ;;
        --timeout) timeout_ms=${2:?--timeout needs milliseconds}; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "startup.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
case $runs in ''|*[!0-9]*|0) echo "startup.sh: --runs wants a positive integer" >&2; exit 2 ;; esac

for tool in cc pkg-config Xvfb; do
    command -v "$tool" >/dev/null || { echo "startup.sh: $tool is missing" >&2; exit 1; }
done
if [ $compositor = 1 ] && ! command -v xcompmgr >/dev/null; then
    echo "startup.sh: --compositor needs xcompmgr" >&2; exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/xhud-bench.XXXXXX")
xvfb_pid=
cm_pid=
cleanup() {
    declare -F end_servers >/dev/null && end_servers
    [ -n "$cm_pid" ] && kill "$cm_pid" 2>/dev/null || true
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# A private socket directory: the servers started here are this script's alone.
mkdir -m 700 "$work/rt"
export XDG_RUNTIME_DIR=$work/rt
end_servers() {
    local p
    for p in $(pgrep -x xhud-host); do
        tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" | grep -qx "XDG_RUNTIME_DIR=$work/rt" && kill "$p" 2>/dev/null
    done
    for _ in $(seq 100); do [ -S "$work/rt/xhud/${DISPLAY#:}.sock" ] || break; sleep 0.02; done
    return 0
}
trap 'exit 130' INT TERM

# --- build ---
cc -O2 -o "$work/floor" "$here/floor.c" $(pkg-config --cflags --libs x11 cairo) -lm
cc -O2 -o "$work/firstframe" "$here/firstframe.c" $(pkg-config --cflags --libs x11)
ff=$work/firstframe

# --- X server: its own, on a free display number chosen by Xvfb itself ---
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do
    [ -s "$work/display" ] && break
    kill -0 "$xvfb_pid" 2>/dev/null || { echo "startup.sh: Xvfb died:" >&2; cat "$work/xvfb.log" >&2; exit 1; }
    sleep 0.05
done
[ -s "$work/display" ] || { echo "startup.sh: Xvfb did not start" >&2; exit 1; }
export DISPLAY=:$(tr -d '[:space:]' <"$work/display")
unset WAYLAND_DISPLAY
"$ff" setbg "$bg"

if [ $compositor = 1 ]; then
    xcompmgr >"$work/xcompmgr.log" 2>&1 &
    cm_pid=$!
    "$ff" waitcm 5000 || { echo "startup.sh: xcompmgr did not take _NET_WM_CM_S0" >&2; cat "$work/xcompmgr.log" >&2; exit 1; }
    sleep 0.2
fi

# --- measure ---
floor_median=
rows=()
notes=()

# median of numbers on stdin (one per line)
stats() { sort -n | awk '{ v[NR] = $1 } END {
    if (NR == 0) exit 1
    med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.1f %.1f %.1f\n", v[1], med, v[NR] }'; }

# measure NAME CMD...: runs CMD $runs times and appends a table row. Watches the screen centre,
# or the region in $region (WxH+X+Y) when set.
region=
measure() {
    local name=$1; shift
    local times=$work/times.$RANDOM maps=$work/maps.$RANDOM out fail=
    : >"$times"; : >"$maps"
    for _ in $(seq "$runs"); do
        [ -n "${before_each:-}" ] && $before_each
        if out=$("$ff" --bg "$bg" --timeout "$timeout_ms" ${region:+--region "$region"} -- "$@" 2>"$work/ff.err"); then
            echo "${out%% *}" >>"$times"
            echo "${out##* }" >>"$maps"
        else
            fail="${out:-$(head -c 200 "$work/ff.err")}"
            break
        fi
    done
    if [ -n "$fail" ]; then
        rows+=("| $name | failed: $(echo "$fail" | tr '\n|' ' /') | | | | | | |")
        return 1
    fi
    read -r mn med mx < <(stats <"$times")
    read -r _ mapmed _ < <(stats <"$maps")
    local ratio="1.00"
    if [ -n "$floor_median" ]; then
        ratio=$(awk -v a="$med" -v b="$floor_median" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    else
        floor_median=$med
    fi
    rows+=("| $name | $runs | $mn | $med | $mx | ${ratio}× | $mapmed | ${region:-centre} |")
}

if ! measure "floor (Xlib + Cairo)" "$work/floor" Loading; then
    printf '%s\n' "${rows[@]}" >&2
    echo "startup.sh: the floor could not be measured" >&2
    exit 1
fi

if [ -x "$xhud" ]; then
    before_each=end_servers measure "xhud --mode annular, cold" "$xhud" --mode annular --label Loading || true
    measure "xhud --mode annular, warm" "$xhud" --mode annular --label Loading || true
    end_servers
else
    notes+=("xhud: not installed ($xhud does not exist; build it with swift build)")
fi
if command -v osd_cat >/dev/null; then
    region=600x300+340+250 measure "osd_cat" sh -c 'while :; do echo Loading; sleep 1; done | osd_cat --pos=middle --align=center --delay=30 --lines=1 --font=-*-*-bold-r-*-*-24-*-*-*-*-*-*-* --color=white' || true
else notes+=("osd_cat (xosd-bin): not installed"); fi
if command -v aosd_cat >/dev/null; then
    region=600x300+340+250 measure "aosd_cat" sh -c 'while :; do echo Loading; sleep 1; done | aosd_cat --position=4 --fade-full=30000 --fore-color=white' || true
else notes+=("aosd_cat (aosd-cat): not installed"); fi
if command -v zenity >/dev/null; then
    region=1280x800+0+0 measure "zenity --progress" zenity --progress --pulsate --no-cancel --text=Loading || true
else notes+=("zenity: not installed"); fi
if command -v yad >/dev/null; then
    region=1280x800+0+0 measure "yad --progress" yad --progress --pulsate --no-buttons --undecorated --center --text=Loading || true
else notes+=("yad: not installed"); fi

# --- report ---
echo
echo "Start-up to first frame, $runs runs each, Xvfb 1280x800$([ $compositor = 1 ] && echo ', xcompmgr' || echo ', no compositor')."
echo "Milliseconds from fork+exec until the watched pixels (the screen centre, or a region WxH+X+Y"
echo "for clients that do not cover the centre) first differ from the background; map = median"
echo "milliseconds until the first top-level MapNotify."
echo
echo "| client | runs | min ms | median ms | max ms | median / floor | map ms | watched |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
printf '%s\n' "${rows[@]}"
if [ ${#notes[@]} -gt 0 ]; then
    echo
    printf -- '- %s\n' "${notes[@]}"
fi
