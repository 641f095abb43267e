#!/usr/bin/env bash
# restart_same.sh REGEX K DIR -- RUN_A... -- RUN_B... -- PROGRAM ARGS...
# The fault test of checkpoint/restart: runs PROGRAM ARGS uninterrupted under RUN_B (an
# mpirun prefix); runs it again under RUN_A with its checkpoints in DIR, SIGKILLs one rank
# once K checkpoints are written and requires mpirun to exit non-zero within 10 s (no
# hang); restarts under RUN_B with --restart latest; passes when the restart says where
# it restarted from and the lines matching REGEX are the uninterrupted run's, bit for bit.
set -uo pipefail
regex=$1 wanted=$2 dir=$3; shift 3
[[ ${1:-} == -- ]] || { echo "usage: restart_same.sh REGEX K DIR -- A... -- B... -- PROGRAM..."; exit 2; }
shift
run_a=(); while [[ $# -gt 0 && $1 != -- ]]; do run_a+=("$1"); shift; done
shift
run_b=(); while [[ $# -gt 0 && $1 != -- ]]; do run_b+=("$1"); shift; done
shift
program=("$@")
fail() { echo "restart_same.sh: $*"; exit 1; }

rm -rf "$dir" && mkdir -p "$dir" || fail "cannot create $dir"
whole=$("${run_b[@]}" "${program[@]}" --checkpoint-dir "$dir/whole" 2>&1) || { echo "$whole"; fail "the uninterrupted run failed"; }
expected=$(grep -E "$regex" <<<"$whole")
[[ -n $expected ]] || { echo "$whole"; fail "no line matches '$regex' in the uninterrupted run"; }

log=$dir/interrupted.log
"${run_a[@]}" "${program[@]}" --checkpoint-dir "$dir/run" >"$log" 2>&1 &
launcher=$!
written=0
for ((i = 0; i < 6000; ++i)); do  # 10 ms polls, at most a minute
  written=$(grep -c "checkpoint of step" "$log")
  [[ $written -ge $wanted ]] && break
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.01
done
victim=$(pgrep -P "$launcher" | tail -n 1)
if [[ $written -lt $wanted || -z $victim ]]; then
  wait "$launcher"
  cat "$log"
  fail "the run ended (or never started) before $wanted checkpoints were written: make it longer"
fi
kill -KILL "$victim"
echo "killed rank process $victim after $written checkpoint(s)"
killed_at=$SECONDS
while kill -0 "$launcher" 2>/dev/null && ((SECONDS - killed_at <= 10)); do sleep 0.1; done
if kill -0 "$launcher" 2>/dev/null; then
  kill -KILL "$launcher"
  pkill -KILL -P "$launcher"
  cat "$log"
  fail "hang: mpirun still runs 10 s after a rank was killed"
fi
wait "$launcher"
status=$?
cat "$log"
[[ $status -ne 0 ]] || fail "mpirun exited 0 although a rank was killed"
grep -qE "$regex" "$log" && fail "the killed run finished anyway: make it longer"
echo "mpirun exited $status within $((SECONDS - killed_at)) s of the kill"
ls "$dir/run"
# A .tmp may be left (a checkpoint was in flight, written in the background): the restart
# below must not take it, and names the .h5 it took.

again=$("${run_b[@]}" "${program[@]}" --checkpoint-dir "$dir/run" --restart latest 2>&1) || {
  echo "$again"
  fail "the restart failed"
}
echo "$again"
grep -qE "restarted from .*\.h5: step [1-9]" <<<"$again" || fail "the restart did not say where it started"
got=$(grep -E "$regex" <<<"$again")
if [[ $got != "$expected" ]]; then
  echo "--- uninterrupted:"; echo "$expected"; echo "--- restarted:"; echo "$got"
  fail "the restarted run ends elsewhere"
fi
echo "restart_same.sh: same result after a kill and a restart:"
echo "$expected"
