// funcmesh::faces in one include: the face set of a local mesh (oriented faces, their
// geometry, gather entries and coloured scatter blocks) and the face sums over it,
// sum_over_faces and sum_over_cell_faces, on any executor. No MPI.
#pragma once

#include <funcmesh/faces/face_set.hpp>
#include <funcmesh/faces/face_sum.hpp>
