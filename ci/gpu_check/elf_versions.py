"""The symbol versions an ELF file defines or needs (GLIBC_2.34, GLIBCXX_3.4.30, GCC_7.0.0,
...), read from the names in its dynamic string table. Enough to compare what the carried
binaries need with what a machine's libraries provide, with no binutils (the GPU machine
has no objdump)."""

import re

_NAME = re.compile(rb"\x00(GLIBC|GLIBCXX|CXXABI|GCC|GOMP|OMP|LIBATOMIC)_(\d+(?:\.\d+)*)\x00")


def version_names(path):
    """{prefix: set of version tuples} of every version name in the file."""
    with open(path, "rb") as f:
        data = f.read()
    found = {}
    # The names sit NUL-separated in .dynstr: overlapping matches share their NULs.
    position = 0
    while True:
        match = _NAME.search(data, position)
        if match is None:
            return found
        prefix = match.group(1).decode()
        version = tuple(int(p) for p in match.group(2).decode().split("."))
        found.setdefault(prefix, set()).add(version)
        position = match.end() - 1


def newest(paths, prefix):
    """The newest version of prefix that any of the files names (None where none does)."""
    best = None
    for path in paths:
        for version in version_names(path).get(prefix, ()):
            if best is None or version > best:
                best = version
    return best


def as_text(version):
    return ".".join(str(p) for p in version) if version else "none"


def parse(text):
    return tuple(int(p) for p in text.split(".")) if text and text != "none" else None
