"""The steps of ci/gpu-check run, in order, with their commands, timeouts, estimates and the
figures they must show. The figures that matter most come first (the CUDA tests, euler's
bits and ms/iteration, bench/gpu); compute-sanitizer, the slowest, comes last.

A rehearsal (run --rehearse, on a machine with no GPU) takes the same steps in the same
order, with the same timeouts, budget and judges, on CPU stand-ins: the openmp executor,
no FUNCMESH_REQUIRE_GPU, euler for 100 iterations, valgrind for compute-sanitizer, and a
fake nvidia-smi; bench/gpu, GPU-only, must stop at once saying why."""

import os
import shlex
import shutil

import checks
import elf_versions
from common import CARRY, REPO
from runner import Command, Step

RUN_BUDGET_S = 270  # the device tool's call: timeout_s=330 leaves room for one rerun

EULER_GRID = ["--i", "400", "--j", "600", "--float-constants"]
# The published Airfoil residuals (the classic code's float constants), every digit, on
# any rank count with the gather form; "bits": the CPU's, from build/gpu-check on 1, 2 and
# 3 ranks (informative on the GPU).
EULER = {
    "iterations": 1000,
    "line_100": "100 5.02186e-04",
    "rms": "rms at iteration 1000 = 1.060114637578e-04",
    "bits": "1.06011463757826438e-04",
}
# The rehearsal's: the same grid for 100 iterations (the published line, and the CPU's rms).
EULER_REHEARSAL = {
    "iterations": 100,
    "line_100": "100 5.02186e-04",
    "rms": "rms at iteration 100 = 5.021861249748e-04",
    "bits": "5.02186124974778308e-04",
}
# The scatter form against the gather form's last rms, relative. Measured on the CPU
# (openmp, 720k cells, 1000 iterations; docs/gpu.md): 0 on 1 and 2 ranks, 6.4e-16 on 3
# (another face order). The GPU's atomics reorder every sum of every iteration, which no
# CPU run imitates: the bound keeps a margin of 1.6e5 over the largest measured.
SCATTER_TOLERANCE = 1e-10
HEAT_ARGS = ["--n", "24", "--quiet", "--t-end", "0.01", "--perturbation", "0.1"]
ADVECTION_ARGS = ["--n", "32", "--quiet"]
# The lines compared between 1 and 3 ranks (measured on the CPU: the same bits), and
# prepare's host figures of them.
HOST_FIGURES = {
    "heat": ("heat", "sum of V u", HEAT_ARGS),
    "advection": ("advection", r"mass .* ->", ADVECTION_ARGS),
}
# compute-sanitizer's subset: the kernels with the most indexing (gathers, scatters, the
# reproducible sum's block merges) and data moving lazily; one case per GPU each, and the
# suite's has-a-GPU case.
MEMCHECK_BINARY = "tests/expression_cuda_test"
MEMCHECK_PER_GPU = [
    "arithmetic_matches_plain_loops",
    "gather_and_scatter",
    "reproducible_sums",
    "data_moves_lazily_between_host_and_device",
]
MEMCHECK_FILTER = ":".join(
    [f"*/on_cuda.{case}/*" for case in MEMCHECK_PER_GPU] + ["on_cuda_cases.*"]
)
# Seconds a step takes on a GPU machine (a guess until the first run: then from its
# summary); a step starts only with this much of the budget left.
ESTIMATE = {
    "gpu": 5,
    "list": 3,
    "tests/memory_cuda_test": 5,
    "tests/expression_cuda_test": 15,
    "tests/paged_cuda_test": 5,
    "tests/face_loops_cuda_test": 12,
    "tests/fv_parts_cuda_test": 10,
    "euler": 15,
    "bench_gpu": 30,
    "example": 5,
    "memcheck": 60,
}


