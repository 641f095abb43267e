#!/usr/bin/env python3
"""The Spack package against the build it drives: every CMake option package.py's
cmake_args passes (define / define_from_variant) is an option the build declares (option()
or cmake_dependent_option() in the top-level CMakeLists.txt, or a FUNCMESH_ cache variable
in a module's CMake files, such as comm's partitioners), every variant maps to one, every
language the build enables has its depends_on (Spack sets up only the compilers a package
depends on), and the stand-alone tests' programs and sources exist.
Usage: package_options_check.py SOURCE_DIR"""

import ast
import re
import sys
from pathlib import Path


def main(source: Path) -> int:
    package = source / "spack" / "spack_repo" / "funcmesh" / "packages" / "funcmesh" / "package.py"
    tree = ast.parse(package.read_text(), str(package))
    cmake = (source / "CMakeLists.txt").read_text()
    declared = set(re.findall(r"(?:option|cmake_dependent_option)\((FUNCMESH_\w+)", cmake))
    modules = sorted(source.glob("*/CMakeLists.txt")) + sorted(source.glob("*/src/**/*.cmake"))
    for path in modules:
        declared |= set(re.findall(r"set\((FUNCMESH_\w+)\s+\S+\s+CACHE\b", path.read_text()))
    declared |= {"CMAKE_CUDA_ARCHITECTURES"}
    passed, variants, mapped, dependencies = set(), set(), set(), set()
    cmake_args = [f for f in ast.walk(tree) if getattr(f, "name", "") == "cmake_args"]
    in_cmake_args = {n for f in cmake_args for n in ast.walk(f)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        strings = [a.value for a in node.args if isinstance(a, ast.Constant)]
        if name in ("define", "define_from_variant") and strings and node in in_cmake_args:
            passed.add(strings[0])
            if name == "define_from_variant" and len(strings) > 1:
                mapped.add(strings[1])
        elif name == "variant" and strings:
            variants.add(strings[0])
        elif name == "depends_on" and strings:
            dependencies.add(strings[0])
    problems = []
    if not passed:
        problems.append("package.py passes no CMake option")
    for option in sorted(passed - declared):
        problems.append(f"package.py passes {option}, which no CMake file declares")
    for variant in sorted(variants - mapped):
        problems.append(f"variant '{variant}' maps to no CMake option")
    # CUDA comes with CudaPackage (depends_on("cuda") when +cuda).
    enabled = set(re.findall(r"enable_language\((C|CXX)\)", cmake))
    project = re.search(r"project\([^)]*LANGUAGES([A-Z ]+)", cmake)
    enabled |= set(project.group(1).split()) - {"CUDA"} if project else set()
    for language in sorted(enabled):
        if language.lower() not in dependencies:
            problems.append(
                f"CMakeLists.txt enables {language}, and package.py has no "
                f'depends_on("{language.lower()}", type="build")'
            )
    for path in (
        "tests/install/consumer/CMakeLists.txt",
        "tools/funcmesh_partition.cpp",
    ):
        if not (source / path).exists():
            problems.append(f"the stand-alone tests use {path}, which does not exist")
    examples = (source / "examples" / "CMakeLists.txt").read_text()
    if "RENAME funcmesh-${example}" not in examples:
        problems.append("examples/CMakeLists.txt no longer installs funcmesh-<example>")
    for problem in problems:
        print(f"package_options_check: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"package_options_check: {len(passed)} CMake options, {len(variants)} variants: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
