#!/usr/bin/env bash
# CPU benchmark: what a HUD costs while it is up, for xhud in three situations and, when
# installed, zenity --progress --pulsate for comparison.
#
#   bench/cpu.sh [--seconds N] [--xhud PATH]
#
# Starts its own Xvfb (1280x800x24, -noreset, no compositor) and runs each client, waits 1 s
# for it to settle, then measures over N seconds (default 5). For xhud, what is measured is the
# client and the display's server that draws its HUD (started by the first client, with a
# private XDG_RUNTIME_DIR, and drawing only that HUD):
#   CPU %        utime+stime from /proc/PID/stat over the window, in % of one core
#   wake-ups/s   voluntary + nonvoluntary context switches of all threads
#                (/proc/PID/task/*/status) over the window, per second
#   peak RSS     VmHWM from /proc/PID/status at the end of the window (xhud: the server's; the
#                client's is listed under the table)
#   frames/s     from XHUD_STATS=1 (`xhud-stats: frames=N ...` on exit), frames over the whole
#                run from exec to exit (so a little under the rate while up); xhud only
# Clients: xhud spinner (--mode indeterminate --label Loading), xhud static (--mode bar
# --progress 0.4 --label Volume), xhud flood (--mode bar fed 10 000 progress lines per second
# by a python3 writer), zenity --progress --pulsate ("not installed" otherwise).
# Prints a Markdown table. Exit status: 0 (a client that fails gets a "failed" row), 1 when
# Xvfb or python3 is missing or Xvfb does not start, 2 on usage errors.
set -Eeuo pipefail
# A failure the script did not foresee says where it was, rather than ending it without a word.
trap 'echo "cpu.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
seconds=5
xhud=${XHUD_BIN:-$repo/.build/debug/xhud}

while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
        --seconds=*) seconds=${1#*=}; shift ;;
        --xhud) xhud=${2:?--xhud needs a path}; shift 2 ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "cpu.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
case $seconds in ''|*[!0-9.]*|.|*.*.*) echo "cpu.sh: --seconds wants a positive number" >&2; exit 2 ;; esac
awk -v s="$seconds" 'BEGIN { exit !(s > 0) }' || { echo "cpu.sh: --seconds wants a positive number" >&2; exit 2; }

for tool in Xvfb python3; do
    command -v "$tool" >/dev/null || { echo "cpu.sh: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/xhud-cpu.XXXXXX")
