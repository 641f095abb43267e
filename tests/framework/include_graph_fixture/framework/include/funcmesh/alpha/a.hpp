// Fixture: alpha includes beta, which includes alpha back (a cycle).
#pragma once
#include <funcmesh/beta/b.hpp>
