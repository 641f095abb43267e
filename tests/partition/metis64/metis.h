/* A stand-in for METIS 5's metis.h as built with 64-bit indices (Spack's metis+int64),
   for metis64_test only: funcmesh's partitioning compiled against it runs against the stub
   partitioner in metis64_stub.cpp. It declares just what partitioning.cpp and
   metis_error.cpp use, under METIS's API names. */
#pragma once

#include <stdint.h>

#define IDXTYPEWIDTH 64
#define REALTYPEWIDTH 32
typedef int64_t idx_t;
typedef float real_t;

#define METIS_NOPTIONS 40

enum { METIS_OK = 1, METIS_ERROR_INPUT = -2, METIS_ERROR_MEMORY = -3, METIS_ERROR = -4 };
enum {
  METIS_OPTION_OBJTYPE = 1,
  METIS_OPTION_SEED = 8,
  METIS_OPTION_CONTIG = 11,
  METIS_OPTION_UFACTOR = 16,
  METIS_OPTION_NUMBERING = 17
};
enum { METIS_OBJTYPE_CUT = 0, METIS_OBJTYPE_VOL = 1 };

#ifdef __cplusplus
extern "C" {
#endif
int METIS_SetDefaultOptions(idx_t* options);
int METIS_PartGraphKway(idx_t* nvtxs, idx_t* ncon, idx_t* xadj, idx_t* adjncy, idx_t* vwgt,
                        idx_t* vsize, idx_t* adjwgt, idx_t* nparts, real_t* tpwgts,
                        real_t* ubvec, idx_t* options, idx_t* edgecut, idx_t* part);
int METIS_PartGraphRecursive(idx_t* nvtxs, idx_t* ncon, idx_t* xadj, idx_t* adjncy, idx_t* vwgt,
                             idx_t* vsize, idx_t* adjwgt, idx_t* nparts, real_t* tpwgts,
                             real_t* ubvec, idx_t* options, idx_t* edgecut, idx_t* part);
#ifdef __cplusplus
}
#endif
