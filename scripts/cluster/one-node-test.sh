#!/usr/bin/env bash
# End-to-end test of the Slurm path on this machine alone: starts munge, slurmctld and slurmd
# (a one-node cluster in a temporary directory, with its own key and configuration), submits a
# short match as an array of 4 shards and its merge step (submit.sh), waits, checks the merged
# totals against the same match run in one piece, runs the cluster SPRT driver (sprt.sh) to its
# verdict, runs two iterations of the cluster SPSA driver (spsa.sh) and checks its state against
# one `lielow spsa` run of the same flags, makes a small datagen run through the cluster datagen
# driver (datagen.sh: 3 shards and their join) and checks the joined file against the same run
# made in one piece, also after a shard was cut short and the run submitted again. The daemons
# are stopped (and the jobs cancelled) on every exit.
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

# Cancels this cluster's jobs (their processes outlive slurmd otherwise), stops the daemons and
# waits for them to go.
stop_daemons() {
    local status=$? jobs pids=() pidfile
    jobs=$(squeue -h -o %A 2>/dev/null | sort -u) || true
    if [ -n "$jobs" ]; then
        # shellcheck disable=SC2086 # one id a word
        scancel $jobs 2>/dev/null || true
        for _ in $(seq 50); do
            [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/munged.pid"; do
        [ -f "$pidfile" ] && pids+=("$(cat "$pidfile")")
    done
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            case $(ps -o stat= -p "$pid") in Z*) break ;; esac
            sleep 0.1
        done
    done
    if [ "${KEEP:-0}" = 1 ] || [ $status != 0 ]; then
        [ "${KEEP:-0}" = 1 ] && say "kept $work" || echo "one-node-test: logs kept in $work" >&2
    else
        rm -rf "$work"
    fi
}
trap stop_daemons EXIT

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
for _ in $(seq 100); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 0.3
done
if ! sinfo -h -o %T 2>/dev/null | grep -q idle; then
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

echo "one-node-test: passed in $(($(date +%s) - started)) s"
