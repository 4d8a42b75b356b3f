# shellcheck shell=bash
# Shell functions shared by the timing scripts (speed.sh, time-to-depth.sh, warm-search.sh);
# sourced, not run.

# The median of the numbers on standard input, one a line (of an even count, the lower middle).
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# ugi_run BINARY OUT COMMAND...: one process of BINARY is sent the COMMANDs, one a line, and
# then `quit`; what it prints goes to the file OUT. After each `go` the next line waits for that
# search's `bestmove`: input stays open until then, because the end of input would stop the
# search (it counts as `quit`).
# shellcheck disable=SC2094 # OUT is read while BINARY writes it: that is how `bestmove` is seen.
ugi_run() {
    local binary=$1 out=$2 searches=0 command
    shift 2
    : >"$out"
    {
        for command in "$@"; do
            printf '%s\n' "$command"
            if [[ $command == go* ]]; then
                searches=$((searches + 1))
                until [ "$(grep -c '^bestmove' "$out")" -ge "$searches" ]; do sleep 0.005; done
            fi
        done
        echo quit
    } | "$binary" >"$out"
}
