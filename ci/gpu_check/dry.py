"""ci/gpu-check run --dry: every check of the carried folder that needs no GPU, in the
environment the real run builds (the machine's own, cleaned, plus ours)."""

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import closure
import plan
from checks import NO_GPU
from common import CARRY, REPO, now, output_of, size_report


def checks(run, data):
    """Records one row per check."""
    carry = REPO / CARRY
    programs = (
        [g["path"] for g in data["gtests"]]
        + list(data["examples"].values())
        + [data["bench"], data["probe"]]
    )

    clock = [now()]

    def row(name, problems, figure, details=""):
        seconds, clock[0] = now() - clock[0], now()
        if problems:
            run.record(name, "FAIL", seconds, "; ".join(dict.fromkeys(problems)))
            if details:
                run.say(details[:3000])
        else:
            run.record(name, "PASS", seconds, figure)

    missing = [p for p in programs if not os.access(carry / p, os.X_OK)] + [
        f for f in data["libraries"] + data["debs"] if not (carry / f).is_file()
    ]
    row(
        "files",
        ["missing: " + " ".join(missing)] if missing else [],
        f"{len(data['gtests'])} tests, {len(data['examples'])} examples, bench/gpu, the probe, "
        f"{len(data['libraries'])} libraries, {len(data['debs'])} .debs",
    )

    # Every library of every program resolves into the carried folder, but glibc's core,
    # the driver, and GCC's runtime where the machine's own is chosen.
    has_libcuda = "libcuda.so.1 " in output_of(["/sbin/ldconfig", "-p"], check=False)
    allowed = (str(carry), str(run.carried.root))
    problems, details = [], ""
    for program in programs:
        for name, path in closure.ldd(carry / program, env=run.carried.env):
            if path is None and not (name == "libcuda.so.1" and not has_libcuda):
                problems.append("libraries not found")
                details += f"{program}: {name} not found\n"
            elif (
                path
                and not path.startswith(allowed)
                and not closure.SYSTEM_LIBRARY.match(name)
                and name not in closure.GCC_RUNTIME
            ):
                problems.append("libraries from outside the carried folder")
                details += f"{program}: {name} => {path}\n"
    row("ldd", problems, f"every library of every program resolves into {CARRY}", details)

    result, figure = plan.glibc_judge(data["glibc"])([], run)
    row("glibc", [figure] if result == "FAIL" else [], figure)

    env = run.carried.env
    version = output_of([run.carried.mpirun, "--version"], env=env, check=False)
    row(
        "mpirun_version",
        [] if "Open MPI" in version else ["mpirun --version printed no 'Open MPI'"],
        version.splitlines()[0] if version else "",
        version,
    )

    ompi_info = str(Path(run.carried.mpirun).parent / "ompi_info")
    paths = output_of([ompi_info, "--path", "all"], env=env, check=False)
    problems = [
        f"ompi_info: {d} not in the private copy"
        for d in ("Prefix", "Libdir", "Pkglibdir", "Pkgdatadir", "Sysconfdir")
        if not re.search(rf"^ *{d}: {re.escape(str(run.carried.root))}/", paths, re.M)
    ]
    # What ompi_info says on stderr: components that did not load.
    errors = (
        subprocess.run(
            [ompi_info],
            env=env,
            stdout=subprocess.DEVNULL,
            text=True,
            stderr=subprocess.PIPE,
            timeout=120,
        )
        .stderr.strip()
        .splitlines()
    )
    if errors:
        problems.append("ompi_info reports component load errors")
    row(
        "ompi_paths",
        problems,
        "Open MPI's prefix, components and configuration are the " "private copy's",
        paths + "\n".join(errors),
    )

    two_ranks(run, data, row)
    heat_on_three_ranks(run, data, row)
    require_gpu(run, data, row)
    over = size_report()
    row("sizes", [over] if over else [], "carried folder and tracked tree within budget")


