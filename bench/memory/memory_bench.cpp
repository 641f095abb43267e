// The memory layer's costs against plain C++: a loop through a view against a loop over
// std::vector (large and small, to expose the fixed cost of a token), first touch,
// resize with preserve, the token lock against std::shared_mutex under contention, and
// (where a device is visible) host<->device transfers from pageable and pinned memory.
#include <benchmark/benchmark.h>

#include <memory>
#include <numeric>
#include <shared_mutex>
#include <vector>

#include <funcmesh/memory/memory.hpp>

#include "ratio_reporter.hpp"

namespace fm = funcmesh;
using fm::bench::compare_with;

namespace {

double sum(const double* data, fm::index_t n) {
  double total = 0;
  for (fm::index_t i = 0; i < n; ++i) total += data[i];
  return total;
}

// --- a read loop: the token and view cost nothing next to the work -----------------
void sum_std_vector(benchmark::State& state) {
  const auto n = state.range(0);
  std::vector<double> values(static_cast<std::size_t>(n), 1.0);
  for (auto _ : state) benchmark::DoNotOptimize(sum(values.data(), n));
  state.SetBytesProcessed(state.iterations() * n * static_cast<int64_t>(sizeof(double)));
}
void sum_funcmesh_view(benchmark::State& state) {
  const auto n = state.range(0);
  fm::array<double> values(n, 1.0);
  for (auto _ : state) {
    fm::token t;  // a fresh token every time: the pointer request is inside the timing
    const fm::view<const double> v = values.read_view(fm::host_space, t);
    benchmark::DoNotOptimize(sum(v.data(), v.size()));
  }
  state.SetBytesProcessed(state.iterations() * n * static_cast<int64_t>(sizeof(double)));
}
BENCHMARK(sum_std_vector)->Name("sum/std_vector")->Arg(1 << 10)->Arg(1 << 20);
BENCHMARK(sum_funcmesh_view)->Name("sum/funcmesh_view")->Arg(1 << 10)->Arg(1 << 20);

// --- allocate and write once ------------------------------------------------------
void first_touch_new(benchmark::State& state) {
  const auto n = state.range(0);
  for (auto _ : state) {
    std::unique_ptr<double[]> values(new double[static_cast<std::size_t>(n)]);
    std::iota(values.get(), values.get() + n, 0.0);
    benchmark::DoNotOptimize(values.get());
  }
  state.SetBytesProcessed(state.iterations() * n * static_cast<int64_t>(sizeof(double)));
}
void first_touch_array(benchmark::State& state) {
  const auto n = state.range(0);
  for (auto _ : state) {
    fm::array<double> values(n);
    auto w = values.overwrite();
    std::iota(w.begin(), w.end(), 0.0);
    benchmark::DoNotOptimize(w.data());
  }
  state.SetBytesProcessed(state.iterations() * n * static_cast<int64_t>(sizeof(double)));
}
BENCHMARK(first_touch_new)->Name("first_touch/new_array")->Arg(1 << 23);
BENCHMARK(first_touch_array)->Name("first_touch/funcmesh_array")->Arg(1 << 23);

// --- grow by half, keeping the contents -----------------------------------------------
void grow_std_vector(benchmark::State& state) {
  const auto n = state.range(0);
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<double> values(static_cast<std::size_t>(n), 2.0);
    state.ResumeTiming();
    values.resize(static_cast<std::size_t>(n + n / 2));
    benchmark::DoNotOptimize(values.data());
  }
}
void grow_array(benchmark::State& state) {
  const auto n = state.range(0);
  for (auto _ : state) {
    state.PauseTiming();
    fm::array<double> values(n, 2.0);
    state.ResumeTiming();
    values.resize(n + n / 2, fm::preserve::yes);
    auto r = values.read();  // the lazy reallocation happens here
    benchmark::DoNotOptimize(r.data());
  }
}
BENCHMARK(grow_std_vector)->Name("grow_preserve/std_vector")->Arg(1 << 20);
BENCHMARK(grow_array)->Name("grow_preserve/funcmesh_array")->Arg(1 << 20);

// --- a read hold, acquired and released, with 1 and 2 threads -------------------------
std::shared_mutex shared_lock;
void hold_shared_mutex(benchmark::State& state) {
  for (auto _ : state) {
    std::shared_lock hold(shared_lock);
    benchmark::ClobberMemory();
  }
}
fm::buffer& shared_buffer() {
  static fm::buffer b(64);
  return b;
}
void hold_token(benchmark::State& state) {
  fm::buffer& b = shared_buffer();
  for (auto _ : state) {
    fm::token t;
    benchmark::DoNotOptimize(b.read_pointer(fm::host_space, t));
  }
}
BENCHMARK(hold_shared_mutex)->Name("read_hold/std_shared_mutex")->Threads(1)->Threads(2);
BENCHMARK(hold_token)->Name("read_hold/funcmesh_token")->Threads(1)->Threads(2);

// --- host <-> device, registered only where a device is visible -----------------------
void to_device(benchmark::State& state, fm::memory_space device, bool pinned) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  fm::buffer b(bytes);
  b.set_pinned_host(pinned);
  {
    fm::token t;
    b.overwrite_pointer(fm::host_space, t);
  }
  for (auto _ : state) {
    {
      fm::token t;
      b.write_pointer(fm::host_space, t);  // invalidates the device copy
    }
    fm::token t;
    benchmark::DoNotOptimize(b.read_pointer(device, t));  // copies host -> device
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
}
void device_to_device(benchmark::State& state, fm::memory_space device) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  fm::buffer source(bytes);
  {
    fm::token t;
    source.overwrite_pointer(device, t);
  }
  fm::buffer copy;
  for (auto _ : state) copy.deep_copy_from(source);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
}

void register_device_benchmarks() {
  for (auto space : fm::available_spaces()) {
    if (space.is_host()) continue;
    const std::string name = fm::to_string(space);
    benchmark::RegisterBenchmark(("h2d_" + name + "/pageable").c_str(), to_device, space, false)
        ->Arg(1 << 26)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("h2d_" + name + "/pinned").c_str(), to_device, space, true)
        ->Arg(1 << 26)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("d2d_" + name + "/deep_copy").c_str(), device_to_device, space)
        ->Arg(1 << 26)
        ->UseRealTime();
    compare_with("h2d_" + name, "pageable");
  }
}

}  // namespace

int main(int argc, char** argv) {
  compare_with("sum", "std_vector");
  compare_with("first_touch", "new_array");
  compare_with("grow_preserve", "std_vector");
  compare_with("read_hold", "std_shared_mutex");
  register_device_benchmarks();
  return fm::bench::run_benchmarks(
      argc, argv, "memory_bench",
      "The memory layer against std containers and locks: sums, first touch, growth, "
      "shared reads, host-device copies.");
}
