#!/usr/bin/env bash
# A build's speed as each network's row in docs/results/networks.md gives it:
#
#   scripts/speed.sh BINARY [RUNS=5] [BENCH_DEPTH=8]
#
# 1. Nodes a second of `BINARY bench BENCH_DEPTH` with its network and with `--eval hand-set`,
#    after one warm-up run of each, then RUNS runs of each alternated so that a change in the
#    machine's load falls on both alike; the medians and their ratio (issue 49 asks the network
#    for 0.9 of the hand-set evaluation's speed).
# 2. The depth reached in one second (`go movetime 1000`, one thread, from a fresh process)
#    from the start of 8x8 and of 9x9, RUNS runs each: the deepest iteration that ended with an
#    exact score, and the median over the runs.
# Timings mean something only on cores that nothing else is using at the same priority.
set -euo pipefail
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
binary=$1 runs=${2:-5} bench_depth=${3:-8}
[ -x "$binary" ] || { echo "speed.sh: $binary is not an executable" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "speed.sh: RUNS=$runs is not a positive number" >&2; exit 2; }
[[ $bench_depth =~ ^[1-9][0-9]*$ ]] || { echo "speed.sh: BENCH_DEPTH=$bench_depth is not a positive number" >&2; exit 2; }

# shellcheck source=scripts/lib/ugi.sh
. "$(dirname "$0")/lib/ugi.sh"
bench_nps() { "$binary" bench "$bench_depth" "$@" 2>&1 | awk '$2 == "nodes" && $4 == "nps" { print $3 }'; }

bench_nps >/dev/null
bench_nps --eval hand-set >/dev/null
network=() hand_set=()
for _ in $(seq "$runs"); do
    network+=("$(bench_nps)")
    hand_set+=("$(bench_nps --eval hand-set)")
done
network_median=$(printf '%s\n' "${network[@]}" | median)
hand_set_median=$(printf '%s\n' "${hand_set[@]}" | median)
echo "bench $bench_depth nps, network: ${network[*]} (median $network_median)"
echo "bench $bench_depth nps, hand-set: ${hand_set[*]} (median $hand_set_median)"
awk -v n="$network_median" -v h="$hand_set_median" 'BEGIN { printf "network over hand-set: %.2f\n", n / h }'

out=$(mktemp "${TMPDIR:-/tmp}/lielow-speed.XXXXXX")
trap 'rm -f "$out"' EXIT
for size in 8 9; do
    depths=()
    for _ in $(seq "$runs"); do
        ugi_run "$binary" "$out" "setoption name BoardSize value $size" isready "position startpos" \
            "go movetime 1000"
        depths+=("$(awk '$1 == "info" && $2 == "depth" && / score / && !/bound/ { d = $3 } END { print d }' "$out")")
    done
    echo "${size}x$size depth in 1 s: ${depths[*]} (median $(printf '%s\n' "${depths[@]}" | median))"
done
