#!/usr/bin/env bash
# A deliberately broken UGI engine for the match runner's tests (tests/matchplay.rs).
# It answers the handshake properly and knows one legal move per side from the 8x8 start
# (a2-a3 for Blue, a7-a6 for Red); what it does on `go` depends on MODE (the first argument):
#   illegal   bestmove a1-a2 (never legal: a1 is empty or Blue's)
#   none      bestmove none
#   hang      never answers `go` (but keeps reading its input)
#   slow S    sleeps S seconds, then plays its legal move
#   garbage   prints junk lines (binary bytes, a bare "bestmove"-less line), then bestmove of junk
#   exit      plays its legal move on the first `go` of a game, exits with status 3 on the second
#   nougiok   never finishes the handshake
mode=${1:-illegal}
delay=${2:-0.4}
gos=0
side=b
while IFS= read -r line; do
    read -r -a words <<<"$line"
    case ${words[0]} in
    ugi)
        echo "id name broken-$mode"
        [ "$mode" = nougiok ] || echo ugiok
        ;;
    isready) echo readyok ;;
    uginewgame) gos=0 ;;
    position)
        # position fen <board> <side> [moves m1 m2 ...]: the side to move flips with each move.
        side=${words[3]}
        count=$((${#words[@]} > 5 ? ${#words[@]} - 5 : 0))
        if ((count % 2 == 1)); then
            if [ "$side" = b ]; then side=r; else side=b; fi
        fi
        ;;
    go)
        gos=$((gos + 1))
        if [ "$side" = b ]; then legal=a2-a3; else legal=a7-a6; fi
        case $mode in
        illegal) echo "bestmove a1-a2" ;;
        none) echo "bestmove none" ;;
        hang) ;;
        slow)
            sleep "$delay"
            echo "bestmove $legal"
            ;;
        garbage)
            printf '\377\376\001 garbage \x80\n'
            echo "info depth 3 score cp 5 nodes 10 pv $legal"
            echo "readyok ugiok response true"
            printf 'bestmove \377%%zz\n'
            ;;
        exit)
            if ((gos >= 2)); then exit 3; fi
            echo "bestmove $legal"
            ;;
        esac
        ;;
    quit) exit 0 ;;
    esac
done
