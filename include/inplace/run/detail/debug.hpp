#pragma once
// Debug mode's checks of one node against its maps, on the values of a run
// (slots: address, extents, strides), without knowing their types: elements
// are compared as bytes.
//   - an input outside the node's destroy_map is unchanged by the node;
//   - a view output lies inside the storage of the input its view_map lists;
//   - any other output lies outside the storage of every input.
// A violation throws ip::debug_error naming the node and the input or output.

#include "inplace/error.hpp"
#include "inplace/graph/detail/analysis.hpp"
#include "inplace/run/detail/text.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"

#include <algorithm>
#include <array>
#include <cfenv>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace inplace::detail::run {

// The bytes a value touches: the tensor layer's byte range (tx_bytes_of), for a
// value known only by its slot and element size.
using byte_span = tx_byte_range;
inline bool inside(const byte_span& a, const byte_span& b) {
  return a.first == a.last || (b.first <= a.first && a.last <= b.last);
}

template <class Slot>
byte_span span_of(const Slot& s, std::size_t rank, std::size_t elem) {
  std::ptrdiff_t lo = 0, hi = 0;
  for (std::size_t i = 0; i < rank; ++i) {
    if (s.e[i] == 0) return {};
    const std::ptrdiff_t d = static_cast<std::ptrdiff_t>(s.e[i] - 1) * s.s[i];
    (d < 0 ? lo : hi) += d;
  }
  const auto* base = static_cast<const unsigned char*>(s.p);
  const auto size = static_cast<std::ptrdiff_t>(elem);
  return {base + lo * size, base + (hi + 1) * size};
}

