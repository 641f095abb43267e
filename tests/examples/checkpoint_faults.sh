#!/usr/bin/env bash
# checkpoint_faults.sh FAULT FIELD DIR REGEX -- RUN... -- PROGRAM ARGS...
# A fault in the newest checkpoint of PROGRAM (which takes --steps, --checkpoint-every,
# --checkpoint-dir and --restart), under the mpirun prefix RUN. FAULT is one of:
#   setup     runs PROGRAM uninterrupted to step 150 (its REGEX lines go to
#             DIR/setup/expected.txt) and then to step 100 writing the checkpoints of
#             steps 50 and 100 into DIR/setup/checkpoints: what truncate and flip start
#             from (a ctest fixture, so that these two runs are made once for both);
#   truncate  cuts the newest file of a copy of DIR/setup/checkpoints to half its size;
#   flip      flips one byte inside dataset FIELD of the newest file of a copy of
#             DIR/setup/checkpoints (in its data, at the address h5ls gives: a contiguous
#             dataset's, or its first chunk's);
#   disk-full runs on from step 50 with files limited to a few KiB (ulimit -f, SIGXFSZ
#             ignored, so writes fail with EFBIG as on a full disk).
# Each fault works in DIR/FAULT, so that the tests of one DIR may run side by side.
# truncate/flip pass when `--restart latest` refuses the newest file (said once, naming
# it), restarts from step 50 and ends, at step 150, on the REGEX lines of the
# uninterrupted run. disk-full passes when the run fails with one clear error (exit
# non-zero, not a signal or an abort), no .tmp is left, and step 50 is still the latest.
set -uo pipefail
fault=$1 field=$2 dir=$3 regex=$4; shift 4
[[ ${1:-} == -- ]] || { echo "usage: checkpoint_faults.sh FAULT FIELD DIR REGEX -- RUN... -- PROGRAM..."; exit 2; }
shift
run=(); while [[ $# -gt 0 && $1 != -- ]]; do run+=("$1"); shift; done
shift
program=("$@")
fail() { echo "checkpoint_faults.sh: $*"; exit 1; }
case $fault in
  setup | truncate | flip | disk-full) checkpoints=$dir/$fault/checkpoints ;;
  *) fail "unknown fault '$fault'" ;;
esac
name() { printf '%s/checkpoint_%010d.h5' "$checkpoints" "$1"; }
only_once() {  # REGEX TEXT: exactly one line matches (said once, whatever the rank count)
  local count
  count=$(grep -cE "$1" <<<"$2")
  [[ $count -eq 1 ]] || { echo "$2"; fail "'$1' printed $count times, expected once"; }
}

rm -rf "${dir:?}/$fault" && mkdir -p "$dir/$fault" || fail "cannot create $dir/$fault"

if [[ $fault == disk-full ]]; then
  out=$("${run[@]}" "${program[@]}" --steps 50 --checkpoint-every 50 --checkpoint-dir "$checkpoints" 2>&1) ||
    { echo "$out"; fail "the first run failed"; }
  before=$(ls "$checkpoints")
  # The limit on the ranks alone (mpirun's PMIx store would block on it), and TCP between
  # them: the shared-memory transport's backing files would exceed it too.
  limited=(bash -c 'trap "" XFSZ; ulimit -f 8; exec "$@"' limited)
  out=$(OMPI_MCA_btl=self,tcp "${run[@]}" "${limited[@]}" "${program[@]}" --steps 100 \
          --checkpoint-every 50 --checkpoint-dir "$checkpoints" --restart latest 2>&1)
  status=$?
  echo "$out"
  [[ $status -ne 0 ]] || fail "the run succeeded although no checkpoint could be written"
  [[ $status -le 128 ]] || fail "killed by a signal ($status)"
  grep -q "MPI_ABORT\|MPI_Abort" <<<"$out" && fail "aborted instead of a clean exit"
  only_once "$(basename "$(name 100)").*(File too large|No space|write|H5)" "$out"
  after=$(ls "$checkpoints")
  [[ $after == "$before" ]] || { echo "before: $before"; echo "after: $after"; fail "the folder changed"; }
  latest=$("${run[@]}" "${program[@]}" --steps 50 --checkpoint-dir "$checkpoints" --restart latest 2>&1) ||
    { echo "$latest"; fail "step 50 is no longer a valid checkpoint"; }
  grep -q "restarted from $(name 50): step 50" <<<"$latest" || { echo "$latest"; fail "latest is not step 50"; }
  echo "checkpoint_faults.sh: the full disk was reported once; step 50 is still the latest"
  exit 0
