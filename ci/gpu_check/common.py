"""Paths and small helpers that every part of ci/gpu-check shares.

Everything runs from the repository root; paths in messages are relative to it.
"""

import os
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
BUILD = Path("build/gpu-check")  # the gpu-check preset's binaryDir
CARRY = Path("build/gpu-carry")  # the one folder that travels (build/ is git-ignored)
RESULTS = Path("build/gpu-check-results")  # where run writes when $OUT is not set
BUDGET_MIB = 60  # carried folder + tracked tree; the device tool's limit is 64 MiB


class HarnessError(Exception):
    """A mistake in the set-up (a missing tool, a carried folder that is not complete):
    reported as one line, exit status 2."""


def die(message):
    raise HarnessError(message)


def mib(size):
    return f"{size / 1048576:.1f} MiB"


def now():
    return time.monotonic()


def output_of(command, env=None, timeout=120, check=True):
    """stdout and stderr of a command, together; HarnessError when it fails and check."""
    try:
        done = subprocess.run(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            timeout=timeout,
        )
    except FileNotFoundError:
        if check:
            die(f"{command[0]} not found")
        return ""
    except subprocess.TimeoutExpired:
        if check:
            die(f"{' '.join(map(str, command))} took more than {timeout} s")
        return ""
    if check and done.returncode != 0:
        die(f"{' '.join(map(str, command))} failed ({done.returncode}):\n{done.stdout}")
    return done.stdout


def tree_bytes(untracked=False):
    """Bytes of the files git tracks (or, with untracked, of the untracked files git does
    not ignore): what the device tool sends besides the carried folder."""
    flags = ["--others", "--exclude-standard"] if untracked else []
    names = output_of(["git", "ls-files", "-z", *flags], check=False).split("\0")
    return sum(os.path.getsize(n) for n in names if n and os.path.isfile(n))


def size_report():
    """Prints the sizes; returns a reason when the carried folder and the tree are over."""
    carried = sum(p.stat().st_size for p in (REPO / CARRY).rglob("*") if p.is_file())
    tree, untracked = tree_bytes(), tree_bytes(untracked=True)
    print(
        f"sizes: {CARRY} {mib(carried)}, tracked tree {mib(tree)}, together "
        f"{mib(carried + tree)} (budget {BUDGET_MIB} MiB)"
    )
    if untracked:
        print(f"sizes: untracked, not ignored files travel too: {mib(untracked)}")
    if carried + tree > BUDGET_MIB * 1048576:
        return f"over budget: {mib(carried + tree)} > {BUDGET_MIB} MiB"
    return ""
