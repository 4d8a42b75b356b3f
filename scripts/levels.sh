#!/usr/bin/env bash
# Calibrates the engine's levels (`Skill Level`, and so `UCI_Elo`): a ladder of players, each
# playing the next one, with the Elo differences chained from builtin:random = 0:
#
#   scripts/levels.sh [out-dir]
#
# The ladder (LADDER, lowest first): the built-in players, then Skill Levels (L<n>) up to L20
# (full strength). Each adjacent pair plays GAMES games (openings of PLIES random plies, colours
# swapped) at MOVETIME ms a move, one game at a time; each match's --json summary is kept in
# out-dir (default levels-out/). The table printed at the end (and written to
# out-dir/table.md) is a table of docs/results/levels.md: the rung, its Elo with a 95% interval (the
# adjacent steps' intervals added in quadrature), and the games it took part in.
#
# A step's Elo is -400 log10(1/p - 1) with p = (wins + 0.5) / (games + 1): half a win and half
# a loss added to every pairing, so that a 20-0 sweep gives a finite, if rough, step.
#
# Defaults, each overridable by an environment variable:
#   LIELOW=target/release/lielow (built if missing)   GAMES=200 (about 8 minutes on 8x8)
#   MOVETIME=20   PLIES=4
#   LATENCY=1000 (ms past the movetime before a move is a time forfeit: on a loaded machine the
#   50 ms default made a third of the full-strength engine's losses forfeits; the engines still
#   plan for MOVETIME)
#   SIZE=8   SEED=1   BOOK=<openings file> (instead of PLIES random plies; on 9x9 random plies
#   decide the game, 1 to 12 plies long: use `lielow openings --size 9 --balanced-depth 6`)
#   LADDER="builtin:random builtin:greedy builtin:mcts:200 builtin:mcts
#   L0 L3 L6 L9 L12 L15 L18 L20"
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
out=${1:-levels-out}
root=$(git rev-parse --show-toplevel)
lielow=${LIELOW:-$root/target/release/lielow}
games=${GAMES:-200}
movetime=${MOVETIME:-20}
plies=${PLIES:-4}
size=${SIZE:-8}
seed=${SEED:-1}
latency=${LATENCY:-1000}
if [ -n "${BOOK:-}" ]; then
    openings=(--openings "$BOOK" --openings-order random)
else
    openings=(--random-plies "$plies")
fi
read -ra ladder <<<"${LADDER:-builtin:random builtin:greedy builtin:mcts:200 builtin:mcts L0 L3 L6 L9 L12 L15 L18 L20}"

if [ ! -x "$lielow" ]; then
    (cd "$root" && cargo build --release)
fi
mkdir -p "$out"

# The --engine arguments of one rung.
engine() {
    case $1 in
    L*) printf '%s\n' "$lielow" "option.Skill Level=${1#L}" "name=$1" ;;
    *) printf '%s\n' "$1" "name=$1" ;;
    esac
}

for ((i = 0; i + 1 < ${#ladder[@]}; i++)); do
    low=${ladder[i]} high=${ladder[i + 1]}
    mapfile -t first < <(engine "$high")
    mapfile -t second < <(engine "$low")
    json="$out/step-$i.json"
    echo "levels.sh: $high against $low ($games games)" >&2
    "$lielow" match --engine "${first[@]}" --engine "${second[@]}" --games "$games" \
        --movetime "$movetime" "${openings[@]}" --size "$size" --seed "$seed" \
        --latency-ms "$latency" --concurrency 1 --json "$json" >/dev/null 2>&1
done

python3 - "$out" "${ladder[@]}" <<'EOF'
import json, math, sys
out, ladder = sys.argv[1], sys.argv[2:]
elo, var, games = [0.0], [0.0], [0] * len(ladder)
for i in range(len(ladder) - 1):
    pairing = json.load(open(f"{out}/step-{i}.json"))["pairings"][0]
    w, l = pairing["wins"], pairing["losses"]
    n = w + l
    p = (w + 0.5) / (n + 1)
    step = -400 * math.log10(1 / p - 1)
    sigma = math.sqrt(p * (1 - p) / n) * 400 / (math.log(10) * p * (1 - p))
    elo.append(elo[-1] + step)
    var.append(var[-1] + sigma * sigma)
    games[i] += n
    games[i + 1] += n
    print(f"step {ladder[i + 1]} over {ladder[i]}: {w}-{l}, {step:+.0f} ± {1.96 * sigma:.0f}",
          file=sys.stderr)
lines = ["| player | Elo | 95% | games |", "|---|---:|---:|---:|"]
for name, e, v, g in zip(ladder, elo, var, games):
    name = f"Skill Level {name[1:]}" if name.startswith("L") else f"`{name}`"
    lines.append(f"| {name} | {e:.0f} | ± {1.96 * math.sqrt(v):.0f} | {g} |")
table = "\n".join(lines)
print(table)
open(f"{out}/table.md", "w").write(table + "\n")
EOF
