// The checks of a paged array's layout: every refusal names the values and the rule, and
// happens before any memory is taken.
#include <funcmesh/paged/page_layout.hpp>

#include <limits>
#include <string>

#include <funcmesh/core/error.hpp>

namespace funcmesh {

namespace {

std::string text(index_t value) { return std::to_string(value); }

// a * b in bytes, or paged_error naming `what` when it does not fit in size_t.
std::size_t checked_bytes(std::size_t a, std::size_t b, const std::string& what) {
  if (a != 0 && b > std::numeric_limits<std::size_t>::max() / a)
    throw paged_error("paged_array: " + what + " (" + std::to_string(a) + " x " +
                      std::to_string(b) + " bytes) overflows the byte count");
  return a * b;
}

}  // namespace

page_layout make_page_layout(index_t size, std::size_t element_bytes, index_t page_elements,
                             index_t cached_per_channel, int channels) {
  if (element_bytes == 0) throw paged_error("paged_array: elements of 0 bytes");
  if (page_elements <= 0)
    throw paged_error("paged_array: page size " + text(page_elements) +
                      ": a page must hold at least 1 element");
  if (size < 0) throw paged_error("paged_array: negative size " + text(size));
  if (channels <= 0)
    throw paged_error("paged_array: the store has " + text(channels) +
                      " channels; at least 1 is needed (every space or file disabled?)");
  if (cached_per_channel <= 0)
    throw paged_error("paged_array: " + text(cached_per_channel) +
                      " cached pages per channel; at least 1 is needed");

  page_layout layout;
  layout.size = size;
  layout.element_bytes = element_bytes;
  layout.page_elements = page_elements;
  layout.channels = channels;
  layout.cached_per_channel = cached_per_channel;
  // size / page rounded up, without forming size + page - 1 (which can overflow).
  layout.pages = size / page_elements + (size % page_elements != 0 ? 1 : 0);

  const std::size_t page_bytes =
      checked_bytes(static_cast<std::size_t>(page_elements), element_bytes,
                    "a page of " + text(page_elements) + " elements");
  checked_bytes(static_cast<std::size_t>(size), element_bytes,
                "an array of " + text(size) + " elements");
  checked_bytes(static_cast<std::size_t>(layout.pages), page_bytes,
                text(layout.pages) + " whole pages");
  const std::size_t cached_pages =
      checked_bytes(static_cast<std::size_t>(cached_per_channel),
                    static_cast<std::size_t>(channels), "the cached pages of all channels");
  checked_bytes(cached_pages, page_bytes, "the page caches");

  if (layout.pages < channels)
    throw paged_error("paged_array: " + text(size) + " elements in pages of " +
                      text(page_elements) + " make " + text(layout.pages) +
                      " pages, fewer pages than the store's " + text(channels) +
                      " channels (every channel needs a page: use smaller pages or fewer "
                      "channels)");
  if (cached_per_channel > layout.pages / channels)
    throw paged_error("paged_array: " + text(cached_per_channel) + " cached pages per channel on " +
                      text(channels) + " channels is more " + "cached pages than pages (" +
                      text(layout.pages) + " pages, " + text(layout.pages / channels) +
                      " on the smallest channel)");
  return layout;
}

}  // namespace funcmesh
