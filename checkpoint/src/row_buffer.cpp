// row_buffer: the spanned layout where its touched pages stay within twice the packed
// size, the packed one otherwise (see row_buffer.hpp).
#include "row_buffer.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace funcmesh::detail {

namespace {

// Pages a spanned buffer would touch: each run's rows, a page shared by two runs counted
// once.
std::size_t touched_pages(const owned_rows& rows, std::size_t row_bytes, std::size_t page) {
  std::size_t pages = 0;
  std::size_t last = static_cast<std::size_t>(-1);
  const hsize_t first = rows.runs.front().first;
  for (const auto& [start, count] : rows.runs) {
    const std::size_t from = static_cast<std::size_t>(start - first) * row_bytes / page;
    const std::size_t to = (static_cast<std::size_t>(start - first + count) * row_bytes - 1) / page;
    pages += to - from + 1 - (from == last ? 1 : 0);
    last = to;
  }
  return pages;
}

}  // namespace

row_buffer::row_buffer(const owned_rows& rows, int components, hid_t dataset_space,
                       const std::string& who, const std::filesystem::path& file)
    : rows_(rows),
      width_(static_cast<std::size_t>(components)),
      file_(rows_selected(dataset_space, rows, components, who, file)) {
  const int rank = components == 1 ? 1 : 2;
  const std::size_t packed_bytes = rows.cells.size() * width_ * sizeof(double);
  if (!rows.runs.empty()) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const hsize_t span = rows.runs.back().first + rows.runs.back().second - rows.runs.front().first;
    const std::size_t bytes = static_cast<std::size_t>(span) * width_ * sizeof(double);
    if (touched_pages(rows, width_ * sizeof(double), page) * page <= 2 * packed_bytes + 16 * page) {
      const hsize_t dims[2] = {span, static_cast<hsize_t>(components)};
      const hdf5_handle span_space(
          checked(H5Screate_simple(rank, dims, nullptr), who, file, "H5Screate_simple"), H5Sclose);
      memory_ = rows_selected(span_space.get(), rows, components, who, file, rows.runs[0].first);
      void* mapped = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (mapped != MAP_FAILED) {
        data_ = static_cast<double*>(mapped);
        mapped_bytes_ = bytes;
        first_ = rows.runs.front().first;
        return;
      }
    }
  }
  packed_.resize(rows.cells.size() * width_);
  data_ = packed_.data();
  memory_ = packed_space(rows.cells.size(), components, who, file);
}

row_buffer::~row_buffer() {
  if (mapped_bytes_ != 0) ::munmap(data_, mapped_bytes_);
}

}  // namespace funcmesh::detail
