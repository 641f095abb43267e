"""The run's first step: which driver, runtime and GPU this machine has, and whether the
carried binaries can run on them at all. A driver too old for the carried CUDA runtime, no
visible GPU, or a GPU older than the binaries' architecture stops the run at once."""

import re

# The oldest Linux driver branch that runs each CUDA major's runtime (CUDA's minor version
# compatibility: any 13.x runtime on a >= 580 driver, 12.x on >= 525, 11.x on >= 450).
MINIMUM_DRIVER = {11: 450, 12: 525, 13: 580}


def parse_nvidia_smi(text):
    """{driver, cuda, gpus: [names]} from `nvidia-smi -q` (key : value lines)."""

    def field(name):
        match = re.search(rf"^\s*{name}\s*:\s*(.+?)\s*$", text, re.M)
        return match.group(1) if match else ""

    return {
        "driver": field("Driver Version"),
        "cuda": field("CUDA Version"),
        "gpus": re.findall(r"^\s*Product Name\s*:\s*(.+?)\s*$", text, re.M),
    }


def parse_probe(text):
    """{runtime, driver: CUDA versions as 13000 (0: none), devices: [lines], kernel, error}
    from gpu_probe's output."""

    def number(name):
        match = re.search(rf"^{name} (\d+)$", text, re.M)
        return int(match.group(1)) if match else None

    kernel = re.search(r"^kernel (.+)$", text, re.M)
    error = re.search(r"^error: (.+)$", text, re.M)
    return {
        "runtime": number("runtime"),
        "driver": number("driver"),
        "devices": re.findall(r"^device \d+: (.+)$", text, re.M),
        "kernel": kernel.group(1) if kernel else "",
        "error": error.group(1) if error else "",
    }


def cuda_text(version):
    """13000 -> "13.0"."""
    return f"{version // 1000}.{version % 1000 // 10}" if version else "none"


def major(text):
    match = re.match(r"(\d+)", text or "")
    return int(match.group(1)) if match else None


def judge(carried_cuda, arch, smi, probe):
    """(problem, text): problem is "" (text: the key figure), or what stops the run: "driver"
    (too old), "probe" (did not start), "no_gpu", "arch" (the GPU is too old), "kernel"
    (text: why). carried_cuda: the runtime's version ("13.0"), arch:
    the binaries' architecture ("90"); smi and probe: the parsed outputs, or None when the
    program was missing or did not start."""
    needed = major(carried_cuda)
    minimum = MINIMUM_DRIVER.get(needed)
    need_text = (
        f"the carried binaries use the CUDA {carried_cuda} runtime, which needs a "
        f"driver >= {minimum} (CUDA {needed}.x)"
        if minimum
        else f"the carried binaries use the CUDA {carried_cuda} runtime"
    )
    # Too old, by what nvidia-smi says of the driver and by what the runtime saw.
    if smi and smi["driver"]:
        too_old = (minimum and (major(smi["driver"]) or 0) < minimum) or (
            smi["cuda"] and (major(smi["cuda"]) or 0) < needed
        )
        if too_old:
            return (
                "driver",
                f"driver {smi['driver']} supports CUDA {smi['cuda'] or '?'}: "
                f"too old; {need_text}",
            )
    if probe and probe["driver"] and probe["driver"] // 1000 < needed:
        return (
            "driver",
            f"the driver supports CUDA {cuda_text(probe['driver'])}: too old; {need_text}",
        )
    if probe is None:
        return ("probe", "the probe did not start (see the log): nothing else can")
    if not probe["devices"]:
        why = probe["error"] or "the driver reports 0 devices"
        if not probe["driver"]:
            why = "no CUDA driver is installed or loaded (" + why + ")"
        return ("no_gpu", f"no GPU is visible: {why}")
    # The binaries hold sm_<arch> code and compute_<arch> PTX: older GPUs cannot run them.
    capabilities = [int(m) for m in re.findall(r", sm_(\d+),", ", ".join(probe["devices"]) + ",")]
    if arch and capabilities and max(capabilities) < int(arch):
        return (
            "arch",
            f"the GPU is sm_{max(capabilities)}; the carried binaries are built "
            f"for sm_{arch} and newer",
        )
    if probe["kernel"] != "ran":
        return ("kernel", f"a kernel did not run on device 0: {probe['error'] or probe['kernel']}")
    driver = smi["driver"] if smi and smi["driver"] else "?"
    figure = (
        f"{probe['devices'][0]}; driver {driver} (CUDA {cuda_text(probe['driver'])}), "
        f"runtime {cuda_text(probe['runtime'])}"
    )
    if len(probe["devices"]) > 1:
        figure += f"; {len(probe['devices'])} GPUs"
    return "", figure
