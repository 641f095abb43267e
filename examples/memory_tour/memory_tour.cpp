// memory_tour: a walk through funcmesh's memory layer that prints what happens at each
// step: lazy allocation, coherence between the host and a device, tokens, resize with
// preserve, adopted memory, strided and SoA views.
//
//   memory_tour [--size N] [--space SPACE] [--readers R]
#include <funcmesh/app.hpp>
#include <funcmesh/framework.hpp>
#include <funcmesh/memory/memory_error.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

namespace fm = funcmesh;

namespace {

struct options {
  fm::index_t size = 1'000'000;
  std::string space;  // empty: the first device if one is visible, else the host
  int readers = 4;
};

// The command line (funcmesh::app::program); exits 0 after --help, 2 on a mistake.
options parse(int argc, char** argv) {
  options result;
  fm::app::program args("memory_tour",
                        "Walks through funcmesh's memory layer and prints each step.");
  args.option("size", result.size, "elements in the arrays")
      ->check(CLI::Range(fm::index_t{1}, fm::index_t{1} << 40));
  args.option("space", result.space,
              "where device copies go: cuda:0, sim:0 (a simulated device in host memory), "
              "host, ... (default: the first visible GPU, else sim:0)");
  args.option("readers", result.readers, "reader threads in the token demonstration")
      ->check(CLI::Range(1, 256));
  if (const auto code = args.parse_or_exit_code(argc, argv)) std::exit(*code);
  return result;
}

void show(const char* step, const fm::buffer& b) {
  std::printf("  %-44s", step);
  const auto statuses = b.statuses();
  if (statuses.empty()) std::printf(" allocated nowhere");
  for (const auto& s : statuses)
    std::printf(" [%s: %s%s]", fm::to_string(s.space).c_str(), s.allocated ? "allocated" : "free",
                s.valid ? ", valid" : "");
  std::printf("\n");
}

void coherence(fm::index_t n, fm::memory_space device) {
  std::printf("1. Lazy allocation and coherence (%lld doubles, device copies in %s)\n",
              static_cast<long long>(n), fm::to_string(device).c_str());
  fm::array<double> u(n);
  show("constructed:", u.storage());
  {
    auto w = u.overwrite();
    for (fm::index_t i = 0; i < n; ++i) w[i] = static_cast<double>(i);
  }
  show("written on the host:", u.storage());
  {
    fm::token t;
    u.read_view(device, t);
  }
  show("read on the device (copied in):", u.storage());
  u.write()[0] = -1.0;
  show("written on the host again:", u.storage());
  u.resize(n + n / 2, fm::preserve::yes);
  show("resized by half, preserving (lazy):", u.storage());
  const double kept = u.read()[n - 1];
  show("read on the host after the resize:", u.storage());
  std::printf("  value %lld survived the resize: %s\n", static_cast<long long>(n - 1),
              kept == static_cast<double>(n - 1) ? "yes" : "NO");
  if (device.kind == fm::simulated_kind()) {
    const auto counts = fm::simulated_counts();
    std::printf("  simulated device traffic: %ld copies host->device, %ld device->host\n",
                counts.from_host, counts.to_host);
  }
  std::printf("\n");
  if (kept != static_cast<double>(n - 1)) throw fm::error("resize lost data");
}

void tokens(int readers) {
  std::printf("2. Tokens: %d reader threads and one writer, granted in arrival order\n", readers);
  fm::array<long> counter(1, 0);
  std::atomic<int> reading{0};
  std::atomic<int> most_reading{0};
  std::vector<std::thread> threads;
  for (int r = 0; r < readers; ++r)
    threads.emplace_back([&] {
      for (int round = 0; round < 200; ++round) {
        auto view = counter.read();
        const int now = ++reading;
        std::this_thread::sleep_for(std::chrono::microseconds(20));  // hold it a while
        int seen = most_reading.load();
        while (now > seen && !most_reading.compare_exchange_weak(seen, now)) {
        }
        --reading;
      }
    });
  threads.emplace_back([&] {
    for (int round = 0; round < 200; ++round) ++counter.write()[0];
  });
  for (auto& t : threads) t.join();
  std::printf("  writer increments seen: %ld of 200; at most %d readers held it at once\n",
              counter.read()[0], most_reading.load());
  fm::token writer;
  counter.write_view(fm::host_space, writer);
  fm::token second;
  try {
    counter.read_view(fm::host_space, second);
  } catch (const fm::token_error& e) {
    std::printf(
        "  a second token of this thread reading during a write: refused, not a "
        "deadlock:\n    \"%s\"\n\n",
        e.what());
  }
}

void adopted_and_layouts() {
  std::printf("3. Adopted memory, strided and SoA views\n");
  int releases = 0;
  {
    auto* mine = new double[8]{0, 1, 2, 3, 4, 5, 6, 7};
    auto adopted = fm::array<double>::adopt(mine, 8, fm::host_space, [&releases](void* p) {
      ++releases;
      delete[] static_cast<double*>(p);
    });
    auto shared = adopted;  // copies share; the deleter still runs once
    std::printf("  adopted 8 user doubles, sum through the array: %g\n", [&] {
      double sum = 0;
      for (double v : shared.read()) sum += v;
      return sum;
    }());
  }
  std::printf("  the user's deleter ran %d time(s)\n", releases);

  fm::array<fm::vec<double, 3>> points(4);
  {
    auto w = points.write();
    for (int i = 0; i < 4; ++i) w[i] = {{1.0 * i, 10.0 * i, 100.0 * i}};
  }
  fm::token t;
  auto y = fm::component(points, 1).read_view(fm::host_space, t);
  std::printf("  component y of 4 AoS points (stride 3, offset 1): %g %g %g %g\n", y[0], y[1], y[2],
              y[3]);
  fm::soa_array<double, 4> q(2);
  auto qw = q.overwrite_view(fm::host_space, t);
  qw.set(1, {{1.0, 0.5, 0.0, 2.5}});
  std::printf(
      "  SoA state (4 buffers, one token): q[1] = (%g, %g, %g, %g), rho u column at 1: %g\n\n",
      qw[1][0], qw[1][1], qw[1][2], qw[1][3], qw.component(1)[1]);
}

}  // namespace

int main(int argc, char** argv) {
  const options opts = parse(argc, argv);
  try {
    fm::simulated_kind();  // makes "sim:0" and "sim:1" available next to real devices
    fm::memory_space device = fm::host_space;
    if (!opts.space.empty()) {
      device = fm::parse_memory_space(opts.space);
      fm::require_space(device);
    } else {
      // The first real GPU; without one, the simulated device shows the same coherence.
      const auto spaces = fm::available_spaces();
      const bool gpu = spaces.size() > 1 && spaces[1].kind != fm::simulated_kind();
      device = gpu ? spaces[1] : fm::simulated_space(0);
    }
    std::printf("funcmesh %s memory tour; backends:", fm::config::version.data());
    for (auto backend : fm::config::backends) std::printf(" %s", backend.data());
    std::printf("; spaces:");
    for (auto space : fm::available_spaces()) std::printf(" %s", fm::to_string(space).c_str());
    std::printf("\n\n");

    const auto start = std::chrono::steady_clock::now();
    coherence(opts.size, device);
    tokens(opts.readers);
    adopted_and_layouts();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("memory tour complete in %.3f s\n", seconds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "memory_tour: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
