"""The run's first step: what nvidia-smi and the probe say, and when the run must stop."""

import subprocess
import unittest

import driver
from common import REPO

PROBE_H100 = """runtime 13000
driver 13000
devices 1
device 0: NVIDIA H100 80GB HBM3, sm_90, 79.2 GiB, 132 multiprocessors
kernel ran
"""
PROBE_NO_DRIVER = """runtime 13000
driver 0
error: cudaGetDeviceCount: cudaErrorInsufficientDriver: CUDA driver version is insufficient
"""


def fake_smi(driver_version, cuda):
    env = {"PATH": "/usr/bin:/bin", "FAKE_NVIDIA_DRIVER": driver_version, "FAKE_NVIDIA_CUDA": cuda}
    return subprocess.run(
        [str(REPO / "ci/gpu_check/fake-bin/nvidia-smi"), "-q"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


class parsing(unittest.TestCase):
    def test_nvidia_smi_q(self):
        smi = driver.parse_nvidia_smi(fake_smi("580.159.04", "13.0"))
        self.assertEqual(
            smi, {"driver": "580.159.04", "cuda": "13.0", "gpus": ["NVIDIA H100 80GB HBM3"]}
        )

    def test_probe(self):
        probe = driver.parse_probe(PROBE_H100)
        self.assertEqual(
            (probe["runtime"], probe["driver"], probe["kernel"]), (13000, 13000, "ran")
        )
        self.assertEqual(
            probe["devices"], ["NVIDIA H100 80GB HBM3, sm_90, 79.2 GiB, 132 multiprocessors"]
        )
        self.assertIn("cudaErrorInsufficientDriver", driver.parse_probe(PROBE_NO_DRIVER)["error"])


class deciding(unittest.TestCase):
    def judge(self, smi_text, probe_text, cuda="13.0", arch="90"):
        smi = driver.parse_nvidia_smi(smi_text) if smi_text is not None else None
        probe = driver.parse_probe(probe_text) if probe_text is not None else None
        return driver.judge(cuda, arch, smi, probe)

    def test_a_good_machine_passes_with_its_versions(self):
        problem, text = self.judge(fake_smi("580.159.04", "13.0"), PROBE_H100)
        self.assertEqual(problem, "")
        self.assertIn("NVIDIA H100 80GB HBM3", text)
        self.assertIn("driver 580.159.04 (CUDA 13.0), runtime 13.0", text)

    def test_an_old_driver_by_nvidia_smi_stops(self):
        problem, text = self.judge(fake_smi("470.82.01", "11.4"), PROBE_NO_DRIVER)
        self.assertEqual(problem, "driver")
        self.assertIn("driver 470.82.01 supports CUDA 11.4: too old", text)
        self.assertIn("needs a driver >= 580 (CUDA 13.x)", text)

    def test_a_driver_of_the_previous_major_stops_even_if_its_branch_is_new_enough(self):
        problem, _ = self.judge(fake_smi("590.10", "12.9"), PROBE_H100)
        self.assertEqual(problem, "driver")

    def test_an_old_driver_by_the_runtime_stops_without_nvidia_smi(self):
        problem, text = self.judge(None, PROBE_H100.replace("driver 13000", "driver 12040"))
        self.assertEqual(problem, "driver")
        self.assertIn("supports CUDA 12.4", text)

    def test_no_driver_and_no_gpu(self):
        problem, text = self.judge(None, PROBE_NO_DRIVER)
        self.assertEqual(problem, "no_gpu")
        self.assertIn("no CUDA driver is installed or loaded", text)

    def test_a_probe_that_did_not_start(self):
        self.assertEqual(self.judge(fake_smi("580.159.04", "13.0"), None)[0], "probe")

    def test_a_gpu_older_than_the_binaries(self):
        probe = PROBE_H100.replace("sm_90", "sm_80")
        problem, text = self.judge(fake_smi("580.159.04", "13.0"), probe)
        self.assertEqual(problem, "arch")
        self.assertIn("sm_80", text)

    def test_a_kernel_that_did_not_run(self):
        probe = PROBE_H100.replace(
            "kernel ran", "error: kernel launch: cudaErrorNoKernelImageForDevice: no"
        )
        problem, text = self.judge(fake_smi("580.159.04", "13.0"), probe)
        self.assertEqual(problem, "kernel")
        self.assertIn("cudaErrorNoKernelImageForDevice", text)


if __name__ == "__main__":
    unittest.main()