def two_ranks(run, data, row):
    """Two ranks of a real MPI program (MPI_Init, an allreduce, MPI_Finalize: gtest's main
    with no GPU-parameterized cases here), every object the loader loaded logged."""
    mpi_test = next((g["path"] for g in data["gtests"] if 2 in g["ranks"]), None)
    if mpi_test is None:
        row("mpi_2_ranks", ["no MPI gtest binary runs on 2 ranks"], "")
        return
    logs = Path(tempfile.mkdtemp())
    command = [
        run.carried.mpirun,
        "-np",
        "2",
        "--oversubscribe",
        "--bind-to",
        "none",
        str(REPO / CARRY / mpi_test),
    ]
    out = run.check_command(command, dict(LD_DEBUG="libs", LD_DEBUG_OUTPUT=str(logs / "ld")))
    text = "".join(p.read_text(errors="replace") for p in logs.glob("ld.*"))
    shutil.rmtree(logs, ignore_errors=True)
    loaded = sorted(set(re.findall(r"calling init: (\S+)", text)))
    programs = re.findall(r"initialize program: (\S+)", text)
    roots = (str(run.carried.root) + "/", str(REPO / CARRY) + "/")
    outside = [
        lib
        for lib in loaded
        if not lib.startswith(roots)
        and not closure.SYSTEM_LIBRARY.match(os.path.basename(lib))
        and os.path.basename(lib) not in closure.GCC_RUNTIME
    ]
    problems = [] if out.rc == 0 else [f"2-rank run failed: {out.reason()}"]
    if outside:
        problems.append("objects loaded from outside the carried copies: " + " ".join(outside))
    libmpi = [lib for lib in loaded if "/libmpi.so" in lib]
    if not libmpi or not libmpi[0].startswith(roots):
        problems.append(f"libmpi was not loaded from the carried copies: {libmpi}")
    if run.carried.mpirun not in programs and os.path.realpath(run.carried.mpirun) not in [
        os.path.realpath(p) for p in programs
    ]:
        problems.append(f"mpirun was not the carried one: {programs}")
    ranks = sum(1 for p in programs if p == str(REPO / CARRY / mpi_test))
    if ranks != 2:
        problems.append(f"{ranks} ranks ran, not 2")
    row(
        "mpi_2_ranks",
        problems,
        f"{ranks} ranks of {mpi_test} under the carried mpirun, the "
        f"machine's MPI variables cleared; {len(loaded)} objects loaded, all carried or the "
        "system's core",
        out.output,
    )


def heat_on_three_ranks(run, data, row):
    """Real traffic through the carried Open MPI (halo exchanges, reductions): heat on 3
    ranks on the CPU, the same bits as prepare's 1-rank figure."""
    _, regex, args = plan.HOST_FIGURES["heat"]
    out = run.check_command(
        [
            run.carried.mpirun,
            "-np",
            "3",
            "--oversubscribe",
            "--bind-to",
            "none",
            str(REPO / CARRY / data["examples"]["heat"]),
            *args,
        ],
        {"FUNCMESH_EXECUTOR": "openmp"},
    )
    line = next((line for line in out.output.splitlines() if re.search(regex, line)), "")
    problems = [f"heat on 3 ranks failed: {out.reason()}"] if out.rc else []
    if not problems and line != data["host"]["heat"]:
        problems.append(f"heat on 3 ranks: '{line}', host on 1 rank: '{data['host']['heat']}'")
    row(
        "mpi_3_ranks_heat", problems, f"CPU, carried Open MPI: {line} (= host, 1 rank)", out.output
    )


def require_gpu(run, data, row):
    """With no GPU, FUNCMESH_REQUIRE_GPU=1 fails, and says why, with the cuda executor
    named and with "auto" (which must not quietly become the CPU)."""
    if "GPU " in output_of(["nvidia-smi", "-L"], check=False):
        run.record("require_gpu", "SKIPPED", 0, "a GPU is visible here")
        return
    axpy = str(REPO / CARRY / data["examples"]["axpy"])
    for name, executor in (("require_gpu", "cuda"), ("require_gpu_auto", "auto")):
        out = run.check_command(
            [axpy, "--size", "1000", "--executor", executor],
            {"FUNCMESH_REQUIRE_GPU": "1", "FUNCMESH_EXECUTOR": executor},
        )
        problems = []
        if out.rc == 0:
            problems.append(
                "exit status 0 without a GPU"
                + (": auto fell back to the CPU" if executor == "auto" else "")
            )
        elif not NO_GPU.search(out.output):
            problems.append(f"exit status {out.rc}, but no clear 'no GPU' message")
        last = out.output.strip().splitlines()[-1:] or [""]
        row(name, problems, f"exit {out.rc}: {last[0][:150]}", out.output)
