#include "bitmap_font.hpp"

#include <array>

namespace funcmesh::io::detail {

namespace {

// Rows top to bottom, bit 4 the leftmost column.
using glyph = std::array<std::uint8_t, glyph_height>;

const glyph* glyph_of(char c) {
  static constexpr glyph digits[10] = {
      {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}, {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
      {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}, {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
      {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}, {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
      {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
      {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}, {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}};
  static constexpr glyph dot{0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C};
  static constexpr glyph minus{0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00};
  static constexpr glyph plus{0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00};
  static constexpr glyph e{0x00, 0x00, 0x0E, 0x11, 0x1F, 0x10, 0x0E};
  if (c >= '0' && c <= '9') return &digits[c - '0'];
  switch (c) {
    case '.':
      return &dot;
    case '-':
      return &minus;
    case '+':
      return &plus;
    case 'e':
    case 'E':
      return &e;
    default:
      return nullptr;
  }
}

}  // namespace

void draw_text(image& picture, int x, int y, std::string_view text, int scale, rgb colour) {
  for (char c : text) {
    if (const glyph* g = glyph_of(c)) {
      for (int row = 0; row < glyph_height; ++row) {
        for (int column = 0; column < glyph_width; ++column) {
          if (((*g)[static_cast<std::size_t>(row)] >> (glyph_width - 1 - column) & 1) == 0)
            continue;
          for (int dy = 0; dy < scale; ++dy) {
            for (int dx = 0; dx < scale; ++dx) {
              const int px = x + column * scale + dx, py = y + row * scale + dy;
              if (px >= 0 && py >= 0 && px < picture.width && py < picture.height) {
                picture.set(px, py, colour);
              }
            }
          }
        }
      }
    }
    x += (glyph_width + 1) * scale;
  }
}

}  // namespace funcmesh::io::detail
