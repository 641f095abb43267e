// Unit box of tetrahedra with physical surfaces bottom and top and the sides.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Mesh.CharacteristicLengthMax = 0.3;
Physical Surface("bottom") = {5};
Physical Surface("top") = {6};
Physical Surface("sides") = {1, 2, 3, 4};
Physical Volume("domain") = {1};
