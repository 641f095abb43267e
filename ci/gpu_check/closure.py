"""What the carried binaries need from the build machine: their shared libraries (by ldd),
sorted into what travels in lib/, GCC's runtime (lib/gcc-runtime: used on the GPU machine
only where its own is older) and what the GPU machine provides itself (glibc's core, the
driver); and the .deb files of Debian's Open MPI runtime with the packages their files need.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

from common import die, output_of

# glibc's core must match the running kernel and loader, the driver its GPU: the GPU
# machine's own are used.
SYSTEM_LIBRARY = re.compile(
    r"^(linux-vdso\.so|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so"
    r"|ld-linux[-a-z0-9_]*\.so|libcuda\.so|libnvidia-)"
)
# GCC's runtime, with the version-name prefixes each defines: newer copies serve older
# binaries, so the GPU machine's own is used unless it is older than the binaries need
# (a tool like compute-sanitizer, injected into the process, may need the newer one).
GCC_RUNTIME = {
    "libstdc++.so.6": ("GLIBCXX", "CXXABI"),
    "libgcc_s.so.1": ("GCC",),
    "libgomp.so.1": ("GOMP", "OMP"),
    "libatomic.so.1": ("LIBATOMIC",),
}
# Open MPI's runtime packages; what their files need is found by ldd. Packages of glibc
# and of GCC's runtime do not travel as .debs (see above).
DEB_ROOTS = ("openmpi-bin", "openmpi-common", "libopenmpi3", "libpmix2")
DEB_EXCLUDE = re.compile(r"^(libc6|libstdc\+\+6|libgcc-s1|libgomp1|libatomic1|gcc-\d+-base)$")


def ldd(path, env=None):
    """[(name, resolved path or None)] for every library ldd lists with an arrow."""
    found = []
    for line in output_of(["ldd", str(path)], env=env, check=False).splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "=>":
            found.append((parts[0], None if parts[2] == "not" else parts[2]))
    return found


def copy_libraries(binary, lib, gcc_runtime):
    """Copies every library ldd resolves for binary into lib/ (GCC's runtime into
    gcc_runtime/), except the system's own. Returns the names copied now."""
    copied = []
    for name, path in ldd(binary):
        if SYSTEM_LIBRARY.match(name):
            continue
        if path is None:
            die(f"{binary}: {name} not found on this machine")
        target = (gcc_runtime if name in GCC_RUNTIME else lib) / name
        if not target.exists():
            shutil.copy2(os.path.realpath(path), target)
            copied.append(name)
    return copied


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def package_files(packages):
    return output_of(["dpkg", "-L", *packages]).splitlines()


def owning_package(library):
    """The Debian package that ships library ("" where none does). With usrmerge dpkg
    knows a file by the path its package shipped, /lib or /usr/lib."""
    real = os.path.realpath(library)
    for candidate in (
        library,
        real,
        "/usr" + real,
        real.removeprefix("/usr"),
        "/usr" + library,
        library.removeprefix("/usr"),
    ):
        answer = output_of(["dpkg", "-S", candidate], check=False)
        if answer and ": " in answer and "no path found" not in answer:
            return answer.split(":", 1)[0].strip()
    return ""


def openmpi_runtime(gcc_runtime):
    """(packages, ELF files): the packages of Open MPI's runtime and of every library its
    ELF files need (GCC's runtime libraries they need are copied into gcc_runtime instead),
    and those files."""
    files = [f for f in package_files(DEB_ROOTS) if os.path.isfile(f) and not os.path.islink(f)]
    files = [f for f in files if is_elf(f)]
    needed = set()
    for f in files:
        needed.update(path for name, path in ldd(f) if path)
    packages = set(DEB_ROOTS)
    for library in sorted(needed):
        name = os.path.basename(library)
        if name in GCC_RUNTIME:
            target = gcc_runtime / name
            if not target.exists():
                shutil.copy2(os.path.realpath(library), target)
            continue
        package = owning_package(library)
        if not package:
            print(f"gpu-check: no package owns {library}")
        packages.add(package)
    return sorted(p for p in packages if p and not DEB_EXCLUDE.match(p)), files


def download_debs(packages, cache, destination):
    """The .deb of every package, at the version installed here (lib/ carries this
    machine's libmpi), from apt's cache or the mirror. Returns the file names."""
    cache.mkdir(parents=True, exist_ok=True)
    destination.mkdir(parents=True, exist_ok=True)
    os.chmod(cache, 0o777)  # apt drops to its _apt user to download
    names = []
    for package in packages:
        version = output_of(["dpkg-query", "-W", "-f=${Version}", package], check=False).strip()
        if not version:
            die(f"{package} is not installed here (ci/install-deps installs Open MPI)")
        deb = _cached_deb(cache, package, version)
        if deb is None:
            fetched = subprocess.run(
                ["apt-get", "download", "-q", f"{package}={version}"],
                cwd=cache,
                capture_output=True,
                text=True,
            )
            deb = _cached_deb(cache, package, version)
            if deb is None:
                for archived in Path("/var/cache/apt/archives").glob(f"{package}_*.deb"):
                    if _deb_version(archived) == version:
                        deb = Path(shutil.copy2(archived, cache))
            if deb is None:
                # The mirror moved on: its candidate, said loudly (lib/ still has ours).
                print(
                    f"\ngpu-check: WARNING: {package}={version} cannot be downloaded "
                    f"({fetched.stderr.strip()}); taking the mirror's candidate\n"
                )
                subprocess.run(["apt-get", "download", "-q", package], cwd=cache, check=False)
                debs = sorted(cache.glob(f"{package}_*.deb"), key=os.path.getmtime)
                if not debs:
                    die(f"apt-get download {package} failed")
                deb = debs[-1]
        shutil.copy2(deb, destination / deb.name)
        names.append(deb.name)
        print(f"  {deb.name}")
    return names


def _deb_version(deb):
    return output_of(["dpkg-deb", "-f", str(deb), "Version"], check=False).strip()


def _cached_deb(cache, package, version):
    for deb in sorted(cache.glob(f"{package}_*.deb")):
        if _deb_version(deb) == version:
            return deb
    return None
