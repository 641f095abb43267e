"""The environment of every carried program. Open MPI is unpacked from the carried .debs
into a private folder (never into /); the machine's own MPI, PMIx, UCX, hwloc and funcmesh
variables are cleared and ours set explicitly (a machine with its own MPI stack may say
OMPI_MCA_pml=ucx); GCC's runtime is the machine's own unless it is older than the carried
binaries need."""

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import elf_versions
from common import CARRY, REPO, die

# What the machine may set that would reach the carried Open MPI, PMIx, UCX, hwloc or our
# programs. Its CUDA_VISIBLE_DEVICES and OMP_* stay: they are the machine's to choose.
CLEARED_PREFIXES = ("OMPI_", "OPAL_", "ORTE_", "PRTE_", "PMIX_", "UCX_", "HWLOC_", "FUNCMESH_")
MULTIARCH = "x86_64-linux-gnu"
STANDARD_LIBRARY_DIRS = (
    f"/lib/{MULTIARCH}",
    f"/usr/lib/{MULTIARCH}",
    "/lib64",
    "/usr/lib64",
    "/usr/lib",
    "/lib",
)


def cleaned(environ):
    """(environment without the cleared variables, ["NAME=value" removed])."""
    kept, removed = {}, []
    for name, value in environ.items():
        if name.startswith(CLEARED_PREFIXES):
            removed.append(f"{name}={value}")
        else:
            kept[name] = value
    return kept, sorted(removed)


def machine_copy(name, ld_library_path):
    """The file the machine's loader would find for a library name, without us: its
    LD_LIBRARY_PATH, then ld.so's cache, then the standard folders (None: none)."""
    for folder in filter(None, (ld_library_path or "").split(":")):
        if os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    try:
        cache = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        cache = ""
    match = re.search(rf"^\s*{re.escape(name)} \((?:libc6,)?x86-64[^)]*\) => (\S+)$", cache, re.M)
    if match and os.path.isfile(match.group(1)):
        return match.group(1)
    for folder in STANDARD_LIBRARY_DIRS:
        if os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None


def gcc_runtime_choice(needs, ld_library_path, find=machine_copy):
    """({library: carried file} to put first, [log lines]). needs: the manifest's
    {library: {prefix: newest version needed}}. The machine's copy is used where it
    provides every version needed; the carried copy where it has none, or an older one."""
    chosen, lines = {}, []
    for name, prefixes in sorted(needs.items()):
        mine = find(name, ld_library_path)
        short = []
        if mine:
            for prefix, needed in prefixes.items():
                have = elf_versions.newest([mine], prefix)
                if needed != "none" and (have is None or have < elf_versions.parse(needed)):
                    short.append(
                        f"{prefix}_{needed} needed, it has {prefix}_"
                        f"{elf_versions.as_text(have)}"
                    )
        if mine and not short:
            lines.append(f"{name}: the machine's {mine}")
        else:
            chosen[name] = str(REPO / CARRY / "lib/gcc-runtime" / name)
            lines.append(
                f"{name}: the carried copy (the machine's "
                f"{mine + ' is older: ' + '; '.join(short) if mine else 'is missing'})"
            )
    return chosen, lines


