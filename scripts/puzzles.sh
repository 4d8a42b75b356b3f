#!/usr/bin/env bash
# Makes the shipped puzzle sets from nothing, one command each (docs/puzzles.md):
#
#   scripts/puzzles.sh [out-dir]
#
# builds the release binary and runs, for each board size, the engine's own games (seed 1)
# until 300 puzzles are proven, into out-dir/8x8.txt and out-dir/9x9.txt (default: puzzles/,
# the shipped sets). Each file's first line records the command that made it. The same command
# writes the same file on any machine with the same engine (the games are its own: the shipped
# sets come from the engine of 6b203f0); CONCURRENCY (default 2) only changes how long it takes.
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
cd "$(dirname "$0")/.."
out="${1:-puzzles}"
mkdir -p "$out"
cargo build --release --quiet
for size in 8 9; do
    time target/release/lielow puzzles --size "$size" --count 300 \
        --concurrency "${CONCURRENCY:-2}" -o "$out/${size}x${size}.txt"
done
