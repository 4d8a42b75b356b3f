#!/usr/bin/env bash
# Search time with a warm table, as a game sees it:
#
#   scripts/warm-search.sh BINARY [DEPTH=14] [SIZE=8] [COUNT=20]
#
# One process of BINARY (default Hash) searches COUNT positions one after another to DEPTH
# (`go depth`), as the moves of a game follow each other, so the table's memory is in use
# rather than freshly allocated as in `lielow bench` (where every position gets a new table).
# The positions are `lielow openings --size SIZE --plies 20 --count COUNT --seed 5` of BINARY:
# middle games, the same for every binary of one rules version. Prints the sum of the engine's
# own `time` of each last iteration and the sum of its nodes: builds that search the same
# trees show the same nodes, and their times compare (alternate the binaries over several runs
# and compare medians: the machine's speed drifts).
set -euo pipefail
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
# shellcheck source=scripts/lib/ugi.sh
. "$(dirname "$0")/lib/ugi.sh"
binary=$1 depth=${2:-14} size=${3:-8} count=${4:-20}
out=$(mktemp "${TMPDIR:-/tmp}/lielow-warm.XXXXXX")
trap 'rm -f "$out"' EXIT
mapfile -t positions < <("$binary" openings --size "$size" --plies 20 --count "$count" --seed 5)
commands=(isready)
for position in "${positions[@]}"; do
    commands+=("position fen $position" "go depth $depth")
done
ugi_run "$binary" "$out" "${commands[@]}"
awk -v d="$depth" '$1 == "info" && $2 == "depth" {
        for (i = 4; i < NF; i++) { if ($i == "time") t = $(i + 1); if ($i == "nodes") n = $(i + 1) } }
    $1 == "bestmove" { ms += t; nodes += n; searches++ }
    END { printf "%d searches to depth %d: %d ms, %d nodes\n", searches, d, ms, nodes }' "$out"
