#pragma once
// Assignment of a tensor expression into a destination view: the entry point
// of every `dst = expr` (tensors, views, ip::noalias) and of the graph runtime.
//
//   inplace::detail::assign(dst, src, mode = assign_mode::checked)
//     dst:  a tensor_view<T, R> with mutable T (tensor.view(), a slice, ...)
//     src:  a tensor, a view, a run-time scalar, or an expression node built
//           with detail::texpr::make(op, operands...) / ip::apply(op, operands...)
//     mode: checked (overlap -> through a temporary), noalias (overlap -> throw),
//           in_place (overlap -> throw, naming the in-place op `op`), or fresh:
//           dst is memory just allocated, which no operand can reach, so step 3
//           is skipped (a new tensor's storage, a call's new buffer)
//
// In order, before anything is written:
//  1. src's extents must broadcast to dst's, else ip::shape_error naming both;
//  2. dst must not overlap itself (a stride-0 or interleaved view), else
//     ip::aliasing_error;
//  3. every leaf that reads dst's own elements with dst's index pattern (same
//     address, same byte strides, no broadcast) is safe and not checked further;
//     every other leaf (transposed, shifted, reversed, broadcast, reinterpreted
//     with another element size) is checked against dst: by address range,
//     then, where the ranges meet, element by element (disjoint_elements).
//     An overlap sends the assignment through a temporary (checked) or throws
//     ip::aliasing_error (noalias, in_place).
// Then the expression is evaluated in one fused loop nest straight into dst.

#include "inplace/tensor/aligned_allocator.hpp"
#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/tensor/detail/texpr_kernel.hpp"
#include "inplace/tensor/detail/texpr_loop.hpp"
#include "inplace/tensor/detail/texpr_node.hpp"
#include "inplace/error.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <numeric>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

enum class assign_mode { checked, noalias, in_place, fresh };

namespace texpr {

template <class X, class F>
void for_each_leaf(const X& x, F&& f) {
  if constexpr (is_node<X>::value) std::apply([&](const auto&... a) { (for_each_leaf(a, f), ...); }, x.args);
  else if constexpr (view_like<X> || tensor_like<X>) f(x);
}

// Does `leaf` read the elements of d (extents e, strides s) with d's index pattern?
template <class T, std::size_t N, class Leaf>
bool same_pattern(const T* d, const tx_extents<N>& e, const tx_strides<N>& s, const Leaf& leaf) {
  using V = value_t<Leaf>;
  constexpr std::size_t M = rank_v<Leaf>;
  if constexpr (sizeof(V) != sizeof(T) || M > N) return false;
  else {
    if (static_cast<const void*>(leaf.data()) != static_cast<const void*>(d)) return false;
    const auto le = leaf.extents();
    const auto ls = leaf.strides();
    for (std::size_t k = 0; k < N; ++k) {
      if (e[k] == 1) continue;
      if (k < N - M || le[k - (N - M)] != e[k] || ls[k - (N - M)] != s[k]) return false;
    }
    return true;
  }
}

// A view whose elements do not all have distinct addresses (NumPy's internal
// overlap). Quick sufficient test first: with the axes ordered by |stride|, each
// stride beyond the farthest offset the smaller ones reach. Layouts it cannot
// clear (interleaved strides, rare) are decided exactly by listing the offsets;
// past 2^22 elements they are reported as overlapping (conservative).
template <std::size_t N>
bool has_internal_overlap(const tx_extents<N>& e, const tx_strides<N>& s) {
  std::array<std::ptrdiff_t, N> step{};
  std::array<std::size_t, N> len{};
  std::size_t m = 0;
  for (std::size_t a = 0; a < N; ++a) {
    if (e[a] == 0) return false;
    if (e[a] > 1) {
      step[m] = s[a] < 0 ? -s[a] : s[a];
      len[m++] = e[a];
    }
  }
  for (std::size_t i = 1; i < m; ++i)
    for (std::size_t j = i; j > 0 && step[j - 1] > step[j]; --j) {
      std::swap(step[j - 1], step[j]);
      std::swap(len[j - 1], len[j]);
    }
  std::ptrdiff_t reach = 0;  // the farthest offset the axes so far reach
  std::size_t i = 0;
  for (; i < m && step[i] > reach; ++i) reach += step[i] * static_cast<std::ptrdiff_t>(len[i] - 1);
  if (i == m) return false;
  if (step[0] == 0) return true;  // a broadcast axis
  std::size_t count = 1;
  for (std::size_t k = 0; k < m; ++k) count *= len[k];
  if (count > (std::size_t{1} << 22)) return true;
  std::vector<std::ptrdiff_t> offsets{0};
  offsets.reserve(count);
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t before = offsets.size();
    for (std::size_t r = 1; r < len[k]; ++r)
      for (std::size_t q = 0; q < before; ++q) offsets.push_back(offsets[q] + static_cast<std::ptrdiff_t>(r) * step[k]);
  }
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end();
}

