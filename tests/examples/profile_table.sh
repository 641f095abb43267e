#!/usr/bin/env bash
# profile_table.sh FACE_LOOP_ROW COMMAND...
# Runs COMMAND (an MPI run of the euler example under FUNCMESH_PROFILE=1) and passes when it
# succeeds and its output holds the profile table exactly once (rank 0 alone prints it),
# after the program's own lines, with a row that starts with FACE_LOOP_ROW (the face loop's
# label) and a halo round row that sent bytes.
set -uo pipefail
face_loop=$1
shift
out=$("$@" 2>&1)
status=$?
echo "$out"
fail() { echo "profile_table.sh: $1"; exit 1; }
[[ $status -eq 0 ]] || fail "the command failed (exit $status)"
headers=$(grep -cE '^funcmesh profile \([0-9]+ ranks?\)$' <<<"$out")
[[ $headers -eq 1 ]] || fail "the table header appears $headers times, expected once"
columns=$(grep -cE '^label +calls +total s +mean us +max/mean +halo bytes$' <<<"$out")
[[ $columns -eq 1 ]] || fail "the column line appears $columns times, expected once"
# Everything after the header is the table: the program printed before it.
table=$(sed -n '/^funcmesh profile (/,$p' <<<"$out")
grep -q '^euler: ' <<<"$table" && fail "program output after the table"
# The last five fields of a row: calls, total s, mean us, max/mean, halo bytes.
grep -qF -- "$face_loop " <<<"$(grep -E ' [1-9][0-9]* +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+$' <<<"$table")" ||
  fail "no row for the face loop '$face_loop'"
awk '/^halo exchange of / && !/\(wait\)/ && $NF > 0 { found = 1 } END { exit !found }' \
  <<<"$table" || fail "no halo exchange row with bytes sent"
echo "profile_table.sh: one table, with the face loop and halo bytes"
