// Fixture: the other half of the cycle.
#pragma once
#include <funcmesh/alpha/a.hpp>