// Whether two strided views of elements of one size provably share no element:
// is there an index i of a and j of b with  a + sum sa_k i_k == b + sum sb_k j_k ?
// Decided exactly (so two different rows, the even and the odd columns, two
// blocks side by side need no temporary), by a search over the axes from the
// largest stride down, each axis taking only the values the smaller ones can
// still make up; axes of equal stride are merged into one difference first.
// Past a budget of steps it answers "may share" (conservative).
inline bool disjoint_elements(std::ptrdiff_t delta, std::array<std::ptrdiff_t, 2 * max_rank> c,
                              std::array<std::ptrdiff_t, 2 * max_rank> lo, std::array<std::ptrdiff_t, 2 * max_rank> hi,
                              std::size_t n) {
  // c[v] * x[v] summed over v, x[v] in [lo[v], hi[v]], must equal delta; c[v] > 0
  for (std::size_t i = 0; i < n; ++i)  // merge equal strides, sort by stride, largest first
    for (std::size_t j = i + 1; j < n; ++j)
      if (c[j] == c[i]) {
        lo[i] += lo[j], hi[i] += hi[j];
        c[j] = c[n - 1], lo[j] = lo[n - 1], hi[j] = hi[n - 1];
        --n, --j;
      }
  for (std::size_t i = 1; i < n; ++i)
    for (std::size_t j = i; j > 0 && c[j - 1] < c[j]; --j) std::swap(c[j - 1], c[j]), std::swap(lo[j - 1], lo[j]), std::swap(hi[j - 1], hi[j]);
  std::ptrdiff_t g = 0;
  for (std::size_t i = 0; i < n; ++i) g = std::gcd(g, c[i]);
  if (g == 0) return delta != 0;
  if (delta % g != 0) return true;
  std::array<std::ptrdiff_t, 2 * max_rank + 1> rest_lo{}, rest_hi{};  // what axes v.. can still make
  for (std::size_t v = n; v-- > 0;) rest_lo[v] = rest_lo[v + 1] + c[v] * lo[v], rest_hi[v] = rest_hi[v + 1] + c[v] * hi[v];
  std::size_t budget = std::size_t{1} << 16;
  bool found = false, gave_up = false;
  auto search = [&](auto& self, std::size_t v, std::ptrdiff_t left) -> void {
    if (found || gave_up) return;
    if (budget-- == 0) return void(gave_up = true);
    if (v == n) return void(found = left == 0);
    if (left < rest_lo[v] || left > rest_hi[v]) return;
    // c[v] * x in [left - rest_hi[v + 1], left - rest_lo[v + 1]]
    const std::ptrdiff_t a = left - rest_hi[v + 1], b = left - rest_lo[v + 1];
    std::ptrdiff_t x0 = a >= 0 ? (a + c[v] - 1) / c[v] : -((-a) / c[v]);
    std::ptrdiff_t x1 = b >= 0 ? b / c[v] : -((-b + c[v] - 1) / c[v]);
    x0 = std::max(x0, lo[v]);
    x1 = std::min(x1, hi[v]);
    for (std::ptrdiff_t x = x0; x <= x1 && !found && !gave_up; ++x) self(self, v + 1, left - c[v] * x);
  };
  search(search, 0, delta);
  return !found && !gave_up;
}

