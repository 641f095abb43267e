// page_layout: where every element of a paged array lives. Page p holds elements
// [p * page, (p + 1) * page) and lives on channel p % channels at local page
// p / channels (the seed's rule); the last page may be short.
#pragma once

#include <cstddef>

#include <funcmesh/core/index.hpp>

namespace funcmesh {

struct page_layout {
  index_t size = 0;  // elements
  std::size_t element_bytes = 0;
  index_t page_elements = 0;
  index_t pages = 0;
  int channels = 0;
  index_t cached_per_channel = 0;

  std::size_t page_bytes() const { return static_cast<std::size_t>(page_elements) * element_bytes; }
  index_t page_of_element(index_t i) const { return i / page_elements; }
  int channel_of(index_t page) const { return static_cast<int>(page % channels); }
  index_t local_page_of(index_t page) const { return page / channels; }
  index_t page_of(int channel, index_t local_page) const { return local_page * channels + channel; }
  // Pages that channel c holds: those p < pages with p % channels == c.
  index_t pages_on(int channel) const { return (pages - channel + channels - 1) / channels; }
  // Elements of page p: page_elements, except for a short last page.
  index_t elements_in(index_t page) const {
    return page + 1 < pages ? page_elements : size - page * page_elements;
  }
  std::size_t bytes_in(index_t page) const {
    return static_cast<std::size_t>(elements_in(page)) * element_bytes;
  }
  // Room a store reserves for channel c: whole pages (a short last page takes a full one).
  std::size_t channel_bytes(int channel) const {
    return static_cast<std::size_t>(pages_on(channel)) * page_bytes();
  }
  bool short_last_page() const { return size % page_elements != 0; }
};

// Checks every rule and returns the layout; throws paged_error naming the values when
// the page size is 0, a size or cached count is negative or 0, the byte count of the
// array, a page or the caches overflows, there are fewer pages than channels (a channel
// would be empty), or more cached pages than pages.
page_layout make_page_layout(index_t size, std::size_t element_bytes, index_t page_elements,
                             index_t cached_per_channel, int channels);

}  // namespace funcmesh
