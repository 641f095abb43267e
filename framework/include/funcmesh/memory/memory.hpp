// The memory layer in one include: spaces and their managers, untyped buffers with lazy
// coherence and tokens, typed arrays, views, strided and SoA layouts.
#pragma once

#include <funcmesh/core/error.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/buffer.hpp>
#include <funcmesh/memory/memory_error.hpp>
#include <funcmesh/memory/memory_manager.hpp>
#include <funcmesh/memory/memory_space.hpp>
#include <funcmesh/memory/simulated_device.hpp>
#include <funcmesh/memory/soa_array.hpp>
#include <funcmesh/memory/strided_view.hpp>
#include <funcmesh/memory/token.hpp>
#include <funcmesh/memory/view.hpp>