xvfb_pid=
client_pids=()
cleanup() {
    for p in "${client_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    s=$(server_pid); [ -n "$s" ] && kill "$s" 2>/dev/null || true
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- X server: its own, on a free display number chosen by Xvfb itself ---
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do
    [ -s "$work/display" ] && break
    kill -0 "$xvfb_pid" 2>/dev/null || { echo "cpu.sh: Xvfb died:" >&2; cat "$work/xvfb.log" >&2; exit 1; }
    sleep 0.05
done
[ -s "$work/display" ] || { echo "cpu.sh: Xvfb did not start" >&2; exit 1; }
export DISPLAY=:$(tr -d '[:space:]' <"$work/display")
unset WAYLAND_DISPLAY
mkdir -m 700 "$work/rt"
export XDG_RUNTIME_DIR=$work/rt

hz=$(getconf CLK_TCK)
now() { date +%s.%N; }
# utime + stime in clock ticks (fields 14 and 15; the command name in field 2 may hold spaces)
cputicks() { local p t=0; for p in "$@"; do t=$((t + $(sed 's/.*) //' "/proc/$p/stat" | awk '{ print $12 + $13 }'))); done; echo "$t"; }
# context switches, all threads
# (a process that has exited counts nothing: under `set -e` and pipefail its failed `cat` ended
# the script with exit 1 and no word)
switches() { local p; for p in "$@"; do cat /proc/"$p"/task/*/status 2>/dev/null || true; done | awk '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { print n + 0 }'; }
hwm_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
# The display's server this script's clients started (its own XDG_RUNTIME_DIR tells it apart).
# The display's server of this run, or nothing; never a failure (under `set -e` a search that
# ends without a match, or a process that exits while it is looked at, ended the script with
# exit 1 and no word).
server_pid() {
    local p
    for p in $(pgrep -x xhud-host); do
        { tr '\0' '\n' <"/proc/$p/environ" | grep -qx "XDG_RUNTIME_DIR=$work/rt"; } 2>/dev/null && { echo "$p"; return 0; }
    done
    return 0
}
alive() { kill -0 "$1" 2>/dev/null && [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]; }

# The flood writer: 10 000 progress lines a second, in batches of 100 every 10 ms, keeping to
# the schedule; ends quietly when the reader goes.
cat >"$work/writer.py" <<'EOF'
import os, signal, sys, time
signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
rate, batch = 10000, 100
start, n = time.monotonic(), 0
try:
    while True:
        sys.stdout.write("".join(f"{(n + i) % 10001 / 100:.2f}\n" for i in range(batch)))
        sys.stdout.flush()
        n += batch
        delay = start + n / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
except (BrokenPipeError, OSError):
    os._exit(0)
EOF

rows=()
notes=()

# measure NAME FEED CMD...: FEED is "none" (stdin /dev/null), "hold" (stdin a FIFO held open and
# silent) or "flood" (stdin a FIFO fed by writer.py). Appends a table row.
measure() {
    local name=$1 feed=$2; shift 2
    local err=$work/err.$RANDOM fifo=$work/fifo.$RANDOM pid wpid= t_start t_end c0 c1 s0 s1 t0 t1 hwm rc=0
    t_start=$(now)
    case $feed in
        none)
            XHUD_STATS=1 "$@" </dev/null >/dev/null 2>"$err" &
            pid=$! ;;
        hold|flood)
            mkfifo "$fifo"
            XHUD_STATS=1 "$@" <"$fifo" >/dev/null 2>"$err" &
            pid=$!
            if [ "$feed" = flood ]; then
                python3 "$work/writer.py" >"$fifo" &
                wpid=$!
            else
                sleep 86400 >"$fifo" &  # holds the write end open, writes nothing
                wpid=$!
            fi ;;
    esac
    client_pids+=("$pid" ${wpid:+"$wpid"})
    sleep 1
    if ! alive "$pid"; then
        wait "$pid" 2>/dev/null || rc=$?
        [ -n "$wpid" ] && { kill "$wpid" 2>/dev/null || true; wait "$wpid" 2>/dev/null || true; }
        rows+=("| $name | failed: exited $rc before the measurement: $(head -c 160 "$err" | tr '\n|' ' /') | | | |")
        return 0
    fi
    local server= peak=$pid
    if [ "$1" = "$xhud" ]; then
        server=$(server_pid)
        if [ -n "$server" ]; then peak=$server; else notes+=("$name: no server of this run was found: the client alone is measured"); fi
    fi
    c0=$(cputicks "$pid" $server 2>/dev/null || echo); s0=$(switches "$pid" $server); t0=$(now)
    sleep "$seconds"
    c1=$(cputicks "$pid" $server 2>/dev/null || echo); s1=$(switches "$pid" $server); t1=$(now); hwm=$(hwm_kib "$peak" 2>/dev/null || echo)
    [ -n "$server" ] && notes+=("$name: the client's RSS $(awk -v k="$(rss_kib "$pid")" 'BEGIN { printf "%.1f", k / 1024 }') MiB (the server draws)")
    if [ -z "$c0" ] || [ -z "$c1" ] || [ -z "$hwm" ]; then
        rows+=("| $name | failed: exited during the measurement: $(head -c 160 "$err" | tr '\n|' ' /') | | | |")
        [ -n "$wpid" ] && { kill "$wpid" 2>/dev/null || true; wait "$wpid" 2>/dev/null || true; }
        wait "$pid" 2>/dev/null || true
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do alive "$pid" || break; sleep 0.05; done
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
    wait "$pid" 2>/dev/null || true
    t_end=$(now)
    if [ -n "$wpid" ]; then
        kill "$wpid" 2>/dev/null || true
        wait "$wpid" 2>/dev/null || true
    fi
    local frames fps
    frames=$(sed -n 's/.*xhud-stats: frames=\([0-9]*\).*/\1/p' "$err" | tail -n 1)
    if [ -n "$frames" ]; then
        fps=$(awk -v f="$frames" -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.1f", f / (b - a) }')
    else
        fps="n/a"
    fi
    rows+=("$(awk -v name="$name" -v c="$((c1 - c0))" -v s="$((s1 - s0))" -v a="$t0" -v b="$t1" \
                 -v hz="$hz" -v hwm="$hwm" -v fps="$fps" 'BEGIN {
        dt = b - a
        printf "| %s | %.1f | %.0f | %.1f | %s |", name, 100 * c / hz / dt, s / dt, hwm / 1024, fps }')")
}

if [ -x "$xhud" ]; then
    measure "xhud spinner" none "$xhud" --mode indeterminate --label Loading
    measure "xhud static" none "$xhud" --mode bar --progress 0.4 --label Volume
    measure "xhud flood" flood "$xhud" --mode bar --label Copying
else
    notes+=("xhud: not installed ($xhud does not exist; build it with swift build)")
fi
if command -v zenity >/dev/null; then
    measure "zenity --progress" hold zenity --progress --pulsate --no-cancel --text=Loading
else
    notes+=("zenity: not installed")
fi

echo
echo "CPU while up: ${seconds} s measured per client after 1 s to settle, Xvfb 1280x800, no compositor,"
echo "$(nproc) CPUs. CPU % of one core (utime+stime); wake-ups = context switches of all threads per"
echo "second; peak RSS = VmHWM; frames/s from XHUD_STATS over the whole run (exec to exit)."
echo
echo "| client | CPU % | wake-ups/s | peak RSS MiB | frames/s |"
echo "| --- | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
if [ ${#notes[@]} -gt 0 ]; then
    echo
    printf -- '- %s\n' "${notes[@]}"
fi