fi

if [[ $fault == setup ]]; then
  whole=$("${run[@]}" "${program[@]}" --steps 150 2>&1) || { echo "$whole"; fail "the uninterrupted run failed"; }
  grep -E "$regex" <<<"$whole" >"$dir/setup/expected.txt" || { echo "$whole"; fail "no line matches '$regex'"; }
  out=$("${run[@]}" "${program[@]}" --steps 100 --checkpoint-every 50 --checkpoint-dir "$checkpoints" 2>&1) ||
    { echo "$out"; fail "the checkpointing run failed"; }
  [[ -f $(name 100) && -f $(name 50) ]] || { ls "$checkpoints"; fail "the checkpoints of steps 50 and 100 are missing"; }
  echo "checkpoint_faults.sh: the uninterrupted run's lines and the checkpoints of steps 50 and 100 are in $dir/setup"
  exit 0
fi

# truncate, flip: a copy of the setup's checkpoints, so that each fault has its own.
[[ -s $dir/setup/expected.txt && -d $dir/setup/checkpoints ]] ||
  fail "no $dir/setup/expected.txt or checkpoints: the setup (checkpoint_faults.sh setup) did not run"
expected=$(cat "$dir/setup/expected.txt")
cp -r "$dir/setup/checkpoints" "$checkpoints" || fail "cannot copy $dir/setup/checkpoints to $checkpoints"
newest=$(name 100)
[[ -f $newest && -f $(name 50) ]] || { ls "$checkpoints"; fail "the checkpoints of steps 50 and 100 are missing"; }
case $fault in
  truncate)
    truncate -s $(($(stat -c %s "$newest") / 2)) "$newest" || fail "cannot truncate $newest";;
  flip)
    # FIELD's data: h5ls -va gives a contiguous dataset's address (format 2), or lists
    # each chunk's (format 1).
    address=$(h5ls -va "$newest/$field" |
      awk '/^ *Address:/ { print $2; exit } /Flags +Bytes +Address/ { getline; getline; print $3; exit }')
    [[ $address =~ ^[0-9]+$ ]] || { h5ls -va "$newest/$field"; fail "no data address for /$field"; }
    offset=$((address + 100))
    byte=$(od -An -tu1 -j "$offset" -N1 "$newest" | tr -d ' ')
    printf "$(printf '\\%03o' $((byte ^ 0x5a)))" |
      dd of="$newest" bs=1 seek="$offset" conv=notrunc status=none || fail "cannot write $newest"
    echo "flipped the byte at $offset of $newest (/$field's data at $address)";;
esac
again=$("${run[@]}" "${program[@]}" --steps 150 --checkpoint-dir "$checkpoints" --restart latest 2>&1) ||
  { echo "$again"; fail "the restart failed"; }
echo "$again"
only_once "refused $newest .*trying the previous checkpoint" "$again"
grep -q "restarted from $(name 50): step 50" <<<"$again" || fail "did not restart from step 50"
got=$(grep -E "$regex" <<<"$again")
[[ $got == "$expected" ]] || { echo "--- uninterrupted:"; echo "$expected"; fail "the restarted run ends elsewhere"; }
echo "checkpoint_faults.sh: the $fault fault was detected; the previous checkpoint gave the same result"
