#!/usr/bin/env python3
"""read_partition_vtu.py FILE CELLS PARTS: reads funcmesh-partition's .vtu with VTK's own XML
reader and checks its cell count and that its cell data "part" covers 0..PARTS-1. Run
with Debian's /usr/bin/python3 (python3-vtk9); a missing reader fails, never skips."""
import sys

try:
    import vtk
except ImportError as e:
    sys.exit(f"read_partition_vtu.py: cannot import vtk ({e}); install python3-vtk9")

path, cells, parts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
reader = vtk.vtkXMLUnstructuredGridReader()
reader.SetFileName(path)
reader.Update()
grid = reader.GetOutput()
part = grid.GetCellData().GetArray("part")
problems = []
if grid.GetNumberOfCells() != cells:
    problems.append(f"{grid.GetNumberOfCells()} cells, expected {cells}")
if part is None:
    problems.append('no cell data "part"')
else:
    seen = {int(part.GetValue(k)) for k in range(part.GetNumberOfTuples())}
    if seen != set(range(parts)):
        problems.append(f"parts {sorted(seen)}, expected 0..{parts - 1}")
if problems:
    sys.exit(f"read_partition_vtu.py: {path}: " + "; ".join(problems))
print(f"read_partition_vtu.py: {path}: {cells} cells in {parts} parts")
