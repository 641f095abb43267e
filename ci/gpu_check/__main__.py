"""ci/gpu-check: the one-shot GPU acceptance run (docs/gpu.md). `ci/gpu-check --help`."""

import argparse
import os
import sys
import time
from pathlib import Path

if sys.version_info < (3, 9):
    sys.exit(f"gpu-check: needs Python 3.9 or newer; this is {sys.version.split()[0]}")

from common import REPO, RESULTS, HarnessError  # noqa: E402

USAGE = """\
The one-shot GPU acceptance check. A lent GPU machine has the driver, nvcc and CMake but no
MPI, METIS, libpng or GoogleTest, and can download nothing; so everything is built here and
carried there in one git-ignored folder, build/gpu-carry.

  ci/gpu-check prepare          build machine (nvcc, no GPU): builds the gpu-check preset's
                                CUDA tests, examples, bench/gpu and a probe; fills
                                build/gpu-carry with them, their libraries, Debian's Open MPI
                                runtime as .debs and manifest.json (budget: 60 MiB with the
                                tracked tree)
  ci/gpu-check run              GPU machine: every step, in order, within 270 s; stops at
                                once when the driver is too old or no GPU is visible; exit 1
                                if any step FAILED (SKIPPED steps do not fail the run)
  ci/gpu-check run --dry        build machine: lists every step with its command, and checks
                                all that needs no GPU (files, libraries, the carried MPI on
                                2 and 3 ranks, FUNCMESH_REQUIRE_GPU without a GPU, sizes)
  ci/gpu-check run --rehearse   build machine: every step of the real run, in its order,
                                with its timeouts, budget and judges, on CPU stand-ins
  ci/gpu-check selftest         its own unit tests; run --dry under a hostile MPI
                                environment; a fake old driver and a missing GPU stop run
                                in its first step (without build/gpu-carry: the unit
                                tests, then exit 2 asking for prepare)

run writes gpu-check[-dry|-rehearsal].log (everything) and summary[...].txt (step, result,
seconds, key figure) to --results DIR (relative to the repository root), else $OUT (the
device tool collects it), else build/gpu-check-results. Every carried program runs in the
machine's environment with its OMPI_*, OPAL_*, ORTE_*, PRTE_*, PMIX_*, UCX_*, HWLOC_* and
FUNCMESH_* variables cleared and ours set explicitly (the log lists both).

On the device tool: run(command="ci/gpu-check run", carry=["build/gpu-carry"], timeout_s=330).
"""


def run(mode, results):
    import carried_env
    import dry
    import manifest
    import plan
    from runner import Run

    data = manifest.read()
    results = Path(results or os.environ.get("OUT") or REPO / RESULTS)
    results.mkdir(parents=True, exist_ok=True)
    suffix = {"real": "", "dry": "-dry", "rehearse": "-rehearsal"}[mode]
    carried = carried_env.Carried(data, os.environ)
    try:
        if mode == "real":  # nothing may fall back to the CPU unnoticed
            carried.set("FUNCMESH_REQUIRE_GPU", "1")
        steps = plan.steps(data, "real" if mode == "dry" else mode, carried)
        title = {
            "real": "ci/gpu-check run",
            "dry": "ci/gpu-check run --dry",
            "rehearse": "ci/gpu-check run --rehearse: REHEARSAL on the CPU (no figure "
            "here is a GPU's)",
        }[mode]
        summary = results / f"summary{suffix}.txt"
        run = Run(
            mode, plan.RUN_BUDGET_S, results / f"gpu-check{suffix}.log", carried, summary, title
        )
        run.say(
            f"{title} on {os.uname().nodename} at "
            f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}"
        )
        run.say(
            f"carried: {data['commit']}, CUDA {data['cuda']['version']} sm_"
            f"{data['cuda']['arch']} {data['cuda']['flags']}; prepared {data['written']}"
        )
        run.say(carried.description())
        if mode == "dry":
            run.say(
                "== the steps `ci/gpu-check run` takes, in order (FUNCMESH_REQUIRE_GPU=1 "
                "in the carried environment)"
            )
            for step in steps:
                run.take(step)
            run.say("== the checks that need no GPU")
            dry.checks(run, data)
        else:
            for step in steps:
                run.take(step)
        text = run.summary()
        print("\n" + text)
        run.log("\n" + text)
        print(f"log: {run.log_path}; summary: {summary}")
        return 0 if run.failures == 0 else 1
    finally:
        carried.remove()


def main(argv):
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(prog="ci/gpu-check", usage=USAGE, add_help=False)
    parser.add_argument("command", nargs="?", choices=["prepare", "run", "selftest", "help"])
    parser.add_argument("-h", "--help", action="store_true")
    parser.add_argument("--dry", action="store_true")
    parser.add_argument("--rehearse", action="store_true")
    parser.add_argument("--results", metavar="DIR")
    args = parser.parse_args(argv)
    if args.help or args.command == "help":
        print(USAGE, end="")
        return 0
    if args.command is None:
        print(USAGE, end="", file=sys.stderr)
        return 2
    if args.command != "run" and (args.dry or args.rehearse or args.results):
        parser.error("--dry, --rehearse and --results go with run")
    if args.dry and args.rehearse:
        parser.error("--dry or --rehearse, not both")
    os.chdir(REPO)
    try:
        if args.command == "prepare":
            import prepare

            prepare.prepare()
            return 0
        if args.command == "selftest":
            import selftest

            return selftest.selftest()
        return run("dry" if args.dry else "rehearse" if args.rehearse else "real", args.results)
    except HarnessError as e:
        print(f"gpu-check: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
