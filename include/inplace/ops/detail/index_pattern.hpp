#pragma once
// The index pattern of a view: how an element index of the view maps to an
// element of its root, as the sequence of view steps that changed the mapping.
// Two reads of one root have "the same index pattern" exactly when their
// normalised step sequences are equal (and neither went through a view of
// unknown mapping). Normalising drops steps that keep the mapping (x[0:], a
// reshape or flatten of the dense root, a reinterpret to a type of the same
// size, a transpose of a vector), cancels inverse pairs (transpose twice,
// reverse twice), and composes x[a:][b:] into x[a+b:] and reinterpret chains
// into one reinterpret.

#include <array>
#include <cstddef>
#include <cstdint>

namespace inplace::detail {

enum class step_kind : unsigned char { identity, transpose, reverse, slice, reshape, reinterpret, unknown };

struct step_code {
  step_kind kind = step_kind::identity;
  std::int64_t a = 0, b = 0, c = 0;  // slice: begin, end, step; reinterpret: from and to sizes; reshape: a hash
  friend constexpr bool operator==(const step_code&, const step_code&) = default;
};

constexpr std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}
constexpr step_code make_step(step_kind k, std::int64_t a = 0, std::int64_t b = 0, std::int64_t c = 0) {
  return {k, a, b, c};
}

struct index_pattern {
  static constexpr std::size_t capacity = 8;
  std::array<step_code, capacity> steps{};
  std::size_t size = 0;
  bool unknown = false;  // went through a view whose mapping nobody declared, or too many steps

  constexpr void append(step_code s) {
    if (s.kind == step_kind::identity) return;
    if (s.kind == step_kind::reshape && size == 0) return;  // flat order of a dense root is kept
    if (s.kind == step_kind::unknown) unknown = true;
    if (size > 0 && compose(steps[size - 1], s)) return;
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
      if (!(steps[i] == o.steps[i])) return false;
    return true;
  }

 private:
  static constexpr std::int64_t open_end = INT64_MAX;  // ip::end
  // Folds `next` into `last` (popping it when they cancel); false if they do not compose.
  constexpr bool compose(step_code& last, const step_code& next) {
    if (last.kind != next.kind) return false;
    switch (next.kind) {
      case step_kind::transpose:
      case step_kind::reverse:
        --size;
        return true;
      case step_kind::slice:  // x[a:][b:] == x[a+b:] for non-negative a, b
        if (last.a < 0 || next.a < 0 || last.b != open_end || next.b != open_end || last.c != 1 || next.c != 1)
          return false;
        last.a += next.a;
        return true;
      case step_kind::reinterpret:  // T -> U -> V is T -> V
        last.b = next.b;
        if (last.a == last.b) --size;
        return true;
      default:
        return false;
    }
  }
};

}  // namespace inplace::detail
