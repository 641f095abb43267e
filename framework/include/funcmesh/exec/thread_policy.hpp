// The process-wide auto-threading policy (after PDL::ParallelCPU): how many threads a CPU
// loop aims for, the size below which it stays on the calling thread, which dimension of a
// multi-dimensional range to split, and what the last loop on this thread actually used.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <string_view>

#include <funcmesh/core/index.hpp>
#include <funcmesh/core/settings.hpp>

namespace funcmesh::exec {

// Below this size a loop stays on the calling thread. Loops from expressions count their
// size as elements x work per element (1 per value read or written, 16 per transcendental
// call; see loop_shape.hpp), so y = x + 1 (2 units) splits from 32768 elements and
// y = sin(x) * cos(x) (34 units) from about 1900. Chosen from bench/autothread, where
// splitting y = x + 1 on 2 threads starts to pay between 16000 and 64000 elements.
inline constexpr index_t default_parallel_min_size = funcmesh::default_parallel_min_size;

// Threads a parallel loop aims for; 0 or 1 never splits. The default is the first entry of
// OMP_NUM_THREADS when valid, else the online CPUs; FUNCMESH_THREADS_TARGET overrides it.
// The environment is read lazily at first use; a malformed FUNCMESH_* value throws
// funcmesh::error there (and at every later use until a setter replaces it).
int threads_target();
// Throws funcmesh::error when n < 0.
void set_threads_target(int n);

// Loops over fewer elements than this run on the calling thread; 0 splits everything.
// Default default_parallel_min_size; FUNCMESH_PARALLEL_MIN_SIZE overrides it.
index_t parallel_min_size();
// Throws funcmesh::error when n < 0.
void set_parallel_min_size(index_t n);

// Threads used by the last loop launched by the calling thread (1 before any).
int last_actual_threads();
// The dimension that loop split (0 for one-dimensional loops), -1 when it did not split.
int last_split_dimension();

namespace detail {
// Backends call this once per loop, on the launching thread, after the workers joined.
// Called with threads <= 1 it records "not split" whatever the dimension.
void record_actual_threads(int threads, int split_dimension = 0) noexcept;

// The count parser of the settings (core/settings.hpp), by its old name.
using funcmesh::detail::parse_count;

// The target used when FUNCMESH_THREADS_TARGET is unset: the first entry of omp_num_threads
// (OMP_NUM_THREADS' syntax: a positive integer, optionally followed by ",...") when valid,
// else the online CPUs (at least 1). Never throws: OMP_NUM_THREADS is not ours to reject.
int default_threads_target(const char* omp_num_threads);
}  // namespace detail

// Where to split an N-dimensional range, and on how many threads.
struct split_choice {
  int dimension;
  int threads;
};

// PDL's rule: the first dimension divisible by target wins; otherwise, among dimensions at
// least target long, the one with the largest remainder (fewest idle threads in the last
// round; first on ties); if none is that long, the longest (first on ties) with one thread
// per element. target <= 1 or no extents gives {0, 1}.
split_choice choose_split(std::span<const index_t> extents, int target);

// Threads for a loop over `size` elements under the current policy: 1 when serial_only
// (work that is not thread-safe), target <= 1 or size < parallel_min_size(); otherwise
// min(target, size), at least 1.
int threads_for(index_t size, bool serial_only = false);

// The same for a loop whose elements each cost `work_per_element` units (1 = one value
// read, as in y = x + 1): the size compared with parallel_min_size() is elements x work,
// so compute-heavy loops (sin, exp, user functions) split earlier; the thread count is
// still at most the number of elements.
int threads_for(index_t size, bool serial_only, index_t work_per_element);

// A half-open range of indices.
struct block {
  index_t begin;
  index_t end;
};

// The contiguous share of [begin, end) thread `thread` of `threads` takes: the first d % n
// threads get d / n + 1 items, the rest d / n, in thread order, so the blocks cover the
// range exactly once and differ in size by at most one.
constexpr block block_of(index_t begin, index_t end, int thread, int threads) {
  const index_t d = end > begin ? end - begin : 0;
  const index_t n = threads > 0 ? threads : 1;
  const index_t t = thread;
  const index_t q = d / n;
  const index_t r = d % n;
  const index_t first = begin + t * q + std::min(t, r);
  return {first, first + q + (t < r ? 1 : 0)};
}

// Sets the target and minimum size for a scope and restores the previous values at its
// end (tests and benchmarks). Not meant to nest across threads: the settings are global.
class scoped_thread_policy {
 public:
  scoped_thread_policy(int target, index_t min_size);
  ~scoped_thread_policy();
  scoped_thread_policy(const scoped_thread_policy&) = delete;
  scoped_thread_policy& operator=(const scoped_thread_policy&) = delete;

 private:
  int saved_target_;
  index_t saved_min_size_;
};

}  // namespace funcmesh::exec
