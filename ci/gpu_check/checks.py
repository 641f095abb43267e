"""What each step's output must show: the parsers and judges of the run's steps. A judge
takes the step's outcomes and the run, and returns (PASS/FAIL/SKIPPED, key figure)."""

import re

import driver

NO_GPU = re.compile(r"no (GPU|CUDA device|cuda device)( is)? visible|no GPU is visible", re.I)
_CASE_END = re.compile(r"^\[(?:       OK |  FAILED  |  SKIPPED )\] (\S+) \(")


def verdict(reason, figure):
    return ("FAIL", reason) if reason else ("PASS", figure)


# ---- gtest ------------------------------------------------------------------------------


def gtest_listed(text):
    return len(re.findall(r"^  \S", text, re.M))


def gtest_counts(text):
    """{passed, failed, skipped, skips: [(case, message)]} from a gtest run's output."""

    def total(word):
        match = re.search(rf"^\[ {{2}}{word} *\] (\d+) tests?[.,]", text, re.M)
        return int(match.group(1)) if match else 0

    skips, block = [], []
    for line in text.splitlines():
        end = _CASE_END.match(line)
        if line.startswith("[ RUN      ] "):
            block = []
        elif end and line.startswith("[  SKIPPED ]"):
            skips.append((end.group(1), " ".join(b.strip() for b in block if b.strip())))
        else:
            block.append(line)
    return {
        "passed": total("PASSED"),
        "failed": total("FAILED"),
        "skipped": total("SKIPPED"),
        "skips": skips,
    }


def judge_gtest_run(outcome, registered, expected, rehearse):
    """Every case registered here passed, none skipped; in a rehearsal on the CPU a case may
    skip, but only for want of a GPU."""
    reason = outcome.reason()
    c = gtest_counts(outcome.output)
    passed, skipped = c["passed"], c["skipped"]
    figure = f"{passed}/{registered} cases passed, none skipped"
    if not reason:
        if registered == 0 or registered < expected:
            reason = f"{passed} passed of {registered} registered, {expected} expected"
        elif skipped and not rehearse:
            case, message = c["skips"][0] if c["skips"] else ("?", "")
            reason = f"{passed} of {registered} passed, cases SKIPPED: {case}: {message[-100:]}"
        elif skipped:
            other = [s for s in c["skips"] if not NO_GPU.search(s[1])]
            if other:
                reason = f"{other[0][0]} skipped, not for want of a GPU: {other[0][1][:100]}"
            elif passed + skipped != registered:
                reason = f"{passed} passed + {skipped} skipped of {registered} registered"
            figure = f"{passed}/{registered} passed, {skipped} skipped for want of a GPU"
        elif passed != registered:
            reason = f"{passed} of {registered} cases passed"
    if reason and c["failed"]:
        reason += f"; {c['failed']} failed"
    return verdict(reason, figure)


def gtest_list_judge(path, entry):
    def judge(outcomes, run):
        outcome = outcomes[0]
        registered = gtest_listed(outcome.output)
        run.context[("registered", path)] = registered
        gpus = run.context.get("gpus", 0)
        expected = entry["listed"] + entry["per_gpu"] * gpus
        reason = outcome.reason()
        if not reason and registered < expected:
            reason = (
                f"{registered} cases registered, {expected} expected ({entry['listed']} + "
                f"{entry['per_gpu']} per GPU x {gpus} GPU)"
            )
        return verdict(reason, f"{registered} cases registered ({expected} expected)")

    return judge


def gtest_run_judge(path, entry):
    def judge(outcomes, run):
        expected = entry["listed"] + entry["per_gpu"] * run.context.get("gpus", 0)
        return judge_gtest_run(
            outcomes[0], run.context.get(("registered", path), 0), expected, run.mode == "rehearse"
        )

    return judge


# ---- the first step: driver, runtime, GPU ----------------------------------------------


