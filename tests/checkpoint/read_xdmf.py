"""Reads a funcmesh XDMF description (a checkpoint's, or a mesh file's) with a real client
and checks it against what the run printed.

  read_xdmf.py meshio FILE.xdmf [--sum-vu S] [--cells N] [--volume V]   /usr/bin/python3
  pvpython read_xdmf.py paraview FILE.xdmf [--sum-vu S] [--cells N] [--volume V]

meshio (python3-meshio) reads the XML and the HDF5 datasets it names; ParaView (pvpython)
reads them with its XDMF reader and integrates. The checks: the number of cells; global_id
a permutation of 0..N-1 (where the file has one); with meshio, every cell positively
oriented in VTK's node order (a hexahedron upside down, a prism in Gmsh's order, show up);
the cells' total volume (--volume: a mesh file's); the sum over cells of volume x u,
computed from the points, the cells and u as the client sees them, equal to the run's own
reproducible sum within 1e-12 relative (a field read in another order than its cells, or
cells on wrong points, changes it). Fails, never skips.
"""

import sys


def polygon_area(p):
    """Signed shoelace area of a polygon in the z = 0 plane: positive counterclockwise."""
    area = 0.0
    for k in range(len(p)):
        x0, y0 = p[k][0], p[k][1]
        x1, y1 = p[(k + 1) % len(p)][0], p[(k + 1) % len(p)][1]
        area += x0 * y1 - x1 * y0
    return area / 2


def tet_volume(a, b, c, d):
    """Signed: positive when (b - a, c - a, d - a) is right-handed (VTK's orientation)."""
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    w = [d[i] - a[i] for i in range(3)]
    det = (
        u[0] * (v[1] * w[2] - v[2] * w[1])
        - u[1] * (v[0] * w[2] - v[2] * w[0])
        + u[2] * (v[0] * w[1] - v[1] * w[0])
    )
    return det / 6


def volume(kind, p):
    """Signed: positive for a cell in VTK's (XDMF's) node order and orientation, so a cell
    read in another order (a hex upside down, a wedge's triangles not turned) shows up
    negative. Exact for triangles, planar quads, tets, and hexes with planar faces."""
    if kind in ("triangle", "quad"):
        return polygon_area(p)
    if kind == "tetra":
        return tet_volume(*p)
    if kind == "hexahedron":
        # VTK's order: 0-3 the bottom face, 4-7 the top; six tets around the 0-6 diagonal.
        # Nodes in another order give twisted tets and another total.
        return sum(
            tet_volume(p[0], p[a], p[b], p[6])
            for a, b in ((1, 2), (2, 3), (3, 7), (7, 4), (4, 5), (5, 1))
        )
    if kind == "wedge":
        # VTK's wedge: the triangle 0-1-2's normal points away from 3-4-5; three tets.
        return (
            tet_volume(p[0], p[2], p[1], p[3])
            + tet_volume(p[1], p[2], p[5], p[3])
            + tet_volume(p[1], p[5], p[4], p[3])
        )
    sys.exit(f"read_xdmf.py: no volume formula for {kind} cells here")


def read_meshio(path):
    """(points, [(kind, connectivity)], {name: [values per block]}, time) through meshio."""
    try:
        import meshio
    except ImportError as e:
        sys.exit(f"read_xdmf.py: cannot import meshio ({e}): install Debian's python3-meshio")
    text = open(path).read()
    if 'CollectionType="Temporal"' in text:
        with meshio.xdmf.TimeSeriesReader(path) as reader:
            points, cells = reader.read_points_cells()
            t, _, cell_data = reader.read_data(0)
    else:
        mesh = meshio.read(path)
        points, cells, cell_data, t = mesh.points, mesh.cells, mesh.cell_data, None
    blocks = [(block.type, block.data) for block in cells]
    return points, blocks, cell_data, t


def cell_volumes(points, blocks):
    return [volume(kind, [points[n] for n in nodes]) for kind, c in blocks for nodes in c]


