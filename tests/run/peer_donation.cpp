// Donation cases from JAX's tests/api_test.py (donate_argnums) and XLA's
// xla/tests/buffer_donation_test.cc that tests/run/call.cpp and io_alias.cpp do
// not already have: a donated input that is also returned, one read by a later
// node, one passed twice, donation whose output cannot reuse the buffer (other
// dtype, other shape), donated and borrowed arguments side by side, and
// XLA's no-alias-but-donated parameter. Values are NumPy's (computed by hand
// from small integers, exact in float).
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;

std::vector<float> list(std::initializer_list<float> l) { return l; }
}  // namespace

// jax: jit(lambda x: x, donate_argnums=0): the donated input is the output.
TEST_CASE("a donated input returned as it is", "[run][donation][peer]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x));
  ip::tensor<float> a{1, 2, 3};
  auto r = f(std::move(a));
  CHECK(values(r) == list({1, 2, 3}));
  // also returned beside a value computed from it: x, x + 1 (np: [1 2 3], [2 3 4])
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(x, x + 1.0_c));
  static_assert(ip::plan(g, ip::donated).copies == 0);
  ip::tensor<float> b{1, 2, 3};
  auto [p, q] = g(std::move(b));
  CHECK(values(p) == list({1, 2, 3}));
  CHECK(values(q) == list({2, 3, 4}));
  CHECK(p.data() != q.data());
}

// jax test_jit_donate_argnums: a donated input read by another node after the
// one that could reuse its buffer: (x + y, sum(x)) with x donated.
TEST_CASE("a donated input with a later reader", "[run][donation][peer]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x * y, ip::reduce_sum(x), ip::exp(x * 0.0_c) + x));
  ip::tensor<float> a{1, 2, 3};
  const ip::tensor<float> b{4, 5, 6};
  auto [m, s, e] = f(std::move(a), b);
  CHECK(values(m) == list({4, 10, 18}));
  CHECK(static_cast<float>(s) == 6);
  CHECK(values(e) == list({2, 3, 4}));
  CHECK(values(b) == list({4, 5, 6}));
  CHECK(values(std::get<0>(f.debug(ip::tensor<float>{1, 2, 3}, b))) == values(m));
}

// jax: donating the same array twice (f(x, x) with donate_argnums=(0, 1)): the
// arguments overlap, so both are borrowed and the caller's data stays.
TEST_CASE("one tensor donated to two inputs", "[run][donation][peer]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::mul(y, 2.0_c)));
  ip::tensor<float> a{1, 2, 3};
  const float* old = a.data();
  auto [s, t] = f(std::move(a), std::move(a));
  CHECK(values(s) == list({2, 4, 6}));
  CHECK(values(t) == list({2, 4, 6}));
  CHECK(s.data() != old);
  CHECK(a.data() == old);
  CHECK(values(a) == list({1, 2, 3}));
}

// jax test_jit_donate_argnums_warning_raised: an output of another dtype or shape
// cannot reuse the buffer; the donation is unused and the values are right.
TEST_CASE("donation whose output cannot reuse the buffer", "[run][donation][peer]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::cast<double>(x) * 0.5_c));
  static_assert(ip::plan(f, ip::donated).allocations == 1);
  static_assert(ip::plan(f, ip::donated).in_place == 0);
  ip::tensor<float> a{1, 2, 3};
  auto r = f(std::move(a));
  static_assert(std::is_same_v<decltype(r)::value_type, double>);
  CHECK(values(r) == list({0.5f, 1, 1.5f}));
  // a result smaller than the donated buffer: sum over an axis
  constexpr auto M = ip::input<"M", float, ip::extents<2, 3>>;
  constexpr auto g = ip::function(ip::inputs(M), ip::outputs(ip::reduce_sum<1>(ip::exp(M * 0.0_c) + M)));
  ip::tensor<float, ip::extents<2, 3>> b{};
  for (std::size_t i = 0; i < 6; ++i) b[i] = static_cast<float>(i);
  auto c = g(std::move(b));
  CHECK(values(c) == list({6, 15}));  // np: (1 + arange(6).reshape(2, 3)).sum(1)
  // a comparison: bool result from a donated float input
  constexpr auto h = ip::function(ip::inputs(x), ip::outputs(x > 1.5_c));
  auto d = h(ip::tensor<float>{1, 2, 3});
  CHECK(values(d) == list({0, 1, 1}));
}

