#!/usr/bin/env bash
# Makes the evaluation network from nothing: self-play data, then training, generation after
# generation, with fixed seeds.
#
#   scripts/train.sh [OUT_DIR]        (default: train-out; nothing outside it is touched)
#
# Generation 0 plays with the hand-set evaluation (or, with START=embedded, with the player's
# built-in network); generation k trains network k+1 on the data of every generation so far, and
# generation k+1's games are played with network k+1. The last network is left in
# OUT_DIR/net<GENERATIONS>.nnue; copy it to crates/engine/nets/lielow.nnue and rebuild to ship it.
#
# The games depend on the search, which keeps changing, so the binary that plays is pinned:
# DATAGEN_REV is built once into OUT_DIR/rev-<commit> (from `git archive`, with its own target
# directory there) and plays every generation's games and trains the intermediate networks
# (which its games are played with); the last network is trained by this checkout's own
# binary. Every step is deterministic: the same settings give the same bytes on any machine
# (x86-64-v3 build), whatever its number of cores or cluster nodes. Each step resumes: a data
# file already complete is kept, so a stopped run picks up where it was.
#
# Settings (environment), with their defaults:
#   DATAGEN_REV=0a99178b6e49e863469b9d71f1f34093909042ea  the revision that plays (a commit or
#       a name git knows; `checkout`: this checkout plays too). At least 1427a84, which writes
#       the data format this trainer reads (version 2).
#   GENERATIONS=2
#   GAMES=50000        games per generation: one number for all, or one per generation
#                      (GAMES="50000 50000 400000" with GENERATIONS=3)
#   NODES=5000 (per move)  EPOCHS=10  BATCH=16384  LAMBDA=0.9  SCALE=120
#   MIRROR=0           1: the last network is trained with --mirror
#   START=hand-set     what generation 0 plays with: hand-set, or embedded (the player's own
#                      built-in network, to go on from a shipped one)
#   FIRST_SEED=1       generation g's games and network get seed FIRST_SEED + g
#   CLUSTER=0          N > 0: each generation's games are played as N shards on a Slurm
#                      cluster through scripts/cluster/datagen.sh (OUT_DIR on shared storage;
#                      SBATCH_ARGS as there) and joined into the same file a local run writes
#
# With the defaults this makes network 2 of revision 0a99178's games (2 x 50000 games, seeds 1
# and 2, 5000 nodes, both boards), trained at 10 epochs, seed 2. Network 2 was made
# by this recipe at d1db00e (its file records the data settings), whose data format (version 1)
# this trainer no longer reads; to remake it byte for byte, run d1db00e's own scripts/train.sh.
# The shipped network 3 goes on from network 2 (docs/results/networks.md): 100,000 games of
# network 2 played by 8c7e29f, trained alone with the mirror images; it is left in
# net3-out/net1.nnue (the shipped file's description names its data file g2.bin, where this
# run's is data0.bin). Not remade end to end yet: a fresh run's first 30 games matched the
# shipped network's data file byte for byte.
#
#   DATAGEN_REV=8c7e29f START=embedded GENERATIONS=1 GAMES=100000 FIRST_SEED=3 MIRROR=1 \
#     scripts/train.sh net3-out
#
# Time on 2 cores (docs/results/networks.md): a generation of 50000 games at 5000 nodes
# is ~1.65 million positions, ~23 minutes with the hand-set evaluation (~1,221 positions/s) and
# ~45 minutes with a network (~700 positions/s); with CLUSTER=N on N such nodes, about 1/N of it
# plus the queue. The training takes minutes.
set -euo pipefail

