#!/usr/bin/env python3
"""Reads the series tests/io/series_test.cpp wrote (DIR/tri2d.pvd, DIR/sub/hex3d.pvd) with
VTK's own XML readers and checks cell counts and values against the same functions of the
global cell index. Run with Debian's /usr/bin/python3 (python3-vtk9). Fails, never skips,
when VTK is missing."""
import os
import sys
import xml.etree.ElementTree as ET

try:
    import vtk
except ImportError as e:  # a missing reader is a failure: the output would go unchecked
    sys.exit(f"read_vtk.py: cannot import vtk ({e}); install Debian's python3-vtk9 "
             f"(ci/install-deps) and run with /usr/bin/python3, not {sys.executable}")


def u_of(g, time):
    return 0.25 * g + 1.0 / (g + 3.0) + time


def velocity_of(g):
    return (float(g), 2.0 * g + 1.0, -0.5 * g)


failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def read_series(directory, base, cells):
    pvd = os.path.join(directory, base + ".pvd")
    check(os.path.exists(pvd), f"missing {pvd}")
    if not os.path.exists(pvd):
        return
    datasets = ET.parse(pvd).getroot().findall("./Collection/DataSet")
    times = [float(d.get("timestep")) for d in datasets]
    check(times == [0.0, 0.5], f"{pvd}: times {times}, expected [0.0, 0.5]")
    for d in datasets:
        time = float(d.get("timestep"))
        pvtu = os.path.join(directory, d.get("file"))
        reader = vtk.vtkXMLPUnstructuredGridReader()
        reader.SetFileName(pvtu)
        reader.Update()
        grid = reader.GetOutput()
        n = grid.GetNumberOfCells()
        check(n == cells, f"{pvtu}: {n} cells, expected {cells}")
        data = grid.GetCellData()
        arrays = {data.GetArrayName(i): data.GetArray(i) for i in range(data.GetNumberOfArrays())}
        for name in ("u", "velocity", "partition", "global_cell"):
            check(name in arrays, f"{pvtu}: no cell array '{name}' (has {sorted(arrays)})")
        if failures:
            return
        ids = arrays["global_cell"]
        seen = sorted(int(ids.GetTuple1(c)) for c in range(n))
        check(seen == list(range(cells)), f"{pvtu}: global_cell is not a permutation of 0..{cells - 1}")
        check(arrays["velocity"].GetNumberOfComponents() == 3, f"{pvtu}: velocity is not 3-wide")
        bad = 0
        for c in range(n):
            g = int(ids.GetTuple1(c))
            if arrays["u"].GetTuple1(c) != u_of(g, time):
                bad += 1
            if tuple(arrays["velocity"].GetTuple3(c)) != velocity_of(g):
                bad += 1
        check(bad == 0, f"{pvtu}: {bad} values differ from the expected functions of global_cell")
        parts = {int(arrays["partition"].GetTuple1(c)) for c in range(n)}
        pieces = sum(1 for _ in ET.parse(pvtu).getroot().iter("Piece"))
        check(parts == set(range(pieces)), f"{pvtu}: partition ids {sorted(parts)} for {pieces} pieces")
        check(grid.GetNumberOfPoints() > 0, f"{pvtu}: no points")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: read_vtk.py DIR")
    directory = sys.argv[1]
    read_series(directory, "tri2d", 12 * 10 * 2)
    read_series(os.path.join(directory, "sub"), "hex3d", 5 * 4 * 3)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)
    print(f"read_vtk.py: {directory}: pvd, pvtu and vtu pieces read back by VTK {vtk.vtkVersion.GetVTKVersion()}")


main()
