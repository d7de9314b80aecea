#pragma once
// Kernels: what an expression becomes for one assignment. Every view leaf
// turns into a cursor (pointer + strides in the destination's index space,
// stride 0 along broadcast axes), scalars stay, nodes keep their op. For each
// row of the loop nest a cursor becomes a row cursor (pointer + inner stride),
// and the row is evaluated element by element, or batch by batch (xsimd) when
// every stride of the row is 1 (or 0 with the destination's 1: broadcast operands splat).

#include "inplace/detail/config.hpp"
#include "inplace/ops/detail/convert.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/tensor/detail/texpr_node.hpp"
#include "inplace/tensor/detail/texpr_simd.hpp"

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::texpr {

// N: the loop nest's axis count (the destination's rank, at least 1).
template <class V, std::size_t N>
struct cursor {
  const V* p;
  tx_strides<N> s;
};
template <class V>
struct row_cursor {
  const V* p;
  std::ptrdiff_t s;
};
template <class Op, class... K>
struct knode {
  [[no_unique_address]] Op op;
  std::tuple<K...> args;
};

// ---- building: operand tree -> kernel tree --------------------------------------
// Strides of a leaf of rank M in the index space of a destination of rank N.
template <std::size_t N, class Leaf>
cursor<value_t<Leaf>, (N > 0 ? N : 1)> make_cursor(const Leaf& x) {
  constexpr std::size_t M = rank_v<Leaf>;
  cursor<value_t<Leaf>, (N > 0 ? N : 1)> c{x.data(), {}};
  const auto e = x.extents();
  const auto s = x.strides();
  for (std::size_t k = N - M; k < N; ++k) c.s[k] = e[k - (N - M)] == 1 ? 0 : s[k - (N - M)];
  return c;
}

template <std::size_t N, class X>
auto make_kernel(const X& x) {
  if constexpr (is_node<X>::value) {
    return std::apply([&](const auto&... a) { return knode<decltype(x.op), decltype(make_kernel<N>(a))...>{x.op, {make_kernel<N>(a)...}}; },
                      x.args);
  } else if constexpr (view_like<X> || tensor_like<X>) {
    return make_cursor<N>(x);
  } else {
    return x;  // scalar_leaf
  }
}

// Visits the stride array of every cursor.
template <class K, class F>
void for_each_cursor(K& k, F&& f) {
  if constexpr (requires { k.args; }) std::apply([&](auto&... a) { (for_each_cursor(a, f), ...); }, k.args);
  else if constexpr (requires { k.s; }) f(k.s);
}
template <class K>
constexpr std::size_t cursor_count() {
  if constexpr (requires { std::declval<K&>().args; })
    return []<class Op, class... A>(std::type_identity<knode<Op, A...>>) { return (std::size_t{0} + ... + cursor_count<A>()); }(
        std::type_identity<K>{});
  else if constexpr (requires { std::declval<K&>().s; }) return 1;
  else return 0;
}

// ---- rows -------------------------------------------------------------------
template <class K>
auto row_of(const K& k, const std::ptrdiff_t* idx, std::size_t outer, std::size_t inner) {
  if constexpr (requires { k.args; }) {
    return std::apply([&](const auto&... a) { return knode<decltype(k.op), decltype(row_of(a, idx, outer, inner))...>{k.op, {row_of(a, idx, outer, inner)...}}; },
                      k.args);
  } else if constexpr (requires { k.s; }) {
    std::ptrdiff_t off = 0;
    for (std::size_t a = 0; a < outer; ++a) off += idx[a] * k.s[a];
    return row_cursor<std::remove_const_t<std::remove_pointer_t<decltype(k.p)>>>{k.p + off, k.s[inner]};
  } else {
    return k;
  }
}

template <bool Unit, class K>
inline auto at(const K& k, std::ptrdiff_t i) {
  if constexpr (requires { k.args; })
    return std::apply([&](const auto&... a) { return run_kernel(k.op, at<Unit>(a, i)...); }, k.args);
  else if constexpr (requires { k.s; }) {
    if constexpr (Unit) return k.p[i];
    else return k.p[i * k.s];
  } else return k.v;
}

// ---- reads through one pointer ------------------------------------------------
// The reads tagged Id (same_read) of a loop address the same elements with the
// same strides: shared_row gives each the pointer of the first of them of its
// element type, so that the compiler sees one pointer and loads each element
// once. (A red-black sweep's loop reads u[k] twice, as two operands: with two
// pointers it ran at 0.90x the hand loop, with one at 1.0x.)
template <class K>
struct tagged_read : std::false_type {};
template <std::size_t Id, class V>
struct tagged_read<knode<same_read<Id>, row_cursor<V>>> : std::true_type {
  static constexpr std::size_t id = Id;
  using type = V;
};
template <class K>
struct is_tuple : std::false_type {};
template <class... K>
struct is_tuple<std::tuple<K...>> : std::true_type {};

// Does k (a row kernel, or a tuple of them) hold a read tagged Id of element type V?
template <std::size_t Id, class V, class K>
constexpr bool has_read() {
  if constexpr (tagged_read<K>::value) return tagged_read<K>::id == Id && std::is_same_v<typename tagged_read<K>::type, V>;
  else if constexpr (is_tuple<K>::value)
    return []<class... A>(std::type_identity<std::tuple<A...>>) { return (has_read<Id, V, A>() || ...); }(std::type_identity<K>{});
  else if constexpr (requires { std::declval<K&>().args; }) return has_read<Id, V, decltype(std::declval<K&>().args)>();
  else return false;
}
// The first read tagged Id of element type V in k (which has one).
template <std::size_t Id, class V, class K>
[[gnu::always_inline]] inline const row_cursor<V>& first_read(const K& k) {
  if constexpr (tagged_read<K>::value) return std::get<0>(k.args);
  else if constexpr (!is_tuple<K>::value) return first_read<Id, V>(k.args);
  else {
    constexpr std::size_t j = []<std::size_t... J>(std::index_sequence<J...>) {
      std::size_t r = sizeof...(J);
      ((r == sizeof...(J) && has_read<Id, V, std::tuple_element_t<J, K>>() ? void(r = J) : void()), ...);
      return r;
    }(std::make_index_sequence<std::tuple_size_v<K>>{});
    return first_read<Id, V>(std::get<j>(k));
  }
}
// Row k from its element i0 on, its tagged reads through the pointers of `all`
// (the loop's row kernels: k, or a tuple of them).
template <class K, class All>
[[gnu::always_inline]] inline K shared_row(const K& k, const All& all, std::ptrdiff_t i0) {
  if constexpr (tagged_read<K>::value) {
    const auto& c = first_read<tagged_read<K>::id, typename tagged_read<K>::type>(all);
    return K{k.op, {shared_row(c, c, i0)}};
  } else if constexpr (requires { k.args; }) {
    return std::apply([&](const auto&... a) { return K{k.op, {shared_row(a, all, i0)...}}; }, k.args);
  } else if constexpr (requires { k.s; }) {
    return K{k.p + i0 * k.s, k.s};
  } else {
    return k;
  }
}

// ---- SIMD -------------------------------------------------------------------
template <class K, class T>
constexpr bool simd_kernel() {
  if constexpr (requires { std::declval<K&>().args; })
    return []<class Op, class... A>(std::type_identity<knode<Op, A...>>) {
      return simd_op<Op>::value && (simd_kernel<A, T>() && ...);
    }(std::type_identity<K>{});
  else if constexpr (requires { std::declval<K&>().p; }) return std::is_same_v<std::remove_const_t<std::remove_pointer_t<decltype(K::p)>>, T>;
  else return std::is_same_v<decltype(K::v), T>;
}

#if INPLACE_HAS_XSIMD
template <class B, class K>
inline B load(const K& k, std::ptrdiff_t i) {
  if constexpr (requires { k.args; })
    return B(std::apply([&](const auto&... a) { return k.op(load<B>(a, i)...); }, k.args));
  else if constexpr (requires { k.s; }) return B::load_unaligned(k.p + i);
  else return B(k.v);
}
#endif

// d[i] = k[i] for i in [i0, i1), every stride of the row 1. (Every store here
// converts as ip::cast does, detail::convert: a floating result stored into an
// integer tensor is defined for NaN and beyond the range; a plain static_cast
// otherwise, so float loops are untouched.) Inlined where the
// flat path is, so that the row's pointers stay in registers. One batch per
// step, as Eigen's loop and g++'s vectorised hand loop: measured paired against
// both (bench/runtime, BM_paired), two batches per step were 1.13-1.19x Eigen at
// 4Ki axpy on a Zen 5 but 0.88-0.91x on a Zen 4, where one batch is 0.91-0.96x
// Eigen and 0.96-1.01x the hand loop; with the peers' loop shape the
// comparison does not depend on the machine. (exp-bound chains lost 3% to it.)
// Each batch is loaded before it is stored, so reading d itself is safe.
// Inlined beside a small operand of known size, g++ 12 warns that a batch could
// read past it, on a path where i1 (every operand's length) forbids it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
template <class T, class K>
[[gnu::always_inline]] inline void run_unit(T* __restrict d, const K& row, std::ptrdiff_t i0, std::ptrdiff_t i1) {
  const K k = shared_row(row, row, 0);
  std::ptrdiff_t i = i0;
#if INPLACE_HAS_XSIMD
  if constexpr (simd_type<T> && simd_kernel<K, T>()) {
    using B = xsimd::batch<T>;
    constexpr std::ptrdiff_t W = static_cast<std::ptrdiff_t>(B::size);
    for (; i + W <= i1; i += W) load<B>(k, i).store_unaligned(d + i);
  }
#endif
  INPLACE_IVDEP
  for (; i < i1; ++i) d[i] = convert<T>(at<true>(k, i));
}

#pragma GCC diagnostic pop

// Element i of a row whose every stride is the constant S.
template <std::ptrdiff_t S, class K>
inline auto at_step(const K& k, std::ptrdiff_t i) {
  if constexpr (requires { k.args; })
    return std::apply([&](const auto&... a) { return run_kernel(k.op, at_step<S>(a, i)...); }, k.args);
  else if constexpr (requires { k.s; }) return k.p[i * S];
  else return k.v;
}
// Does every stride of the row satisfy pred?
template <class K, class Pred>
bool every_step(const K& k, Pred pred) {
  if constexpr (requires { k.args; }) return std::apply([&](const auto&... a) { return (every_step(a, pred) && ...); }, k.args);
  else if constexpr (requires { k.s; }) return pred(k.s);
  else return true;
}

#if INPLACE_HAS_XSIMD
// Does every op of row kernel K take batches B (a user's op may name one arch's)?
template <class B, class K>
constexpr bool takes_batch() {
  if constexpr (requires { std::declval<K&>().args; })
    return []<class Op, class... A>(std::type_identity<knode<Op, A...>>) {
      if constexpr ((takes_batch<B, A>() && ...)) return std::is_invocable_v<const Op&, std::conditional_t<true, B, A>...>;
      else return false;
    }(std::type_identity<K>{});
  else return true;
}
// The batch of a stride-2 row (run_pairs): xsimd's, but at most 32 bytes wide
// where xsimd's is wider (AVX-512) and K's ops take it: its lanes are stored one
// by one, and each 128-bit part of a 512-bit register costs one more
// extraction. The red-black sweep of bench/runtime/red_black_bench.cpp on a
// Zen 4, paired against the hand loop: 8 lanes 0.98x (clang) and 0.99x (g++),
// 4 lanes 1.00x and 1.05x.
template <class T, class K>
constexpr auto pair_batch_of() {
#if XSIMD_WITH_AVX2
  if constexpr (sizeof(xsimd::batch<T>) > 32 && takes_batch<xsimd::batch<T, xsimd::avx2>, K>())
    return std::type_identity<xsimd::batch<T, xsimd::avx2>>{};
  else return std::type_identity<xsimd::batch<T>>{};
#else
  return std::type_identity<xsimd::batch<T>>{};
#endif
}
template <class T, class K>
using pair_batch = typename decltype(pair_batch_of<T, K>())::type;

// Can the two-register shuffle of load_evens take B's register? (A GNU vector
// type, as x86's and ARM's intrinsic types are; a struct is not.)
template <class B>
concept shuffles_evens = !std::is_class_v<typename B::register_type> && requires(typename B::register_type r) {
  r[0];
  r == r;
};

// Elements 0, 2, .., 2(W - 1) of p as one batch: p[0 .. 2W - 1] loaded as two
// batches, their even lanes kept (the compiler's own code for a hand loop over
// u[2 * i]). Reads p[2W - 1], which the caller keeps inside the row.
template <class B>
[[gnu::always_inline]] inline B load_evens(const typename B::value_type* p) {
  using R = typename B::register_type;
  constexpr std::size_t W = B::size;
  const R a = B::load_unaligned(p), b = B::load_unaligned(p + W);
#if INPLACE_CLANG
  return [&]<std::size_t... L>(std::index_sequence<L...>) { return B(__builtin_shufflevector(a, b, 2 * L...)); }(
      std::make_index_sequence<W>{});
#else
  using M = decltype(a == a);  // the integer vector of R's shape
  M m{};
  for (std::size_t l = 0; l < W; ++l) m[l] = static_cast<std::remove_cvref_t<decltype(m[0])>>(2 * l);
  return B(__builtin_shuffle(a, b, m));
#endif
}
// Batch i of a stride-2 row kernel. (Recursion by index, not std::apply: g++
// left the lambda of std::apply out of line, a call per node and batch.)
template <class B, class K>
[[gnu::always_inline]] inline B load_pairs(const K& k, std::ptrdiff_t i);
template <class B, class K, std::size_t... J>
[[gnu::always_inline]] inline B load_pairs_node(const K& k, std::ptrdiff_t i, std::index_sequence<J...>) {
  return B(k.op(load_pairs<B>(std::get<J>(k.args), i)...));
}
template <class B, class K>
[[gnu::always_inline]] inline B load_pairs(const K& k, std::ptrdiff_t i) {
  if constexpr (requires { k.args; })
    return load_pairs_node<B>(k, i, std::make_index_sequence<std::tuple_size_v<decltype(k.args)>>{});
  else if constexpr (requires { k.s; }) return load_evens<B>(k.p + 2 * i);
  else return B(k.v);
}

// d[i * ds] = k[i] (ds 1 or 2, every stride of k 2) for i in [0, n), batch by
// batch; returns where the batches stopped. The destination's lanes of a batch
// are stored one by one (ds 2): never a whole vector over the elements between,
// which are not the destination's (another loop, or thread, may own them). A
// batch also reads the element after its last one (odd), so batches stop one
// element short of the row's end (past the last element may be past the
// operand's storage; tests/tensor/stride_two_batches.cpp under ASan). clang's
// own vectorisation of the scalar loop stores by a scatter, which a Zen 4 runs
// slowly: a red-black sweep ran at 0.78x clang's hand loop, 1.0x with batches
// (docs/performance.md).
template <class T, class K>
[[gnu::always_inline]] inline std::ptrdiff_t run_pairs(T* __restrict d, std::ptrdiff_t ds, const K& k, std::ptrdiff_t n) {
  using B = pair_batch<T, K>;
  constexpr std::ptrdiff_t W = static_cast<std::ptrdiff_t>(B::size);
  std::ptrdiff_t i = 0;
  if constexpr (shuffles_evens<B>) {
    if (ds == 1) {
      for (; i + W < n; i += W) load_pairs<B>(k, i).store_unaligned(d + i);
    } else {
      // U batches per step: two of 16 bytes (SSE2) under clang, which then
      // kept the operands' pointers in registers (a red-black sweep built
      // without -march=native: 0.86x -> 0.94x clang's hand loop; g++ lost 1%).
      constexpr std::ptrdiff_t U = INPLACE_CLANG && sizeof(B) == 16 ? 2 : 1;
      for (; i + U * W < n; i += U * W) {
        alignas(B::arch_type::alignment()) T lanes[static_cast<std::size_t>(U * W)];
        for (std::ptrdiff_t u = 0; u < U; ++u) load_pairs<B>(k, i + u * W).store_aligned(lanes + u * W);
        for (std::ptrdiff_t l = 0; l < U * W; ++l) d[2 * (i + l)] = lanes[l];
      }
      if constexpr (U > 1)
        for (; i + W < n; i += W) {
          alignas(B::arch_type::alignment()) T lanes[static_cast<std::size_t>(W)];
          load_pairs<B>(k, i).store_aligned(lanes);
          for (std::ptrdiff_t l = 0; l < W; ++l) d[2 * (i + l)] = lanes[l];
        }
    }
  }
  return i;
}
#endif

#if INPLACE_HAS_XSIMD
// load, with an operand of stride 0 splat (its one element read per batch; the
// test does not depend on i, and g++ hoists it).
template <class B, class K>
inline B load_or_splat(const K& k, std::ptrdiff_t i) {
  if constexpr (requires { k.args; })
    return B(std::apply([&](const auto&... a) { return k.op(load_or_splat<B>(a, i)...); }, k.args));
  else if constexpr (requires { k.s; }) return k.s == 0 ? B(*k.p) : B::load_unaligned(k.p + i);
  else return B(k.v);
}
#endif

// Element i of a row whose every stride is 0 or 1. The tests do not depend on
// i: the compiler makes one loop per outcome and vectorises them, where the
// run-time stride of at<false> kept every element a scalar load (a causal
// mask, where(i >= j, s, -1e30) over int64 aranges, no xsimd kernel: 2x faster
// with g++; clang does not split the loop, so it keeps the general one).
template <class K>
inline auto at_unit_or_zero(const K& k, std::ptrdiff_t i) {
  if constexpr (requires { k.args; })
    return std::apply([&](const auto&... a) { return run_kernel(k.op, at_unit_or_zero(a, i)...); }, k.args);
  else if constexpr (requires { k.s; }) return k.s == 0 ? k.p[0] : k.p[i];
  else return k.v;
}
// d[i * ds] = k[i] for i in [i0, i1), any strides. Every stride 2 (NumPy's
// x[::2], a red-black sweep's points) gets a loop of its own: with xsimd, by
// batches of even lanes (run_pairs); else, with the stride a constant, the
// compiler loads whole vectors and picks every other element, as in a hand loop
// over u[2 * i]; with a run-time stride it loads one element at a time.
// Counted from 0 (the row moved to i0): g++ then addresses every operand from
// one index, as in a hand loop, where from i0 it advanced one pointer per operand.
template <class T, class K>
void run_strided(T* __restrict d, std::ptrdiff_t ds, const K& row, std::ptrdiff_t i0, std::ptrdiff_t i1) {
  const K k = shared_row(row, row, i0);
  const std::ptrdiff_t n = i1 - i0;
  d += i0 * ds;
  if ((ds == 1 || ds == 2) && every_step(k, [](std::ptrdiff_t s) { return s == 2; })) {
    std::ptrdiff_t i = 0;
#if INPLACE_HAS_XSIMD
    if constexpr (simd_type<T> && simd_kernel<K, T>()) i = run_pairs(d, ds, k, n);
#endif
    if (ds == 1) {
      INPLACE_IVDEP
      for (; i < n; ++i) d[i] = convert<T>(at_step<2>(k, i));
    } else {
      INPLACE_IVDEP
      for (; i < n; ++i) d[i * 2] = convert<T>(at_step<2>(k, i));
    }
    return;
  }
  // A contiguous row whose operands step by 1 or are broadcast along it (the
  // keepdims mean in x - mean(x) over rows).
  [[maybe_unused]] const bool broadcast_row =
      ds == 1 && every_step(k, [](std::ptrdiff_t s) { return s == 0 || s == 1; });
#if INPLACE_HAS_XSIMD
  // Batch by batch as run_unit, the broadcast operands splat (one element at a
  // time, this loop ran layer norm's two broadcasts at a fifth of Eigen's speed).
  if constexpr (simd_type<T> && simd_kernel<K, T>()) {
    if (broadcast_row) {
      using B = xsimd::batch<T>;
      constexpr std::ptrdiff_t W = static_cast<std::ptrdiff_t>(B::size);
      std::ptrdiff_t i = 0;
      for (; i + W <= n; i += W) load_or_splat<B>(k, i).store_unaligned(d + i);
      for (; i < n; ++i) d[i] = convert<T>(at<false>(k, i));
      return;
    }
  }
#endif
#if INPLACE_GCC  // clang 14 keeps the tests in the loop, which then ran 1.4x slower than the general loop
  if (broadcast_row) {
    INPLACE_IVDEP
    for (std::ptrdiff_t i = 0; i < n; ++i) d[i] = convert<T>(at_unit_or_zero(k, i));
    return;
  }
#endif
  INPLACE_IVDEP
  for (std::ptrdiff_t i = 0; i < n; ++i) d[i * ds] = convert<T>(at<false>(k, i));
}

}  // namespace inplace::detail::texpr

#include "inplace/detail/shadow_on.hpp"
