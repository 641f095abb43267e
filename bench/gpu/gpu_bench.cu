// bench/gpu: funcmesh on the cuda executor against the device's own primitives: expression
// bandwidth (axpy, triad) against cudaMemcpy, the reproducible sum against plain sums, and
// the device halo pack/unpack of a 1M-cell plan. Ends with a table of ratios and goals.
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include <funcmesh/expr/gather_scatter.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/partition/builtin_meshes.hpp>
#include <funcmesh/partition/local_mesh.hpp>
#include <funcmesh/partition/partitioning.hpp>

#include <funcmesh/app.hpp>
#include "gpu_timing.hpp"

namespace fm = funcmesh;
using fm::index_t;

namespace {

struct settings {
  std::int64_t size = std::int64_t{1} << 26;
  int repeats = 21;
  int halo_side = 1000;  // box2d_quad(side, side): bench/halo's 1M-cell mesh
  int halo_parts = 2;    // bench/halo's mpirun -np 2
};

// One row of the final table.
struct goal_row {
  const char* name;
  double value;
  bool at_least;  // goal: value >= target (else value <= target)
  double target;
};

struct summary {
  std::vector<goal_row> goals;
  double pack_us = 0, unpack_us = 0;
};

void print_variant(const char* what, const std::vector<double>& samples, double bytes) {
  const double m = gpu_bench::median(samples), b = gpu_bench::best(samples);
  std::printf("   %-40s %10.3f %10.3f", what, m * 1e3, b * 1e3);
  if (bytes > 0) std::printf(" %10.1f", bytes / m / 1e9);
  std::printf("\n");
}

// ---- 1. bandwidth: y = a*x + y and a = b + s*c against cudaMemcpy of the same traffic ----

void bandwidth(const settings& s, const fm::executor& gpu, summary& out) {
  const index_t n = s.size;
  const double alpha = 0.5, scalar = 3.0;
  fm::grid_function<double> x(n, "x"), y(n, "y"), a(n, "a"), b(n, "b"), c(n, "c");
  {
    auto xw = x.write();
    auto yw = y.write();
    auto bw = b.write();
    auto cw = c.write();
    for (index_t i = 0; i < n; ++i) {
      xw[i] = 1.0 + static_cast<double>(i % 1000) * 1e-3;
      yw[i] = 2.0 - static_cast<double>(i % 777) * 1e-3;
      bw[i] = xw[i];
      cw[i] = yw[i];
    }
  }
  // Each expression reads two arrays and writes one: 24 bytes per element. A device-to-
  // device copy of 12 bytes per element reads and writes that much too.
  const double traffic = 24.0 * static_cast<double>(n);
  gpu_bench::device_bytes from(static_cast<std::size_t>(12 * n)), to(from.size());
  // Asynchronous on the rank's stream, as funcmesh's assignments are (a batch is timed
  // between two device synchronisations).
  const cudaStream_t stream = fm::exec::cuda_detail::rank_stream(fm::rank_device());
  auto copy = [&] {
    gpu_bench::check(
        cudaMemcpyAsync(to.get(), from.get(), from.size(), cudaMemcpyDeviceToDevice, stream),
        "cudaMemcpyAsync");
  };
  auto axpy = [&] { y = alpha * x + y; };
  auto triad = [&] { a = b + scalar * c; };

  // Warm-up: the first assignments copy the inputs to the device (once); then a check that
  // the device computed what the host does (nvcc may fuse into FMA: a relative 1e-15).
  const std::vector<double> y0 = y.to_vector();
  axpy();
  triad();
  copy();
  bool agree = true;
  {
    const std::vector<double> y1 = y.to_vector(), a1 = a.to_vector();
    const std::vector<double> xv = x.to_vector(), bv = b.to_vector(), cv = c.to_vector();
    for (std::size_t i = 0; i < y1.size(); ++i) {
      agree = agree && std::abs(y1[i] - (alpha * xv[i] + y0[i])) <= 1e-15 * std::abs(y1[i]) &&
              std::abs(a1[i] - (bv[i] + scalar * cv[i])) <= 1e-15 * std::abs(a1[i]);
    }
  }
  axpy();  // after the host reads: still no copy to the device (its copies stayed valid)
  triad();
  const auto t = gpu_bench::interleaved(s.repeats, 10, {copy, axpy, triad});
  std::printf("== 1. bandwidth, n = %lld doubles (%.0f MB per array), 24 bytes per element\n",
              static_cast<long long>(n), 8.0 * static_cast<double>(n) / 1e6);
  std::printf("   %-40s %10s %10s %10s\n", "variant", "median ms", "best ms", "GB/s");
  print_variant("cudaMemcpy D2D, 12 bytes per element", t[0], traffic);
  print_variant("y = a * x + y   (axpy)", t[1], traffic);
  print_variant("a = b + s * c   (triad)", t[2], traffic);
  std::printf("   device results agree with the host's: %s\n\n", agree ? "yes" : "NO");
  const double copy_s = gpu_bench::median(t[0]);
  out.goals.push_back({"gpu_axpy_fraction", copy_s / gpu_bench::median(t[1]), true, 0.9});
  out.goals.push_back({"gpu_triad_fraction", copy_s / gpu_bench::median(t[2]), true, 0.9});
}

// ---- 2. the reproducible sum against plain device sums of the same values ----

void sums(const settings& s, const fm::executor& gpu, summary& out) {
  const index_t n = s.size;
  fm::grid_function<double> x(n, "x");
  {
    // Magnitudes over 2^-30..2^30 and both signs: the order of a plain sum changes its bits.
    auto w = x.write();
    for (index_t i = 0; i < n; ++i) {
      const double sign = i % 3 == 0 ? -1.0 : 1.0;
      w[i] = sign * (1.0 + static_cast<double>(i % 1000) * 1e-3) *
             std::ldexp(1.0, static_cast<int>(i % 61) - 30);
    }
  }
  double reproducible = 0, plain = 0, raw = 0;
  auto exact = [&] { reproducible = fm::sum(x, {.on = gpu, .reproducible = true}); };
  auto ordinary = [&] { plain = fm::sum(x, {.on = gpu}); };
  auto thrust_sum = [&] {
    const auto values = x.read(gpu.space());
    raw = thrust::reduce(thrust::device, values.data(), values.data() + n, 0.0);
  };
  exact();  // warm-up: copies x to the device, once
  ordinary();
  thrust_sum();
  const auto t = gpu_bench::interleaved(s.repeats, 10, {exact, ordinary, thrust_sum});
  const double serial = fm::sum(x, {.on = fm::executor::serial(), .reproducible = true});
  const double serial_plain = fm::sum(x, {.on = fm::executor::serial()});
  const bool bitwise =
      std::bit_cast<std::uint64_t>(reproducible) == std::bit_cast<std::uint64_t>(serial);
  const double bytes = 8.0 * static_cast<double>(n);
  std::printf("== 2. sums of the same %lld doubles on the device\n", static_cast<long long>(n));
  std::printf("   %-40s %10s %10s %10s\n", "variant", "median ms", "best ms", "GB/s");
  print_variant("funcmesh sum, reproducible (exact_sum)", t[0], bytes);
  print_variant("funcmesh sum, ordinary (baseline)", t[1], bytes);
  print_variant("thrust::reduce on the raw pointer", t[2], bytes);
  std::printf("   reproducible / thrust::reduce: %.3f\n",
              gpu_bench::median(t[0]) / gpu_bench::median(t[2]));
  std::printf("   reproducible device sum %.17g; serial executor's %.17g: bitwise %s\n",
              reproducible, serial, bitwise ? "equal" : "DIFFERENT");
  std::printf("   ordinary device sum %.17g, thrust %.17g, serial ordinary %.17g\n\n", plain, raw,
              serial_plain);
  out.goals.push_back({"gpu_reproducible_sum_ratio",
                       gpu_bench::median(t[0]) / gpu_bench::median(t[1]), false, 1.5});
}

// ---- 3. halo pack and unpack of a 1M-cell plan's lists, on the device ----

__global__ void empty_kernel() {}

void halo(const settings& s, const fm::executor& gpu, summary& out) {
  // Part 0 of the partition a distributed layout would make (METIS k-way, depth-1 face
  // halo), built without MPI: its lists concatenated over neighbours, as halo_plan keeps
  // them and packs them (one gather per field per round, one scatter on arrival).
  const fm::mesh global = fm::box2d_quad(s.halo_side, s.halo_side);
  const std::vector<int> part = fm::partition_mesh(global, s.halo_parts);
  const fm::local_mesh m = fm::build_local_mesh(global, part, s.halo_parts, 0);
  std::vector<index_t> send_list, receive_list;
  for (const fm::neighbour_lists& nb : m.neighbours) {
    send_list.insert(send_list.end(), nb.send.begin(), nb.send.end());
    receive_list.insert(receive_list.end(), nb.receive.begin(), nb.receive.end());
  }
  const fm::array<index_t> send{std::span<const index_t>(send_list)};
  const fm::array<index_t> receive{std::span<const index_t>(receive_list)};
  fm::grid_function<double> u(m.owned_count, m.halo_count(), "u");
  {
    auto w = u.write();
    for (index_t i = 0; i < m.cells.cell_count(); ++i) w[i] = static_cast<double>(i);
  }
  const std::vector<double> before = u.to_vector();
  fm::array<double> packed(send.size());
  fm::array<double> arrived(receive.size(), -1.0);

  auto pack = [&] { fm::gather(u, send, packed, gpu); };
  auto unpack = [&] { fm::scatter(arrived, receive, u, gpu); };
  // The floor under any synchronous device call: a launch and a stream synchronization.
  auto floor = [&] {
    empty_kernel<<<1, 1>>>();
    gpu_bench::check(cudaGetLastError(), "empty kernel launch");
    gpu_bench::check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize");
  };
  pack();  // warm-up: u, the lists and the arrived values move to the device, once
  unpack();
  floor();
  bool agree = true;
  {
    const std::vector<double> p = packed.to_vector(), after = u.to_vector();
    for (std::size_t k = 0; k < send_list.size(); ++k)
      agree = agree && p[k] == before[static_cast<std::size_t>(send_list[k])];
    for (const index_t i : receive_list)
      agree = agree && after[static_cast<std::size_t>(i)] == -1.0;
  }
  pack();
  unpack();
  const auto t = gpu_bench::interleaved(s.repeats, 200, {pack, unpack, floor});
  out.pack_us = gpu_bench::median(t[0]) * 1e6;
  out.unpack_us = gpu_bench::median(t[1]) * 1e6;
  std::printf(
      "== 3. halo pack/unpack: part 0 of box2d_quad(%d, %d) in %d parts (%lld owned cells),\n"
      "   %zu neighbour(s), %zu cells sent, %zu received, 1 double field. Timed: the device\n"
      "   gather/scatter funcmesh's halo_plan calls (fm::gather / fm::scatter on the cuda\n"
      "   executor over the plan's lists); MPI and the plan's host staging are not included\n",
      s.halo_side, s.halo_side, s.halo_parts, static_cast<long long>(m.owned_count),
      m.neighbours.size(), send_list.size(), receive_list.size());
  std::printf("   %-40s %10s %10s\n", "variant (us per call)", "median", "best");
  const char* names[] = {"pack (gather into the send buffer)", "unpack (scatter into the halo)",
                         "empty kernel + synchronize (floor)"};
  for (std::size_t k = 0; k < 3; ++k) {
    std::printf("   %-40s %10.2f %10.2f\n", names[k], gpu_bench::median(t[k]) * 1e6,
                gpu_bench::best(t[k]) * 1e6);
  }
  std::printf("   packed and unpacked values right: %s\n\n", agree ? "yes" : "NO");
}

int run(const settings& s) {
  // No GPU: one clear line and a non-zero status, before any work.
  int count = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess || count == 0) {
    std::fprintf(
        stderr, "bench/gpu: no CUDA device is visible: %s\n",
        status != cudaSuccess ? cudaGetErrorString(status) : "the driver reports 0 devices");
    return 1;
  }
  int device = 0;
  gpu_bench::check(cudaGetDevice(&device), "cudaGetDevice");
  fm::executor gpu;
  try {
    gpu = fm::executor::cuda(device);
  } catch (const fm::error& e) {
    std::fprintf(stderr, "bench/gpu: no cuda executor: %s\n", e.what());
    return 1;
  }
  cudaDeviceProp properties{};
  gpu_bench::check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  std::printf("bench/gpu on %s (%s, %.0f GiB): medians of %d interleaved rounds\n\n",
              gpu.name().c_str(), properties.name,
              static_cast<double>(properties.totalGlobalMem) / (1 << 30), s.repeats);
  const fm::scoped_executor on_gpu(gpu);  // the assignments run there
  summary out;
  bandwidth(s, gpu, out);
  sums(s, gpu, out);
  halo(s, gpu, out);

