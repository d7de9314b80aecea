#pragma once
// ip::shape: what the analysis knows of a value's extents while the program
// compiles: its rank and, per axis, a static extent or ip::dynamic. Opaque ops
// state their output-shape rule as a constexpr function over these.

#include "inplace/extents.hpp"

#include <array>
#include <cstddef>

namespace inplace {

struct shape {
  std::size_t rank = 0;
  std::array<std::size_t, max_rank> extent{dynamic, dynamic, dynamic, dynamic,
                                           dynamic, dynamic, dynamic, dynamic};

  constexpr bool is_static() const {
    for (std::size_t i = 0; i < rank; ++i)
      if (extent[i] == dynamic) return false;
    return true;
  }
  // Number of elements when every extent is static, else ip::dynamic.
  constexpr std::size_t size() const {
    std::size_t n = 1;
    for (std::size_t i = 0; i < rank; ++i) {
      if (extent[i] == dynamic) return dynamic;
      n *= extent[i];
    }
    return n;
  }
  // (extents past the rank do not count: shape{2, {3, 4}} leaves them 0)
  friend constexpr bool operator==(const shape& a, const shape& b) {
    if (a.rank != b.rank) return false;
    for (std::size_t i = 0; i < a.rank && i < max_rank; ++i)  // (rank ip::dynamic: no shape at all)
      if (a.extent[i] != b.extent[i]) return false;
    return true;
  }
};

namespace detail {

template <auto R>
constexpr shape shape_of_spec() {
  return shape{rank_of<R>(), static_extents_of<R>()};
}

// NumPy broadcasting of two shapes as far as the static extents tell.
// `ok` is false when two static extents conflict (neither is 1).
struct broadcast_result {
  shape result;
  bool ok = true;
};
constexpr broadcast_result broadcast(const shape& a, const shape& b) {
  broadcast_result r;
  r.result.rank = a.rank > b.rank ? a.rank : b.rank;
  for (std::size_t k = 0; k < r.result.rank; ++k) {  // k counts axes from the right
    const std::size_t ea = k < a.rank ? a.extent[a.rank - 1 - k] : 1;
    const std::size_t eb = k < b.rank ? b.extent[b.rank - 1 - k] : 1;
    std::size_t e = dynamic;
    if (ea == eb) e = ea;
    else if (ea == 1) e = eb;
    else if (eb == 1) e = ea;
    else if (ea == dynamic) e = eb;
    else if (eb == dynamic) e = ea;
    else r.ok = false;
    r.result.extent[r.result.rank - 1 - k] = e;
  }
  return r;
}

// True when reading `in` at the index of a loop over `out` is not the identity
// index map: `in` has fewer axes, or a static extent 1 stretched over a longer axis.
constexpr bool is_broadcast_read(const shape& in, const shape& out) {
  if (in.rank < out.rank) return true;
  for (std::size_t i = 0; i < in.rank; ++i)
    if (in.extent[i] == 1 && out.extent[i] != 1) return true;
  return false;
}

// Can a value of shape `dst` hold a result of shape `res` in place?
// False when the static information proves otherwise (it would have to grow).
constexpr bool fits_in_place(const shape& dst, const shape& res) {
  if (dst.rank != res.rank) return false;
  for (std::size_t i = 0; i < res.rank; ++i)
    if (dst.extent[i] != dynamic && res.extent[i] != dynamic && dst.extent[i] != res.extent[i]) return false;
  for (std::size_t i = 0; i < res.rank; ++i)  // a static 1 stretched to a longer axis
    if (dst.extent[i] == 1 && res.extent[i] != 1) return false;
  return true;
}

// Can a value of shape `dst` hold a result of shape `res` in place in some call?
// False only when the static extents prove it cannot (ip::check's shape_mismatch);
// the call checks the rest (ip::shape_error). fits_in_place is the rewrite's
// question: does it fit in every call.
constexpr bool may_fit_in_place(const shape& dst, const shape& res) {
  if (dst.rank != res.rank) return false;
  for (std::size_t i = 0; i < res.rank; ++i)
    if (dst.extent[i] != dynamic && res.extent[i] != dynamic && dst.extent[i] != res.extent[i]) return false;
  return true;
}

}  // namespace detail
}  // namespace inplace
