#!/usr/bin/env python3
"""The include graph of funcmesh's libraries, folded onto modules and submodules.

Prints the figures a reviewer asks for (include cycles between submodules, includes that
point up a layer, each module's size in lines) and, with --check, fails on any cycle or
upward include: the layering is framework <- partition <- faces <- fv <- comm <- checkpoint,
and a framework submodule (core, memory, exec, ...) is a folder under funcmesh/.
"""
import argparse
import os
import re
import sys

# Lowest layer first: a module may include only its own layer and those before it.
LAYERS = ["framework", "partition", "faces", "fv", "comm", "checkpoint"]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
SOURCE_SUFFIXES = (".hpp", ".cpp", ".cuh", ".cu", ".h")


def submodule_of(root, path):
    """'framework/exec' for framework/{include/funcmesh,src}/exec/..., else the module."""
    rel = os.path.relpath(path, root).split(os.sep)
    module = rel[0]
    if module != "framework":
        return module
    if rel[1] == "include":
        rest = rel[3:]  # after include/funcmesh
        if len(rest) == 1:  # an umbrella: framework.hpp, time.hpp, app.hpp
            name = os.path.splitext(rest[0])[0]
            return "framework" if name == "framework" else "framework/" + name
        return "framework/" + rest[0]
    if rel[1] == "src" and len(rel) > 3:
        return "framework/" + rel[2]
    return "framework"


def library_files(root):
    for module in LAYERS:
        top = os.path.join(root, module)
        for folder, _, names in os.walk(top):
            for name in names:
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(folder, name)


def resolve(root, path, quote, target, public):
    """The library file an include names, or None (system, generated, third party)."""
    if quote == '"':
        local = os.path.normpath(os.path.join(os.path.dirname(path), target))
        if os.path.exists(local):
            return local
    return public.get(target)


def graph(root):
    files = list(library_files(root))
    public = {}
    for path in files:
        parts = os.path.relpath(path, root).split(os.sep)
        if len(parts) > 2 and parts[1] == "include":
            public["/".join(parts[2:])] = path
    edges = {}  # (from submodule, to submodule) -> [(file, included)]
    lines = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        module = os.path.relpath(path, root).split(os.sep)[0]
        lines[module] = lines.get(module, 0) + text.count("\n")
        here = submodule_of(root, path)
        for quote, target in INCLUDE.findall(text):
            found = resolve(root, path, quote, target, public)
            if found is None:
                continue
            there = submodule_of(root, found)
            if there != here:
                edges.setdefault((here, there), []).append(
                    (os.path.relpath(path, root), target))
    return edges, lines


def cycles(edges):
    """Strongly connected components of more than one submodule (Tarjan)."""
    nexts = {}
    for a, b in edges:
        nexts.setdefault(a, []).append(b)
        nexts.setdefault(b, [])
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in nexts[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(nexts):
        if v not in index:
            visit(v)
    return sorted(found)


def layer(submodule):
    return LAYERS.index(submodule.split("/")[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."),
                        help="the repository (default: this script's checkout)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 on an include cycle between submodules or an include "
                        "that points up a layer")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    edges, lines = graph(root)
    found = cycles(edges)
    upward = sorted((a, b, where) for (a, b), where in edges.items() if layer(a) < layer(b))
    print(f"submodule_cycles {len(found)}")
    for component in found:
        print("  cycle: " + " <-> ".join(component))
        members = set(component)
        for (a, b), where in sorted(edges.items()):
            if a in members and b in members:
                print(f"    {a} -> {b}: {where[0][0]} includes {where[0][1]}"
                      + (f" (+{len(where) - 1} more)" if len(where) > 1 else ""))
    print(f"upward_includes {sum(len(w) for _, _, w in upward)}")
    for a, b, where in upward:
        for path, target in where:
            print(f"  {path} ({a}) includes {target} ({b})")
    for module in LAYERS:
        if module in lines:
            print(f"lines_{module} {lines[module]}")
    if args.check and (found or upward):
        print("FAILED: the include graph has cycles or upward includes (see above)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
