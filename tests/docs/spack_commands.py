"""Holds the Spack commands of the docs to forms that build the checkout.

  spack_commands.py DOC...

No funcmesh release is published yet, so `spack install funcmesh` on its own fetches the
package's future git address and fails. In every ```sh and ```bash block of each DOC
(continuation lines joined, comments dropped, commands split at && ; ||):
- `spack install` must run in an environment (`spack -e ENV install`) in which the same
  block ran `spack -e ENV develop --path ...` before it;
- `spack -e ENV install --test=root` needs `spack -e ENV concretize --test root` before
  it (test dependencies such as googletest are only in a concretization that asked);
- `spack develop` must say `--path`; `spack dev-build` must build `@develop`;
- `spack load` must come after `spack env activate` in the same block (the package's
  repository is the environment's: a plain `spack load` stops at "Unknown namespace"), or
  be `spack -e ENV load --sh ...` (no shell support needed).
Fails when the docs hold no Spack command at all.
"""

import re
import shlex
import sys


def blocks(text):
    """The commands of each sh/bash block: [[(line, command), ...], ...]."""
    found, current, joined, start, fenced, wanted = [], None, "", 0, False, False
    for number, line in enumerate(text.splitlines(), 1):
        fence = re.match(r"^\s*```\s*(\S*)", line)
        if fence:
            if not fenced:
                fenced, wanted = True, fence.group(1) in ("sh", "bash")
                current = [] if wanted else None
            else:
                if wanted:
                    found.append(current)
                fenced, wanted = False, False
            continue
        if not (fenced and wanted):
            continue
        line = re.sub(r"(^|\s)#.*$", "", line)
        if not joined:
            start = number
        joined += " " + line
        if joined.rstrip().endswith("\\"):
            joined = joined.rstrip()[:-1]
            continue
        for command in re.split(r"&&|\|\||;", joined):
            if command.strip():
                current.append((start, command.strip()))
        joined = ""
    return found


def check(path):
    text = open(path).read()
    problems, spack_commands = [], 0
    for commands in blocks(text):
        developed, tested, active = set(), set(), False
        for line, command in commands:
            try:
                words = shlex.split(command)
            except ValueError:
                continue
            if not words or words[0] != "spack":
                continue
            spack_commands += 1
            env, k = None, 1
            while k < len(words) and words[k].startswith("-"):
                if words[k] in ("-e", "--env", "-D", "--env-dir") and k + 1 < len(words):
                    env = words[k + 1]
                    k += 1
                k += 1
            sub = words[k] if k < len(words) else ""
            rest = words[k + 1 :]
            where = f"{path}:{line}: '{command}'"
            if sub == "develop":
                if not any(w in ("-p", "--path") or w.startswith("--path=") for w in rest):
                    problems.append(
                        f"{where}: spack develop without --path clones the package's git address"
                    )
                developed.add(env)
            elif sub == "concretize" and (
                "--test" in rest or any(w.startswith("--test=") for w in rest)
            ):
                tested.add(env)
            elif sub == "install":
                if env is None:
                    problems.append(
                        f"{where}: spack install outside an environment fetches the package's git "
                        "address (no release yet): use an environment with spack develop --path, "
                        "or spack dev-build funcmesh@develop"
                    )
                elif env not in developed:
                    problems.append(f"{where}: no 'spack -e {env} develop --path ...' before it")
                if any(w.startswith("--test") for w in rest) and env not in tested:
                    problems.append(
                        f"{where}: --test=root without 'spack -e {env} concretize --test root' "
                        "first: the test dependencies are not in the concretization"
                    )
            elif sub == "env" and rest[:1] == ["activate"]:
                active = True
            elif sub == "env" and rest[:1] == ["deactivate"]:
                active = False
            elif sub == "load":
                if not active and not (env is not None and "--sh" in rest):
                    problems.append(
                        f"{where}: spack load outside an active environment does not see the "
                        "environment's package repository ('Unknown namespace: funcmesh'): "
                        "'spack env activate ENV && spack load funcmesh', or "
                        "'eval \"$(spack -e ENV load --sh funcmesh)\"'"
                    )
            elif sub == "dev-build":
                if not any("@develop" in w for w in rest):
                    problems.append(f"{where}: spack dev-build must build funcmesh@develop")
    return problems, spack_commands


def main(paths):
    if not paths:
        sys.exit(__doc__)
    problems, total = [], 0
    for path in paths:
        found, count = check(path)
        problems += found
        total += count
        print(f"{path}: {count} spack command(s) in sh blocks")
    if total == 0:
        problems.append("no spack command in any sh block of the docs given")
    for p in problems:
        print(f"FAIL: {p}")
    print(f"{total} spack commands checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