def gpu_judge(carried_cuda, arch):
    def judge(outcomes, run):
        smi_out, probe_out = outcomes[0], outcomes[1] if len(outcomes) > 1 else None
        smi = driver.parse_nvidia_smi(smi_out.output) if smi_out.rc == 0 else None
        probe = driver.parse_probe(probe_out.output) if probe_out and probe_out.rc != 127 else None
        problem, text = driver.judge(carried_cuda, arch, smi, probe)
        run.context["gpus"] = len(probe["devices"]) if probe else 0
        seen = (
            f"nvidia-smi: driver {smi['driver']}, CUDA {smi['cuda']}, "
            f"{', '.join(smi['gpus']) or 'no GPU'}"
            if smi
            else f"nvidia-smi: {smi_out.reason() or 'no driver version'}"
        )
        if run.mode == "rehearse" and problem == "no_gpu":
            return (
                "PASS",
                f"rehearsal: {seen}; probe: runtime "
                f"{driver.cuda_text(probe['runtime'])}, {text} (expected here)",
            )
        if problem:
            return "FAIL", text
        return "PASS", text

    return judge


# ---- examples -----------------------------------------------------------------------------


def residual_lines(text):
    return [
        line
        for line in text.splitlines()
        if re.match(r"^\d+ [0-9.e+-]+$", line)
        or "rms at iteration" in line
        or "final rms bits" in line
    ]


def value(text, prefix):
    lines = [line[len(prefix) :] for line in text.splitlines() if line.startswith(prefix)]
    return lines[-1].strip() if lines else ""


def euler_judge(form, ranks, expect, executor, tolerance):
    """gather: the expected residual lines (and 1 rank's, on more ranks); scatter: its last
    rms within tolerance (relative) of the gather form's on 1 rank."""

    def judge(outcomes, run):
        out = outcomes[0].output
        reason = outcomes[0].reason()
        bits = value(out, "euler: final rms bits ")
        if form == "gather" and ranks == 1:
            run.context["euler_gather"] = (bits, out)
        if not reason and f"{form} face loops, executor {executor}" not in out:
            reason = f"did not run {form} face loops on the {executor} executor"
        if not reason and not bits:
            reason = "no final rms line"
        figure = f"rms {bits}"
        if not reason and form == "gather":
            if expect["line_100"] not in out.splitlines():
                first = next(
                    (line for line in out.splitlines() if line.startswith("100 ")), "none"
                )
                reason = f"no line '{expect['line_100']}': {first}"
            elif expect["rms"] not in out:
                reason = f"'{value(out, 'euler: ') or 'none'}', expected '{expect['rms']}'"
            elif (
                ranks > 1
                and "euler_gather" in run.context
                and residual_lines(out) != residual_lines(run.context["euler_gather"][1])
            ):
                reason = "residual lines differ from 1 rank's (both in the log)"
            figure += (", = 1 rank" if ranks > 1 else "") + (
                ", = host bits" if bits == expect["bits"] else f", host {expect['bits']}"
            )
        elif not reason:
            gather = run.context.get("euler_gather", ("", ""))[0]
            if not gather:
                reason = "no gather result to compare with"
            else:
                difference = abs(float(bits) - float(gather)) / abs(float(gather))
                figure += f", {difference:.2e} from gather (bound {tolerance:.0e})"
                if difference > tolerance:
                    reason = (
                        f"rms {bits} differs from the gather form's {gather} by "
                        f"{difference:.2e} relative (> {tolerance:.0e})"
                    )
        ms = re.search(r"^euler: ([0-9.]+) ms per iteration", out, re.M)
        return verdict(reason, figure + f", {ms.group(1) if ms else '?'} ms/iteration")

    return judge


