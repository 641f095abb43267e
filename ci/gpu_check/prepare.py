"""ci/gpu-check prepare: builds the gpu-check preset's CUDA tests, examples, bench/gpu and
the probe here (nvcc, no GPU needed), and fills build/gpu-carry with them, their shared
libraries, Debian's Open MPI runtime as .debs and manifest.json."""

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import closure
import elf_versions
import manifest
import plan
from common import BUILD, CARRY, REPO, die, output_of, size_report

EXAMPLES = {
    "euler": "examples/euler",
    "heat": "examples/heat",
    "advection": "examples/advection",
    "axpy": "examples/axpy",
    "custom_scheme": "examples/custom_scheme/custom_scheme",
}
BENCH = ("bench_gpu", "bench/gpu")
PROBE_SOURCE = Path("ci/gpu_check/probe.cu")


def configure():
    print("== configure: cmake --preset gpu-check")
    Path("build").mkdir(exist_ok=True)
    log = Path(f"{BUILD}.configure.log")
    with open(log, "w") as out:
        done = subprocess.run(
            ["cmake", "--preset", "gpu-check", f"-DCMAKE_CUDA_COMPILER={shutil.which('nvcc')}"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    if done.returncode != 0:
        print(log.read_text())
        die(f"configure failed (log: {log})")
    # What travels to another machine must not be tuned to this one's CPU, and the device
    # must compute for sm_90 without contracting a*b+c into FMAs, as the host does.
    flag_files = [
        BUILD / "build.ninja",
        BUILD / "CMakeCache.txt",
        *BUILD.rglob("flags.make"),
        *BUILD.rglob("rules.ninja"),
    ]
    for f in flag_files:
        if f.is_file() and re.search(r"-march=native|-mtune=native|-xHost", f.read_text()):
            die(f"-march=native (or the like) is in {f}: binaries must run on another CPU")
    cache = cmake_cache()
    if cache.get("CMAKE_CUDA_ARCHITECTURES") != "90":
        print(
            f"gpu-check: WARNING: CMAKE_CUDA_ARCHITECTURES is "
            f"{cache.get('CMAKE_CUDA_ARCHITECTURES')}, not 90, in {BUILD}"
        )
    if "--fmad=false" not in cache.get("CMAKE_CUDA_FLAGS", ""):
        die(f"CMAKE_CUDA_FLAGS lacks --fmad=false in {BUILD}")
    return cache


def cmake_cache():
    values = {}
    for line in (BUILD / "CMakeCache.txt").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_]+):[A-Z]+=(.*)$", line)
        if match:
            values[match.group(1)] = match.group(2)
    return values


def cuda_tests():
    """{path relative to the build folder: [MPI rank counts], [] when run directly} of every
    test labelled cuda whose program lives under tests/. gtest_discover_tests names its
    program in an include file (its cases are discovered only at test time), add_test in
    ctest's list."""
    tests = {}
    for include in (BUILD / "tests").glob("*_include.cmake"):
        text = include.read_text()
        labels = re.search(r"TEST_PROPERTIES \[==\[(.*?)\]==\]", text)
        program = re.search(r"TEST_EXECUTABLE \[==\[(.*?)\]==\]", text)
        if labels and program and re.search(r"LABELS(;[^;]+)*;cuda(;|$)", labels.group(1)):
            tests.setdefault(os.path.relpath(program.group(1), REPO / BUILD), [])
    listing = output_of(
        ["ctest", "--test-dir", str(BUILD), "-N", "-L", "cuda", "--show-only=json-v1"], check=False
    )
    for test in json.loads(listing or "{}").get("tests", []):
        command = test.get("command") or []
        program = next(
            (c for c in command if c.startswith(str(REPO / BUILD / "tests") + "/")), None
        )
        if program is None:
            continue
        ranks = tests.setdefault(os.path.relpath(program, REPO / BUILD), [])
        if os.path.basename(command[0]) in ("mpiexec", "mpirun", "orterun"):
            for flag in ("-n", "-np"):
                if flag in command:
                    ranks.append(int(command[command.index(flag) + 1]))
    if not tests:
        die(f"no test labelled cuda in {BUILD} (is FUNCMESH_ENABLE_CUDA on?)")
    return {path: sorted(set(ranks)) for path, ranks in sorted(tests.items())}