class Carried:
    """Open MPI unpacked under build/ (writable, and executables may run there; /tmp may be
    mounted noexec), and the environment that makes mpirun and every binary use the carried
    copies. Call remove() when done."""

    def __init__(self, data, environ):
        (REPO / "build").mkdir(exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix="gpu-check-mpi.", dir=REPO / "build"))
        if shutil.which("dpkg") is None:
            die("dpkg is needed to unpack the carried Open MPI (.deb)")
        for deb in data["debs"]:
            unpacked = subprocess.run(
                ["dpkg", "-x", str(CARRY / deb), str(self.root)], capture_output=True, text=True
            )
            if unpacked.returncode != 0:
                self.remove()
                die(f"dpkg -x {CARRY / deb} failed: {unpacked.stderr.strip()}")
        usr, lib = self.root / "usr", self.root / "usr/lib" / MULTIARCH
        # Debian makes these links with update-alternatives, which dpkg -x does not run.
        for name in ("mpirun", "mpiexec"):
            link = usr / "bin" / name
            link.unlink(missing_ok=True)
            link.symlink_to("orterun")
        psm = sorted((self.root / "usr/lib/libpsm1").glob("libpsm_infinipath.so.1.*"))
        if psm:
            (lib / "libpsm_infinipath.so.1").unlink(missing_ok=True)
            (lib / "libpsm_infinipath.so.1").symlink_to(f"../libpsm1/{psm[-1].name}")
        if not os.access(usr / "bin/orterun", os.X_OK):
            self.remove()
            die("the carried .debs hold no usr/bin/orterun")
        self.mpirun = str(usr / "bin/mpirun")
        self.home = self.root / "home"  # no ~/.openmpi or ~/.pmix of the machine's
        self.home.mkdir()

        machine, self.cleared = cleaned(environ)
        gcc, self.gcc_lines = gcc_runtime_choice(
            data["gcc_runtime"], environ.get("LD_LIBRARY_PATH", "")
        )
        gcc_dir = self.root / "gcc-runtime"
        gcc_dir.mkdir()
        for name, path in gcc.items():
            (gcc_dir / name).symlink_to(path)
        library_path = [str(gcc_dir)] if gcc else []
        library_path += [
            str(REPO / CARRY / "lib"),
            str(lib / "openmpi/lib"),
            str(lib),
            str(self.root / "lib" / MULTIARCH),
            str(lib / "pmix2/lib"),
        ]
        if environ.get("LD_LIBRARY_PATH"):  # where the machine keeps its driver, often
            library_path.append(environ["LD_LIBRARY_PATH"])
        # Open MPI, PMIx and hwloc find their plugins and configuration by compiled-in
        # paths: each is pointed at the private copy. Debian's sysconfdir holds its choice
        # of transports; the hwloc plugins are not carried (hwloc's built-ins suffice).
        self.ours = {
            "PATH": f"{usr}/bin:{environ.get('PATH', '/usr/bin:/bin')}",
            "LD_LIBRARY_PATH": ":".join(library_path),
            "HOME": str(self.home),
            "OPAL_PREFIX": str(usr),
            "OPAL_SYSCONFDIR": str(self.root / "etc/openmpi"),
            # PMIx 4.2 (Debian's) reads PMIX_PREFIX; later releases PMIX_INSTALL_PREFIX.
            "PMIX_PREFIX": str(lib / "pmix2"),
            "PMIX_INSTALL_PREFIX": str(lib / "pmix2"),
            "PMIX_PKGLIBDIR": str(lib / "pmix2/lib/pmix"),
            "HWLOC_PLUGINS_PATH": str(lib / "hwloc"),
            # Open MPI refuses to run as root without these (the GPU machine runs as root).
            "OMPI_ALLOW_RUN_AS_ROOT": "1",
            "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
            # The transports, said explicitly: ob1 over shared memory and TCP on loopback.
            "OMPI_MCA_pml": "ob1",
            "OMPI_MCA_btl": "self,vader,tcp",
            "OMPI_MCA_btl_tcp_if_include": "lo",
            "OMPI_MCA_oob_tcp_if_include": "lo",
            # Containers and VMs often forbid process_vm_readv (CMA); copy-in/copy-out
            # through shared memory works everywhere and changes no result.
            "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
        }
        self.env = dict(machine, **self.ours)

    def set(self, name, value):
        self.ours[name] = value
        self.env[name] = value

    def description(self):
        lines = ["environment of every carried program (Open MPI unpacked into " f"{self.root}):"]
        lines += [f"  {k}={v}" for k, v in self.ours.items()]
        lines.append(
            "  cleared from the machine's environment: "
            + (", ".join(self.cleared) if self.cleared else "nothing to clear")
        )
        lines += [f"  GCC runtime: {line}" for line in self.gcc_lines]
        return "\n".join(lines)

    def remove(self):
        shutil.rmtree(self.root, ignore_errors=True)
