"""The judges: what each step's output must show, on the GPU and in a rehearsal."""

import unittest
from types import SimpleNamespace

import checks
import plan
from common import REPO
from runner import Outcome

GTEST_SKIPPING = """[==========] Running 2 tests from 1 test suite.
[ RUN      ] cuda/device_coherence/0.allocates_nowhere_until_a_pointer_is_requested
[       OK ] cuda/device_coherence/0.allocates_nowhere_until_a_pointer_is_requested (0 ms)
[ RUN      ] cuda/device_coherence/0.device_to_device_copies_go_direct
tests/framework/memory/device_coherence_suite.hpp:143: Skipped
needs two devices
[  SKIPPED ] cuda/device_coherence/0.device_to_device_copies_go_direct (0 ms)
[==========] 2 tests from 1 test suite ran. (1 ms total)
[  PASSED  ] 1 test.
[  SKIPPED ] 1 test, listed below:
[  SKIPPED ] cuda/device_coherence/0.device_to_device_copies_go_direct
"""
GTEST_NO_GPU = GTEST_SKIPPING.replace("needs two devices", "no GPU is visible (cudaErrorNoDevice)")
GTEST_PASSING = """[==========] Running 2 tests from 1 test suite.
[ RUN      ] a.b
[       OK ] a.b (0 ms)
[ RUN      ] a.c
[       OK ] a.c (3 ms)
[==========] 2 tests from 1 test suite ran. (3 ms total)
[  PASSED  ] 2 tests.
"""


def run_(mode="real", gpus=1, **context):
    return SimpleNamespace(mode=mode, context=dict(context, gpus=gpus))


def ok(text):
    return Outcome(0, text, 1.0)


class gtest(unittest.TestCase):
    def test_counts(self):
        c = checks.gtest_counts(GTEST_SKIPPING)
        self.assertEqual((c["passed"], c["failed"], c["skipped"]), (1, 0, 1))
        self.assertEqual(
            c["skips"],
            [
                (
                    "cuda/device_coherence/0.device_to_device_copies_go_direct",
                    "tests/framework/memory/device_coherence_suite.hpp:143: "
                    "Skipped needs two devices",
                )
            ],
        )

    def test_every_case_passed(self):
        self.assertEqual(
            checks.judge_gtest_run(ok(GTEST_PASSING), 2, 2, False),
            ("PASS", "2/2 cases passed, none skipped"),
        )

    def test_a_skip_fails_the_real_run_and_says_which(self):
        result, figure = checks.judge_gtest_run(ok(GTEST_SKIPPING), 2, 2, False)
        self.assertEqual(result, "FAIL")
        self.assertIn("device_to_device_copies_go_direct", figure)
        self.assertIn("needs two devices", figure)

    def test_a_rehearsal_accepts_skips_only_for_want_of_a_gpu(self):
        self.assertEqual(checks.judge_gtest_run(ok(GTEST_NO_GPU), 2, 2, True)[0], "PASS")
        result, figure = checks.judge_gtest_run(ok(GTEST_SKIPPING), 2, 2, True)
        self.assertEqual(result, "FAIL")
        self.assertIn("not for want of a GPU", figure)

    def test_fewer_cases_than_expected_fail(self):
        self.assertEqual(checks.judge_gtest_run(ok(GTEST_PASSING), 2, 3, False)[0], "FAIL")
        self.assertEqual(
            checks.judge_gtest_run(ok(GTEST_PASSING), 3, 3, False), ("FAIL", "2 of 3 cases passed")
        )

    def test_a_timeout_is_the_reason(self):
        # The limit it had, not the seconds measured (stopping it took 1.4 s more).
        timed_out = Outcome(124, "", 121.4, True, 120.0)
        result, figure = checks.judge_gtest_run(timed_out, 2, 2, False)
        self.assertEqual((result, figure), ("FAIL", "timed out after 120 s"))

    def test_the_list_step_expects_the_per_gpu_cases(self):
        entry = {"listed": 2, "per_gpu": 16}
        judge = checks.gtest_list_judge("tests/x", entry)
        listing = "suite.\n" + "".join(f"  case{i}\n" for i in range(2))
        result, figure = judge([ok(listing)], run_(gpus=1))
        self.assertEqual(result, "FAIL")
        self.assertIn("2 cases registered, 18 expected", figure)
        self.assertEqual(judge([ok(listing)], run_(mode="rehearse", gpus=0))[0], "PASS")


EULER_GATHER = """\
euler: 720000 cells on 1 rank(s) x 16 thread(s), gather face loops, executor cuda:0
100 5.02186e-04
1000 1.06011e-04
euler: 0.512 ms per iteration, 2.8e+09 cell updates per second
euler: rms at iteration 1000 = 1.060114637578e-04
euler: final rms bits 1.06011463757826438e-04
"""