def same_bits_judge(example, regex, ranks, host):
    """The line regex picks, the same on 1 and on 3 ranks (and, informatively, = host)."""

    def judge(outcomes, run):
        out = outcomes[0].output
        line = next((line for line in out.splitlines() if re.search(regex, line)), "")
        reason = outcomes[0].reason()
        if not reason and not line:
            reason = f"no line matches '{regex}'"
        first = (
            run.context.setdefault(("line", example), line)
            if ranks == 1
            else run.context.get(("line", example), "")
        )
        if not reason and ranks > 1 and line != first:
            reason = f"{ranks} ranks: '{line}', 1 rank: '{first}'"
        figure = (
            line.removeprefix(f"{example}: ")
            + (" (= 1 rank)" if ranks > 1 else "")
            + (", = host" if host and line == host else "")
        )
        return verdict(reason, figure)

    return judge


def example_judge(executor, passes):
    def judge(outcomes, run):
        out = outcomes[0].output
        reason = outcomes[0].reason()
        if not reason and f"on the {executor}" not in out:
            reason = f"did not run on the {executor} executor"
        line = next((line for line in reversed(out.splitlines()) if re.search(passes, line)), "")
        if not reason and not line:
            reason = f"no line matches '{passes}'"
        return verdict(reason, line)

    return judge


# ---- bench/gpu and compute-sanitizer -------------------------------------------------------


def bench_figures(text):
    """("name=value ..." of the summary table's gpu_ rows, the first wrong result or "")."""
    rows = re.findall(r"^(gpu_[a-z_]+) +([0-9.eE+-]+)(.*)$", text, re.M)
    figures = " ".join(
        f"{n}={v}" + ("(MISS)" if rest.split()[-1:] == ["MISS"] else "") for n, v, rest in rows
    )
    wrong = next(
        (
            line.strip()
            for line in text.splitlines()
            if re.search(r"(: NO|bitwise DIFFERENT)$", line)
        ),
        "",
    )
    return figures, wrong


def bench_judge(outcomes, run):
    outcome = outcomes[0]
    if run.mode == "rehearse":
        # GPU-only: on the CPU it must stop at once, saying why.
        line = next((line for line in outcome.output.splitlines() if NO_GPU.search(line)), "")
        if outcome.rc == 1 and line:
            return "PASS", f"GPU-only; on the CPU: exit 1, '{line.strip()}'"
        return "FAIL", f"exit {outcome.rc} without the no-GPU line: {outcome.reason()}"
    figures, wrong = bench_figures(outcome.output)
    reason = outcome.reason()
    if not reason and not figures:
        reason = "no summary table (gpu_... rows)"
    # Goals are informative (exit status 0 either way); wrong values are not.
    if not reason and wrong:
        reason = f"a device result is wrong: {wrong}"
    return verdict(reason, figures)


def memcheck_judge(expected_plain, expected_per_gpu):
    """No error under the tool, and every case of the subset passed under it."""

    def judge(outcomes, run):
        outcome = outcomes[0]
        out = outcome.output
        if outcome.rc == 127 and run.mode != "rehearse":
            return "SKIPPED", "compute-sanitizer not found"
        unsupported = re.search(
            r"(device not supported|not supported on this (device|platform))", out, re.I
        )
        if unsupported:
            return "SKIPPED", f"the tool refuses this machine: {unsupported.group(0)}"
        errors = re.findall(r"ERROR SUMMARY: (\d+) error", out)
        if errors and errors[-1] != "0":
            reason = f"{errors[-1]} memory errors (exit status {outcome.rc})"
        else:
            reason = outcome.reason() or ("" if errors else "no ERROR SUMMARY line")
        expected = expected_plain + expected_per_gpu * run.context.get("gpus", 0)
        registered = len(re.findall(r"^\[ RUN      \] ", out, re.M))
        result, figure = judge_gtest_run(outcome, registered, expected, run.mode == "rehearse")
        if not reason and result == "FAIL":
            reason = f"under the tool: {figure}"
        return verdict(reason, f"0 errors; {figure}")

    return judge
