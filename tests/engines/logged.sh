#!/usr/bin/env bash
# Runs an engine with everything the runner sends it appended to a log, for the match runner's
# tests (tests/matchplay.rs): logged.sh LOG ENGINE [ARGS...]
log=$1
shift
tee -a "$log" | "$@"