class euler(unittest.TestCase):
    def judge(self, form, ranks, text, run):
        return checks.euler_judge(form, ranks, plan.EULER, "cuda", plan.SCATTER_TOLERANCE)(
            [ok(text)], run
        )

    def test_gather_with_the_published_residuals(self):
        run = run_()
        result, figure = self.judge("gather", 1, EULER_GATHER, run)
        self.assertEqual(result, "PASS")
        self.assertIn("= host bits", figure)
        self.assertIn("0.512 ms/iteration", figure)
        self.assertEqual(
            self.judge("gather", 2, EULER_GATHER.replace("1 rank(s)", "2 rank(s)"), run)[0], "PASS"
        )

    def test_other_residuals_fail(self):
        result, figure = self.judge(
            "gather", 1, EULER_GATHER.replace("5.02186e-04", "5.02187e-04"), run_()
        )
        self.assertEqual(result, "FAIL")
        self.assertIn("no line '100 5.02186e-04'", figure)

    def test_more_ranks_must_print_the_same_lines(self):
        run = run_()
        self.judge("gather", 1, EULER_GATHER, run)
        other = EULER_GATHER.replace("1000 1.06011e-04", "1000 1.06012e-04")
        self.assertEqual(self.judge("gather", 2, other, run)[0], "FAIL")

    def test_the_host_executor_is_not_the_gpu(self):
        result, figure = self.judge("gather", 1, EULER_GATHER.replace("cuda:0", "openmp"), run_())
        self.assertEqual(
            (result, figure), ("FAIL", "did not run gather face loops on the cuda executor")
        )

    def test_scatter_within_and_beyond_the_bound(self):
        run = run_()
        self.judge("gather", 1, EULER_GATHER, run)
        scatter = EULER_GATHER.replace("gather face", "scatter face")
        near = scatter.replace("1.06011463757826438e-04", "1.06011463757830000e-04")
        self.assertEqual(self.judge("scatter", 1, near, run)[0], "PASS")
        far = scatter.replace("1.06011463757826438e-04", "1.06011463800000000e-04")
        result, figure = self.judge("scatter", 1, far, run)
        self.assertEqual(result, "FAIL")
        self.assertIn("> 1e-10", figure)


class others(unittest.TestCase):
    def test_same_bits_on_three_ranks(self):
        run = run_()
        line = "heat: sum of V u at t_end = 1.11592701914365697e-01"
        judge1 = checks.same_bits_judge("heat", "sum of V u", 1, line)
        judge3 = checks.same_bits_judge("heat", "sum of V u", 3, line)
        self.assertEqual(judge1([ok(line + "\n")], run)[0], "PASS")
        self.assertEqual(
            judge3([ok(line + "\n")], run),
            ("PASS", "sum of V u at t_end = 1.11592701914365697e-01 (= 1 rank), = host"),
        )
        self.assertEqual(judge3([ok(line.replace("697e", "698e") + "\n")], run)[0], "FAIL")

    def test_bench_table(self):
        table = (
            "gpu_axpy_fraction                   0.912    >= 0.90  PASS\n"
            "gpu_reproducible_sum_ratio          1.700    <= 1.50  MISS\n"
            "gpu_halo_pack_us                    12.50          -\n"
        )
        self.assertEqual(
            checks.bench_figures(table)[0],
            "gpu_axpy_fraction=0.912 "
            "gpu_reproducible_sum_ratio=1.700(MISS) gpu_halo_pack_us=12.50",
        )
        self.assertEqual(checks.bench_judge([ok(table)], run_())[0], "PASS")
        wrong = table + "   packed and unpacked values right: NO\n"
        self.assertEqual(checks.bench_judge([ok(wrong)], run_())[0], "FAIL")
        stops = Outcome(1, "bench/gpu: no CUDA device is visible: no driver\n", 0.1)
        self.assertEqual(checks.bench_judge([stops], run_(mode="rehearse"))[0], "PASS")
        self.assertEqual(checks.bench_judge([stops], run_())[0], "FAIL")

    def test_memcheck(self):
        judge = checks.memcheck_judge(1, 4)
        two = GTEST_PASSING + "========= ERROR SUMMARY: 0 errors\n"
        self.assertEqual(
            judge([ok(two)], run_()),
            ("FAIL", "under the tool: 2 passed of 2 " "registered, 5 expected"),
        )
        five = "".join(f"[ RUN      ] a.c{i}\n[       OK ] a.c{i} (1 ms)\n" for i in range(5))
        clean = five + "[  PASSED  ] 5 tests.\n========= ERROR SUMMARY: 0 errors\n"
        self.assertEqual(judge([ok(clean)], run_())[0], "PASS")
        errors = Outcome(3, clean.replace("0 errors", "2 errors"), 9.0)
        self.assertEqual(judge([errors], run_()), ("FAIL", "2 memory errors (exit status 3)"))
        refused = Outcome(1, "========= Error: Device not supported\n", 1.0)
        self.assertEqual(judge([refused], run_())[0], "SKIPPED")
        absent = Outcome(127, "not found: compute-sanitizer (No such file)", 0.0)
        self.assertEqual(judge([absent], run_()), ("SKIPPED", "compute-sanitizer not found"))


class memcheck_subset(unittest.TestCase):
    def test_every_case_of_the_subset_exists(self):
        # Without a GPU the per-GPU cases do not register: their names are checked in the
        # sources instead (the judge also fails a run where fewer ran than expected).
        sources = "".join(
            (REPO / "tests/framework/expr" / name).read_text()
            for name in ("expression_cases.hpp", "expression_cuda_test.cu")
        )
        for case in plan.MEMCHECK_PER_GPU:
            self.assertRegex(sources, rf"TEST_P\((fixture|on_cuda), {case}\)")
        self.assertIn("FUNCMESH_GPU_SUITE_IS_NOT_EMPTY(on_cuda_cases)", sources)
        self.assertIn("INSTANTIATE_TEST_SUITE_P(cuda, on_cuda,", sources)


if __name__ == "__main__":
    unittest.main()
