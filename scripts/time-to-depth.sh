#!/usr/bin/env bash
# Time to depth from the start position, as issue 21 reports it:
#
#   scripts/time-to-depth.sh BINARY [SIZE=8] [DEPTH=16] [THREADS=2] [RUNS=5]
#
# Each run starts BINARY afresh, sets BoardSize and Threads, waits for `readyok` (the table is
# allocated then), searches `go depth DEPTH` from the start and reads the engine's own `time` of
# the iteration at DEPTH (milliseconds from `go`, so start-up is not counted). Prints every
# run's time, sorted, and the median. With more than one thread runs differ (threads share
# work as they find it), so compare medians of several runs, on a machine doing nothing else.
set -euo pipefail
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
# shellcheck source=scripts/lib/ugi.sh
. "$(dirname "$0")/lib/ugi.sh"
binary=$1 size=${2:-8} depth=${3:-16} threads=${4:-2} runs=${5:-5}
out=$(mktemp "${TMPDIR:-/tmp}/lielow-ttd.XXXXXX")
trap 'rm -f "$out"' EXIT
times=()
for _ in $(seq "$runs"); do
    ugi_run "$binary" "$out" "setoption name BoardSize value $size" \
        "setoption name Threads value $threads" isready "position startpos" "go depth $depth"
    ms=$(awk -v d="$depth" '$1 == "info" && $2 == "depth" && $3 == d {
        for (i = 4; i < NF; i++) if ($i == "time") t = $(i + 1) } END { print t }' "$out")
    [ -n "$ms" ] || { echo "time-to-depth.sh: no iteration at depth $depth" >&2; exit 1; }
    times+=("$ms")
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
echo "${size}x${size} depth $depth, $threads threads, $runs runs (ms): ${sorted//$'\n'/ }" \
    "median $(echo "$sorted" | median)"
