#!/bin/sh
# Regenerates the OPTIONS section of the man page, packaging/xhud.1, between its lines
# `.\" OPTIONS begin` and `.\" OPTIONS end`, from a built xhud-host, which writes it from the
# option table the command parses with (--generate-manual-options). The rest of the page is
# written by hand.
#
#   packaging/generate-manual.sh .build/debug/xhud-host
set -eu

host=${1:?usage: generate-manual.sh PATH/TO/xhud-host}
[ -x "$host" ] || { echo "generate-manual.sh: $host is not an executable" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
page="$here/xhud.1"
section="$here/.xhud.1.options.tmp"
tmp="$here/.xhud.1.tmp"

if ! "$host" --generate-manual-options > "$section"; then
    rm -f "$section"; echo "generate-manual.sh: $host failed" >&2; exit 1
fi
[ -s "$section" ] || { rm -f "$section"; echo "generate-manual.sh: empty OPTIONS section" >&2; exit 1; }

# The markers are found by ENVIRON, which awk takes as it is (-v would read the backslash).
export XHUD_MAN_BEGIN='.\" OPTIONS begin' XHUD_MAN_END='.\" OPTIONS end'
if ! awk -v section="$section" '
    index($0, ENVIRON["XHUD_MAN_BEGIN"]) == 1 {
        print; begun = 1; skipping = 1
        while ((getline line < section) > 0) print line
        next
    }
    index($0, ENVIRON["XHUD_MAN_END"]) == 1 { if (!skipping) exit 1; skipping = 0; ended = 1 }
    !skipping { print }
    END { if (!begun || !ended || skipping) exit 1 }
' "$page" > "$tmp"; then
    rm -f "$section" "$tmp"
    echo "generate-manual.sh: $page lacks the lines '$XHUD_MAN_BEGIN' and '$XHUD_MAN_END'" >&2
    exit 1
fi
rm -f "$section"
mv "$tmp" "$page"
echo "wrote $page"
