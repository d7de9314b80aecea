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

#include <array>
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
