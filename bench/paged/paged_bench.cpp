// bench/paged: the seed's VirtualMultiArray table on funcmesh's stores — random and
// sequential element access for 8-byte and 4 KiB objects over page sizes 1..10,000, on 1
// and 2 threads, bulk and mapped ranges against per-element access — then three figures:
// paged_bulk_fraction, paged_get_ns and out_of_core_ratio (docs/paged.md says what each
// measures; the last is an axpy on paged grid functions, page by page over a file).
// Variants alternate within each round; medians of the rounds are printed.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <funcmesh/app.hpp>
#include <funcmesh/expr/expr.hpp>
#include <funcmesh/memory/memory_manager.hpp>
#include <funcmesh/memory/memory_space.hpp>
#include <funcmesh/paged/paged.hpp>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace fm = funcmesh;

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_of(const std::function<void()>& f) {
  const auto start = clock_type::now();
  f();
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Medians of `rounds` alternated runs of each variant.
std::vector<double> interleaved(int rounds, const std::vector<std::function<void()>>& variants) {
  std::vector<std::vector<double>> times(variants.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t v = 0; v < variants.size(); ++v) times[v].push_back(seconds_of(variants[v]));
  }
  std::vector<double> result;
  for (auto& t : times) result.push_back(median(t));
  return result;
}

// Every element 1, written a page at a time and flushed: the store holds the data.
void fill_with_ones(fm::paged_array<double>& a) {
  const std::vector<double> ones(65536, 1.0);
  for (fm::index_t i = 0; i < a.size(); i += 65536) {
    const auto count = static_cast<std::size_t>(std::min<fm::index_t>(65536, a.size() - i));
    a.write(i, std::span<const double>(ones.data(), count));
  }
  a.flush();
}

std::size_t last_level_cache_bytes() {
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) return static_cast<std::size_t>(l3);
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return l2 > 0 ? static_cast<std::size_t>(l2) : std::size_t{32} << 20;
}

// The bulk figure's arrays (the paged array and three buffers) are sized 4x the LLC, to
// run from memory, but capped: a large LLC (or a sysconf that reports the whole socket's)
// must not make the run take gigabytes.
constexpr std::size_t bulk_footprint_cap = std::size_t{256} << 20;
constexpr int bulk_arrays = 4;

struct object_4k {
  std::array<std::byte, 4096> bytes;
};

// One row of the table: `accesses` gets (and as many sets) of T at random or sequential
// indices of an array of `elements`, cached pages covering a quarter of it.
template <class T>
void access_row(const char* object, fm::index_t elements, fm::index_t page, bool random,
                int threads) {
  const fm::index_t pages = (elements + page - 1) / page;
  const int channels = static_cast<int>(std::min<fm::index_t>(4, pages));
  const fm::index_t cached = std::max<fm::index_t>(1, pages / channels / 4);
  fm::paged_array<T> a(elements, fm::space_store(fm::host_space, channels),
                       {.page = page, .cached = cached});
  const fm::index_t accesses = std::min<fm::index_t>(elements, sizeof(T) > 8 ? 4000 : 200000);
  std::vector<fm::index_t> where(static_cast<std::size_t>(accesses));
  std::mt19937_64 random_engine(7);
  for (fm::index_t k = 0; k < accesses; ++k) {
    where[static_cast<std::size_t>(k)] =
        random ? static_cast<fm::index_t>(random_engine() % static_cast<std::uint64_t>(elements))
               : k;
  }
  const auto run = [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (fm::index_t k = 0; k < accesses; ++k) {
      const fm::index_t i = where[static_cast<std::size_t>(k)];
      const T value = a.get(i);
      a.set(i, value);
    }
  };
  run();  // warm
  a.reset_statistics();
  const double t = median({seconds_of(run), seconds_of(run), seconds_of(run)});
  const fm::cache_statistics s = a.statistics();
  const double bytes = 2.0 * static_cast<double>(accesses) * sizeof(T);
  std::printf("  %-5s %-10s page %6lld  %d thr  %9.1f ns/access  %9.1f MB/s  hits %5.1f%%\n",
              object, random ? "random" : "sequential", static_cast<long long>(page), threads,
              1e9 * t / (2.0 * static_cast<double>(accesses)), 1e-6 * bytes / t,
              100.0 * s.hit_ratio());
}

