#!/usr/bin/env python3
"""Every dependency Spack must satisfy for the specs ci/spack-check installs or concretizes is
an external in ci/spack/packages.yaml (Debian's packages) or on the short list below of what
Spack may build itself: otherwise an offline install stops at "FetchError: All fetchers
failed" (xxhash was missing on 2026-12-07, and nothing noticed).

The specs are ci/spack-check's `spec=` and `cuda_spec=` lines; each depends_on() of package.py
counts when its `when=` holds for a spec (variant defaults from package.py, then the spec's
+name / ~name), except test-only ones. The build systems' own dependencies count too: cmake
and a generator (CMakePackage), cuda with +cuda (CudaPackage). Virtuals: c and cxx need a
compiler external for the language, mpi an external of its first provider.
Usage: externals_check.py SOURCE_DIR"""

import ast
import re
import sys
from pathlib import Path

# What Spack may build itself, and why that works offline. (Spack also makes gcc-runtime,
# copies of the compiler's libraries: no package.py dependency, nothing downloaded.)
MAY_BUILD = {
    # Spack's compiler wrapper: built from its release tarball in the local source mirror
    # (docs/cluster.md, "Offline"; FUNCMESH_SPACK_MIRROR).
    "compiler-wrapper",
}
# Externals ci/spack-check adds itself, only where the tool is installed.
ADDED_BY_CHECK = {
    # cuda@<nvcc's version> at nvcc's prefix, where nvcc is on PATH.
    "cuda",
}
LANGUAGES = {"c": "c", "cxx": "c++"}


def externals(path: Path):
    """{package: [external spec strings]} and the providers of packages.yaml, read by
    indentation (the file is ours: two spaces a level)."""
    found, providers, package, in_providers = {}, {}, None, False
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        text = line.strip()
        if indent == 2 and text.endswith(":"):
            package, in_providers = text[:-1], False
            found.setdefault(package, [])
        elif package == "all" and indent == 4 and text == "providers:":
            in_providers = True
        elif in_providers and indent == 6 and ":" in text:
            virtual, names = text.split(":", 1)
            providers[virtual.strip()] = re.findall(r"[\w-]+", names)
        elif package and indent >= 4:
            found[package] += re.findall(r"spec:\s*((?:'[^']*'|[^,}'])+)", text)
    return {name: specs for name, specs in found.items() if specs}, providers


def check_specs(check: Path):
    specs = {}
    for name in ("spec", "cuda_spec"):
        match = re.search(rf'^{name}="([^"]+)"', check.read_text(), re.MULTILINE)
        if match:
            specs[name] = match.group(1)
    return specs


def applies(when: str, variants: dict) -> bool:
    """Whether `when` (+a, ~a, +a+b ~c) holds; anything else is taken to hold (so checked)."""
    if not when:
        return True
    for sign, name in re.findall(r"([+~])(\w+)", when):
        if variants.get(name, False) != (sign == "+"):
            return False
    return True


def main(source: Path) -> int:
    package = source / "spack" / "spack_repo" / "funcmesh" / "packages" / "funcmesh" / "package.py"
    tree = ast.parse(package.read_text(), str(package))
    defaults, dependencies = {}, []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", "")
        strings = [a.value for a in node.args if isinstance(a, ast.Constant)]
        keywords = {k.arg: k.value for k in node.keywords}
        if name == "variant" and strings and isinstance(keywords.get("default"), ast.Constant):
            defaults[strings[0]] = keywords["default"].value is True
        elif name == "depends_on" and strings:
            kind = keywords.get("type")
            types = {kind.value} if isinstance(kind, ast.Constant) else set()
            if isinstance(kind, (ast.Tuple, ast.List)):
                types = {e.value for e in kind.elts if isinstance(e, ast.Constant)}
            when = keywords.get("when")
            dependencies.append(
                (
                    re.match(r"[\w-]+", strings[0]).group(0),
                    when.value if isinstance(when, ast.Constant) else "",
                    types,
                )
            )
    bases = {
        getattr(b, "id", "") for c in tree.body if isinstance(c, ast.ClassDef) for b in c.bases
    }
    if "CMakePackage" in bases:
        dependencies += [("cmake", "", {"build"}), ("generator", "", {"build"})]
    if "CudaPackage" in bases:
        dependencies.append(("cuda", "+cuda", {"build", "link"}))
    found, providers = externals(source / "ci" / "spack" / "packages.yaml")
    specs = check_specs(source / "ci" / "spack-check")
    problems = []
    if "spec" not in specs:
        problems.append('ci/spack-check has no spec="..." line to check against')
    languages = " ".join(" ".join(s) for s in found.values())
    checked = set()
    for label, spec in specs.items():
        variants = dict(defaults)
        for sign, name in re.findall(r"([+~])(\w+)", spec):
            variants[name] = sign == "+"
        for name, when, types in dependencies:
            if types == {"test"} or not applies(when, variants):
                continue
            checked.add(name)
            if name in MAY_BUILD or name in ADDED_BY_CHECK or name in found:
                continue
            language = re.escape(LANGUAGES.get(name, "-"))
            if re.search(rf"languages:?=?'(?:[^']*,)?{language}(?=[,'])", languages):
                continue
            if name == "generator" and ("ninja" in found or "gmake" in found):
                continue
            if providers.get(name) and providers[name][0] in found:
                continue
            problems.append(
                f"{spec} ({label}) depends on {name}"
                + (f" (when {when})" if when else "")
                + ", which ci/spack/packages.yaml has no external for: Spack would download and "
                "build it (offline: FetchError). Add Debian's package as an external, or, if "
                "Spack may build it, to MAY_BUILD in tests/spack/externals_check.py"
            )
    for problem in problems:
        print(f"externals_check: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(
        f"externals_check: {len(checked)} dependencies of {len(specs)} spec(s) "
        f"({', '.join(specs.values())}): each an external or allowed to build: ok"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