// XLA TestNoPenaltyForDonatingBuffer / a donated and a borrowed argument side by
// side: only the donated one is reused, the borrowed one is untouched.
TEST_CASE("donated and borrowed arguments side by side", "[run][donation][peer]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::tanh(x * 0.0_c) + x * y + y));
  static_assert(ip::plan(f, ip::donated, ip::borrowed).allocations == 0);
  static_assert(ip::plan(f, ip::borrowed, ip::donated).allocations == 0);
  static_assert(ip::plan(f, ip::borrowed, ip::borrowed).allocations == 1);
  ip::tensor<float> a{1, 2, 3}, b{4, 5, 6};
  const float* ob = b.data();
  auto r = f(a, std::move(b));
  CHECK(r.data() == ob);
  CHECK(values(r) == list({8, 15, 24}));
  CHECK(values(a) == list({1, 2, 3}));
  // a donated view (a tensor_view rvalue) and a donated const tensor are borrowed
  const ip::tensor<float> c{1, 2, 3};
  ip::tensor<float> d{4, 5, 6};
  auto dv = d.view();
  auto r2 = f(std::move(c), std::move(dv));
  CHECK(values(r2) == list({8, 15, 24}));
  CHECK(values(c) == list({1, 2, 3}));
  CHECK(values(d) == list({4, 5, 6}));
}

// XLA: a donated parameter whose storage holds a value that is a view output of
// the graph (jax: donating x and returning x[1:]): the view keeps the storage alive.
TEST_CASE("a donated input returned as a view", "[run][donation][peer]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::slice<1>(x), ip::reverse(x)));
  auto [t, v] = f(ip::tensor<float>{1, 2, 3});
  CHECK(values(t) == list({2, 3}));
  CHECK(values(v) == list({3, 2, 1}));
  // an in-place result and a view of the same donated storage cannot both be
  // returned (destroys_output); the view of the computed result can
  constexpr auto r = ip::neg_inplace(x);
  static_assert(ip::check(ip::inputs(x), ip::outputs(r, ip::slice<1>(x))).error == ip::error_kind::destroys_output);
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(r, ip::slice<1>(r)));
  ip::tensor<float> a{1, 2, 3};
  const float* old = a.data();
  auto [n, s] = g(std::move(a));
  CHECK(n.data() == old);
  CHECK(values(n) == list({-1, -2, -3}));
  CHECK(values(s) == list({-2, -3}));
}

// XLA TestMustAliasNotDonated's opposite: may_alias with a donated argument uses
// its storage, twice in a row (a training loop, jax's donated params).
TEST_CASE("may_alias donated in a loop", "[run][donation][peer]") {
  constexpr auto p = ip::input<"p", float>;
  constexpr auto g = ip::input<"g", float>;
  constexpr auto step = ip::function(ip::inputs(p, g), ip::outputs(p - g * 0.5_c), ip::io_alias<0, 0>(ip::may_alias));
  static_assert(ip::plan(step, ip::donated, ip::borrowed).allocations == 0);
  ip::tensor<float> w{1, 2, 3};
  const ip::tensor<float> grad{2, 2, 2};
  const float* old = w.data();
  for (int i = 0; i < 3; ++i) w = step(std::move(w), grad);
  CHECK(w.data() == old);
  CHECK(values(w) == list({-2, -1, 0}));
  // borrowed: copy-protected, the parameter unchanged
  auto w2 = step(w, grad);
  CHECK(values(w2) == list({-3, -2, -1}));
  CHECK(values(w) == list({-2, -1, 0}));
}

// A node without inputs destroyed in place: each call gets a fresh arange, so a
// second call computes the same (np.arange(3) + x).
TEST_CASE("an arange destroyed in place, called twice", "[run][donation][peer]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::add_inplace(ip::arange<float, 3>(), x)));
  const ip::tensor<float> a{10, 20, 30};
  CHECK(values(f(a)) == list({10, 21, 32}));
  CHECK(values(f(a)) == list({10, 21, 32}));
  CHECK(values(f.debug(a)) == list({10, 21, 32}));
  CHECK(values(f(ip::tensor<float>{1, 1, 1})) == list({1, 2, 3}));
}

