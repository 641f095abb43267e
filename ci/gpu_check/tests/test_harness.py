"""The run's machinery: the cleaned environment, GCC's runtime choice, version names, the
budget, timeouts that end whole process groups, a first step that stops the run."""

import os
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

import carried_env
import elf_versions
from runner import Command, Run, Step


def library_with(*names):
    f = tempfile.NamedTemporaryFile(delete=False, suffix=".so")
    f.write(b"\x7fELF junk\x00" + b"\x00".join(n.encode() for n in names) + b"\x00tail")
    f.close()
    return f.name


class environment(unittest.TestCase):
    def test_the_machines_mpi_variables_are_cleared(self):
        kept, removed = carried_env.cleaned(
            {
                "OMPI_MCA_pml": "ucx",
                "OPAL_PREFIX": "/x",
                "PMIX_MCA_gds": "hash",
                "UCX_TLS": "rc",
                "HWLOC_XMLFILE": "/t.xml",
                "FUNCMESH_EXECUTOR": "serial",
                "PRTE_MCA_x": "1",
                "ORTE_x": "1",
                "CUDA_VISIBLE_DEVICES": "0",
                "PATH": "/usr/bin",
                "OMP_NUM_THREADS": "4",
            }
        )
        self.assertEqual(
            kept, {"CUDA_VISIBLE_DEVICES": "0", "PATH": "/usr/bin", "OMP_NUM_THREADS": "4"}
        )
        self.assertEqual(len(removed), 8)
        self.assertIn("OMPI_MCA_pml=ucx", removed)

    def test_versions_in_an_elf_string_table(self):
        path = library_with(
            "GLIBCXX_3.4", "GLIBCXX_3.4.30", "CXXABI_1.3.13", "GLIBC_2.34", "GLIBC_PRIVATE"
        )
        self.assertEqual(elf_versions.newest([path], "GLIBCXX"), (3, 4, 30))
        self.assertEqual(elf_versions.newest([path], "GLIBC"), (2, 34))
        self.assertIsNone(elf_versions.newest([path], "GOMP"))
        os.unlink(path)

    def test_the_machines_gcc_runtime_unless_it_is_older(self):
        needs = {
            "libstdc++.so.6": {"GLIBCXX": "3.4.30", "CXXABI": "1.3.13"},
            "libgomp.so.1": {"GOMP": "4.5"},
            "libatomic.so.1": {"LIBATOMIC": "none"},
        }
        newer = library_with("GLIBCXX_3.4.33", "CXXABI_1.3.15")
        older = library_with("GLIBCXX_3.4.28", "CXXABI_1.3.12")
        gomp = library_with("GOMP_5.0")
        machine = {"libstdc++.so.6": newer, "libgomp.so.1": gomp}
        chosen, lines = carried_env.gcc_runtime_choice(needs, "", lambda n, _: machine.get(n))
        self.assertEqual(sorted(chosen), ["libatomic.so.1"])  # the machine has none
        self.assertIn("libatomic.so.1: the carried copy (the machine's is missing)", lines)
        machine["libstdc++.so.6"] = older
        chosen, lines = carried_env.gcc_runtime_choice(needs, "", lambda n, _: machine.get(n))
        self.assertEqual(sorted(chosen), ["libatomic.so.1", "libstdc++.so.6"])
        self.assertTrue(
            any("GLIBCXX_3.4.30 needed, it has GLIBCXX_3.4.28" in line for line in lines)
        )
        for path in (newer, older, gomp):
            os.unlink(path)


class running(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        carried = SimpleNamespace(env=dict(os.environ), root=Path(self.folder.name))
        self.summary = Path(self.folder.name) / "summary.txt"
        self.run_ = Run("real", 60, Path(self.folder.name) / "log", carried, self.summary, "t")

    def tearDown(self):
        self.folder.cleanup()

    def step(self, name, argv, timeout=30, estimate=0, stop=False, judge=None):
        judge = judge or (
            lambda outcomes, run: ("FAIL", outcomes[0].reason())
            if outcomes[0].reason()
            else ("PASS", "ok")
        )
        return Step(name, [Command(argv)], timeout, estimate, judge, stop_on_fail=stop)

    def test_a_step_that_would_not_fit_is_skipped_with_the_reason(self):
        self.run_.take(self.step("long", ["true"], estimate=600))
        self.assertRegex(
            self.run_.rows[0],
            r"^long +SKIPPED .*would not fit: \d+ s of the "
            r"run's 60 s left, it takes about 600 s",
        )
        self.assertEqual(self.run_.failures, 0)

    def test_a_timeout_ends_the_whole_process_group(self):
        marker = Path(self.folder.name) / "child-survived"
        script = f"(sleep 3; touch {marker}) & sleep 30"
        self.run_.take(self.step("slow", ["sh", "-c", script], timeout=1))
        self.assertRegex(self.run_.rows[0], r"^slow +FAIL .*timed out after 1 s")
        import time

        time.sleep(3.5)
        self.assertFalse(marker.exists(), "a child of the timed-out step ran on")

    def test_a_step_gets_what_is_left_of_the_budget(self):
        self.run_.budget = 2
        self.run_.take(self.step("late", ["sleep", "10"], timeout=30))
        self.assertRegex(
            self.run_.rows[0], r"FAIL .*timed out after 2 s \(the run's 2 s were spent\)"
        )

    def test_a_failed_first_step_stops_the_run(self):
        self.run_.take(self.step("gpu", ["false"], stop=True))
        self.assertIn("INCOMPLETE", self.summary.read_text())  # until the run ends
        self.run_.take(self.step("next", ["true"]))
        self.assertEqual(len(self.run_.rows), 1)
        self.assertIn("gpu failed", self.run_.stopped)
        summary = self.run_.summary()
        self.assertEqual(summary, self.summary.read_text().rstrip("\n"))
        self.assertNotIn("INCOMPLETE", summary)
        self.assertIn("stopped: gpu failed", summary)
        self.assertIn("1 failed", summary)

    def test_a_missing_program_is_a_clear_failure(self):
        self.run_.take(self.step("absent", ["/nonexistent/program"]))
        self.assertRegex(self.run_.rows[0], r"FAIL .*not found: /nonexistent/program")


if __name__ == "__main__":
    unittest.main()