def build(targets):
    known = set(
        re.findall(
            r"^([A-Za-z0-9_.-]+): ",
            output_of(["cmake", "--build", str(BUILD), "--target", "help"]),
            re.M,
        )
    )
    for target in targets:
        if target not in known:
            die(f"target {target} does not exist in {BUILD}")
    print(f"== build ({len(targets)} targets, -j {os.cpu_count()}): {' '.join(targets)}")
    if (
        subprocess.run(
            [
                "ci/ccache-stats",
                "gpu-check prepare build",
                "cmake",
                "--build",
                "--preset",
                "gpu-check",
                "-j",
                str(os.cpu_count()),
                "--target",
                *targets,
            ]
        ).returncode
        != 0
    ):
        die("the build failed")


def build_probe(cache):
    """bin/gpu_probe: the run's first step (driver, runtime, devices, one kernel), linked
    against the shared CUDA runtime the other binaries use."""
    arch = cache.get("CMAKE_CUDA_ARCHITECTURES", "90").split(";")[0]
    target = CARRY / "bin/gpu_probe"
    target.parent.mkdir(parents=True, exist_ok=True)
    output_of(
        [
            "nvcc",
            "-O2",
            "-cudart",
            "shared",
            "-Werror",
            "all-warnings",
            f"-gencode=arch=compute_{arch},code=[sm_{arch},compute_{arch}]",
            "-o",
            str(target),
            str(PROBE_SOURCE),
        ],
        timeout=300,
    )
    return str(target.relative_to(CARRY))


def gtest_cases(path, ranks):
    """(cases listed here, TEST_P cases per GPU). Here no GPU is visible: the executor-
    parameterized suites register their cases once per visible GPU, so they are counted
    from the binary's registration symbols."""
    launch = ["mpirun", "-np", "1", "--oversubscribe", "--bind-to", "none"] if ranks else []
    env = {k: v for k, v in os.environ.items() if k != "FUNCMESH_REQUIRE_GPU"}
    listed = output_of([*launch, str(BUILD / path), "--gtest_list_tests"], env=env, timeout=60)
    here = len(re.findall(r"^  \S", listed, re.M))
    symbols = output_of(["nm", "-C", str(BUILD / path)], check=False)
    per_gpu = len(set(re.findall(r" [bBdD] (.*_Test::gtest_registering_dummy_)$", symbols, re.M)))
    if here + per_gpu == 0:
        die(f"{path} registers no gtest case")
    return here, per_gpu


def host_figure(example, regex, args):
    """A figure of an example on this machine's CPU, 1 rank (informative on the GPU: libm's
    exp and the device's need not agree in the last bit)."""
    env = dict(os.environ, OMP_NUM_THREADS="1", FUNCMESH_EXECUTOR="openmp")
    out = output_of(
        ["mpirun", "-np", "1", "--bind-to", "none", str(BUILD / EXAMPLES[example]), *args],
        env=env,
        timeout=120,
        check=False,
    )
    return next((line for line in out.splitlines() if re.search(regex, line)), "")


