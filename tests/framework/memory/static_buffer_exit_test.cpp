// A buffer with static storage, created before anything asked for memory, frees its
// memory during exit: the memory managers must still be there (run under the asan
// preset, a use-after-free here fails the test).
#include <cstdio>

#include <funcmesh/memory/memory.hpp>

namespace {
funcmesh::buffer& long_lived() {
  static funcmesh::buffer b(1024);  // constructed before the registry exists
  return b;
}
}  // namespace

int main() {
  funcmesh::buffer& b = long_lived();
  funcmesh::token t;
  auto* p = static_cast<unsigned char*>(b.write_pointer(funcmesh::host_space, t));
  p[0] = 1;
  b.read_pointer(funcmesh::simulated_space(0), t);
  std::printf("static buffer allocated on host and sim:0; it is freed after main returns\n");
  return 0;
}
