// Checkpoint benchmark: write and read bandwidth of a 4-field checkpoint (3 scalar fields
// and one vec<double, 3>: 48 bytes per cell) of a 2M-cell mesh, against a raw write of the
// same bytes to the same folder (each rank pwrites its share of one file, then fsyncs it,
// as the checkpoint is fsync'ed) and a raw read. Variants interleaved, medians; last line
// checkpoint_write_fraction = checkpoint write bandwidth / raw write bandwidth.
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
    const fs::path dir =
        fs::path(s.dir) / ("funcmesh_checkpoint_bench_" + std::to_string(::getppid()));
    const fs::path raw = dir / "raw.bin";
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

    fm::checkpoint_writer writer(layout, dir, {.keep = 1, .scheme = "bench"});
    std::int64_t step = 0;
    fs::path last;
    const std::vector<double> t =
        bench::interleaved(world, s.repeat, 1,
                           {[&] { last = writer.write({.step = ++step}, a, b, c, q); },
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
                            }});
    if (rank == 0) {
      fs::remove_all(dir);
      const double gb = bytes / 1e9;
      std::printf(
          "checkpoint benchmark: %d rank(s), box2d_quad(%lld, %lld) = %lld cells, 4 fields\n"
          "(3 x f64, 1 x f64x3: %.1f MB), %s, medians of %d interleaved rounds\n",
          size, (long long)side, (long long)side, global, bytes / 1e6, dir.c_str(), s.repeat);
      std::printf("  checkpoint write  %8.3f s  %7.3f GB/s\n", t[0], gb / t[0]);
      std::printf("  checkpoint read   %8.3f s  %7.3f GB/s\n", t[1], gb / t[1]);
      std::printf("  raw write+fsync   %8.3f s  %7.3f GB/s\n", t[2], gb / t[2]);
      std::printf("  raw read          %8.3f s  %7.3f GB/s\n", t[3], gb / t[3]);
      std::printf("checkpoint_read_fraction_%d_ranks %.3f\n", size, t[3] / t[1]);
      std::printf("checkpoint_write_fraction %.3f\n", t[2] / t[0]);
    }
    return 0;
  });
}
