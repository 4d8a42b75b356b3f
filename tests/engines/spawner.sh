#!/bin/bash
# A hung engine with a child, for the match runner's tests (tests/matchplay.rs), run with no
# PATH at all: spawner.sh PIDFILE answers the handshake, and on `go` starts /bin/sleep in the
# background, writes its own pid and the child's to PIDFILE, and never answers.
pidfile=$1
while IFS= read -r line; do
    case $line in
    ugi) echo ugiok ;;
    isready) echo readyok ;;
    go*)
        /bin/sleep 300 &
        echo "$$ $!" >"$pidfile"
        ;;
    quit) exit 0 ;;
    esac
done