def steps(data, mode, carried):
    """The run's steps for the manifest's carried folder; mode "real", "rehearse" or "dry"
    (listed as "real")."""
    rehearse = mode == "rehearse"
    executor = "openmp" if rehearse else "cuda"
    on = {"FUNCMESH_EXECUTOR": executor}
    carry = REPO / CARRY

    def mpi(ranks, program, *args):
        return [
            carried.mpirun,
            "-np",
            str(ranks),
            "--oversubscribe",
            "--bind-to",
            "none",
            str(carry / program),
            *args,
        ]

    fake_smi = REPO / "ci/gpu_check/fake-bin/nvidia-smi"
    smi = str(fake_smi) if rehearse else (shutil.which("nvidia-smi") or "nvidia-smi")
    plan = [
        Step(
            "gpu",
            [Command([smi, "-q"], machine_env=True), Command([str(carry / data["probe"])])],
            30,
            ESTIMATE["gpu"],
            checks.gpu_judge(data["cuda"]["version"], data["cuda"]["arch"]),
            stop_on_fail=True,
        ),
        Step("glibc", [], 0, 0, glibc_judge(data["glibc"]), stop_on_fail=True),
    ]
    order = ["tests/memory_cuda_test", "tests/expression_cuda_test", "tests/paged_cuda_test"]
    gtests = sorted(data["gtests"], key=lambda g: (order + [g["path"]]).index(g["path"]))
    for entry in gtests:
        path, name = entry["path"], entry["path"].split("/")[-1]
        launch = (
            (lambda r, *a: mpi(r, path, *a))
            if entry["ranks"]
            else (lambda r, *a: [str(carry / path), *a])
        )
        plan.append(
            Step(
                f"{name}_list",
                [Command(launch(1, "--gtest_list_tests"))],
                60,
                ESTIMATE["list"],
                checks.gtest_list_judge(path, entry),
            )
        )
        for ranks in entry["ranks"] or [None]:
            # Under mpirun stdout is a terminal: gtest would colour its lines.
            plan.append(
                Step(
                    name + (f"_np{ranks}" if ranks else ""),
                    [Command(launch(ranks, "--gtest_color=no"))],
                    120,
                    ESTIMATE.get(path, 15),
                    checks.gtest_run_judge(path, entry),
                )
            )

    expect = EULER_REHEARSAL if rehearse else EULER
    examples = data["examples"]

    def euler(form, ranks):
        args = [*EULER_GRID, "--iterations", str(expect["iterations"]), "--form", form]
        return Step(
            f"euler_{form}_np{ranks}",
            [Command(mpi(ranks, examples["euler"], *args), env=on)],
            90,
            ESTIMATE["euler"],
            checks.euler_judge(form, ranks, expect, executor, SCATTER_TOLERANCE),
        )

    def same_bits(example, ranks):
        _, regex, args = HOST_FIGURES[example]
        return Step(
            f"{example}_np{ranks}",
            [Command(mpi(ranks, examples[example], *args), env=on)],
            60,
            ESTIMATE["example"],
            checks.same_bits_judge(example, regex, ranks, data["host"].get(example, "")),
        )

    def example(name, passes, *args):
        return Step(
            name,
            [Command([str(carry / examples[name]), *args, "--executor", executor], env=on)],
            60,
            ESTIMATE["example"],
            checks.example_judge(executor, passes),
        )

    plan += [
        euler("gather", 1),
        Step(
            "bench_gpu",
            [Command([str(carry / data["bench"])], env={"FUNCMESH_EXECUTOR": "cuda"})],
            120,
            ESTIMATE["bench_gpu"],
            checks.bench_judge,
        ),
        euler("gather", 2),
        euler("scatter", 1),
        same_bits("heat", 1),
        same_bits("heat", 3),
        same_bits("advection", 1),
        same_bits("advection", 3),
        example("axpy", "all results agree", "--size", "100003"),
        example("custom_scheme", "all checks passed"),
        euler("scatter", 2),
        memcheck(carry, carried, rehearse),
    ]
    return plan


def memcheck(carry, carried, rehearse):
    target = [
        str(carry / MEMCHECK_BINARY),
        f"--gtest_filter={MEMCHECK_FILTER}",
        "--gtest_color=no",
    ]
    if rehearse:  # valgrind's memcheck stands in, in the carried environment
        command = Command(["valgrind", "--error-exitcode=3", *target])
    else:
        sanitizer = shutil.which("compute-sanitizer") or next(
            (
                p
                for p in (
                    "/usr/local/cuda/bin/compute-sanitizer",
                    "/usr/local/cuda/compute-sanitizer/compute-sanitizer",
                )
                if os.access(p, os.X_OK)
            ),
            "compute-sanitizer",
        )
        # The tool in the machine's own environment (the carried libraries may be older
        # than it wants); its target, through env, in the carried one.
        unset = [a for name in carried.cleared for a in ("-u", name.split("=", 1)[0])]
        tool = [
            sanitizer,
            "--tool",
            "memcheck",
            "--error-exitcode",
            "3",
            "--target-processes",
            "all",
            "env",
        ]
        command = Command(
            [*tool, *unset, *[f"{k}={v}" for k, v in carried.ours.items()], *target],
            machine_env=True,
            display=f"{shlex.join(tool)} <the carried environment> {shlex.join(target)}",
        )
    return Step(
        "memcheck",
        [command],
        150,
        ESTIMATE["memcheck"],
        checks.memcheck_judge(1, len(MEMCHECK_PER_GPU)),
    )


def machine_glibc():
    try:
        return os.confstr("CS_GNU_LIBC_VERSION").split()[-1]
    except (ValueError, OSError, AttributeError):
        return ""


def glibc_judge(needed):
    """Binaries built against a newer glibc than the machine's cannot start at all."""

    def judge(outcomes, run):
        have = machine_glibc()
        if have and needed != "none" and elf_versions.parse(have) < elf_versions.parse(needed):
            return "FAIL", f"the carried files need glibc {needed}; this machine has only {have}"
        return "PASS", f"the carried files need glibc {needed}; this machine has {have or '?'}"

    return judge
