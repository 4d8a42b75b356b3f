#!/usr/bin/env bash
# One generation of the evaluation network, from the shipped one: self-play games of the shipped
# network, a network trained from it on them, and a gate by games against it.
#
#   scripts/generation.sh [OUT_DIR]      (default: generation-out; the candidate and the logs)
#
# 1. Games. This checkout's engine (built once, copied into the cache so a rebuild changes
#    nothing) plays GAMES self-play games with the shipped network (crates/engine/nets/
#    lielow.nnue) at NODES nodes a move on the boards SIZE names (both: each game's board drawn
#    half and half), seed SEED, into $CACHE/data/<network>/games-n<NODES>-s<SEED>.bin (with
#    -<SIZE>x<SIZE> before .bin for one board), where <network> is the first 16 hex digits of
#    the network file's SHA-256. The file resumes where a stopped run left it; games of
#    another NODES, SEED or SIZE go to a file of their own beside it, and training reads them
#    all.
# 2. Training. A candidate network trained on those games and their left-right mirror images,
#    going on from the shipped network (INIT=embedded; INIT=none starts from random weights),
#    and also on the games of the HISTORY-1 latest networks shipped before it whose data the
#    cache still holds (found through the network file's git history; a network without games
#    there is passed over). It lands in
#    OUT_DIR/candidate.nnue, its loss table beside it.
# 3. Gate. An SPRT of the candidate against the shipped network in the same binary
#    (scripts/option-sprt.sh "option.EvalFile=..."), elo0 0, elo1 10, alpha = beta = 0.05, at
#    GATE_LIMIT on balanced books (made once into the cache), on 8x8 and then 9x9. The
#    candidate passes when one size accepts H1 and the other does not accept H0 and shows no
#    loss (Elo >= 0); the script says so, and shipping it is copying the file to
#    crates/engine/nets/lielow.nnue (Bench changes; docs/results/networks.md gets the row,
#    its speed figures from scripts/speed.sh).
#
# Settings (environment), with their defaults:
#   GAMES=80000  NODES=2500  SEED=4  SIZE=both (or 8 or 9)
#   (2500 nodes a move make twice the games of 5000 in the same time, and the network trained
#   on them won on both boards: docs/results/networks.md, networks 8 and 9)
#   HISTORY=2 (generations of data to train on)
#   INIT=embedded  EPOCHS=3  BATCH=16384  LAMBDA=0.9  SCALE=120  RATE=0.001
#   (going on from the shipped network, a few epochs at a small step size: more overfits)
#   GATE_LIMIT="--nodes 20000"  GATE_GAMES=6000 (upper bound per size)  CONCURRENCY=$(nproc)
#   STEPS="games train gate" (any of them, in this order)
#   CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/lielow (outside the work tree; never committed)
#
# Time on 2 cores (docs/results/networks.md has the measured rows): 80,000 games at 2500
# nodes are about 3 million positions (40,000 at 5000: 1.6 million) in about 25 minutes of
# idle cores; training on two generations of them and their mirror images (6 to 9 million
# positions) about a minute; each gate SPRT at 20,000 nodes 5 to 30 minutes (networks 6 to 8:
# 5 to 15; a size that stays undecided runs to GATE_GAMES). A generation is about an hour of
# the machine.
#
# Exit status: 0 when the candidate passes (or the steps asked for ran), 1 when it fails the
# gate, 2 on errors.
set -euo pipefail

out=${1:-generation-out}
GAMES=${GAMES:-80000}
NODES=${NODES:-2500}
SEED=${SEED:-4}
SIZE=${SIZE:-both}
HISTORY=${HISTORY:-2}
INIT=${INIT:-embedded}
EPOCHS=${EPOCHS:-3}
BATCH=${BATCH:-16384}
LAMBDA=${LAMBDA:-0.9}
SCALE=${SCALE:-120}
RATE=${RATE:-0.001}
GATE_LIMIT=${GATE_LIMIT:---nodes 20000}
GATE_GAMES=${GATE_GAMES:-6000}
CONCURRENCY=${CONCURRENCY:-$(nproc 2>/dev/null || echo 1)}
STEPS=${STEPS:-games train gate}
CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lielow}

fail() { echo "generation.sh: $*" >&2; exit 2; }
for number in GAMES NODES SEED HISTORY EPOCHS BATCH GATE_GAMES CONCURRENCY; do
    [[ ${!number} =~ ^[0-9]+$ ]] || fail "$number=${!number} is not a number"
done
case $SIZE in both | 8 | 9) ;; *) fail "SIZE=$SIZE: give both, 8 or 9" ;; esac
[ "$HISTORY" -ge 1 ] || fail "HISTORY=$HISTORY: at least 1 (the newest games)"
case $INIT in embedded | none) ;; *) fail "INIT=$INIT: give embedded or none" ;; esac
for step in $STEPS; do
    case $step in games | train | gate) ;; *) fail "STEPS: unknown step '$step'" ;; esac
