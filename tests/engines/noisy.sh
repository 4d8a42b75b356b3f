#!/usr/bin/env bash
# The real engine with a bad habit, for the match runner's tests (tests/matchplay.rs):
# noisy.sh ENGINE repeats every `bestmove` line and floods 3000 `info string` lines after it.
# A runner without a barrier before `go` takes the repeated line as the next move's answer.
"$1" | while IFS= read -r line; do
    printf '%s\n' "$line"
    if [[ $line == bestmove* ]]; then
        printf '%s\n' "$line"
        for ((i = 0; i < 3000; i++)); do echo "info string flood $i"; done
    fi
done
