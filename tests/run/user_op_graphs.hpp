#pragma once
// Support for the generated tests tests/run/random_userops_*.cpp (written by
// scripts/gen_user_op_graphs.py; see its header comment): random user ops
// (opaque, elementwise and view ops, any arity, 1-8 outputs, view_map and
// destroy_map on any input/output pair, registered in-place variants on any
// input) placed in random graphs. The expected outputs were computed by NumPy
// when the file was generated and are embedded in it.
//
//  - uo:: kernel helpers: flat row-major element access and the reversal of the
//    first axis, so one kernel serves rank 1 and rank 2.
//  - uo::run(...): runs one graph under every donation pattern of its arguments
//    and with ip::no_rewrite (borrowed and donated), compares each output with
//    NumPy's (|got - want| <= 1e-4 + 1e-4 |want|), checks that borrowed
//    arguments are unchanged, and runs it once in debug mode (every argument
//    donated: the plan's rewrites and every registered variant are checked),
//    where any ip::debug_error is a failure.
#include "random_graphs.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <initializer_list>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace uo {

namespace ip = inplace;
using rg::arr;

// ---- for the kernels ---------------------------------------------------------------------
// Flat index i of a tensor of extents (e0, ...) reversed along its first axis.
template <class V>
std::size_t rev0(const V& v, std::size_t i) {
  const std::size_t inner = v.size() / v.extent(0);
  return (v.extent(0) - 1 - i / inner) * inner + i % inner;
}
// Python's slice rules: the length of x[b:e:s] for len(x) == n (e == no_stop: omitted).
inline constexpr std::ptrdiff_t no_stop = PTRDIFF_MAX;
constexpr std::size_t slice_count(std::size_t len, std::ptrdiff_t b, std::ptrdiff_t e, std::ptrdiff_t s) {
  const auto n = static_cast<std::ptrdiff_t>(len);
  const auto clamp = [](std::ptrdiff_t v, std::ptrdiff_t lo, std::ptrdiff_t hi) { return v < lo ? lo : v > hi ? hi : v; };
  if (b < 0) b += n;
  if (e != no_stop && e < 0) e += n;
  std::ptrdiff_t c = 0;
  if (s > 0) {
    b = clamp(b, 0, n);
    e = e == no_stop ? n : clamp(e, 0, n);
    c = (e - b + s - 1) / s;
  } else {
    b = clamp(b, -1, n - 1);
    e = e == no_stop ? -1 : clamp(e, -1, n - 1);
    c = (b - e - s - 1) / -s;
  }
  return c > 0 ? static_cast<std::size_t>(c) : 0;
}
// A view op's shape rule: `in` sliced [b:e:s] along its first axis.
constexpr ip::shape sliced(ip::shape in, std::ptrdiff_t b, std::ptrdiff_t e, std::ptrdiff_t s) {
  if (in.rank != ip::dynamic && in.rank > 0 && in.extent[0] != ip::dynamic) in.extent[0] = slice_count(in.extent[0], b, e, s);
  return in;
}
// The elements of v (any strides) as doubles, in row-major order: a kernel reads
// its inputs into these first, so writing an output over an input (a variant,
// a destroy_map) never reads overwritten elements.
template <class V>
std::vector<double> load(const V& v) {
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<double>(v[i]);
  return r;
}
template <class V>
void store(const V& v, const std::vector<double>& r) {
  using T = std::remove_cvref_t<decltype(v[0])>;
  for (std::size_t i = 0; i < r.size(); ++i) v[i] = static_cast<T>(r[i]);
}
// An input a destroy_map lists beside the output's storage: overwritten with junk
// (the contract allows it; the call must have copied a borrowed one).
template <class V>
void scribble(const V& v) {
  using T = std::remove_cvref_t<decltype(v[0])>;
  for (std::size_t i = 0; i < v.size(); ++i) const_cast<T&>(v[i]) = static_cast<T>(1e3 + static_cast<double>(i));
}

// ---- arguments and expected values -----------------------------------------------------
inline ip::tensor<float> vec(std::initializer_list<float> l) {
  ip::tensor<float> t(l.size());
  std::size_t i = 0;
  for (float v : l) t[i++] = v;
  return t;
}
template <std::size_t N>
ip::tensor<float, ip::extents<N>> svec(std::initializer_list<float> l) {
  ip::tensor<float, ip::extents<N>> t(N);
  std::size_t i = 0;
  for (float v : l) t[i++] = v;
  return t;
}
inline ip::tensor<float, 2> mat(std::size_t r, std::size_t c, std::initializer_list<float> l) {
  ip::tensor<float, 2> t(r, c);
  std::size_t i = 0;
  for (float v : l) t[i++] = v;
  return t;
}
inline arr want(std::vector<std::size_t> shape, std::vector<double> v) {
  arr r;
  r.shape = std::move(shape);
  r.v = std::move(v);
  return r;
}

// ---- running -----------------------------------------------------------------------------
template <class F, class FN, class... T, std::size_t... M>
void run_masks(rg::report& rep, const F& f, const FN& fn, const std::tuple<T...>& in, const std::vector<arr>& in_arr,
               const std::vector<arr>& want, std::index_sequence<M...>) {
  using seq = std::index_sequence_for<T...>;
  (rg::call_mask<M>(rep, rg::cat("donation mask ", M).c_str(), f, in, in_arr, want, seq{}), ...);
  constexpr std::uint64_t all = rg::tensor_mask<T...>;
  rg::call_mask<0>(rep, "no_rewrite, borrowed", fn, in, in_arr, want, seq{});
  rg::call_mask<all>(rep, "no_rewrite, donated", fn, in, in_arr, want, seq{});
  rg::call_mask<all, true>(rep, "donated, debug mode", f, in, in_arr, want, seq{});
}

// Runs graph `name` (f, and fn: the same graph with ip::no_rewrite) on `inputs`
// (tensors only) and compares with `want`.
template <class F, class FN, class... T>
void run(const char* name, const F& f, const FN& fn, const std::vector<arr>& want, T... inputs) {
  const std::tuple<T...> in(std::move(inputs)...);
  const std::vector<arr> in_arr = std::apply([](const auto&... t) { return std::vector<arr>{rg::to_arr(t)...}; }, in);
  rg::report rep{name, {}};
  run_masks(rep, f, fn, in, in_arr, want, std::make_index_sequence<std::size_t{1} << sizeof...(T)>{});
  for (const std::string& e : rep.errors) FAIL_CHECK(e);
  CHECK(rep.errors.empty());
}

}  // namespace uo
