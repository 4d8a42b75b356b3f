#!/usr/bin/env bash
# End-to-end test of the Slurm path on this machine alone: starts munge, slurmctld and slurmd
# (a one-node cluster in a temporary directory, with its own key and configuration), submits a
# short match as an array of 4 shards and its merge step (submit.sh), waits, checks the merged
# totals against the same match run in one piece, runs the cluster SPRT driver (sprt.sh) to its
# verdict, runs two iterations of the cluster SPSA driver (spsa.sh) and checks its state against
# one `lielow spsa` run of the same flags, makes a small datagen run through the cluster datagen
# driver (datagen.sh: 3 shards and their join) and checks the joined file against the same run
# made in one piece, also after a shard was cut short and the run submitted again, then
# preempts a match: of 3 array tasks of engine processes, one is killed with SIGKILL and one
# requeued while it runs (Slurm's TERM, then KILL), both mid-match; run again, they resume from
# their records (match.sbatch gives --resume), and the merge must equal the match played in
# one piece, game for game, with no game recorded before a kill lost and no hidden file left.
# The daemons are stopped (and the jobs cancelled) on every exit.
#
#   scripts/cluster/one-node-test.sh
#
# Needs root (the daemons run as root here) and Debian's slurm-wlm and munge (`apt-get install
# slurm-wlm munge`; .ci/run installs them and always runs this). Nothing else of the machine is
# used: no service, no /etc/munge or /etc/slurm, ports 16817 and 16818. LIELOW as for submit.sh
# (default: target/release/lielow, built if missing); KEEP=1 keeps the temporary directory.
# Exit status 0 when everything checked out, 1 when a check failed, 2 when the cluster could not
# be started.
set -euo pipefail
started=$(date +%s)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
say() { echo "one-node-test: $*"; }
fail() { echo "one-node-test: $*" >&2; exit 1; }
for program in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
    command -v "$program" >/dev/null ||
        { echo "one-node-test: $program is not installed (apt-get install slurm-wlm munge)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "one-node-test: needs root (it starts munged, slurmctld and slurmd)" >&2; exit 2; }
lielow=${LIELOW:-$root/target/release/lielow}
if [ ! -x "$lielow" ]; then
    (cd "$root" && cargo build --release --quiet)
fi
export LIELOW=$lielow

work=$(mktemp -d /tmp/lielow-slurm.XXXXXX)
mkdir -p "$work/state" "$work/spool" "$work/munge" "$work/out"
# The node as slurmd sees it (name, CPUs, sockets, cores, memory), reached at 127.0.0.1 so that
# the host name need not resolve; no cgroups (a container has none to give): processes are
# tracked through their parents, tasks are not bound, nothing is accounted.
node=$(slurmd -C | head -1)
name=${node%% *}
name=${name#NodeName=}
cat >"$work/slurm.conf" <<CONF
ClusterName=lielow-test
SlurmctldHost=$name(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
KillWait=5
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$name Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf

# Whether process $1 runs (a daemon that died is a zombie where nothing reaps it).
alive() {
    kill -0 "$1" 2>/dev/null || return 1
    case $(ps -o stat= -p "$1") in Z*) return 1 ;; esac
}
# Cancels this cluster's jobs (their processes outlive slurmd otherwise), stops the daemons
# (KILL for one that has not gone 5 s after TERM) and waits for them to go.
stop_daemons() {
    local status=$? jobs pids=() pidfile pid
    trap - EXIT INT TERM HUP
    jobs=$(timeout 5 squeue -h -o %A 2>/dev/null | sort -u) || true
    if [ -n "$jobs" ]; then
        # shellcheck disable=SC2086 # one id a word
        timeout 5 scancel $jobs 2>/dev/null || true
        for _ in $(seq 50); do
            [ -z "$(timeout 5 squeue -h -o %A 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/munged.pid"; do
        [ -f "$pidfile" ] && pids+=("$(cat "$pidfile")")
    done
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do
            alive "$pid" || break
            sleep 0.1
        done
        ! alive "$pid" || kill -KILL "$pid" 2>/dev/null || true
    done
    if [ "${KEEP:-0}" = 1 ] || [ "$status" != 0 ]; then
        [ "${KEEP:-0}" = 1 ] && say "kept $work" || echo "one-node-test: logs kept in $work" >&2
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap stop_daemons EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Fails with the daemon's log when it did not start.
daemon_failed() {
    echo "one-node-test: $1 did not start; the end of $2:" >&2
    tail -n 20 "$2" >&2 2>/dev/null || true
    exit 2
}
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
    --seed-file="$work/munge/seed" || daemon_failed munged "$work/munge/munged.log"
slurmctld -f "$work/slurm.conf" || daemon_failed slurmctld "$work/slurmctld.log"
slurmd -f "$work/slurm.conf" || daemon_failed slurmd "$work/slurmd.log"
# The node is up when sinfo calls it idle; a daemon that exits meanwhile (a port in use, a bad
# setting) is reported at once.
up() { timeout 5 sinfo -h -o %T 2>/dev/null | grep -q idle; }
for _ in $(seq 60); do
    up && break
    for daemon in slurmctld slurmd; do
        pidfile=$work/$daemon.pid
        [ ! -f "$pidfile" ] || alive "$(cat "$pidfile")" || daemon_failed "$daemon" "$work/$daemon.log"
    done
    sleep 0.5
done
if ! up; then
    echo "one-node-test: the node never came up" >&2
    tail -n 20 "$work"/*.log >&2
    exit 2
fi
say "cluster up in $(($(date +%s) - started)) s"

# A short deterministic match (fixed nodes, one thread): the merged shards must equal it.
match=(--engine "$lielow" name=lielow option.Threads=1 --engine builtin:greedy
    --games 16 --nodes 2000 --random-plies 4 --seed 5)
"$lielow" match "${match[@]}" --json "$work/whole.json" >/dev/null 2>&1
SBATCH_ARGS="--cpus-per-task=1" "$here/submit.sh" "$work/out" 4 "${match[@]}"
for _ in $(seq 600); do
    [ -z "$(squeue -h -o %i)" ] && break
    sleep 0.5
done
[ -z "$(squeue -h -o %i)" ] || { echo "one-node-test: jobs still queued after 300 s" >&2; squeue >&2; exit 1; }
[ -f "$work/out/merged.json" ] || { echo "one-node-test: no merged summary" >&2; ls "$work/out" >&2; exit 1; }
cat "$work/out/merged.txt"
counts() { grep -o '"games": [0-9]*\|"pentanomial": \[[0-9, ]*\]\|"wins": [0-9]*\|"plies": [0-9]*\|"depth_sum": [0-9]*' "$1"; }
if [ "$(counts "$work/out/merged.json")" != "$(counts "$work/whole.json")" ]; then
    echo "one-node-test: the merged shards differ from the whole match" >&2
    diff <(counts "$work/out/merged.json") <(counts "$work/whole.json") >&2 || true
    exit 1
fi
[ "$(ls "$work/out"/shard-*.json | wc -l)" = 4 ] || { echo "one-node-test: not 4 shards" >&2; exit 1; }
echo "one-node-test: 4 shards merged = the whole match ($(($(date +%s) - started)) s so far)"

# The cluster SPRT driver: against the random player it must accept H1 after the first batch.
status=0
"$here/sprt.sh" "$work/sprt" 2 3 --engine "$lielow" option.Threads=1 --engine builtin:random \
    --games 60 --nodes 500 --sprt elo0=0,elo1=200 >"$work/sprt.txt" || status=$?
cat "$work/sprt.txt"
[ $status = 0 ] || { echo "one-node-test: sprt.sh ended with $status, not H1" >&2; exit 1; }
grep -q "batch 1/3" "$work/sprt.txt" && ! grep -q "batch 2/3" "$work/sprt.txt" ||
    { echo "one-node-test: the SPRT should decide after the first batch" >&2; exit 1; }

# The cluster SPSA driver: 2 iterations of 4 pairs cut into 3 shards (one with a single pair)
# must leave the very state file that one local run of the same flags writes.
printf 'LMRBase, 80, 0, 300, 20, 0.05\nNullMoveBase, 3, 1, 6, 1, 0.05\n' >"$work/spsa.params"
spsa=(--params "$work/spsa.params" --engine "$lielow" option.Threads=1 --iterations 2 --pairs 4
    --nodes 2000 --random-plies 4 --seed 11)
"$lielow" spsa "${spsa[@]}" --state "$work/spsa-local.json" >/dev/null 2>&1
SBATCH_ARGS="--cpus-per-task=1" "$here/spsa.sh" "$work/spsa/state.json" 3 "${spsa[@]}" \
    >"$work/spsa.txt" || { echo "one-node-test: spsa.sh failed" >&2; cat "$work/spsa.txt" >&2; exit 1; }
cat "$work/spsa.txt"
[ "$(ls "$work/spsa/state.json.d/iteration-2"/shard-*.json | wc -l)" = 3 ] ||
    { echo "one-node-test: spsa.sh did not play 3 shards" >&2; exit 1; }
cmp "$work/spsa/state.json" "$work/spsa-local.json" ||
    { echo "one-node-test: the sharded SPSA state differs from the local run's" >&2;
      diff "$work/spsa/state.json" "$work/spsa-local.json" >&2 || true; exit 1; }
echo "one-node-test: spsa.sh over 3 shards = one local run ($(($(date +%s) - started)) s so far)"
# The cluster datagen driver: 3 shards joined must be, byte for byte, the run made in one
# piece; a shard cut short is resumed by submitting again.
datagen=(--games 12 --nodes 300 --seed 3 --concurrency 1)
"$lielow" datagen "${datagen[@]}" -o "$work/datagen-whole.bin" 2>/dev/null
WAIT=1 SBATCH_ARGS="--cpus-per-task=1" "$here/datagen.sh" "$work/datagen" 3 "${datagen[@]}" \
    >/dev/null || { echo "one-node-test: datagen.sh failed" >&2; cat "$work"/datagen/*.log >&2; exit 1; }
cmp "$work/datagen/data.bin" "$work/datagen-whole.bin" ||
    { echo "one-node-test: the joined shards differ from the run made in one piece" >&2; exit 1; }
truncate -s -7 "$work/datagen/shard-2.bin"
rm "$work/datagen/data.bin"
WAIT=1 SBATCH_ARGS="--cpus-per-task=1" "$here/datagen.sh" "$work/datagen" 3 "${datagen[@]}" \
    >/dev/null || { echo "one-node-test: datagen.sh failed to resume" >&2; cat "$work"/datagen/*.log >&2; exit 1; }
cmp "$work/datagen/data.bin" "$work/datagen-whole.bin" ||
    { echo "one-node-test: the resumed run differs from the run made in one piece" >&2; exit 1; }
echo "one-node-test: datagen.sh over 3 shards joined = the run in one piece, also resumed ($(($(date +%s) - started)) s so far)"

# A preempted match. Three array tasks, each a shard of 24 games between two engine processes;
# task 2's lielow is killed with SIGKILL once it has recorded 4 games (an OOM kill, a preemption
# past its grace period) and the task requeued; task 3 is requeued while it runs (preemption as
# Slurm does it: TERM, then KILL after KillWait). Requeued, each runs match.sbatch again, which
# resumes from its records.
"$lielow" match --help 2>/dev/null | grep -- --resume >/dev/null ||
    fail "$lielow has no 'match --resume': a preempted shard cannot resume (build the current revision)"
preempt=(--engine "$lielow" name=one option.Threads=1 --engine "$lielow" name=two option.Threads=1
    --games 72 --nodes 5000 --random-plies 4 --seed 9)
"$lielow" match "${preempt[@]}" --json "$work/preempt-whole.json" \
    --records "$work/preempt-whole.txt" >/dev/null 2>&1
games() { if [ -f "$1" ]; then grep -vc '^#' "$1" || true; else echo 0; fi; }
state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }
# Waits for array task $1 to have recorded $2 games.
wait_games() {
    for _ in $(seq 600); do
        [ "$(games "$out/shard-$1.txt")" -ge "$2" ] && return
        case $(state "${array}_$1") in RUNNING | PENDING | CONFIGURING) ;; *) break ;; esac
        sleep 0.1
    done
    fail "array task $1 never recorded $2 games (state $(state "${array}_$1"))"
}
# Once array task $1 is back in the queue (its process gone): keeps a copy of its records as
# the kill left them (less a line it was writing, if any), checks that it was stopped mid-match
# and makes it eligible at once (Slurm otherwise holds a requeued job back for two minutes).
requeued() {
    for _ in $(seq 100); do
        [ "$(state "${array}_$1")" = PENDING ] && break
        sleep 0.1
    done
    [ "$(state "${array}_$1")" = PENDING ] || fail "array task $1 was not requeued ($(state "${array}_$1"))"
    cp "$out/shard-$1.txt" "$work/killed-$1.txt"
    [ -z "$(tail -c 1 "$work/killed-$1.txt")" ] || sed -i '$d' "$work/killed-$1.txt"
    [ "$(games "$work/killed-$1.txt")" -lt 24 ] || fail "array task $1 ended before it was stopped"
    scontrol update JobId="${array}_$1" StartTime=now
}
out=$work/preempt
jobs=$(SBATCH_ARGS="--cpus-per-task=1 --requeue" "$here/submit.sh" "$out" 3 "${preempt[@]}")
array=$(echo "$jobs" | cut -d' ' -f2) merge=$(echo "$jobs" | cut -d' ' -f4)
# The merge waits until the requeued tasks are back in the queue.
scontrol hold "$merge"
wait_games 2 4
# SIGKILL to the task's lielow itself, as the kernel's OOM killer sends it (scancel --signal=KILL
# would have Slurm send TERM first).
pid=$(pgrep -f -- "--json $out/shard-2.json") || fail "array task 2 has no lielow process"
kill -KILL "$pid"
for _ in $(seq 100); do
    case $(state "${array}_2") in RUNNING | COMPLETING) sleep 0.1 ;; *) break ;; esac
done
[ "$(state "${array}_2")" = FAILED ] || fail "array task 2 is $(state "${array}_2") after SIGKILL, not FAILED"
scontrol requeue "${array}_2"
requeued 2
wait_games 3 4
scontrol requeue "${array}_3"
requeued 3
scontrol release "$merge"
for _ in $(seq 600); do
    [ -z "$(squeue -h -o %i)" ] && break
    sleep 0.5
done
[ -z "$(squeue -h -o %i)" ] || { squeue >&2; fail "preempted jobs still queued after 300 s"; }
for k in 2 3; do
    restarts=$(scontrol show job "${array}_$k" | grep -o 'Restarts=[0-9]*')
    [ "$restarts" = Restarts=1 ] || fail "array task $k: $restarts, not 1"
    # Every game recorded before the kill is still there, as it was.
    grep -v '^#' "$work/killed-$k.txt" | grep -vxFf "$out/shard-$k.txt" >&2 &&
        fail "array task $k lost games it had recorded before it was killed"
done
say "array tasks 2 and 3 killed after $(games "$work/killed-2.txt") and $(games "$work/killed-3.txt") games, requeued, done"
[ -f "$out/merged.json" ] || { ls -A "$out" >&2; fail "no merged summary of the preempted match"; }
if [ "$(counts "$out/merged.json")" != "$(counts "$work/preempt-whole.json")" ]; then
    diff <(counts "$out/merged.json") <(counts "$work/preempt-whole.json") >&2 || true
    fail "the preempted match's merged shards differ from the match played in one piece"
fi
# The games themselves, as a set of lines, less the settings lines and the thinking times.
games_of() { cat "$@" | grep -v '^#' | sed 's/ us=[0-9]*//g' | sort; }
if [ "$(games_of "$out"/shard-*.txt)" != "$(games_of "$work/preempt-whole.txt")" ]; then
    diff <(games_of "$out"/shard-*.txt) <(games_of "$work/preempt-whole.txt") >&2 || true
    fail "the preempted match's records differ from the match played in one piece"
fi
hidden=$(find "$out" -name '.*')
[ -z "$hidden" ] || fail "hidden files left behind: $hidden"
say "a preempted array (SIGKILL, requeue) resumed to the match played in one piece ($(($(date +%s) - started)) s so far)"
echo "one-node-test: passed in $(($(date +%s) - started)) s"
