// Fixture: partition includes comm, a layer above it.
#pragma once
#include <funcmesh/comm/c.hpp>