// Readers of a destroyed root run first: sum(x) sees x before add_inplace(x, y)
// (np: x.sum() == 6, (x + y).sum() == 21); where(x > 0, x + y, x) in one fused loop.
TEST_CASE("readers of a donated root before its destroyer", "[run][donation][peer]") {
  constexpr auto f =
      ip::function(ip::inputs(x, y), ip::outputs(ip::reduce_sum(ip::add_inplace(x, y)), ip::reduce_sum(x)));
  const ip::tensor<float> b{4, 5, 6};
  auto [s1, s0] = f(ip::tensor<float>{1, 2, 3}, b);
  CHECK(static_cast<float>(s1) == 21);
  CHECK(static_cast<float>(s0) == 6);
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(ip::where(x > 0.0_c, ip::add_inplace(x, y), x)));
  static_assert(ip::plan(g, ip::donated, ip::borrowed).allocations == 1);  // where has no in-place form
  ip::tensor<float> a{-1, 2, -3};
  auto r = g(std::move(a), b);
  CHECK(values(r) == list({-1, 7, -3}));  // np.where(x > 0, x + y, x): every read sees x before the add
  // may_alias with a reader of the aliased input in another output
  constexpr auto h = ip::function(ip::inputs(x, y), ip::outputs(x + y, ip::reduce_sum(x)),
                                  ip::io_alias<0, 0>(ip::may_alias));
  ip::tensor<float> c{1, 2, 3};
  const float* oc = c.data();
  auto [s, t] = h(std::move(c), b);
  CHECK(s.data() == oc);
  CHECK(values(s) == list({5, 7, 9}));
  CHECK(static_cast<float>(t) == 6);
}

// Values of legal graphs the destroy handler orders (tests/graph/peer_legality.cpp
// has their verdicts), donated, borrowed and in debug mode; NumPy's values with
// x = [1 2 3] (or zeros where a read of a destroyed x would show), y = [4 5 6].
TEST_CASE("legal in-place graphs compute NumPy's values", "[run][donation][peer]") {
  const ip::tensor<float> b{4, 5, 6};
  auto each = [&](auto f, std::initializer_list<float> in, std::vector<float> expected) {
    const ip::tensor<float> a(in);
    CHECK(values(f(a, b)) == expected);
    CHECK(values(f.debug(a, b)) == expected);
    CHECK(values(f(ip::tensor<float>(in), b)) == expected);
    CHECK(values(f(ip::tensor<float>(in), ip::tensor<float>{4, 5, 6})) == expected);
    CHECK(values(a) == std::vector<float>(in));
    CHECK(values(b) == list({4, 5, 6}));
  };
  // -(-x)[::-1]: chained destroyers, the second through a reversed view
  each(ip::function(ip::inputs(x, y), ip::outputs(ip::neg_inplace(ip::reverse(ip::neg_inplace(x))))), {1, 2, 3},
       list({3, 2, 1}));
  // y + (x + y): y destroyed after the node that reads it
  each(ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(y, ip::add_inplace(x, y)))), {1, 2, 3},
       list({9, 12, 15}));
  // x + x.sum()
  each(ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, ip::reduce_sum(x)) + y * 0.0_c)), {1, 2, 3},
       list({7, 8, 9}));
  // (x + y) * exp(x) and dot(x + y, exp(x)) with x = 0: exp reads x before the add
  each(ip::function(ip::inputs(x, y), ip::outputs(ip::mul(ip::add_inplace(x, y), ip::exp(x)))), {0, 0, 0},
       list({4, 5, 6}));
  each(ip::function(ip::inputs(x, y), ip::outputs(ip::dot(ip::add_inplace(x, y), ip::exp(x)) + y * 0.0_c)),
       {0, 0, 0}, list({15, 15, 15}));
  // (x[1:] + y[1:]) * x[1:]
  each(ip::function(ip::inputs(x, y), ip::outputs(ip::mul(ip::add_inplace(ip::slice<1>(x), ip::slice<1>(y)),
                                                          ip::slice<1>(x)))),
       {1, 2, 3}, list({14, 27}));
}

