#!/usr/bin/env bash
# SPRT of the current tree against a git revision:
#
#   scripts/sprt.sh <git-rev> [extra `lielow match` flags...]
#
# Builds the working tree (cargo build --release) and <git-rev> (in a temporary git worktree, removed
# on exit), then runs `lielow match` with the current tree's engine first ("new") against the
# revision's ("base") until the SPRT decides, and prints the verdict.
#
# Defaults, each overridable by an environment variable:
#   SPRT=elo0=0,elo1=5,alpha=0.05,beta=0.05 (SPRT=none: exactly GAMES games, no test)
#   TC=2+0.02 (seconds: base+increment)
#   CONCURRENCY=$(nproc)   GAMES=20000 (upper bound; the SPRT normally stops well before)
#   PLIES=8 (random opening plies; or BOOK=<file> for an openings file)   SIZE=8   SEED=<time>
# Extra arguments go to `lielow match` after these (e.g. --movetime 100 instead of a clock is
# given as TC= plus `--movetime 100`; per-engine options are not supported here).
#
# Exit status: 0 when H1 is accepted (new is better) or SPRT=none played its games, 1 when H0
# is accepted, 3 when the match ended undecided, 2 on errors.
set -euo pipefail

if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
rev=$1
shift

root=$(git rev-parse --show-toplevel)
base_commit=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}") || {
    echo "sprt.sh: '$rev' is not a commit" >&2
    exit 2
}

SPRT=${SPRT:-elo0=0,elo1=5,alpha=0.05,beta=0.05}
TC=${TC-2+0.02}
CONCURRENCY=${CONCURRENCY:-$(nproc 2>/dev/null || echo 1)}
GAMES=${GAMES:-20000}
PLIES=${PLIES:-8}
SIZE=${SIZE:-8}
SEED=${SEED:-$(date +%s)}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lielow-sprt.XXXXXX")
cleanup() {
    git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

echo "building the working tree ..." >&2
(cd "$root" && cargo build --release --quiet)
new_target=${CARGO_TARGET_DIR:-$root/target}
cp "$new_target/release/lielow" "$tmp/lielow-new"

echo "building $rev ($base_commit) ..." >&2
git -C "$root" worktree add --quiet --detach "$tmp/base" "$base_commit"
(cd "$tmp/base" && CARGO_TARGET_DIR="$tmp/target" cargo build --release --quiet)
cp "$tmp/target/release/lielow" "$tmp/lielow-base"

openings=(--random-plies "$PLIES" --size "$SIZE")
if [ -n "${BOOK:-}" ]; then
    openings=(--openings "$BOOK")
fi
sprt=(--sprt "$SPRT")
if [ "$SPRT" = none ]; then
    sprt=()
fi
time_control=()
if [ -n "$TC" ]; then
    time_control=(--tc "$TC")
fi

echo "SPRT $SPRT, tc ${TC:-none}, concurrency $CONCURRENCY, seed $SEED" >&2
status=0
"$tmp/lielow-new" match \
    --engine "$tmp/lielow-new" name=new \
    --engine "$tmp/lielow-base" name=base \
    "${sprt[@]}" --games "$GAMES" --concurrency "$CONCURRENCY" --seed "$SEED" \
    "${time_control[@]}" "${openings[@]}" --json "$tmp/summary.json" "$@" || status=$?
if [ "$status" -ne 0 ]; then
    echo "sprt.sh: the match failed (status $status)" >&2
    exit 2
fi

verdict=$(sed -n 's/.*"verdict": "\{0,1\}\([A-Za-z0-9]*\)"\{0,1\}}.*/\1/p' "$tmp/summary.json")
case $verdict in
H1)
    echo "verdict: H1 accepted: new is stronger than $rev (SPRT $SPRT)"
    exit 0
    ;;
H0)
    echo "verdict: H0 accepted: new is not stronger than $rev (SPRT $SPRT)"
    exit 1
    ;;
*)
    if [ "$SPRT" = none ]; then
        echo "played $GAMES games (no SPRT): the Elo is in the summary above"
        exit 0
    fi
    echo "verdict: undecided after the game limit (SPRT $SPRT)"
    exit 3
    ;;
esac
