// Paged arrays in one include: paged_array<T> over its stores (space_store: device,
// simulated or host memory; file_store: a file), per-channel LRU page caches with their
// statistics, the bandwidth probe that proposes channel counts, and paged_grid_function
// (a grid function on a paged array, assigned and reduced page by page).
#pragma once

#include <funcmesh/core/error.hpp>
#include <funcmesh/paged/bandwidth_probe.hpp>
#include <funcmesh/paged/cache_statistics.hpp>
#include <funcmesh/paged/file_store.hpp>
#include <funcmesh/paged/page_layout.hpp>
#include <funcmesh/paged/page_store.hpp>
#include <funcmesh/paged/paged_array.hpp>
#include <funcmesh/paged/paged_grid_function.hpp>
#include <funcmesh/paged/paged_options.hpp>
#include <funcmesh/paged/space_store.hpp>