  std::printf("summary (informative only: the exit status is 0 either way)\n");
  std::printf("%-30s %10s %10s  %s\n", "name", "value", "goal", "result");
  for (const goal_row& g : out.goals) {
    const bool met = g.at_least ? g.value >= g.target : g.value <= g.target;
    char goal[32];
    std::snprintf(goal, sizeof goal, "%s %.2f", g.at_least ? ">=" : "<=", g.target);
    std::printf("%-30s %10.3f %10s  %s\n", g.name, g.value, goal, met ? "PASS" : "MISS");
  }
  std::printf("%-30s %10.2f %10s\n", "gpu_halo_pack_us", out.pack_us, "-");
  std::printf("%-30s %10.2f %10s\n", "gpu_halo_unpack_us", out.unpack_us, "-");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  settings s;
  funcmesh::app::program args(
      "gpu (benchmark)",
      "funcmesh on the cuda executor: axpy and triad bandwidth as a fraction of cudaMemcpy's\n"
      "(gpu_axpy_fraction, gpu_triad_fraction; goal >= 0.9), the reproducible sum's time over\n"
      "the ordinary sum's (gpu_reproducible_sum_ratio; goal <= 1.5), and the device halo\n"
      "pack/unpack of a 1M-cell plan in us. Exits 1 when no GPU is visible.");
  args.option("size", s.size, "doubles per array (bandwidth and sums)");
  args.option("repeats", s.repeats, "interleaved rounds; medians are reported");
  args.option("halo-side", s.halo_side, "halo: box2d_quad(side, side)");
  args.option("halo-parts", s.halo_parts, "halo: parts of the partition (part 0 is timed)");
  try {
    if (!args.parse(argc, argv, true)) return 0;
    if (s.size < 1 || s.repeats < 1 || s.halo_side < 2 || s.halo_parts < 2) {
      throw funcmesh::app::usage_error(
          "gpu: --size and --repeats must be at least 1, --halo-side and --halo-parts 2");
    }
  } catch (const funcmesh::app::usage_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  try {
    return run(s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench/gpu: %s\n", e.what());
    return 1;
  }
}