template <class T, std::size_t N, class Leaf>
bool disjoint_from(const T* d, const tx_extents<N>& e, const tx_strides<N>& s, const Leaf& leaf) {
  using V = value_t<Leaf>;
  constexpr std::size_t M = rank_v<Leaf>;
  const auto* pd = reinterpret_cast<const unsigned char*>(d);
  const auto* pl = reinterpret_cast<const unsigned char*>(leaf.data());
  const std::ptrdiff_t bytes = pl - pd;
  if (sizeof(V) != sizeof(T) || bytes % static_cast<std::ptrdiff_t>(sizeof(T)) != 0) return false;
  std::array<std::ptrdiff_t, 2 * max_rank> c{}, lo{}, hi{};
  std::size_t n = 0;
  auto add = [&](std::ptrdiff_t stride, std::size_t extent, bool neg) {  // an axis of b, or (neg) of a
    if (extent <= 1 || stride == 0) return;
    const auto top = static_cast<std::ptrdiff_t>(extent - 1);
    const bool flip = (stride < 0) != neg;  // the term is -|stride| * x: use x' = -x
    c[n] = stride < 0 ? -stride : stride;
    lo[n] = flip ? -top : 0;
    hi[n] = flip ? 0 : top;
    ++n;
  };
  // leaf element j is d's element i when  sum s_k i_k - sum ls_k j_k == bytes / sizeof(T)
  const auto le = leaf.extents();
  const auto ls = leaf.strides();
  for (std::size_t k = 0; k < N; ++k) add(s[k], e[k], false);
  for (std::size_t k = 0; k < M; ++k) add(ls[k], le[k], true);
  return disjoint_elements(bytes / static_cast<std::ptrdiff_t>(sizeof(T)), c, lo, hi, n);
}

template <std::size_t M, std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_cannot_assign(const tx_extents<M>& se, const tx_extents<N>& e) {
  throw shape_error("inplace: shape_error: cannot assign extents " + tx_shape_string(se) +
                    " to a destination of extents " + tx_shape_string(e));
}
// One loop writing results of different extents (a graph's fused loop whose values
// are broadcast against each other in this call).
template <std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_loop_extents(const tx_extents<N>& a, const tx_extents<N>& b) {
  throw shape_error("inplace: shape_error: one fused loop cannot write results of extents " + tx_shape_string(a) +
                    " and " + tx_shape_string(b) + " (one is broadcast against the other in this call)");
}
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_no_element() {
  throw shape_error("inplace: shape_error: a rank-0 view without storage (default-constructed, or of a moved-from "
                    "tensor) has no element to write");
}
template <std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_internal_overlap(const tx_extents<N>& e, const tx_strides<N>& s) {
  throw aliasing_error("inplace: aliasing_error: the destination (extents " + tx_shape_string(e) + ", strides " +
                       tx_shape_string(s) + ") has internal overlap and cannot be written");
}
template <std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_noalias(const tx_extents<N>& e, std::string_view op) {
  if (op.empty())
    throw aliasing_error("inplace: aliasing_error: ip::noalias destination of extents " + tx_shape_string(e) +
                         " overlaps an operand read with another index pattern (transposed, shifted, reversed "
                         "or broadcast); drop ip::noalias to evaluate through a temporary");
  throw aliasing_error("inplace: aliasing_error: " + std::string(op) + ": an operand overlaps the destroyed operand (extents " +
                       tx_shape_string(e) + ") with another index pattern (transposed, shifted, reversed or "
                       "broadcast); an in-place op never copies: assign the pure expression instead (x = ...)");
}