def prepare():
    started = time.monotonic()
    for tool, why in (
        ("nvcc", "the CUDA toolkit, on PATH or in /usr/local/cuda/bin"),
        ("mpirun", "Open MPI (ci/install-deps)"),
        ("dpkg", "Debian's dpkg"),
        ("strip", "binutils (with g++)"),
    ):
        if shutil.which(tool) is None:
            die(f"prepare needs {tool} ({why})")
    cache = configure()
    tests = cuda_tests()
    build([os.path.basename(p) for p in tests] + list(EXAMPLES) + [BENCH[0]])

    print(f"== fill {CARRY}")
    shutil.rmtree(CARRY, ignore_errors=True)
    lib, gcc_runtime = CARRY / "lib", CARRY / "lib/gcc-runtime"
    gcc_runtime.mkdir(parents=True)
    binaries = list(tests) + list(EXAMPLES.values()) + [BENCH[1]]
    for path in binaries:
        if not os.access(BUILD / path, os.X_OK):
            die(f"{BUILD / path} was not built")
        (CARRY / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(BUILD / path, CARRY / path)
        # Their host symbol tables (long mangled template names) are not needed to run them:
        # 6 MiB of the carried binaries (2026-12-07); the device code and the dynamic
        # symbols stay. The build's own copies keep theirs, for gdb here.
        stripped = subprocess.run(
            ["strip", "--strip-unneeded", str(CARRY / path)], capture_output=True, text=True
        )
        if stripped.returncode != 0:
            die(f"strip --strip-unneeded {CARRY / path} failed: {stripped.stderr.strip()}")
        closure.copy_libraries(BUILD / path, lib, gcc_runtime)
    probe = build_probe(cache)
    closure.copy_libraries(CARRY / probe, lib, gcc_runtime)
    print(f"binaries: {' '.join(binaries)} {probe}")
    print("Open MPI runtime packages (the versions installed here):")
    packages, openmpi_files = closure.openmpi_runtime(gcc_runtime)
    debs = closure.download_debs(packages, BUILD / "debs-cache", CARRY / "debs")
    libraries = sorted(str(p.relative_to(CARRY)) for p in lib.rglob("*") if p.is_file())
    print(f"libraries: {' '.join(libraries)}")

    print("== gtest cases (listed here without a GPU; TEST_Ps run once per visible GPU)")
    gtests = []
    for path, ranks in tests.items():
        here, per_gpu = gtest_cases(path, ranks)
        gtests.append({"path": path, "listed": here, "per_gpu": per_gpu, "ranks": ranks})
        print(
            f"  {path:32} {here:3} listed here, {per_gpu:3} per GPU, "
            f"ranks: {' '.join(map(str, ranks)) or '(direct)'}"
        )

    data = {
        "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        + " on "
        + os.uname().nodename,
        "commit": commit(),
        "cuda": {
            "version": re.search(r"release (\d+\.\d+)", output_of(["nvcc", "--version"])).group(1),
            "arch": cache.get("CMAKE_CUDA_ARCHITECTURES", ""),
            "flags": cache.get("CMAKE_CUDA_FLAGS", ""),
        },
        "gtests": gtests,
        "examples": EXAMPLES,
        "bench": BENCH[1],
        "probe": probe,
        "libraries": libraries,
        "debs": [f"debs/{d}" for d in debs],
        "gcc_runtime": gcc_runtime_needs(
            [CARRY / b for b in binaries + [probe]] + openmpi_files, gcc_runtime
        ),
        "glibc": elf_versions.as_text(
            elf_versions.newest(
                [CARRY / b for b in binaries + [probe]] + [CARRY / f for f in libraries], "GLIBC"
            )
        ),
        "host": {name: host_figure(*how) for name, how in plan.HOST_FIGURES.items()},
    }
    print(f"== manifest: {manifest.write(data)}")
    over = size_report()
    if over:
        die(over)
    print(f"prepare: done in {time.monotonic() - started:.1f} s")


def gcc_runtime_needs(users, gcc_runtime):
    """For each carried GCC runtime library: the newest version of each of its prefixes
    that the carried programs, lib/ and Open MPI's files need (run compares the machine's
    own copy with it)."""
    users = list(users) + list((CARRY / "lib").glob("*.so*"))
    needs = {}
    for library in sorted(gcc_runtime.iterdir()):
        prefixes = closure.GCC_RUNTIME[library.name]
        needs[library.name] = {
            p: elf_versions.as_text(elf_versions.newest(users, p)) for p in prefixes
        }
    return needs


def commit():
    head = output_of(["git", "rev-parse", "--short", "HEAD"], check=False).strip() or "unknown"
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"]).returncode != 0
    return head + (" + uncommitted changes" if dirty else "")