// PyTensor's inplace rewrite (tests/tensor/rewriting/test_basic.py) must never
// compute a node in a donated input that a later or other-pattern read needs:
// reversed and transposed reads of the donated input, a donated input also
// returned, two outputs each in a donated input. Values are NumPy's with
// x = [1 2 3], y = [10 20 30], Q = np.arange(9.).reshape(3, 3).
TEST_CASE("the automatic rewrite beside reads of another pattern", "[run][donation][peer]") {
  constexpr auto Q = ip::input<"Q", float, ip::extents<3, 3>>;
  constexpr auto X = ip::input<"X", float, 2>;
  auto q3 = [] {
    ip::tensor<float, ip::extents<3, 3>> m{};
    for (std::size_t i = 0; i < 9; ++i) m[i] = static_cast<float>(i);
    return m;
  };
  auto m3 = [] {
    ip::tensor<float, 2> m(3, 3);
    for (std::size_t i = 0; i < 9; ++i) m[i] = static_cast<float>(i);
    return m;
  };
  constexpr auto f1 = ip::function(ip::inputs(x), ip::outputs(ip::exp(x * 0.0_c) + ip::reverse(x)));
  static_assert(ip::plan(f1, ip::donated).allocations == 1);
  CHECK(values(f1(ip::tensor<float>{1, 2, 3})) == list({4, 3, 2}));
  CHECK(values(f1.debug(ip::tensor<float>{1, 2, 3})) == list({4, 3, 2}));
  constexpr auto f2 = ip::function(ip::inputs(X), ip::outputs(ip::exp(ip::transpose(X) * 0.0_c) + ip::transpose(X)));
  CHECK(values(f2(m3())) == list({1, 4, 7, 2, 5, 8, 3, 6, 9}));  // 1 + Q.T
  constexpr auto f3 = ip::function(ip::inputs(Q), ip::outputs(ip::transpose(Q) + Q));
  static_assert(ip::plan(f3, ip::donated).allocations == 1);
  CHECK(values(f3(q3())) == list({0, 4, 8, 4, 8, 12, 8, 12, 16}));
  constexpr auto f4 = ip::function(ip::inputs(Q), ip::outputs(ip::transpose(ip::exp(Q * 0.0_c) + Q) * 2.0_c));
  CHECK(values(f4(q3())) == list({2, 8, 14, 4, 10, 16, 6, 12, 18}));  // 2 (1 + Q).T
  CHECK(values(f4.debug(q3())) == list({2, 8, 14, 4, 10, 16, 6, 12, 18}));
  constexpr auto f5 = ip::function(ip::inputs(Q), ip::outputs(Q - ip::transpose(ip::exp(Q * 0.0_c) + Q)));
  CHECK(values(f5(q3())) == list({-1, -3, -5, 1, -1, -3, 3, 1, -1}));  // Q - (1 + Q).T
  CHECK(values(f5.debug(q3())) == list({-1, -3, -5, 1, -1, -3, 3, 1, -1}));
  constexpr auto f6 = ip::function(ip::inputs(X), ip::outputs(ip::dot(X, X) + ip::transpose(X)));
  CHECK(values(f6(m3())) == list({15, 21, 27, 43, 58, 73, 71, 95, 119}));  // X @ X + X.T
  CHECK(values(f6.debug(m3())) == list({15, 21, 27, 43, 58, 73, 71, 95, 119}));
  // two outputs, each computed in one donated input, in one loop
  constexpr auto f7 = ip::function(ip::inputs(x, y), ip::outputs(x + y, y - x));
  static_assert(ip::plan(f7, ip::donated, ip::donated).allocations == 0);
  auto [s, d] = f7(ip::tensor<float>{1, 2, 3}, ip::tensor<float>{10, 20, 30});
  CHECK(values(s) == list({11, 22, 33}));
  CHECK(values(d) == list({9, 18, 27}));
  // a donated input also returned, whole or as a view: not overwritten
  constexpr auto f8 = ip::function(ip::inputs(x), ip::outputs(ip::exp(x * 0.0_c) + x, ip::slice<1>(x)));
  static_assert(ip::plan(f8, ip::donated).allocations == 1);
  auto [p, v] = f8(ip::tensor<float>{1, 2, 3});
  CHECK(values(p) == list({2, 3, 4}));
  CHECK(values(v) == list({2, 3}));
  // an indestructible input donated: never computed in
  constexpr auto xk = ip::input<"xk", float, 1, ip::indestructible>;
  constexpr auto f9 = ip::function(ip::inputs(xk), ip::outputs(ip::exp(xk * 0.0_c) + xk));
  static_assert(ip::plan(f9, ip::donated).in_place == 0);
  ip::tensor<float> k{1, 2, 3};
  const float* ok = k.data();
  auto r9 = f9(std::move(k));
  CHECK(r9.data() != ok);
  CHECK(values(r9) == list({2, 3, 4}));
}