// The elements of a value, row-major, as bytes.
template <class Slot>
std::vector<unsigned char> elements_of(const Slot& s, std::size_t rank, std::size_t elem) {
  std::size_t n = 1;
  for (std::size_t i = 0; i < rank; ++i) n *= s.e[i];
  std::vector<unsigned char> out(n * elem);
  std::array<std::size_t, max_rank> idx{};
  for (std::size_t k = 0; k < n; ++k) {
    std::ptrdiff_t off = 0;
    for (std::size_t i = 0; i < rank; ++i) off += static_cast<std::ptrdiff_t>(idx[i]) * s.s[i];
    std::memcpy(out.data() + k * elem, static_cast<const unsigned char*>(s.p) + off * static_cast<std::ptrdiff_t>(elem),
                elem);
    for (std::size_t i = rank; i-- > 0;) {
      if (++idx[i] < s.e[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

// Element k (row-major) of a strided view.
template <class V>
auto element_at(const V& v, std::size_t k) {
  std::ptrdiff_t off = 0;
  for (std::size_t i = V::rank; i-- > 0;) {
    off += static_cast<std::ptrdiff_t>(k % v.extent(i)) * v.stride(i);
    k /= v.extent(i);
  }
  return v.data()[off];
}
template <class V>
std::string element_string(const V& v, std::size_t k) {
  const auto x = element_at(v, k);
  if constexpr (std::is_floating_point_v<decltype(x)>)
    if (std::isnan(x)) return "nan";  // (whatever its sign bit: "-nan" is no other value)
  std::ostringstream os;
  os.precision(std::numeric_limits<decltype(x)>::max_digits10);
  os << +x;
  return os.str();
}

// Equal; or, for floating point, within a relative 1e-5 (float) or 1e-12
// (double), or an absolute 1e-3 of that (a fused loop may round, or contract
// a * b + c, differently from single ones). Infinities only equal themselves;
// NaN equals NaN.
template <class T>
bool close_enough(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (x == y || (std::isnan(x) && std::isnan(y))) return true;
    if (std::isinf(x) || std::isinf(y) || std::isnan(x) || std::isnan(y)) return false;
    const T tol = sizeof(T) <= 4 ? T(1e-5) : T(1e-12);
    const T d = std::fabs(x - y);
    return d <= tol * std::fmax(std::fabs(x), std::fabs(y)) || d <= tol * T(1e-3);
  } else {
    return x == y;
  }
}

// The first element (row-major) where two views of the same extents differ; `none`: none.
template <class A, class B>
std::size_t first_difference(const A& a, const B& b) {
  std::size_t n = 1;
  for (std::size_t i = 0; i < A::rank; ++i) n *= a.extent(i);
  for (std::size_t k = 0; k < n; ++k)
    if (!close_enough(element_at(a, k), element_at(b, k))) return k;
  return static_cast<std::size_t>(-1);
}

// ---- tolerating what a correct program may round differently --------------------
// A compiler may contract a * b + c into one FMA, a fused loop keeps a value
// in a register instead of rounding it to its dtype, a kernel sums in another
// order: the call's result then differs from the reference by rounding errors
// of the terms, which cancellation can make large against the result itself.
// Debug mode measures that sensitivity on the program itself: the reference
// runs again with every operation rounded upward, and downward (the current
// thread's rounding mode; libm and the SIMD kernels follow it), each node's
// result moved by bracket_ulps (below). Each rounding
// error then moves the result in one direction, so the two results spread at
// least as far as any reordering or contraction of the same operations would
// (a sum of n terms: n rounding errors of the running sums, where a reordered
// sum makes about sqrt(n) of either sign). A result within 4 spreads of the
// reference, or between the two brackets, is the reference up to rounding.

// Rounding modes do not reach everything: a kernel may compute in another
// precision and round once, libm and the SIMD kernels implement exp or tanh
// differently (an ulp or two apart, and rounding modes move them differently).
// So the bracket runs also move every node's floating result by `ulps` units
// in the last place of its dtype (up in the upward run, down in the downward
// one): an error of every intermediate in its own precision, which the graph
// then carries to the outputs as it carries the values themselves (scaled by
// the magnitude of the terms and by each op's derivative, not by the result).
inline constexpr int bracket_ulps = 2;

template <class V>
void nudge(const V& v, int ulps) {
  using T = typename V::value_type;
  if constexpr (std::is_floating_point_v<T>) {
    const T to = ulps > 0 ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    const int n = ulps > 0 ? ulps : -ulps;
    std::size_t count = 1;
    for (std::size_t i = 0; i < V::rank; ++i) count *= v.extent(i);
    for (std::size_t k = 0; k < count; ++k) {
      std::ptrdiff_t off = 0;
      for (std::size_t i = V::rank, r = k; i-- > 0;) {
        off += static_cast<std::ptrdiff_t>(r % v.extent(i)) * v.stride(i);
        r /= v.extent(i);
      }
      T& e = v.data()[off];
      for (int j = 0; j < n; ++j) e = std::nextafter(e, to);
    }
  }
}

// Sets the thread's rounding mode for its lifetime (FE_UPWARD, FE_DOWNWARD).
class rounding_mode {
 public:
  explicit rounding_mode(int mode) : old_(std::fegetround()) { std::fesetround(mode); }
  ~rounding_mode() { std::fesetround(old_); }
  rounding_mode(const rounding_mode&) = delete;
  rounding_mode& operator=(const rounding_mode&) = delete;

 private:
  int old_;
};

// Whether `got` is the reference `ref` up to rounding, given the reference
// rounded upward (`up`) and downward (`down`). Integers (a conversion of a
// rounded float) may lie between the brackets too.
template <class T>
bool within_rounding(T got, T ref, T up, T down) {
  const T lo = std::min({ref, up, down}), hi = std::max({ref, up, down});
  if (lo <= got && got <= hi) return true;
  if constexpr (std::is_floating_point_v<T>) {
    if (close_enough(got, ref) || close_enough(got, up) || close_enough(got, down)) return true;
    if (!std::isfinite(got) || !std::isfinite(ref)) return false;
    long double spread = 0;
    for (const T b : {up, down})
      if (std::isfinite(b)) spread = std::max(spread, std::fabs(static_cast<long double>(b) - ref));
    return std::fabs(static_cast<long double>(got) - ref) <= 4 * spread;
  } else {
    return false;
  }
}

// The first element (row-major) where `got` is not the reference `ref` up to
// rounding (see within_rounding); `none`: none.
template <class A, class B, class C, class D>
std::size_t first_difference(const A& got, const B& ref, const C& up, const D& down) {
  std::size_t n = 1;
  for (std::size_t i = 0; i < A::rank; ++i) n *= got.extent(i);
  for (std::size_t k = 0; k < n; ++k)
    if (!within_rounding(element_at(got, k), element_at(ref, k), element_at(up, k), element_at(down, k))) return k;
  return static_cast<std::size_t>(-1);
}

// The first element (row-major) of a view that is NaN or infinite; `none`: none.
template <class V>
std::size_t first_nonfinite(const V& v) {
  if constexpr (std::is_floating_point_v<typename V::value_type>) {
    std::size_t n = 1;
    for (std::size_t i = 0; i < V::rank; ++i) n *= v.extent(i);
    for (std::size_t k = 0; k < n; ++k)
      if (!std::isfinite(element_at(v, k))) return k;
  }
  return static_cast<std::size_t>(-1);
}

[[noreturn, gnu::cold]] inline void throw_debug(std::string_view node, const std::string& what) {
  throw debug_error(cat("inplace: debug_error: ", node, ": ", what));
}

// Snapshots of a node's inputs taken before it runs; compared after.
template <class G, class Slots>
class node_check {
 public:
  // elem[v]: the element size of value v. snapshot: keep the inputs' elements
  // (for after()); without, only their extents in memory (for check_outside()).
  template <class Sizes>
  node_check(const G& g, const Slots& slots, std::size_t e, const Sizes& elem, bool snapshot = true)
      : g_(g), slots_(slots), e_(e) {
    const auto& ent = g.entries[e];
    std::uint32_t destroyed = 0;
    for (std::size_t o = 0; o < ent.info.num_outputs; ++o) destroyed |= ent.info.destroys[o];
    for (std::size_t j = 0; j < ent.num_args; ++j) {
      const std::size_t a = g.arg(e, j);
      size_[j] = elem[a];
      if (size_[j] == 0) continue;
      span_[j] = span_of(slots[a], rank(a), size_[j]);
      if (snapshot && !(destroyed >> j & 1u)) before_[j] = elements_of(slots[a], rank(a), size_[j]), kept_[j] = true;
    }
  }

  // After the node ran: its inputs and outputs against its maps.
  template <class Sizes>
  void after(const Sizes& elem) const {
    const auto& ent = g_.entries[e_];
    for (std::size_t j = 0; j < ent.num_args; ++j) {
      const std::size_t a = g_.arg(e_, j);
      if (kept_[j] && elements_of(slots_[a], rank(a), size_[j]) != before_[j])
        throw_debug(node(), cat("changed input ", j, " (", value(a), "), which its destroy_map does not list"));
    }
    for (std::size_t o = 0; o < ent.info.num_outputs; ++o) {
      const std::size_t v = ent.first_value + o;
      const byte_span out = span_of(slots_[v], rank(v), elem[v]);
      const int viewed = ent.info.view_of[o];
      if (viewed >= 0) {
        if (!inside(out, span_[static_cast<std::size_t>(viewed)]))
          throw_debug(node(), cat("output ", o, " is declared a view of input ", viewed, " (",
                                  value(g_.arg(e_, static_cast<std::size_t>(viewed))),
                                  ") but lies outside that input's storage"));
        continue;
      }
      check_outside(o, out);
    }
  }
  // An output that is not a view must not share memory with any input (the
  // storage a destroy_map output is computed in is a copy in the reference).
  void check_outside(std::size_t o, const byte_span& out) const {
    const auto& ent = g_.entries[e_];
    for (std::size_t j = 0; j < ent.num_args; ++j)
      if (size_[j] != 0 && out.overlaps(span_[j]))
        throw_debug(node(), cat("output ", o, " shares memory with input ", j, " (", value(g_.arg(e_, j)),
                                "), which its view_map does not list"));
  }
  std::string node() const { return std::string(entry_label(g_, e_).view()); }

 private:
  const G& g_;
  const Slots& slots_;
  std::size_t e_;
  std::array<std::vector<unsigned char>, max_args> before_{};
  std::array<byte_span, max_args> span_{};
  std::array<std::size_t, max_args> size_{};
  std::array<bool, max_args> kept_{};

  std::size_t rank(std::size_t v) const { return g_.values[v].value_shape.rank; }
  std::string value(std::size_t v) const { return std::string(value_label(g_, v).view()); }
};

}  // namespace inplace::detail::run