def check_meshio(path, expected_sum, expected_cells, expected_volume=None):
    points, blocks, cell_data, t = read_meshio(path)
    cells = sum(len(c) for _, c in blocks)
    print(
        f"meshio: {path}: {cells} cells in blocks {[(k, len(c)) for k, c in blocks]}, "
        f"{len(points)} points, t = {t}, cell fields {sorted(cell_data)}"
    )
    failures = []
    if expected_cells is not None and cells != expected_cells:
        failures.append(f"{cells} cells, the run has {expected_cells}")
    if "global_id" in cell_data:
        ids = sorted(int(i) for values in cell_data["global_id"] for i in values)
        if ids != list(range(cells)):
            failures.append("global_id is not a permutation of 0..cells-1")
    volumes = cell_volumes(points, blocks)
    inverted = sum(1 for v in volumes if not v > 0)
    if inverted:
        failures.append(f"{inverted} cells not positively oriented in VTK's node order")
    if expected_volume is not None:
        measured = sum(volumes)
        print(f"meshio: volume {measured:.17e}, expected {expected_volume:.17e}")
        if abs(measured - expected_volume) > 1e-12 * abs(expected_volume):
            failures.append(f"the cells' volume {measured!r} is not {expected_volume!r}")
    if expected_sum is not None:
        total = 0.0
        for (kind, connectivity), u in zip(blocks, cell_data["u"]):
            for nodes, value in zip(connectivity, u):
                total += volume(kind, [points[n] for n in nodes]) * float(value)
        print(f"meshio: sum of V u {total:.17e}, the run printed {expected_sum:.17e}")
        if abs(total - expected_sum) > 1e-12 * abs(expected_sum):
            failures.append(f"sum of V u {total!r} is not the run's {expected_sum!r}")
    return failures


def check_paraview(path, expected_sum, expected_cells, expected_volume=None):
    import os

    from paraview import servermanager
    from paraview.simple import IntegrateVariables, OpenDataFile

    # ParaView 5.11's XDMF 3 reader joins a bare file name's folder ("") and the HDF5
    # file's name without a separator: given as the GUI gives it, an absolute path.
    reader = OpenDataFile(os.path.abspath(path))
    if reader is None:
        return [f"ParaView found no reader for {path}"]
    reader.UpdatePipeline()
    data = servermanager.Fetch(reader)
    cells = data.GetNumberOfCells()
    arrays = [
        data.GetCellData().GetArrayName(k) for k in range(data.GetCellData().GetNumberOfArrays())
    ]
    print(
        f"paraview: {path}: reader {reader.GetXMLName()}, {cells} cells, "
        f"{data.GetNumberOfPoints()} points, cell fields {sorted(arrays)}"
    )
    failures = []
    if expected_cells is not None and cells != expected_cells:
        failures.append(f"{cells} cells, the run has {expected_cells}")
    if expected_volume is not None:
        integrated = servermanager.Fetch(IntegrateVariables(Input=reader))
        name = "Volume" if integrated.GetCellData().GetArray("Volume") else "Area"
        measured = integrated.GetCellData().GetArray(name).GetValue(0)
        print(f"paraview: {name} {measured:.17e}, expected {expected_volume:.17e}")
        if abs(measured - expected_volume) > 1e-12 * abs(expected_volume):
            failures.append(f"ParaView's {name} {measured!r} is not {expected_volume!r}")
    if expected_sum is not None:
        integrated = servermanager.Fetch(IntegrateVariables(Input=reader))
        total = integrated.GetCellData().GetArray("u").GetValue(0)
        print(f"paraview: integral of u {total:.17e}, the run printed {expected_sum:.17e}")
        if abs(total - expected_sum) > 1e-12 * abs(expected_sum):
            failures.append(
                f"ParaView's integral of u {total!r} is not the run's {expected_sum!r}"
            )
    return failures


def main(argv):
    if len(argv) < 3 or argv[1] not in ("meshio", "paraview"):
        sys.exit(__doc__)
    client, path = argv[1], argv[2]
    options = dict(zip(argv[3::2], argv[4::2]))
    expected_sum = float(options["--sum-vu"]) if "--sum-vu" in options else None
    expected_cells = int(options["--cells"]) if "--cells" in options else None
    expected_volume = float(options["--volume"]) if "--volume" in options else None
    check = check_meshio if client == "meshio" else check_paraview
    failures = check(path, expected_sum, expected_cells, expected_volume)
    for f in failures:
        print(f"FAIL: {f}")
    if not failures:
        print(f"{client}: {path}: every check passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