out=${1:-train-out}
DATAGEN_REV=${DATAGEN_REV:-0a99178b6e49e863469b9d71f1f34093909042ea}
GENERATIONS=${GENERATIONS:-2}
GAMES=${GAMES:-50000}
NODES=${NODES:-5000}
EPOCHS=${EPOCHS:-10}
BATCH=${BATCH:-16384}
LAMBDA=${LAMBDA:-0.9}
SCALE=${SCALE:-120}
MIRROR=${MIRROR:-0}
CLUSTER=${CLUSTER:-0}
START=${START:-hand-set}
FIRST_SEED=${FIRST_SEED:-1}
# The first revision that writes data format 2 (the one this checkout's trainer reads).
FORMAT_2=1427a844606c2d3275d0dfefc9d551082cace18e

fail() { echo "train.sh: $*" >&2; exit 2; }
read -r -a games <<<"$GAMES"
case $START in hand-set | embedded) ;; *) fail "START=$START: give hand-set or embedded" ;; esac
[[ $FIRST_SEED =~ ^[0-9]+$ ]] || fail "FIRST_SEED=$FIRST_SEED is not a number"
case ${#games[@]} in
1) for ((g = 1; g < GENERATIONS; g++)); do games+=("${games[0]}"); done ;;
"$GENERATIONS") ;;
*) fail "GAMES has ${#games[@]} numbers; give one, or one per generation ($GENERATIONS)" ;;
esac

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
mkdir -p "$out"
out=$(cd "$out" && pwd)
(cd "$root" && cargo build --release --quiet)
bin=${CARGO_TARGET_DIR:-$root/target}/release/lielow

# The pinned binary, built once.
if [ "$DATAGEN_REV" = checkout ]; then
    player=$bin
else
    rev=$(git -C "$root" rev-parse --verify --quiet "$DATAGEN_REV^{commit}") ||
        fail "DATAGEN_REV=$DATAGEN_REV is no commit of this repository"
    git -C "$root" merge-base --is-ancestor "$FORMAT_2" "$rev" ||
        fail "DATAGEN_REV=$DATAGEN_REV is older than $FORMAT_2: it writes data format 1, which this trainer does not read"
    pinned=$out/rev-$rev
    player=$pinned/lielow
    if [ ! -x "$player" ]; then
        echo "== building $rev into $pinned ==" >&2
        rm -rf "$pinned/tree"
        mkdir -p "$pinned/tree"
        git -C "$root" archive "$rev" | tar -x -C "$pinned/tree"
        (cd "$pinned/tree" && CARGO_TARGET_DIR=$pinned/target cargo build --release --locked --quiet)
        cp "$pinned/target/release/lielow" "$player.tmp"
        mv "$player.tmp" "$player"
    fi
fi

eval_choice=$START
data=()
for ((generation = 0; generation < GENERATIONS; generation++)); do
    file="$out/data$generation.bin"
    count=${games[$generation]}
    seed=$((FIRST_SEED + generation))
    flags=(--games "$count" --nodes "$NODES" --seed "$seed" --eval "$eval_choice")
    echo "== generation $generation: $count games with $eval_choice ==" >&2
    if [ "$CLUSTER" -gt 0 ]; then
        if [ ! -f "$file" ]; then
            shards=$out/data$generation.d
            WAIT=1 LIELOW=$player LIELOW_JOIN=$bin "$root/scripts/cluster/datagen.sh" \
                "$shards" "$CLUSTER" "${flags[@]}" >&2
            mv "$shards/data.bin" "$file"
        fi
    else
        "$player" datagen --output "$file" "${flags[@]}"
    fi
    data+=("$file")
    net="$out/net$((generation + 1)).nnue"
    trainer=$player mirror=()
    if [ $((generation + 1)) = "$GENERATIONS" ]; then
        trainer=$bin
        [ "$MIRROR" = 1 ] && mirror=(--mirror)
    fi
    echo "== network $((generation + 1)) from ${data[*]} ==" >&2
    "$trainer" train --data "${data[@]}" --output "$net" --epochs "$EPOCHS" --batch "$BATCH" \
        --lambda "$LAMBDA" --scale "$SCALE" --seed "$seed" "${mirror[@]}" \
        | tee "$out/net$((generation + 1)).txt"
    eval_choice=$net
done
echo "done: $out/net$GENERATIONS.nnue" >&2
