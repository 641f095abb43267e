// Checkpoints in one include: checkpoint_writer (parallel HDF5, atomic, the newest K kept)
// and restart (verified, on any rank count).
#pragma once

#include <funcmesh/checkpoint/checkpoint_writer.hpp>
#include <funcmesh/checkpoint/mesh_fingerprint.hpp>
#include <funcmesh/checkpoint/restart.hpp>
