// Timing helpers for the MPI benchmarks: medians, the slowest rank's time, a barrier that
// sleeps (idle ranks leave the cores to the ranks being timed), and interleaved rounds
// (every variant once per round, back to back, so that machine noise hits all alike).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

namespace bench {

inline double now() { return MPI_Wtime(); }

inline double median(std::vector<double> v) {
  std::ranges::sort(v);
  const std::size_t n = v.size();
  if (n == 0) return 0;
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline double max_over(MPI_Comm comm, double x) {
  double out = 0;
  MPI_Allreduce(&x, &out, 1, MPI_DOUBLE, MPI_MAX, comm);
  return out;
}

// A barrier that sleeps instead of spinning (Open MPI's blocking calls poll a core), so
// that ranks waiting while rank 0 times a section alone leave it the CPUs. The sleep grows
// from 100 us to 10 ms: a rank waiting through a long section wakes 100 times a second,
// not 5,000 (each wake-up can preempt one of rank 0's threads, which the others then wait
// for at the loop's end). The phases it separates last seconds: 10 ms late is nothing.
inline void idle_barrier(MPI_Comm comm) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm, &request);
  int done = 0;
  auto pause = std::chrono::microseconds(100);
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE), done == 0) {
    std::this_thread::sleep_for(pause);
    pause = std::min(2 * pause, std::chrono::microseconds(10000));
  }
}

// Each round runs every variant once (a batch of `batch` calls timed as a whole, the
// slowest rank's time kept); returns each variant's median seconds per call. `settle`,
// when given, ends each batch inside its time: device loops return once launched, so it
// waits for them (exec::synchronize).
inline std::vector<double> interleaved(MPI_Comm comm, int rounds, int batch,
                                       const std::vector<std::function<void()>>& variants,
                                       const std::function<void()>& settle = {}) {
  std::vector<std::vector<double>> times(variants.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t k = 0; k < variants.size(); ++k) {
      MPI_Barrier(comm);
      const double start = now();
      for (int b = 0; b < batch; ++b) variants[k]();
      if (settle) settle();
      times[k].push_back(max_over(comm, now() - start) / batch);
    }
  }
  std::vector<double> medians;
  for (auto& t : times) medians.push_back(median(t));
  return medians;
}

}  // namespace bench
