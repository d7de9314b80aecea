// The elementwise vocabulary at the edges the peers' test suites probe, with
// NumPy 1.24 as the oracle (scripts/gen_peer_elementwise_cases.py writes
// peer_elementwise_cases.inc): JAX's tests/lax_numpy_test.py (testRound,
// testSign, testClip, testWhere, the casts of testAstype), PyTorch's
// test/test_unary_ufuncs.py (reference_numerics_extremal: -0.0, NaN, inf,
// large sin/cos arguments, tiny log1p/expm1) and test_binary_ufuncs.py
// (test_pow special values, test_int_pow wrapping), Eigen's
// test/array_cwise.cpp (pow of signed zeros and infinities, rounding half to
// even). Each case runs on tensors (the expression and a reversed view of
// it), in a graph (borrowed and donated, and on reversed views), over 19
// elements: each value in a SIMD batch and in the scalar tail.
// (peer_reductions.cpp, peer_updates.cpp: the reductions and updates.)
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
using numbers = std::vector<long double>;  // holds every int64 and double exactly

template <class T, std::size_t I>
constexpr auto symbol() {
  if constexpr (I == 0) return ip::input<"X", T>;
  else if constexpr (I == 1) return ip::input<"Y", T>;
  else return ip::input<"Z", T>;
}

template <class T>
ip::tensor<T> tensor_of(const numbers& v) {
  ip::tensor<T> t(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t[i] = static_cast<T>(v[i]);
  return t;
}

template <class V>
numbers elements(const V& v) {
  numbers r;
  for (std::size_t i = 0; i < v.size(); ++i) r.push_back(static_cast<long double>(v.data()[i]));
  return r;
}

numbers reversed(numbers v) { return numbers(v.rbegin(), v.rend()); }

// "" when equal, a NaN equal to a NaN; tol == 0: exactly, the sign of a zero
// too; otherwise within tol epsilons of T, relative (an infinity exactly).
// Else the first element that differs.
template <class T>
std::string mismatch(const numbers& got, const numbers& want, int tol) {
  if (got.size() != want.size()) return "size " + std::to_string(got.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double g = got[i], w = want[i];
    bool ok = (std::isnan(g) && std::isnan(w)) || (g == w && std::signbit(g) == std::signbit(w));
    if (!ok && tol > 0 && std::isfinite(w) && std::isfinite(g)) {
      const long double scale = std::max(std::fabs(w), static_cast<long double>(std::numeric_limits<T>::min()));
      ok = std::fabs(g - w) <= tol * static_cast<long double>(std::numeric_limits<T>::epsilon()) * scale;
    }
    if (!ok) {
      char text[96];
      std::snprintf(text, sizeof text, "element %zu: %.17g, NumPy %.17g", i, static_cast<double>(g),
                    static_cast<double>(w));
      return text;
    }
  }
  return "";
}

template <class Out, class... In, class Op, std::size_t... I>
void run_case(const char* name, Op, int tol, const std::vector<numbers>& v, std::index_sequence<I...>) {
  constexpr Op op{};
  INFO(name);
  const numbers& want = v.back();
  // the dtype: NumPy's, in graphs and on tensors
  constexpr auto f = ip::function(ip::inputs(symbol<In, I>()...),
                                  ip::outputs(op(symbol<In, I>()...), op(ip::reverse(symbol<In, I>())...)));
  const auto [r, rr] = f(tensor_of<In>(v[I])...);
  CHECK(std::is_same_v<std::remove_cv_t<typename std::remove_cvref_t<decltype(r)>::value_type>, Out>);
  using tensor_dtype = typename decltype(op(tensor_of<In>(v[I])...))::value_type;
  CHECK(std::is_same_v<tensor_dtype, Out>);

  CHECK(mismatch<Out>(elements(r), want, tol) == "");  // graph
  CHECK(mismatch<Out>(elements(rr), reversed(want), tol) == "");  // graph, reversed
  const std::tuple args{tensor_of<In>(v[I])...};
  const auto [d, dr] = f(ip::tensor<In>(std::get<I>(args))...);  // donated: in place where the dtype allows
  CHECK(mismatch<Out>(elements(d), want, tol) == "");  // graph, donated
  CHECK(mismatch<Out>(elements(dr), reversed(want), tol) == "");

  const ip::tensor<tensor_dtype> t = op(std::get<I>(args)...);
  CHECK(mismatch<Out>(elements(t), want, tol) == "");  // tensor
  const ip::tensor<tensor_dtype> tr = op(ip::reverse(std::get<I>(args))...);
  CHECK(mismatch<Out>(elements(tr), reversed(want), tol) == "");  // tensor, reversed
}
}  // namespace

#define LIST(...) __VA_ARGS__
#define CASE(NAME, OP, INS, OUT, TOL, ...)                                                                   \
  SECTION(NAME) {                                                                                            \
    constexpr auto op = OP;                                                                                  \
    const std::vector<numbers> v{__VA_ARGS__};                                                               \
    run_case<OUT, LIST INS>(NAME, op, TOL, v, std::index_sequence_for<LIST INS>{});                  \
  }

TEST_CASE("NumPy's values at the edges: rounding, signs, pow, clip, casts, logical ops", "[peer][elementwise]") {
#include "peer_elementwise_cases.inc"
}
