#pragma once
// cat(parts...): one string from text and numbers, appended left to right.
// (g++ 12 at -O3 warns -Wrestrict, falsely, inside `"literal" + std::string`.)

#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>

namespace inplace::detail::run {

inline void cat_part(std::string& s, std::string_view p) { s.append(p.data(), p.size()); }
template <std::integral N>
void cat_part(std::string& s, N n) {
  s.append(std::to_string(n));
}
template <class... P>
std::string cat(const P&... parts) {
  std::string s;
  (cat_part(s, parts), ...);
  return s;
}

}  // namespace inplace::detail::run
