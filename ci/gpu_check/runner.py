"""How run takes its steps: each under a timeout cut to what is left of the run's budget, a
step that would not fit skipped with the reason, every output into the log, one summary row
per step (step, PASS/FAIL/SKIPPED, seconds, key figure)."""

import os
import re
import shlex
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Callable, List

from common import REPO, now

ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class Command:
    argv: List[str]
    machine_env: bool = False  # the machine's own environment (nvidia-smi, compute-sanitizer)
    env: dict = field(default_factory=dict)  # added to the environment
    display: str = ""  # how --dry lists it, where the command itself is too long to read


@dataclass
class Outcome:
    rc: int
    output: str
    seconds: float
    timed_out: bool = False
    limit: float = 0.0  # the seconds it was given

    def reason(self):
        """Why the command failed, from its exit status ("" when it succeeded)."""
        if self.timed_out:
            # The limit, not the seconds measured: those include stopping the process
            # group, which a loaded machine stretches (2.6 s for a 2 s limit, seen in CI).
            return f"timed out after {self.limit:.0f} s"
        if self.rc == 127 and self.output.startswith("not found:"):
            return self.output.strip()
        if self.rc != 0:
            line = next((line for line in self.output.splitlines() if _says_why(line)), "")
            return f"exit status {self.rc}" + (f": {line.strip(' =')[:120]}" if line else "")
        return ""


def _says_why(line):
    low = line.lower()
    return any(
        w in low
        for w in (
            "error",
            "fail",
            "not found",
            "not available",
            "not visible",
            "abort",
            "denied",
            "too old",
        )
    )


@dataclass
class Step:
    name: str
    commands: List[Command]
    timeout: int  # seconds, cut to what is left of the run's budget
    estimate: int  # seconds it takes on a GPU machine: a step needs this much left to start
    judge: Callable  # (outcomes, run) -> (result, key figure)
    stop_on_fail: bool = False  # nothing after it can run when it fails


class Run:
    def __init__(self, mode, budget, log_path, carried, summary_path=None, title=""):
        self.mode = mode  # "real", "rehearse" or "dry"
        self.budget = budget
        self.log_path = log_path
        self.carried = carried
        self.summary_path = summary_path
        self.title = title
        self.rows = []
        self.failures = 0
        self.started = now()
        self.context = {}  # what later steps compare with (gather's bits, 1 rank's lines)
        self.stopped = ""
        log_path.write_text("")

    def log(self, text):
        with open(self.log_path, "a") as f:
            f.write(text.rstrip("\n") + "\n")

    def say(self, text):
        print(text, flush=True)
        self.log(text)

    def left(self):
        return self.budget - (now() - self.started)

    def record(self, name, result, seconds, figure, output=""):
        self.rows.append(f"{name:30} {result:7} {seconds:7.1f}  {figure}")
        if result == "FAIL":
            self.failures += 1
        self.say(f"{result:7} {name:30} {seconds:6.1f}s  {figure}")
        # A run stopped from outside (the device tool's timeout) leaves a summary that
        # says it is incomplete, never one that looks complete.
        self.summary(incomplete=True)
        if result == "FAIL" and output:
            tail = "\n".join(output.splitlines()[-25:])
            print(f"------- last lines of its output:\n{tail}\n-------", flush=True)

    def listing(self, step):
        if not step.commands:
            self.say(f"  {step.name:30} (no command: a check of the machine)")
        for command in step.commands:
            prefix = "" if command.machine_env else "<carried env> "
            extra = " ".join(f"{k}={v}" for k, v in command.env.items())
            text = command.display or shlex.join(command.argv)
            text = text.replace(str(self.carried.root), "<unpacked .debs>")
            text = text.replace(str(REPO) + "/", "")
            self.say(
                f"  {step.name:30} timeout {step.timeout:3}s: {prefix}"
                f"{extra + ' ' if extra else ''}{text}"
            )

    def take(self, step):
        """Runs the step (or, under --dry, lists it) and records its row."""
        if self.mode == "dry":
            self.listing(step)
            return
        if self.stopped:
            return
        left = self.left()
        if left < step.estimate:
            self.record(
                step.name,
                "SKIPPED",
                0,
                f"would not fit: {left:.0f} s of the run's "
                f"{self.budget} s left, it takes about {step.estimate} s",
            )
            return
        print(f"..      {step.name}", file=sys.stderr, flush=True)
        outcomes = []
        deadline = now() + min(step.timeout, left)
        for command in step.commands:
            outcome = self.execute(command, deadline - now())
            outcomes.append(outcome)
            if outcome.timed_out:
                break
        result, figure = step.judge(outcomes, self)
        if any(o.timed_out for o in outcomes) and left < step.timeout:
            figure += f" (the run's {self.budget} s were spent)"
        self.record(
            step.name,
            result,
            sum(o.seconds for o in outcomes),
            figure,
            outcomes[-1].output if outcomes else "",
        )
        if result == "FAIL" and step.stop_on_fail:
            self.stopped = f"{step.name} failed: {figure}"
            self.say(f"\ngpu-check: stopped after {step.name}: no later step can run")

    def execute(self, command, limit):
        env = dict(os.environ if command.machine_env else self.carried.env, **command.env)
        limit = max(1.0, limit)
        self.log(
            f"\n==== {shlex.join(command.argv)} (timeout {limit:.0f} s"
            f"{', machine environment' if command.machine_env else ''})"
        )
        started = now()
        try:
            process = subprocess.Popen(
                command.argv,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as e:
            self.log(f"not found: {command.argv[0]}: {e.strerror}")
            return Outcome(127, f"not found: {command.argv[0]} ({e.strerror})", 0.0)
        timed_out = False
        try:
            out, _ = process.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            timed_out = True
            out = _stop(process)
        # Under mpirun a rank's stdout is a terminal: gtest colours its lines, and lines
        # may end in \r\n. The judges read plain lines.
        output = ANSI_ESCAPE.sub("", out.decode(errors="replace")).replace("\r\n", "\n")
        outcome = Outcome(process.returncode, output, now() - started, timed_out, limit)
        self.log(output)
        self.log(
            f"(exit status {process.returncode} after {outcome.seconds:.1f} s"
            f"{', timed out' if timed_out else ''})"
        )
        return outcome

    def check_command(self, argv, env=None, limit=120):
        """A command of a dry check: in the carried environment, logged."""
        return self.execute(Command(argv, env=env or {}), limit)

    def summary(self, incomplete=False):
        """Writes the summary (while steps remain, marked INCOMPLETE) and returns it."""
        lines = [self.title, f"{'step':30} {'result':7} {'seconds':>7}  key figure"]
        lines += self.rows + [""]
        if incomplete:
            lines.append(f"INCOMPLETE: {len(self.rows)} steps so far; the run did not finish")
        if self.stopped:
            lines.append(f"stopped: {self.stopped}")
        lines.append(
            f"{self.failures} failed; whole run {now() - self.started:.1f} s of its "
            f"{self.budget} s"
        )
        if self.summary_path:
            self.summary_path.write_text("\n".join(lines) + "\n")
        return "\n".join(lines)


def _stop(process):
    """The whole process group (mpirun and its ranks): TERM, then KILL after 10 s."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            return process.communicate(timeout=wait)[0] or b""
        except subprocess.TimeoutExpired:
            continue
    return b""
