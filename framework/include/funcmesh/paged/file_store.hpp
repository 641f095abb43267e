// file_store: pages in a file on local disk or NVMe (pread/pwrite), for data larger than
// RAM on machines without a GPU. The file is the array's plain image (element i at byte
// i * sizeof(T)), reserved whole at creation and removed afterwards unless kept.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include <funcmesh/paged/page_store.hpp>

namespace funcmesh {

struct file_store_options {
  int channels = 1;   // independent locks and caches over the one file
  bool keep = false;  // leave the file (written back in full) when the array goes away
};

class file_store final : public page_store {
 public:
  // `path`: an existing directory (a new file with a unique name is made in it), or the
  // name of a new file (it must not exist: a file_store never overwrites data). Nothing
  // is created until an array opens the store.
  explicit file_store(std::filesystem::path path, file_store_options options = {});
  ~file_store() override;  // closes the file, and removes it unless kept

  // The file once open (before: the path given).
  const std::filesystem::path& path() const { return file_; }
  // The file descriptor once open (-1 before): for tools, and for tests that swap it.
  int native_handle() const { return fd_; }
  const file_store_options& options() const { return options_; }

  std::unique_ptr<page_store> clone_unopened() const override;
  int channels() const override { return options_.channels; }
  std::string describe() const override;
  std::string channel_name(int channel) const override;
  // Throw store_error naming the file, the offset, the bytes and the system's reason
  // (a short read is one: the file was truncated behind the array's back).
  void read(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
            void* destination) override;
  void write(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
             const void* source) override;
  // Reads the file in large blocks on parallel threads instead of a page at a time.
  std::vector<index_t> find(const find_request& request) override;
  bool keeps_data() const override { return options_.keep; }

 protected:
  // Creates the file and reserves its blocks (posix_fallocate), so a full disk is an error
  // here, naming the file, the bytes and the reason, not a failed write-back later.
  void do_open(const page_layout& layout) override;

 private:
  std::size_t offset_of(int channel, index_t local_page, std::size_t offset) const;

  std::filesystem::path given_;
  std::filesystem::path file_;
  file_store_options options_;
  int fd_ = -1;
  std::size_t page_bytes_ = 0;
  int channel_count_ = 1;
};

}  // namespace funcmesh
