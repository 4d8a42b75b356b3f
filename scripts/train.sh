#!/usr/bin/env bash
# Regenerates the shipped network, crates/engine/nets/lielow.nnue, from nothing: self-play data, then training,
# generation after generation, with fixed seeds.
#
#   scripts/train.sh [OUT_DIR]        (default: train-out; nothing outside it is touched)
#
# Generation 0 plays with the hand-set evaluation; generation k trains network k on the data of
# every generation so far, and generation k+1's games are played with network k. The last
# network is left in OUT_DIR/net<GENERATIONS>.nnue; copy it to crates/engine/nets/lielow.nnue and rebuild to
# ship it. Every step is deterministic: the same tree gives the same bytes on any machine
# (x86-64-v3 build), whatever its number of cores. Each step resumes: a data file already
# complete is kept, so a stopped run picks up where it was.
#
# Settings (environment): GENERATIONS=2  GAMES=50000 (per generation)  NODES=5000 (per move)
#   EPOCHS=10  BATCH=16384  LAMBDA=0.9  SCALE=120
# On a 2-core machine it takes about an hour: 23 minutes for generation 0's games (hand-set
# evaluation, 1.65 million positions), about 40 for generation 1's (the network plays slower:
# 1.87 million positions), 12 s and 28 s of training (see the README). The result is the
# shipped crates/engine/nets/lielow.nnue, byte for byte.
set -euo pipefail

out=${1:-train-out}
GENERATIONS=${GENERATIONS:-2}
GAMES=${GAMES:-50000}
NODES=${NODES:-5000}
EPOCHS=${EPOCHS:-10}
BATCH=${BATCH:-16384}
LAMBDA=${LAMBDA:-0.9}
SCALE=${SCALE:-120}

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"
(cd "$root" && cargo build --release --quiet)
bin=${CARGO_TARGET_DIR:-$root/target}/release/lielow

eval_choice=hand-set
data=()
for generation in $(seq 0 $((GENERATIONS - 1))); do
    file="$out/data$generation.bin"
    echo "== generation $generation: $GAMES games with $eval_choice ==" >&2
    "$bin" datagen --output "$file" --games "$GAMES" --nodes "$NODES" \
        --seed $((generation + 1)) --eval "$eval_choice"
    data+=("$file")
    net="$out/net$((generation + 1)).nnue"
    echo "== network $((generation + 1)) from ${data[*]} ==" >&2
    "$bin" train --data "${data[@]}" --output "$net" --epochs "$EPOCHS" --batch "$BATCH" \
        --lambda "$LAMBDA" --scale "$SCALE" --seed $((generation + 1)) \
        | tee "$out/net$((generation + 1)).txt"
    eval_choice=$net
done
echo "done: $out/net$GENERATIONS.nnue" >&2
