#pragma once
// The index pattern of a view: how an element index of the view maps to an
// element of its root, as the sequence of view steps that changed the mapping.
// Two reads of one root have "the same index pattern" exactly when their step
// sequences are equal (and neither went through a view of unknown mapping).
// Steps that keep the mapping are dropped (a prefix slice, a reshape or flatten
// of the dense root, a reinterpret to a type of the same size, a transpose of a
// vector) and inverse pairs cancel (transpose twice, reverse twice).

#include <array>
#include <cstddef>
#include <cstdint>

namespace inplace::detail {

enum class step_kind : std::uint64_t { identity = 0, transpose, reverse, slice, reshape, reinterpret, unknown };

using step_code = std::uint64_t;

constexpr step_code mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}
constexpr step_code make_step(step_kind k, std::uint64_t params = 0) {
  return (params << 3) | static_cast<std::uint64_t>(k);
}
constexpr step_kind kind_of(step_code s) { return static_cast<step_kind>(s & 7u); }

struct index_pattern {
  static constexpr std::size_t capacity = 8;
  std::array<step_code, capacity> steps{};
  std::size_t size = 0;
  bool unknown = false;  // went through a view whose mapping nobody declared, or too many steps

  constexpr void append(step_code s) {
    const step_kind k = kind_of(s);
    if (k == step_kind::identity) return;
    if (k == step_kind::reshape && size == 0) return;  // flat order of a dense root is kept
    if (k == step_kind::unknown) unknown = true;
    if ((k == step_kind::transpose || k == step_kind::reverse) && size > 0 && steps[size - 1] == s) {
      --size;  // the step undoes the previous one
      return;
    }
    if (size == capacity) {
      unknown = true;
      return;
    }
    steps[size++] = s;
  }
  constexpr bool is_identity() const { return size == 0 && !unknown; }
  constexpr bool same_as(const index_pattern& o) const {
    if (unknown || o.unknown || size != o.size) return false;
    for (std::size_t i = 0; i < size; ++i)
      if (steps[i] != o.steps[i]) return false;
    return true;
  }
};

}  // namespace inplace::detail
