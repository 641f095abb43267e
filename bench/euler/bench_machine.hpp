// Facts of the machine a benchmark runs on, for bench/euler: the vector instructions it was
// compiled for, CPU time other processes took (a shared machine's timings are noisy), the
// CPUs a rank may use, memory phases kept apart, and the goal lines of the summary.
#pragma once

#include <mpi.h>

#if defined(__linux__)
#include <sched.h>
#endif

#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace euler_bench {

// "AVX-512", "AVX2", ...: what funcmesh's targets were compiled for (FUNCMESH_NATIVE: the
// build machine's; the library and the plain loops get the same flags).
const char* instruction_set();

// The machines are shared: the CPU time every process on rank 0's node used (/proc/stat)
// minus this job's ranks there, per second of a section, so that a note can say when
// neighbours competed for the cores. Collective over world (start and busy_note).
class neighbours {
 public:
  explicit neighbours(MPI_Comm world) {
    MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_);
    start();
  }
  ~neighbours() { MPI_Comm_free(&node_); }
  neighbours(const neighbours&) = delete;
  neighbours& operator=(const neighbours&) = delete;

  void start() { read(start_); }
  // On rank 0: "" or a note naming the CPUs others kept busy since start().
  std::string busy_note(const char* section) {
    sample now;
    read(now);
    char text[200] = "";
    const double wall = now.wall - start_.wall;
    if (start_.valid && now.valid && wall > 0) {
      const double others = (now.busy - start_.busy - (now.job - start_.job)) / wall;
      if (others > 0.15) {
        std::snprintf(text, sizeof text,
                      "   note: other processes kept %.2f of %ld CPUs busy during %s: its "
                      "timings are pessimistic\n",
                      others, sysconf(_SC_NPROCESSORS_ONLN), section);
      }
    }
    return text;
  }

 private:
  struct sample {
    bool valid = false;
    double busy = 0;  // seconds, all CPUs of the node: not idle, not waiting for I/O
    double job = 0;   // seconds, this job's ranks on the node
    double wall = 0;
  };
  void read(sample& out) {
    timespec own{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &own);
    const double mine = static_cast<double>(own.tv_sec) + 1e-9 * static_cast<double>(own.tv_nsec);
    MPI_Reduce(&mine, &out.job, 1, MPI_DOUBLE, MPI_SUM, 0, node_);
    out.wall = MPI_Wtime();
    out.valid = false;
    std::FILE* stat = std::fopen("/proc/stat", "r");
    if (stat == nullptr) return;
    double field[8] = {};  // user nice system idle iowait irq softirq steal
    if (std::fscanf(stat, "cpu %lf %lf %lf %lf %lf %lf %lf %lf", &field[0], &field[1], &field[2],
                    &field[3], &field[4], &field[5], &field[6], &field[7]) == 8) {
      double total = 0;
      for (double f : field) total += f;
      out.busy = (total - field[3] - field[4]) / static_cast<double>(sysconf(_SC_CLK_TCK));
      out.valid = true;
    }
    std::fclose(stat);
  }
  MPI_Comm node_ = MPI_COMM_NULL;
  sample start_;
};

// Freed memory back to the system and the high-water mark reset to the resident size now
// (Linux >= 4.0), so that a second phase in this process reads its own figures.
void forget_earlier_phases();

// "123.4 MiB", or "n/a" for a negative (unknown) size.
std::string mib(std::int64_t bytes);

// mpirun binds each rank to one core by default (with -np 1 or 2), so a rank cannot run 2
// threads on 2 cores. For section 1, while the other ranks sleep (bench::idle_barrier),
// rank 0 may use every CPU the process is allowed (the kernel keeps the cgroup's limits);
// restored at scope exit. Every thread of the process is widened, not only the caller:
// the OpenMP workers were started by earlier phases, bound as the rank was, and a new
// mask on the main thread alone left both threads of "2 threads" on one core (measured
// 2026-12-07 on the 2-core VM: 46.2 ms, the plain code's 1-thread time, against 27.5 ms
// for the same binary without mpirun).
class widened_affinity {
 public:
  widened_affinity();
  ~widened_affinity();
  widened_affinity(const widened_affinity&) = delete;
  widened_affinity& operator=(const widened_affinity&) = delete;

  // CPUs the calling thread may run on now (0 where unknown).
  static int cpus();
  // Threads of this process whose mask was widened.
  std::size_t threads() const { return saved_.size(); }

 private:
#if defined(__linux__)
  std::vector<std::pair<pid_t, cpu_set_t>> saved_;
#else
  std::vector<int> saved_;
#endif
};

// One goal line of the summary: "name value  (goal <= target: PASS|MISS|SKIP; note)".
struct goal_row {
  const char* name;
  double value;
  double target;  // value <= target passes
  bool measured;
  std::string note;  // after the result
  const char* format;
};

void print_goal(const goal_row& g);

}  // namespace euler_bench
