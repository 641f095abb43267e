// halo_source: what a distributed function's storage offers a halo exchange (its name,
// sizes, bytes per value, write count, where it packs, and the packing of the values at an
// index list into and out of contiguous bytes), so that the comm layer moves every kind alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <funcmesh/core/index.hpp>
#include <funcmesh/exec/executor.hpp>
#include <funcmesh/memory/array.hpp>
#include <funcmesh/memory/buffer.hpp>
#include <funcmesh/memory/token.hpp>

namespace funcmesh {

// Where a source's values are packed into a round's byte buffers and unpacked from them.
enum class pack_site {
  // By a kernel on the round's executor, in its memory space (values in a buffer).
  executor,
  // On the host, by the source itself (a paged function, through its cache): the round's
  // bytes travel through host memory whatever the executor.
  host,
};

// Implemented by grid_function_base (a buffer) and paged_function_base (pages through a
// cache); a new kind of storage joins the halo path by implementing it. Not owning: the
// distributed function that holds a source outlives every round that moves it.
class halo_source {
 public:
  // The bare name (may be empty), and "grid function 'u'" for messages.
  virtual const std::string& name() const = 0;
  virtual std::string describe() const = 0;
  // Values [0, owned_size()) are this rank's, [owned_size(), total_size()) the halo.
  virtual index_t owned_size() const = 0;
  virtual index_t total_size() const = 0;
  // Bytes per value: what pack writes and unpack reads per listed index.
  virtual std::size_t element_size() const = 0;
  // Changes on every write of the values (the halo's dirty bit compares it); unpacking the
  // halo is not a write.
  virtual std::uint64_t write_count() const = 0;
  virtual pack_site packs_on() const = 0;

  // packed[k] = the value at indices[k], element_size() bytes each; `packed` already has
  // indices.size() * element_size() bytes. Every index lies in [0, total_size()): the
  // halo plan checked its lists once, when it was built. `on`: the round's executor
  // (pack_site::executor packs there; pack_site::host ignores it). May throw (a store's
  // I/O error): the plan still completes the round, then rethrows.
  virtual void pack(const executor& on, const array<index_t>& indices, buffer& packed) const = 0;
  // The value at indices[k] = packed[k]: the reverse, into the halo. `holder`: the token
  // to write the source's own buffers with (`packed` and `indices` are taken with a token
  // of the call's own, released on return). When a round ends inside an assignment's
  // bound loop, it is that loop's token, which already reads these values, and `on` is
  // the loop's executor: the halo written through it, in the loop's memory space, is what
  // the loop's views see (another token of the same thread could not write a buffer the
  // loop's token reads: token_error). Its holds outlast the call.
  virtual void unpack(const executor& on, const buffer& packed, const array<index_t>& indices,
                      token& holder) = 0;

 protected:
  halo_source() = default;
  halo_source(const halo_source&) = default;
  halo_source& operator=(const halo_source&) = default;
  ~halo_source() = default;
};

}  // namespace funcmesh