done
wants() { [[ " $STEPS " == *" $1 "* ]]; }

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
net_path=crates/engine/nets/lielow.nnue
network_id() { sha256sum | cut -c1-16; }
shipped=$(network_id <"$root/$net_path")
mkdir -p "$out"
out=$(cd "$out" && pwd)
(cd "$root" && cargo build --release --quiet)
bin=${CARGO_TARGET_DIR:-$root/target}/release/lielow

data_dir=$CACHE/data/$shipped
mkdir -p "$data_dir"
board_suffix=
[ "$SIZE" = both ] || board_suffix=-${SIZE}x$SIZE
games_file=$data_dir/games-n$NODES-s$SEED$board_suffix.bin
echo "shipped network $shipped; its games: $games_file" >&2

if wants games; then
    # The player is pinned per network: the games a resumed run adds come from the same search.
    player=$data_dir/lielow
    if [ ! -x "$player" ]; then
        cp "$bin" "$player.tmp"
        mv "$player.tmp" "$player"
        git -C "$root" rev-parse HEAD >"$data_dir/player-commit"
    fi
    "$player" datagen --output "$games_file" --games "$GAMES" --nodes "$NODES" --seed "$SEED" \
        --size "$SIZE" --eval embedded --concurrency "$CONCURRENCY"
fi

candidate=$out/candidate.nnue
if wants train; then
    # The newest generation's games, then those of the networks shipped before it.
    data=()
    generations=0
    while read -r commit; do
        [ "$generations" -lt "$HISTORY" ] || break
        id=$(git -C "$root" show "$commit:$net_path" | network_id)
        [ "$generations" -gt 0 ] || id=$shipped
        found=("$CACHE/data/$id"/games-*.bin)
        if [ -e "${found[0]}" ]; then
            data+=("${found[@]}")
            generations=$((generations + 1))
        elif [ "$generations" = 0 ]; then
            fail "no games of the shipped network in $CACHE/data/$id: run the games step"
        else
            # A network that made no games (a candidate trained beside the one shipped before
            # it) is passed over: the generation before it still counts.
            echo "no games in the cache for network $id: looking further back" >&2
        fi
    done < <(echo HEAD; git -C "$root" log --format=%H -- "$net_path" | tail -n +2)
    init=()
    [ "$INIT" = embedded ] && init=(--init embedded)
    echo "== training on ${data[*]} ==" >&2
    "$bin" train --data "${data[@]}" --output "$candidate" --mirror "${init[@]}" \
        --epochs "$EPOCHS" --batch "$BATCH" --lambda "$LAMBDA" --scale "$SCALE" --rate "$RATE" \
        --seed "$SEED" | tee "$out/candidate.txt"
fi

if wants gate; then
    [ -f "$candidate" ] || fail "no candidate at $candidate: run the train step"
    verdicts=()
    for size in 8 9; do
        book=$data_dir/book$size.txt
        if [ ! -s "$book" ]; then
            "$bin" openings --size "$size" --plies 8 --count 3000 --seed 7 --balanced-depth 8 \
                --max-eval 80 >"$book.tmp"
            mv "$book.tmp" "$book"
        fi
        status=0
        OUT=$out/gate$size SIZE=$size BOOK=$book SEED=$((40 + size)) GAMES=$GATE_GAMES \
            CONCURRENCY=$CONCURRENCY LIMIT=$GATE_LIMIT \
            "$root/scripts/option-sprt.sh" "option.EvalFile=$candidate" || status=$?
        [ "$status" = 2 ] && fail "the gate on ${size}x$size stopped on an error"
        elo=$(grep -o '"elo": *-\?[0-9.]*' "$out/gate$size/summary.json" | head -1 | grep -o -- '-\?[0-9.]*$')
        verdicts+=("$size:$status:$elo")
        echo "gate ${size}x$size: exit $status (0 H1, 1 H0, 3 undecided), Elo $elo" >&2
    done
    passed=0
    for one in 0 1; do
        IFS=: read -r _ status _ <<<"${verdicts[$one]}"
        IFS=: read -r _ other other_elo <<<"${verdicts[$((1 - one))]}"
        if [ "$status" = 0 ] && [ "$other" != 1 ] && awk "BEGIN { exit !($other_elo >= 0) }"; then
            passed=1
        fi
    done
    if [ "$passed" = 1 ]; then
        echo "PASSED: ship it with  cp $candidate $root/$net_path" >&2
    else
        echo "FAILED the gate: a measurement, not a network to ship" >&2
        exit 1
    fi
fi
