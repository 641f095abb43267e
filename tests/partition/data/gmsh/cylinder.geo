// A cylinder of radius 0.5 around the z axis (the origin at its base centre), height 1,
// tetrahedra: the mesh a new user tries first. Physical surfaces: wall, bottom, top.
SetFactory("OpenCASCADE");
Cylinder(1) = {0, 0, 0, 0, 0, 1, 0.5};
Mesh.CharacteristicLengthMax = 0.15;
Physical Surface("wall") = {1};
Physical Surface("top") = {2};
Physical Surface("bottom") = {3};
Physical Volume("domain") = {1};
