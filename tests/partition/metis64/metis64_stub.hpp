// What the stub METIS of metis64_test saw on its last call, and what it answers: parts in
// contiguous blocks of vertices, or a failure status when told to.
#pragma once

#include <metis.h>

#include <string>
#include <vector>

namespace metis64 {

struct last_call {
  std::string function;
  idx_t vertices = 0;
  idx_t parts = 0;
  std::vector<idx_t> offsets;
  std::vector<idx_t> adjacency;
  std::vector<idx_t> weights;  // empty when METIS got none
  std::vector<idx_t> options;
};

last_call& seen();
// The status the next partitioning call returns (METIS_OK by default).
void fail_next_with(int status);

}  // namespace metis64
