// The stub partitioner behind metis64/metis.h: records its arguments as 64-bit indices and
// splits the vertices into contiguous blocks, as many as asked for.
#include "metis64_stub.hpp"

namespace metis64 {

namespace {
int next_status = METIS_OK;

int partition(const char* function, const idx_t* nvtxs, const idx_t* xadj, const idx_t* adjncy,
              const idx_t* vwgt, const idx_t* nparts, const idx_t* options, idx_t* edgecut,
              idx_t* part) {
  last_call& call = seen();
  call = {};
  call.function = function;
  call.vertices = *nvtxs;
  call.parts = *nparts;
  call.offsets.assign(xadj, xadj + *nvtxs + 1);
  call.adjacency.assign(adjncy, adjncy + xadj[*nvtxs]);
  if (vwgt != nullptr) call.weights.assign(vwgt, vwgt + *nvtxs);
  call.options.assign(options, options + METIS_NOPTIONS);
  const int status = next_status;
  next_status = METIS_OK;
  if (status != METIS_OK) return status;
  for (idx_t v = 0; v < *nvtxs; ++v) part[v] = v * *nparts / *nvtxs;
  *edgecut = 0;
  for (idx_t v = 0; v < *nvtxs; ++v) {
    for (idx_t k = xadj[v]; k < xadj[v + 1]; ++k) *edgecut += part[adjncy[k]] != part[v];
  }
  *edgecut /= 2;
  return METIS_OK;
}
}  // namespace

last_call& seen() {
  static last_call call;
  return call;
}

void fail_next_with(int status) { next_status = status; }

}  // namespace metis64

extern "C" int METIS_SetDefaultOptions(idx_t* options) {
  for (int k = 0; k < METIS_NOPTIONS; ++k) options[k] = -1;
  return METIS_OK;
}

extern "C" int METIS_PartGraphKway(idx_t* nvtxs, idx_t*, idx_t* xadj, idx_t* adjncy, idx_t* vwgt,
                                   idx_t*, idx_t*, idx_t* nparts, real_t*, real_t*, idx_t* options,
                                   idx_t* edgecut, idx_t* part) {
  return metis64::partition("METIS_PartGraphKway", nvtxs, xadj, adjncy, vwgt, nparts, options,
                            edgecut, part);
}

extern "C" int METIS_PartGraphRecursive(idx_t* nvtxs, idx_t*, idx_t* xadj, idx_t* adjncy,
                                        idx_t* vwgt, idx_t*, idx_t*, idx_t* nparts, real_t*,
                                        real_t*, idx_t* options, idx_t* edgecut, idx_t* part) {
  return metis64::partition("METIS_PartGraphRecursive", nvtxs, xadj, adjncy, vwgt, nparts, options,
                            edgecut, part);
}