// The flat path (TVM's flattening, decided without building a loop nest): when
// the destination and every leaf are contiguous with the same extents, the
// assignment is one row. flat_row builds the row's kernel and, in the same walk,
// clears `flat` for a leaf that does not qualify and sets `hazard` for a flat
// leaf overlapping the destination at another address or with another element
// size (a flat leaf at the destination's address reads it with its pattern).
struct flat_scan {
  const unsigned char* first;  // the destination's bytes [first, last)
  const unsigned char* last;
  std::size_t size;   // its element size
  std::size_t count;  // its element count
  bool flat = true;
  bool hazard = false;
};
// Always inlined and without std::apply's lambdas, so that the row and the flags
// stay in registers: this walk is all the per-assignment cost of the flat path.
template <std::size_t N, class X>
[[gnu::always_inline]] inline auto flat_row(const X& x, const tx_extents<N>& e, flat_scan& f);
template <std::size_t N, class X, std::size_t... I>
[[gnu::always_inline]] inline auto flat_node(const X& x, const tx_extents<N>& e, flat_scan& f,
                                             std::index_sequence<I...>) {
  using K = knode<decltype(x.op), decltype(flat_row(std::get<I>(x.args), e, f))...>;
  return K{x.op, {flat_row(std::get<I>(x.args), e, f)...}};
}
template <std::size_t N, class X>
[[gnu::always_inline]] inline auto flat_row(const X& x, const tx_extents<N>& e, flat_scan& f) {
  if constexpr (is_node<X>::value) {
    return flat_node(x, e, f, std::make_index_sequence<std::tuple_size_v<decltype(x.args)>>{});
  } else if constexpr (view_like<X> || tensor_like<X>) {
    using V = value_t<X>;
    if constexpr (rank_v<X> != N) f.flat = false;
    else {
      const auto& xe = x.extents();
      bool same = true;
      for (std::size_t i = 0; i < N; ++i) same = same && xe[i] == e[i];
      f.flat = f.flat && same && tx_is_contiguous(xe, x.strides());
      const auto* p = reinterpret_cast<const unsigned char*>(x.data());
      if (p != f.first || sizeof(V) != f.size)
        f.hazard = f.hazard || (p < f.last && f.first < p + f.count * sizeof(V));
    }
    return row_cursor<V>{x.data(), 1};
  } else {
    return x;  // scalar_leaf
  }
}

// Expressions holding a tensor (moved in) go to the general path by reference,
// all others by value (see assign_nest).
template <class X>
struct owns_tensor : std::bool_constant<tensor_like<X>> {};
template <class Op, class... A>
struct owns_tensor<elementwise<Op, A...>> : std::bool_constant<(owns_tensor<A>::value || ...)> {};

// The general path: any strides, broadcasting, hazards. Out of line and given
// the expression by value: a reference would let the expression's address
// escape, and the caller could no longer keep it in registers on the flat path.
template <class T, std::size_t N, class S>
[[gnu::noinline]] void assign_nest(T* d, const tx_extents<N> e, const tx_strides<N> s, bool dense, S src,
                                   assign_mode mode, std::string_view op) {
  if (!dense && has_internal_overlap(e, s)) throw_internal_overlap(e, s);
  if (mode == assign_mode::fresh) return evaluate(d, e, s, make_kernel<N>(src));
  const auto dbytes = tx_bytes_of(d, e, s);
  bool hazard = false;
  for_each_leaf(src, [&](const auto& leaf) {
    if (hazard || same_pattern(d, e, s, leaf)) return;
    hazard = tx_bytes_of(leaf.data(), leaf.extents(), leaf.strides()).overlaps(dbytes) && !disjoint_from(d, e, s, leaf);
  });
  if (!hazard) return evaluate(d, e, s, make_kernel<N>(src));
  if (mode != assign_mode::checked) throw_noalias(e, op);  // op: the in-place op's name, empty under noalias
  // Through a temporary: evaluate into fresh contiguous storage, then copy.
  aligned_allocator<T> alloc;
  const std::size_t n = tx_count(e);
  auto del = [&](T* p) { alloc.deallocate(p, n); };
  std::unique_ptr<T, decltype(del)> tmp(alloc.allocate(n), del);
  const auto ts = tx_row_major(e);
  evaluate(tmp.get(), e, ts, make_kernel<N>(src));
  evaluate(d, e, s, make_kernel<N>(tensor_view<const T, rank_spec<N>>(tmp.get(), e, ts)));
}

}  // namespace texpr

