// A unit square of triangles extruded into 2 layers of prisms (wedges): a 3-D mesh of the
// one cell type whose node order differs between Gmsh and VTK/XDMF. Physical surfaces:
// bottom, top, sides.
Point(1) = {0, 0, 0, 0.35};
Point(2) = {1, 0, 0, 0.35};
Point(3) = {1, 1, 0, 0.35};
Point(4) = {0, 1, 0, 0.35};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
out[] = Extrude {0, 0, 1} { Surface{1}; Layers{2}; Recombine; };
Physical Surface("bottom") = {1};
Physical Surface("top") = {out[0]};
Physical Surface("sides") = {out[2], out[3], out[4], out[5]};
Physical Volume("domain") = {out[1]};
