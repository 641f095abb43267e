// A 5x7 bitmap font for the digits, '.', '-', '+' and 'e': enough to label a colour bar
// with printf("%.4g") numbers without a font library. Internal.
#pragma once

#include <cstdint>
#include <string_view>

#include <funcmesh/io/png.hpp>

namespace funcmesh::io::detail {

inline constexpr int glyph_width = 5;
inline constexpr int glyph_height = 7;

// Draws `text` with its top-left corner at (x, y), each font pixel a scale x scale block,
// glyphs glyph_width + 1 font pixels apart. Characters without a glyph draw as blanks.
void draw_text(image& picture, int x, int y, std::string_view text, int scale, rgb colour);
inline int text_width(std::string_view text, int scale) {
  return static_cast<int>(text.size()) * (glyph_width + 1) * scale;
}

}  // namespace funcmesh::io::detail