// Inlined into the caller with the flat path, so that a small assignment costs
// about what a hand-written loop does. `op` names the in-place op (in_place mode).
template <class T, auto R, class Src>
  requires texpr::operand_or_scalar<Src>
[[gnu::always_inline]] inline void assign(const tensor_view<T, R>& dst, Src&& src,
                                          assign_mode mode = assign_mode::checked, std::string_view op = {}) {
  static_assert(!std::is_const_v<T>, "inplace: const_destination: assignment through a view of const elements; "
                "fix: assign to a non-const tensor or view.");
  constexpr std::size_t N = rank_of<R>();
  if constexpr (N == 0)
    if (dst.data() == nullptr) texpr::throw_no_element();  // rank 0 has one element by its extents
  if constexpr (texpr::scalar<Src>) {
    using fill = texpr::elementwise<texpr::copy_op, texpr::scalar_leaf<T>>;
    assign(dst, fill(texpr::copy_op{}, texpr::scalar_leaf<T>{convert<T>(src)}), mode, op);
  } else {
    using S = std::remove_cvref_t<Src>;
    constexpr std::size_t M = texpr::rank_v<S>;
    const tx_extents<N> e = dst.extents();
    const tx_strides<N> s = dst.strides();
    const auto se = texpr::shape_of(src);
    bool fits = M <= N;
    for (std::size_t i = 0; fits && i < M; ++i) fits = se[i] == 1 || se[i] == e[N - M + i];
    if (!fits) texpr::throw_cannot_assign(se, e);
    if constexpr (M <= N) {
      const bool dense = tx_is_contiguous(e, s);
      if (dense) {
        const std::size_t n = tx_count(e);
        const auto* first = reinterpret_cast<const unsigned char*>(dst.data());
        texpr::flat_scan f{first, first + n * sizeof(T), sizeof(T), n};
        const auto row = texpr::flat_row(src, e, f);
#if defined(INPLACE_OPENMP) && defined(_OPENMP)
        if (n >= texpr::parallel_threshold) f.flat = false;  // evaluate() splits it over threads
#endif
        // (under `fresh` the hazard flags are dead code: the compiler drops their tests)
        if (f.flat && (mode == assign_mode::fresh || !f.hazard))
          return texpr::run_unit(dst.data(), row, 0, static_cast<std::ptrdiff_t>(n));
      }
      using arg = std::conditional_t<texpr::owns_tensor<S>::value, const S&, S>;
      texpr::assign_nest<T, N, arg>(dst.data(), e, s, dense, std::forward<Src>(src), mode, op);
    }
  }
}

// d = op(d, e), for `x += e` and `ip::noalias(x) += e`: d read with its own
// pattern, so one loop and no temporary unless e reads d with another pattern.
// As NumPy's "same kind" casting, an integer d cannot take a floating result
// (x = x + e converts).
template <class Op, class T, auto R, class E>
void compound_assign(Op op, const tensor_view<T, R>& d, E&& e, assign_mode mode = assign_mode::checked) {
  static_assert(!std::is_const_v<T>,
                "inplace: const_destination: a compound assignment (+=, -=, *=, /=) needs a destination of mutable "
                "elements; fix: assign to a non-const tensor or view.");
  if constexpr (!std::is_const_v<T>) {  // else reported above: nothing more
    auto node = texpr::make(op, d, std::forward<E>(e));
    static_assert(!(std::is_integral_v<T> && std::is_floating_point_v<texpr::value_t<decltype(node)>>),
                  "inplace: dtype_mismatch: x op= e would store a floating-point result in an integer tensor; "
                  "fix: write x = x op e to convert it.");
    assign(d, std::move(node), mode);
  }
}

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
