#!/usr/bin/env bash
# Every ci/ script's cheapest real mode, as the first command in a fresh copy of the source
# tree (no build/, no .git): each must do its work or refuse with a clear message, and
# write nothing outside build/. The scripts whose cheapest mode is a whole build (test,
# sanitize, cuda-hdf5: ci/test runs them in CI's clean clone; demo, validate-airfoil: by
# hand, ci/README.md) are listed, not run.
# Usage: scripts_first_run.sh SOURCE_DIR
set -uo pipefail
source_dir=${1:?usage: scripts_first_run.sh SOURCE_DIR}
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
tar -C "$source_dir" --exclude=./build --exclude=./.git --exclude=./demo-output -cf - . |
  tar -C "$copy" -xf -
listing() { (cd "$copy" && find . -path ./build -prune -o -print | LC_ALL=C sort); }
before=$(listing)
failed=0

# check NAME EXPECTED_EXIT REGEX... -- COMMAND...: runs COMMAND in the copy; its exit
# status must be EXPECTED_EXIT and its output must match every REGEX.
check() {
  local name=$1 expected=$2
  shift 2
  local regexes=()
  while [[ $1 != -- ]]; do regexes+=("$1"); shift; done
  shift
  local status=0 output regex
  output=$(cd "$copy" && timeout 280 "$@" 2>&1) || status=$?
  if [[ $status -ne $expected ]]; then
    echo "FAIL: $name exited $status, not $expected:"
    printf '%s\n' "$output" | tail -20
    failed=$((failed + 1))
  else
    local missing=""
    for regex in "${regexes[@]}"; do
      grep -qE "$regex" <<<"$output" || missing=$regex
    done
    if [[ -n $missing ]]; then
      echo "FAIL: $name printed no line matching '$missing':"
      printf '%s\n' "$output" | tail -20
      failed=$((failed + 1))
    else
      echo "ok: $name (exit $status): $(grep -E "$regex" <<<"$output" | tail -1 | cut -c1-110)"
    fi
  fi
  local after
  after=$(listing)
  if [[ $after != "$before" ]]; then
    echo "FAIL: $name created (>) or removed (<) files outside build/:"
    diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | grep '^[<>]' | head -20 || true
    failed=$((failed + 1))
    before=$after
  fi
}

# --check: a test installs nothing on the machine it runs on. Exit 0 with every package
# present (CI, after ci/install-deps), or 1 naming the missing ones.
deps_status=0
deps=$(cd "$copy" && ci/install-deps --check 2>&1) || deps_status=$?
if [[ ($deps_status -eq 0 && $deps =~ all\ [0-9]+\ packages\ present) ||
  ($deps_status -eq 1 && $deps =~ missing:\ ) ]]; then
  echo "ok: ci/install-deps --check (exit $deps_status): $deps"
else
  echo "FAIL: ci/install-deps --check exited $deps_status: $deps"
  failed=$((failed + 1))
fi
check "ci/check-format" 0 "[0-9]+ files formatted" -- ci/check-format
# Another test may have a cluster up: status lists it then.
check "ci/cluster status" 0 "no cluster|host" -- ci/cluster status
if command -v spack >/dev/null 2>&1; then
  echo "skip: ci/spack-check installs the package with spack (minutes): ci/test runs it"
else
  check "ci/spack-check" 0 "no spack command on PATH" -- ci/spack-check
fi
# In a fresh clone there is no carried folder: the unit tests run, then a clear request.
check "ci/gpu-check selftest" 2 "unit tests: passed" "run .ci/gpu-check prepare. first" -- \
  ci/gpu-check selftest
check "ci/gpu-check run --dry" 2 "no build/gpu-carry/manifest.json: run .ci/gpu-check prepare." \
  -- ci/gpu-check run --dry
# Configures and builds build/fuzz from nothing (its one smallest target), fuzzes 1 s.
check "ci/fuzz 1 checkpoint_attributes_fuzz" 0 "checkpoint_attributes_fuzz: .* no finding" -- \
  ci/fuzz 1 checkpoint_attributes_fuzz
[[ -d $copy/build/fuzz ]] || { echo "FAIL: ci/fuzz made no build/fuzz"; failed=$((failed + 1)); }
echo "not run here (each is a whole build): ci/test, ci/sanitize, ci/cuda-hdf5 (CI runs them" \
  "in a clean clone), ci/demo, ci/validate-airfoil (by hand from a fresh clone)"
echo "$failed failure(s)"
[[ $failed -eq 0 ]]