// Per-element, bulk read() and map() over a whole array of doubles, larger than its cache.
void range_rows(fm::index_t elements) {
  fm::paged_array<double> a(elements, fm::space_store(fm::host_space, 4),
                            {.page = 4096, .cached = 4});
  for (fm::index_t i = 0; i < elements; i += 4096) {
    a.write(i, std::vector<double>(
                   static_cast<std::size_t>(std::min<fm::index_t>(4096, elements - i)), 1.0));
  }
  double sink = 0;
  const auto per_element = [&] {
    for (fm::index_t i = 0; i < elements; ++i) sink += a.get(i);
  };
  std::vector<double> out(static_cast<std::size_t>(elements));
  const auto bulk = [&] { a.read(0, out); };
  const auto mapped = [&] {
    a.map(0, elements, [&](double* p) { sink += p[elements - 1]; }, {.read = true, .write = false});
  };
  const auto t = interleaved(3, {per_element, bulk, mapped});
  const double mb = 1e-6 * static_cast<double>(elements) * sizeof(double);
  std::printf(
      "  ranges of %lld doubles: per-element get %8.1f MB/s, bulk read %8.1f MB/s, "
      "map %8.1f MB/s (sink %g)\n",
      static_cast<long long>(elements), mb / t[0], mb / t[1], mb / t[2], sink);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  fm::app::program args("paged",
                        "The seed's access table on a host-memory store, bulk and mapped ranges, "
                        "then paged_bulk_fraction, paged_get_ns and out_of_core_ratio (goals >= "
                        "0.8, <= 20, <= 3).");
  args.flag("quick", quick, "smaller sizes (a smoke run, figures not meaningful)");
  if (const auto code = args.parse_or_exit_code(argc, argv)) return *code;
  const std::size_t llc = last_level_cache_bytes();
  std::printf("bench/paged: last-level cache %.1f MiB%s\n", static_cast<double>(llc) / 1048576.0,
              quick ? " (--quick)" : "");

  std::printf("\n== element access (host store, cache = 1/4 of the pages; get + set)\n");
  const fm::index_t small_elements = quick ? 20000 : 1000000;
  for (const bool random : {false, true}) {
    for (const fm::index_t page : {1, 10, 100, 1000, 10000}) {
      for (const int threads : {1, 2}) {
        if (page * 4 > small_elements) continue;
        access_row<double>("8 B", small_elements, page, random, threads);
      }
    }
  }
  for (const bool random : {false, true}) {
    for (const fm::index_t page : {1, 10, 100}) {
      for (const int threads : {1, 2})
        access_row<object_4k>("4 KiB", quick ? 400 : 4000, page, random, threads);
    }
  }

  std::printf("\n== ranges (bulk read() and map() vs per-element get)\n");
  range_rows(quick ? 100000 : 4000000);

  // paged_bulk_fraction: bulk sequential read() of a host-store array 4x the LLC whose
  // pages are not cached (they pass store -> user directly, bypassing the cache) over
  // memcpy of the same bytes between two buffers of that size. The four arrays together
  // stay within bulk_footprint_cap.
  const std::size_t wanted_bytes = quick ? llc / 8 : 4 * llc;
  const std::size_t bulk_bytes = std::min(wanted_bytes, bulk_footprint_cap / bulk_arrays);
  const auto big = static_cast<fm::index_t>(bulk_bytes / sizeof(double));
  double bulk_fraction = 0;
  {
    fm::paged_array<double> a(big, fm::space_store(fm::host_space, 4),
                              {.page = 65536, .cached = 1});
    fill_with_ones(a);
    std::vector<double> out(static_cast<std::size_t>(big)),
        from(static_cast<std::size_t>(big), 2.0), to(static_cast<std::size_t>(big));
    const auto t = interleaved(
        7, {[&] { a.read(0, out); },
            [&] { std::memcpy(to.data(), from.data(), from.size() * sizeof(double)); }});
    bulk_fraction = t[1] / t[0];
    std::printf(
        "\n== bulk: %.1f MiB%s, read() %.2f GB/s, memcpy %.2f GB/s (out[7] %g, to[7] %g)\n",
        static_cast<double>(big) * 8 / 1048576.0,
        bulk_bytes < wanted_bytes ? " (capped: 4 such arrays within 256 MiB, not 4x LLC)" : "",
        8e-9 * static_cast<double>(big) / t[0], 8e-9 * static_cast<double>(big) / t[1], out[7],
        to[7]);
  }

  // On a GPU machine, the same bulk read from a CUDA store (4 channels on device 0) into
  // pinned host memory, over one cudaMemcpy of the same bytes from device memory into
  // pinned memory (the PCIe bound).
  double gpu_fraction = -1;
  const std::vector<fm::memory_space> spaces = fm::available_spaces();
  if (std::find(spaces.begin(), spaces.end(), fm::cuda_space(0)) != spaces.end()) {
    const std::size_t bytes = static_cast<std::size_t>(big) * sizeof(double);
    fm::memory_manager& cuda = fm::memory_manager_for(fm::space_kind::cuda);
    fm::paged_array<double> a(big, fm::space_store(fm::cuda_space(0), 4),
                              {.page = 65536, .cached = 1});
    fill_with_ones(a);
    const fm::detail::pinned_host_allocation pinned = fm::detail::allocate_pinned_host(bytes);
    void* device = cuda.allocate(0, bytes);
    std::span<double> out(static_cast<double*>(pinned.pointer), static_cast<std::size_t>(big));
    const auto t = interleaved(7, {[&] { a.read(0, out); },
                                   [&] {
                                     fm::copy_bytes(fm::host_space, pinned.pointer,
                                                    fm::cuda_space(0), device, bytes);
                                   }});
    gpu_fraction = t[1] / t[0];
    std::printf(
        "== bulk from cuda:0: %.1f MiB, read() %.2f GB/s, pinned cudaMemcpy %.2f GB/s "
        "(out[7] %g)\n",
        static_cast<double>(bytes) / 1048576.0, 1e-9 * static_cast<double>(bytes) / t[0],
        1e-9 * static_cast<double>(bytes) / t[1], out[7]);
    cuda.deallocate(0, device);
    fm::detail::deallocate_pinned_host(pinned, bytes);
  } else {
    std::printf("== bulk from a GPU: no GPU visible, skipped\n");
  }

  // paged_get_ns: one thread, get() at random indices of pages that are all cached, with
  // the default LRU cache (the figure) and CLOCK, alternated.
  double get_ns = 0, clock_get_ns = 0;
  {
    const fm::index_t page = 1024, pages = 32;
    auto make = [&](fm::page_replacement replacement) {
      fm::paged_array<double> a(page * pages, fm::space_store(fm::host_space, 4),
                                {.page = page, .cached = pages / 4, .replacement = replacement});
      for (fm::index_t i = 0; i < a.size(); ++i) a.set(i, static_cast<double>(i));
      a.reset_statistics();
      return a;
    };
    fm::paged_array<double> lru = make(fm::page_replacement::lru);
    fm::paged_array<double> clock = make(fm::page_replacement::clock);
    const fm::index_t n = quick ? 20000 : 2000000;
    std::vector<fm::index_t> where(static_cast<std::size_t>(n));
    std::mt19937_64 random_engine(11);
    for (auto& i : where)
      i = static_cast<fm::index_t>(random_engine() % static_cast<std::uint64_t>(lru.size()));
    double sink = 0;
    const auto t = interleaved(7, {[&] {
                                     for (const fm::index_t i : where) sink += lru.get(i);
                                   },
                                   [&] {
                                     for (const fm::index_t i : where) sink += clock.get(i);
                                   }});
    get_ns = 1e9 * t[0] / static_cast<double>(n);
    clock_get_ns = 1e9 * t[1] / static_cast<double>(n);
    std::printf(
        "== get on cached pages: LRU %.1f ns, CLOCK %.1f ns (misses %llu and %llu over %zu gets "
        "each, sink %g)\n",
        get_ns, clock_get_ns, static_cast<unsigned long long>(lru.statistics().misses),
        static_cast<unsigned long long>(clock.statistics().misses), 7 * where.size(), sink);
  }

  // out_of_core_ratio: y = 2 x + y on paged grid functions in a file 4x their caches (the
  // file in the OS page cache after the first pass), assigned page by page (y's page in
  // place, x's copied), over the same assignment on in-memory grid functions, on the same
  // executor. The hand-written map_page loop of docs/paged.md is printed beside it.
  double out_of_core = 0;
  {
    const fm::index_t page = 65536, n = quick ? 8 * page : 64 * page;
    const fm::index_t cached = n / page / 4 / 2;  // per channel, 2 channels: 1/4 of the pages
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("funcmesh_paged_bench_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    {
      const fm::file_store disk(dir, {.channels = 2});
      const fm::paged_options options{.page = page, .cached = std::max<fm::index_t>(1, cached)};
      fm::paged_grid_function<double> x(n, disk, options, "x"), y(n, disk, options, "y");
      fm::grid_function<double> xs(n, "xs"), ys(n, "ys");
      xs = fm::pure(1.0);
      ys = fm::pure(0.5);
      x = xs;
      y = ys;
      // On the default executor (the figure) and on the serial one (for comparison: on a
      // loaded machine each page's parallel region can wait for a descheduled thread).
      const fm::executor chosen = fm::default_executor();
      const auto paged_axpy = [&](const fm::executor& on) {
        return [&, on] { y.assign(2.0 * x + y, {.on = on}); };
      };
      const auto memory_axpy = [&](const fm::executor& on) {
        return [&, on] { ys.assign(2.0 * xs + ys, {.on = on}); };
      };
      const auto by_hand = [&] {
        for (fm::index_t p = 0; p < x.pages(); ++p) {
          x.array().map_page(p, fm::page_access::read, [&](double* xp, fm::index_t count) {
            y.array().map_page(p, fm::page_access::write, [&](double* yp, fm::index_t) {
              for (fm::index_t k = 0; k < count; ++k) yp[k] = 2.0 * xp[k] + yp[k];
            });
          });
        }
      };
      paged_axpy(chosen)();
      const auto t =
          interleaved(5, {paged_axpy(chosen), memory_axpy(chosen), by_hand,
                          paged_axpy(fm::executor::serial()), memory_axpy(fm::executor::serial())});
      out_of_core = t[0] / t[1];
      const fm::cache_statistics s = y.array().statistics();
      std::printf(
          "== out of core (%s): %.1f MiB per function, file %.2f ms, memory %.2f ms per axpy; "
          "serial: file %.2f ms, memory %.2f ms (ratio %.2f); map_page loop by hand %.2f ms "
          "(y: %llu misses, %llu write-backs; y[0] %g vs %g)\n",
          chosen.name().c_str(), static_cast<double>(n) * 8 / 1048576.0, 1e3 * t[0], 1e3 * t[1],
          1e3 * t[3], 1e3 * t[4], t[3] / t[4], 1e3 * t[2],
          static_cast<unsigned long long>(s.misses), static_cast<unsigned long long>(s.write_backs),
          y.get(0), ys.read()[0]);
    }
    std::filesystem::remove_all(dir);
  }

  std::printf("\npaged_bulk_fraction %.3f  (goal >= 0.8: %s; bulk read bypasses the cache)\n",
              bulk_fraction, bulk_fraction >= 0.8 ? "PASS" : "MISS");
  if (gpu_fraction >= 0) {
    std::printf(
        "paged_gpu_bulk_fraction %.3f  (bulk read from a CUDA store over pinned "
        "cudaMemcpy)\n",
        gpu_fraction);
  }
  std::printf("paged_get_ns %.1f  (goal <= 20: %s; the default LRU cache)\n", get_ns,
              get_ns <= 20 ? "PASS" : "MISS");
  std::printf("paged_get_ns_clock %.1f  (the same with .replacement = clock)\n", clock_get_ns);
  std::printf("out_of_core_ratio %.2f  (goal <= 3: %s)\n", out_of_core,
              out_of_core <= 3 ? "PASS" : "MISS");
  return 0;
}
