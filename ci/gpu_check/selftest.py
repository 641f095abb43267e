"""ci/gpu-check selftest: the harness's own checks, before any GPU is lent.

1. its unit tests (ci/gpu_check/tests: parsers, judges, the driver decision, the cleaned
   environment, GCC's runtime choice, the budget);
2. run --dry under a hostile environment: the machine's MPI variables and ~/.openmpi say
   UCX, self-only, a bogus prefix; the carried 2- and 3-rank runs must still pass;
3. run against a fake nvidia-smi with an old driver, and with no GPU behind a new one: each
   must stop in the first step, with the reason, in seconds.
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from common import CARRY, REPO

HOSTILE = {
    "OMPI_MCA_pml": "ucx",
    "OMPI_MCA_btl": "self",
    "OPAL_PREFIX": "/nonexistent/openmpi",
    "OMPI_MCA_plm_rsh_agent": "/nonexistent/ssh",
    "OMPI_MCA_rmaps_base_mapping_policy": "bogus",
    "PMIX_MCA_gds": "bogus",
    "PMIX_PREFIX": "/nonexistent/pmix",
    "UCX_TLS": "bogus",
    "HWLOC_XMLFILE": "/nonexistent/topology.xml",
    "FUNCMESH_EXECUTOR": "bogus",
}


def gpu_check(args, env, timeout):
    command = [sys.executable, "-E", "-s", "-B", str(REPO / "ci/gpu_check"), *args]
    return subprocess.run(
        command, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
    )


def unit_tests():
    suite = unittest.defaultTestLoader.discover(str(REPO / "ci/gpu_check/tests"))
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    if result.testsRun == 0:
        return "no unit test ran"
    return "" if result.wasSuccessful() else "unit tests failed"


def hostile_dry_run(scratch):
    home = scratch / "home"
    (home / ".openmpi").mkdir(parents=True)
    (home / ".openmpi/mca-params.conf").write_text("pml = ucx\nbtl = self\n")
    env = dict(os.environ, HOME=str(home), **HOSTILE)
    done = gpu_check(["run", "--dry", "--results", str(scratch / "dry")], env, 600)
    print(done.stdout[-4000:], done.stderr[-2000:], sep="\n")
    if done.returncode != 0:
        return f"run --dry failed under the hostile environment (exit {done.returncode})"
    log = (scratch / "dry/gpu-check-dry.log").read_text()
    missing = [name for name in HOSTILE if name + "=" not in log.split("cleared from")[1][:4000]]
    return f"not reported as cleared: {missing}" if missing else ""


def stops_first(scratch, name, env_extra, expect):
    """run against the fake nvidia-smi stops in its first step with a line matching expect."""
    env = dict(
        os.environ, PATH=f"{REPO / 'ci/gpu_check/fake-bin'}:{os.environ['PATH']}", **env_extra
    )
    done = gpu_check(["run", "--results", str(scratch / name)], env, 120)
    summary = (
        (scratch / name / "summary.txt").read_text()
        if (scratch / name / "summary.txt").is_file()
        else ""
    )
    print(summary)
    rows = [line for line in summary.splitlines() if re.match(r"^\S+ +(PASS|FAIL|SKIPPED) ", line)]
    if done.returncode != 1:
        return f"{name}: exit status {done.returncode}, not 1\n{done.stdout[-2000:]}"
    if len(rows) != 1 or not rows[0].startswith("gpu ") or " FAIL " not in rows[0]:
        return f"{name}: the run did not stop at its first step: {rows}"
    if not re.search(expect, rows[0]):
        return f"{name}: the first step's line does not say '{expect}': {rows[0]}"
    return ""


def selftest():
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        checks = [
            ("unit tests", unit_tests),
            ("run --dry, hostile environment", lambda: hostile_dry_run(scratch)),
            (
                "run, a fake old driver",
                lambda: stops_first(
                    scratch,
                    "old-driver",
                    {"FAKE_NVIDIA_DRIVER": "470.82.01", "FAKE_NVIDIA_CUDA": "11.4"},
                    r"driver 470\.82\.01 supports CUDA 11\.4: too old; .*needs a driver >= 580",
                ),
            ),
            (
                "run, a driver but no GPU",
                lambda: stops_first(scratch, "no-gpu", {}, r"no GPU is visible"),
            ),
        ]
        manifest = REPO / CARRY / "manifest.json"
        if not manifest.is_file():
            # The other checks run the carried folder: in a fresh clone there is none yet.
            print("\n== selftest: unit tests", flush=True)
            problem = unit_tests()
            print(f"selftest: unit tests: {'FAILED: ' + problem if problem else 'passed'}")
            print(
                f"\nselftest: no {CARRY}/manifest.json: the other {len(checks) - 1} checks run "
                "the carried folder; run `ci/gpu-check prepare` first (about 7 minutes)",
                flush=True,
            )
            return 1 if problem else 2
        for name, check in checks:
            print(f"\n== selftest: {name}", flush=True)
            problem = check()
            print(f"selftest: {name}: {'FAILED: ' + problem if problem else 'passed'}", flush=True)
            if problem:
                problems.append(f"{name}: {problem}")
    if problems:
        print("\nselftest FAILED:\n  " + "\n  ".join(problems))
        return 1
    print("\nselftest passed")
    return 0
