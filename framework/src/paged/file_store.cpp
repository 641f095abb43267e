// Pages in a file (see file_store.hpp).
#include <funcmesh/paged/file_store.hpp>

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <vector>

#include <funcmesh/core/error.hpp>
#include <funcmesh/exec/thread_policy.hpp>

namespace funcmesh {

namespace {

std::string reason(int code) { return std::strerror(code); }

void read_exactly(int fd, void* destination, std::size_t bytes, std::size_t at,
                  const std::filesystem::path& file) {
  auto* out = static_cast<char*>(destination);
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t n = ::pread(fd, out + done, bytes - done, static_cast<off_t>(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw store_error("file_store: reading " + std::to_string(bytes) + " bytes at offset " +
                        std::to_string(at) + " of " + file.string() + " failed: " +
                        (n == 0 ? std::string("unexpected end of file") : reason(errno)));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

file_store::file_store(std::filesystem::path path, file_store_options options)
    : given_(std::move(path)), file_(given_), options_(options) {
  if (options_.channels < 1)
    throw paged_error("file_store(" + given_.string() + "): " + std::to_string(options_.channels) +
                      " channels; at least 1 is needed");
  if (given_.empty()) throw paged_error("file_store: an empty path");
}

file_store::~file_store() {
  if (fd_ < 0) return;
  ::close(fd_);
  if (!options_.keep) ::unlink(file_.c_str());
}

std::unique_ptr<page_store> file_store::clone_unopened() const {
  return std::make_unique<file_store>(given_, options_);
}

std::string file_store::describe() const { return "file_store(" + file_.string() + ")"; }

std::string file_store::channel_name(int channel) const {
  if (channel < 0 || channel >= channels()) throw index_error(channel, channels());
  return file_.string();
}

void file_store::do_open(const page_layout& layout) {
  page_bytes_ = layout.page_bytes();
  channel_count_ = layout.channels;
  // The plain image: exactly size elements, a short last page included.
  const std::size_t bytes = static_cast<std::size_t>(layout.size) * layout.element_bytes;
  std::error_code ignored;
  std::filesystem::path file = given_;
  int fd = -1;
  if (std::filesystem::is_directory(given_, ignored)) {
    std::string name = (given_ / "funcmesh-paged-XXXXXX").string();
    fd = ::mkstemp(name.data());
    file = name;
    if (fd >= 0) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  } else {
    fd = ::open(given_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  }
  if (fd < 0) {
    const int code = errno;
    throw store_error("file_store: cannot create " + file.string() + " for " +
                      std::to_string(bytes) + " bytes: " + reason(code) +
                      (code == EEXIST ? " (a file_store never overwrites an existing file)" : ""));
  }
  auto fail = [&](const std::string& why) {
    ::close(fd);
    ::unlink(file.c_str());
    throw store_error("file_store: cannot reserve " + std::to_string(bytes) + " bytes for " +
                      file.string() + ": " + why);
  };
  // Asked first: where posix_fallocate is emulated (filesystems without fallocate), glibc
  // would write the whole size before failing.
  struct statvfs fs {};
  if (::fstatvfs(fd, &fs) == 0) {
    const auto available = static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize;
    if (bytes > available)
      fail("its filesystem has only " + std::to_string(available) + " bytes free");
  }
  if (bytes > 0) {
    const int code = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
    if (code != 0) fail(reason(code));
  }
  fd_ = fd;
  file_ = file;
}

std::size_t file_store::offset_of(int channel, index_t local_page, std::size_t offset) const {
  const auto page = static_cast<std::size_t>(local_page * channel_count_ + channel);
  return page * page_bytes_ + offset;
}

void file_store::read(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
                      void* destination) {
  read_exactly(fd_, destination, bytes, offset_of(channel, local_page, offset), file_);
}

void file_store::write(int channel, index_t local_page, std::size_t offset, std::size_t bytes,
                       const void* source) {
  const std::size_t at = offset_of(channel, local_page, offset);
  const auto* in = static_cast<const char*>(source);
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t n = ::pwrite(fd_, in + done, bytes - done, static_cast<off_t>(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw store_error("file_store: writing " + std::to_string(bytes) + " bytes at offset " +
                        std::to_string(at) + " of " + file_.string() +
                        " failed: " + (n == 0 ? std::string("nothing written") : reason(errno)));
    done += static_cast<std::size_t>(n);
  }
}

// Blocks of whole pages (about 4 MiB) read in file order on parallel threads; every block
// keeps at most max_per_channel matches per channel, in increasing order.
std::vector<index_t> file_store::find(const find_request& request) {
  const page_layout& l = layout();
  const index_t pages_per_block =
      std::max<index_t>(1, static_cast<index_t>((std::size_t{4} << 20) / l.page_bytes()));
  const index_t blocks = (l.pages + pages_per_block - 1) / pages_per_block;
  std::vector<std::vector<index_t>> found(static_cast<std::size_t>(blocks));
  detail::for_each_task(blocks, exec::threads_for(l.size), [&](index_t b) {
    const index_t first_page = b * pages_per_block;
    const index_t end_page = std::min(l.pages, first_page + pages_per_block);
    const index_t first = first_page * l.page_elements;
    const index_t end = std::min(l.size, end_page * l.page_elements);
    std::vector<std::byte> data(static_cast<std::size_t>(end - first) * l.element_bytes);
    // Whole pages of the plain image: one pread for the block.
    read_exactly(fd_, data.data(), data.size(), static_cast<std::size_t>(first) * l.element_bytes,
                 file_);
    auto& out = found[static_cast<std::size_t>(b)];
    for (index_t page = first_page; page < end_page; ++page) {
      std::vector<index_t> matches;
      detail::scan_elements(
          data.data() + static_cast<std::size_t>(page * l.page_elements - first) * l.element_bytes,
          l.elements_in(page), l.element_bytes, request, page * l.page_elements,
          request.max_per_channel, matches);
      out.insert(out.end(), matches.begin(), matches.end());
    }
  });
  std::vector<index_t> result;
  for (auto& part : found) result.insert(result.end(), part.begin(), part.end());
  detail::cap_per_channel(result, l, request.max_per_channel);  // already in file order
  return result;
}

}  // namespace funcmesh
