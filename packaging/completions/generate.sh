#!/bin/sh
# Regenerates the shell completions in this directory from a built xhud-host, which writes
# them from the option table the command parses with (Sources/HUDCommandLine:
# --generate-completion-script bash|zsh|fish).
#
#   packaging/completions/generate.sh .build/debug/xhud-host
#
# The scripts complete the command `xhud` (the front door), which takes the same arguments.
# The man page's OPTIONS section comes from the same table: it is regenerated too
# (packaging/generate-manual.sh).
set -eu

host=${1:?usage: generate.sh PATH/TO/xhud-host}
[ -x "$host" ] || { echo "generate.sh: $host is not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)

gen() {  # gen SHELL FILE
    tmp="$here/.$2.tmp"
    if ! "$host" --generate-completion-script "$1" > "$tmp"; then
        rm -f "$tmp"; echo "generate.sh: $host failed for $1" >&2; exit 1
    fi
    [ -s "$tmp" ] || { rm -f "$tmp"; echo "generate.sh: empty $1 script" >&2; exit 1; }
    mv "$tmp" "$here/$2"
    echo "wrote $here/$2"
}

gen bash xhud.bash
gen zsh _xhud
gen fish xhud.fish

sh "$here/../generate-manual.sh" "$host"
