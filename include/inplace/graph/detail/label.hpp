#pragma once
// A short, bounded text naming a node or a symbol in diagnostics: input names,
// op names and one level of arguments ("mul(add_inplace(...), x)"), never the
// nested expression type, whose printed size grows exponentially with depth.

#include <array>
#include <cstddef>
#include <string_view>

namespace inplace::detail {

struct label {
  static constexpr std::size_t capacity = 95;
  std::array<char, capacity + 1> text{};
  std::size_t size = 0;

  constexpr label& operator+=(std::string_view s) {
    for (char c : s)
      if (size < capacity) text[size++] = c;
    return *this;
  }
  constexpr label& operator+=(std::size_t n) {
    char digits[20]{};
    std::size_t k = 0;
    do digits[k++] = static_cast<char>('0' + n % 10);
    while ((n /= 10) != 0);
    while (k > 0) *this += std::string_view{&digits[--k], 1};
    return *this;
  }
  constexpr std::string_view view() const { return {text.data(), size}; }
};

}  // namespace inplace::detail
