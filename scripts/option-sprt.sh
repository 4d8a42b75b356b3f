#!/usr/bin/env bash
# SPRT of one engine binary against itself with different development options:
#
#   scripts/option-sprt.sh "<new options>" ["<base options>"] [extra `lielow match` flags...]
#
# e.g.  scripts/option-sprt.sh "option.ContHistory=true"
#       SIZE=9 scripts/option-sprt.sh "option.LMRBase=90" "" --nodes 20000
#
# This is how each search heuristic was measured before its default changed: the switch on
# ("new") against the same binary with it off ("base"), so nothing but the option differs.
# The binary is target/release/lielow as built from the working tree (cargo build --release),
# copied first so a rebuild during the match changes nothing.
#
# Defaults, each overridable by an environment variable:
#   SPRT=elo0=0,elo1=10,alpha=0.05,beta=0.05   LIMIT="--nodes 20000" (or e.g. "--tc 2+0.02")
#   CONCURRENCY=1   GAMES=6000 (upper bound)   PLIES=8 (random opening plies)   SIZE=8
#   SEED=21   OUT=<dir for the JSON summary and the log; default: a temporary directory>
#   BOOK=<openings file> plays its openings (shuffled by SEED) instead of PLIES random plies;
#   balanced ones (`lielow openings --balanced-depth 8`) make fewer pairs that split 1-1.
# Exit status: 0 when H1 is accepted (new is better), 1 when H0 is accepted, 3 when the match
# ended undecided, 2 on errors.
set -euo pipefail

if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
new_options=$1
base_options=${2:-}
shift $(($# >= 2 ? 2 : 1))

SPRT=${SPRT:-elo0=0,elo1=10,alpha=0.05,beta=0.05}
LIMIT=${LIMIT:---nodes 20000}
CONCURRENCY=${CONCURRENCY:-1}
GAMES=${GAMES:-6000}
PLIES=${PLIES:-8}
SIZE=${SIZE:-8}
SEED=${SEED:-21}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/lielow-option-sprt.XXXXXX")}
BOOK=${BOOK:-}
mkdir -p "$OUT"
if [ -n "$BOOK" ]; then
    openings=(--openings "$BOOK" --openings-order random)
else
    openings=(--random-plies "$PLIES")
fi

root=$(git rev-parse --show-toplevel)
(cd "$root" && cargo build --release --quiet)
binary="$OUT/lielow"
cp "${CARGO_TARGET_DIR:-$root/target}/release/lielow" "$binary"

# shellcheck disable=SC2086 # the option lists and LIMIT are word lists
"$binary" match \
    --engine "$binary" name=new $new_options \
    --engine "$binary" name=base $base_options \
    $LIMIT --size "$SIZE" "${openings[@]}" --seed "$SEED" \
    --games "$GAMES" --concurrency "$CONCURRENCY" --sprt "$SPRT" \
    --json "$OUT/summary.json" "$@" | tee "$OUT/match.log"
verdict=$(grep -o 'H[01] accepted' "$OUT/match.log" | tail -1 || true)
case $verdict in
    "H1 accepted") exit 0 ;;
    "H0 accepted") exit 1 ;;
    *) exit 3 ;;
esac
