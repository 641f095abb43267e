// Checkpoint benchmark: write and read bandwidth of a 4-field checkpoint (3 scalar fields
// and one vec<double, 3>: 48 bytes per cell) of a 2M-cell mesh, against a raw write of the
// same bytes to the same folder (each rank pwrites its share of one file, then fsyncs it,
// as the checkpoint is fsync'ed) and a raw read; and the time a loop of steps stands still
// for an asynchronous checkpoint, against a blocking one. Variants interleaved, medians;
// the last lines are the fractions (checkpoint_write_fraction, checkpoint_read_fraction,
// checkpoint_stall_fraction).
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/checkpoint/checkpoint.hpp>
#include <funcmesh/comm/app_run.hpp>
#include <funcmesh/comm/communicator.hpp>
#include <funcmesh/comm/dist_function.hpp>
#include <funcmesh/comm/distribute.hpp>
#include <funcmesh/comm/environment.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>

#include "../common/mpi_timing.hpp"

namespace fm = funcmesh;
namespace fs = std::filesystem;

namespace {

struct settings {
  long long cells = 2000000;
  int repeat = 5;
  int steps = 8;
  std::string dir = std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp";
};

// Drops `file`'s clean pages from the page cache (it was fsync'ed), so a read measures the
// disk where the kernel lets it.
void drop_cached(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

void check(bool ok, const std::string& what) {
  if (!ok) throw fm::error("checkpoint bench: " + what + ": " + std::strerror(errno));
}

// Each rank writes (or reads) its `bytes` at `offset` of one file; written, it is fsync'ed.
void raw_io(const fs::path& file, bool write, std::vector<char>& data, off_t offset) {
  const int fd = ::open(file.c_str(), write ? O_WRONLY | O_CREAT : O_RDONLY, 0644);
  check(fd >= 0, "open " + file.string());
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write ? ::pwrite(fd, data.data() + done, data.size() - done,
                                       offset + static_cast<off_t>(done))
                            : ::pread(fd, data.data() + done, data.size() - done,
                                      offset + static_cast<off_t>(done));
    check(n > 0, (write ? "pwrite " : "pread ") + file.string());
    done += static_cast<std::size_t>(n);
  }
  if (write) check(::fsync(fd) == 0, "fsync " + file.string());
  ::close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  return fm::app::run(argc, argv, "checkpoint", [&](fm::mpi::environment& env, int rank) {
    const MPI_Comm world = env.world().get();
    int size = 1;
    MPI_Comm_size(world, &size);
    settings s;
    fm::app::program args(
        "checkpoint",
        "Checkpoint write and read bandwidth of 4 fields (48 bytes a cell) against a raw "
        "write + fsync and a raw read of the same bytes; run under mpirun -np 1 and -np 2. "
        "Reads follow posix_fadvise(DONTNEED) of the fsync'ed file, so they come from the "
        "disk where the kernel drops the pages.");
    args.option("cells", s.cells, "cells of the quad mesh (rounded to a square)")
        ->check(CLI::Range(1LL, 1LL << 40));
    args.option("repeat", s.repeat, "interleaved rounds; medians are reported")
        ->check(CLI::Range(1, 1000));
    args.option("steps", s.steps,
                "steps of the stand-in time loop after each asynchronous checkpoint (each "
                "reads and writes the 4 fields once)")
        ->check(CLI::Range(1, 100000));
    args.option("dir", s.dir,
                "scratch folder on the disk to measure ($TMPDIR or /tmp); a subfolder is "
                "made and removed");
    if (!args.parse(argc, argv, rank == 0)) return 0;
    if (std::getenv("OMP_NUM_THREADS") == nullptr) fm::exec::set_threads_target(1);
    const auto side = static_cast<fm::index_t>(std::llround(std::sqrt(double(s.cells))));
    const fm::distributed_layout layout =
        fm::distribute_generated(world, [side] { return fm::box2d_quad(side, side); });
    fm::dist_function<double> a(layout, "a"), b(layout, "b"), c(layout, "c");
    fm::dist_function<fm::vec<double, 3>> q(layout, "q");
    {
      auto wa = a.write();
      auto wb = b.write();
      auto wc = c.write();
      auto wq = q.write();
      for (fm::index_t k = 0; k < layout.owned_count(); ++k) {
        const double g = double(layout.mesh().global_cell[static_cast<std::size_t>(k)]);
        wa[k] = std::sin(g);
        wb[k] = std::cos(g);
        wc[k] = g;
        wq[k] = {{g, -g, 0.5 * g}};
      }
    }
    // Rank 0's name for the scratch folder, on every rank (the launcher's pid differs
    // between hosts: each has its own daemon).
    const fs::path dir = fm::mpi::communicator(world).broadcast(
        (fs::path(s.dir) / ("funcmesh_checkpoint_bench_" + std::to_string(::getppid()))).string());
    const fs::path raw = dir / "raw.bin", fresh = dir / "fresh.bin";
    if (rank == 0) {
      fs::remove_all(dir);
      fs::create_directories(dir);
    }
    MPI_Barrier(world);
    const long long global = layout.global_cells();
    const double bytes = double(global) * 6 * sizeof(double);
    long long mine = layout.owned_count(), before = 0;
    MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, world);
    if (rank == 0) before = 0;
    std::vector<char> share(static_cast<std::size_t>(mine) * 6 * sizeof(double), 'x');
    const off_t offset = static_cast<off_t>(before) * 6 * sizeof(double);

    // The stand-in for a time loop's step: every field read and written once.
    auto step_once = [&] {
      auto wa = a.write();
      auto wb = b.write();
      auto wc = c.write();
      auto wq = q.write();
      for (fm::index_t k = 0; k < layout.owned_count(); ++k) {
        wa[k] = 0.5 * wa[k] + 0.25 * wb[k];
        wb[k] = 0.5 * wb[k] + 0.25 * wc[k];
        wc[k] = 0.5 * wc[k] + 0.25 * wa[k];
        wq[k][0] = 0.5 * wq[k][0] + 0.25 * wq[k][1];
      }
    };
    fm::checkpoint_writer blocking(layout, dir / "blocking",
                                   {.keep = 1, .scheme = "bench", .asynchronous = false});
    fm::checkpoint_writer background(layout, dir / "asynchronous", {.keep = 1, .scheme = "bench"});
    std::int64_t step = 0;
    fs::path last;
    double in_write = 0;  // seconds the asynchronous loop spent inside write()
    const std::vector<double> t =
        bench::interleaved(world, s.repeat, 1,
                           {[&] { last = blocking.write({.step = ++step}, a, b, c, q); },
                            [&] {
                              if (rank == 0) drop_cached(last);
                              MPI_Barrier(world);
                              fm::restart(layout, last, a, b, c, q);
                            },
                            [&] { raw_io(raw, true, share, offset); },
                            [&] {
                              drop_cached(raw);
                              MPI_Barrier(world);
                              raw_io(raw, false, share, offset);
                            },
                            [&] {
                              // As in a time loop: this write completes the last one
                              // (its name; the deletion of the one before goes to a
                              // thread), then starts its own.
                              const double start = bench::now();
                              background.write({.step = ++step}, a, b, c, q);
                              in_write += bench::now() - start;
                              for (int k = 0; k < s.steps; ++k) step_once();
                            },
                            [&] {
                              for (int k = 0; k < s.steps; ++k) step_once();
                            },
                            [&] {
                              // As a checkpoint must: a new file (the last one deleted).
                              if (rank == 0) fs::remove(fresh);
                              MPI_Barrier(world);
                              raw_io(fresh, true, share, offset);
                            }});
    background.wait();
    in_write = bench::max_over(world, in_write) / s.repeat;
    if (rank == 0) {
      fs::remove_all(dir);
      const double gb = bytes / 1e9;
      std::printf(
          "checkpoint benchmark: %d rank(s), box2d_quad(%lld, %lld) = %lld cells, 4 fields\n"
          "(3 x f64, 1 x f64x3: %.1f MB), %s, medians of %d interleaved rounds\n",
          size, (long long)side, (long long)side, global, bytes / 1e6, dir.c_str(), s.repeat);
      std::printf("  checkpoint write  %8.3f s  %7.3f GB/s  (blocking: fsync'ed and named)\n", t[0],
                  gb / t[0]);
      std::printf("  checkpoint read   %8.3f s  %7.3f GB/s\n", t[1], gb / t[1]);
      std::printf("  raw write+fsync   %8.3f s  %7.3f GB/s\n", t[2], gb / t[2]);
      std::printf("  raw write+fsync   %8.3f s  %7.3f GB/s  (into a new file each time)\n", t[6],
                  gb / t[6]);
      std::printf("  raw read          %8.3f s  %7.3f GB/s\n", t[3], gb / t[3]);
      std::printf("  %d steps          %8.3f s  (the stand-in time loop alone)\n", s.steps, t[5]);
      std::printf(
          "  %d steps + async  %8.3f s  (an asynchronous checkpoint's write(), which completes "
          "the last one, then the steps; %.3f s of it inside write(), a mean)\n",
          s.steps, t[4], in_write);
      std::printf("checkpoint_write_fraction_new_file %.3f\n", t[6] / t[0]);
      std::printf("checkpoint_write_fraction %.3f\n", t[2] / t[0]);
      std::printf("checkpoint_read_fraction %.3f\n", t[3] / t[1]);
      std::printf("checkpoint_stall_fraction %.3f\n", std::max(0.0, t[4] - t[5]) / t[0]);
    }
    return 0;
  });
}
