// row_buffer: a rank's rows of one checkpoint dataset in memory, laid out so that HDF5
// maps them onto the file's chunks run by run rather than element by element. Private to
// the module.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <funcmesh/exec/thread_policy.hpp>

#include "hdf5_file.hpp"

namespace funcmesh::detail {

// HDF5 maps a memory selection onto chunks fast only where it has the file selection's
// shape (or both are one-dimensional). So where it costs little memory, the buffer spans
// the rank's global rows [first, last] with only its own rows touched (an anonymous
// mapping: the other ranks' rows are never paged in), and the memory selection is the
// file's, shifted. Where a rank's rows are too scattered for that (more than twice the
// packed size in touched pages), they are packed and HDF5 maps them element by element.
class row_buffer {
 public:
  // `dataset_space`: the dataset's dataspace, of which file_space() is a copy with `rows`
  // selected (all components).
  row_buffer(const owned_rows& rows, int components, hid_t dataset_space, const std::string& who,
             const std::filesystem::path& file);
  row_buffer(const row_buffer&) = delete;
  row_buffer& operator=(const row_buffer&) = delete;
  ~row_buffer();

  // f(k, row): the k-th row in ascending global id (the cell rows.cells[k]), `components`
  // doubles; on the thread policy's threads (f only copies).
  template <class F>
  void for_each_row(F&& f) {
    const auto rows = static_cast<std::ptrdiff_t>(rows_.cells.size());
    [[maybe_unused]] const int threads = exec::threads_target();
#pragma omp parallel for num_threads(threads) schedule(static) if (rows > 65536)
    for (std::ptrdiff_t k = 0; k < rows; ++k) {
      const auto at = static_cast<std::size_t>(k);
      f(at,
        data_ + (spanned() ? static_cast<std::size_t>(rows_.global[at] - first_) : at) * width_);
    }
  }

  hid_t file_space() const { return file_.get(); }
  hid_t memory_space() const { return memory_.get(); }
  double* data() { return data_; }
  bool spanned() const { return mapped_bytes_ != 0; }

 private:
  const owned_rows& rows_;
  std::size_t width_;
  hsize_t first_ = 0;  // spanned: the first global row the buffer holds
  std::vector<double> packed_;
  double* data_ = nullptr;
  std::size_t mapped_bytes_ = 0;
  hdf5_handle file_;
  hdf5_handle memory_;
};

}  // namespace funcmesh::detail
