// Calling a checked function: binding, donation, copy-protection, results, errors.
#include "../tensor/allocations.hpp"  // (first: it makes the library count allocations)
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 2>;
constexpr auto S4 = ip::input<"S4", float, ip::extents<4>>;
constexpr auto alpha = ip::scalar<"alpha", float>;
constexpr auto n = ip::scalar<"n", int>;

std::vector<float> list(std::initializer_list<float> l) { return l; }
}  // namespace

TEST_CASE("a single output is returned as a tensor; several as a tuple", "[run]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x * 2.0_c + y));
  ip::tensor<float> a{1, 2, 3}, b{10, 20, 30};
  auto r = f(a, b);
  STATIC_REQUIRE(std::is_same_v<decltype(r), ip::tensor<float, 1>>);
  CHECK(values(r) == list({12, 24, 36}));

  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(x + y, x - y, ip::reduce_sum(x)));
  auto [s, d, t] = g(a, b);
  CHECK(values(s) == list({11, 22, 33}));
  CHECK(values(d) == list({-9, -18, -27}));
  STATIC_REQUIRE(std::is_same_v<decltype(t), ip::tensor<float, 0>>);
  CHECK(static_cast<float>(t) == 6);
}

TEST_CASE("a result of static extents is a tensor of those extents", "[run]") {
  constexpr auto f = ip::function(ip::inputs(S4, x), ip::outputs(S4 * 2.0_c, x + 1.0_c, ip::reduce_sum(S4)));
  ip::tensor<float, ip::extents<4>> s{1, 2, 3, 4};
  ip::tensor<float> v{1};
  auto [twice, inc, total] = f(s, v);
  STATIC_REQUIRE(std::is_same_v<decltype(twice), ip::tensor<float, ip::extents<4>>>);
  STATIC_REQUIRE(std::is_same_v<decltype(inc), ip::tensor<float, 1>>);
  STATIC_REQUIRE(std::is_same_v<decltype(total), ip::tensor<float, 0>>);
  // so a loop can donate the result back as the next argument, storage and all
  constexpr auto g = ip::function(ip::inputs(S4), ip::outputs(S4 * 2.0_c));
  const ip::tensor<float> by_rank = g(s);  // converts, taking the result's storage
  CHECK(values(by_rank) == list({2, 4, 6, 8}));
  const float* storage = s.data();
  for (int i = 0; i < 3; ++i) s = g(std::move(s));
  CHECK(s.data() == storage);
  CHECK(values(s) == list({8, 16, 24, 32}));
}

TEST_CASE("constants and scalars read as arrays: by kernels, views and results", "[run]") {
  constexpr auto k = ip::scalar<"k", float>;
  constexpr auto f = ip::function(ip::inputs(x, k), ip::outputs(ip::reshape<1>(k), x + ip::reshape<1>(2.0_c),
                                                                ip::reduce_sum(ip::reshape<1>(3.0_c))));
  ip::tensor<float> a{1, 2};
  auto [kv, shifted, three] = f(a, 5.0f);
  STATIC_REQUIRE(std::is_same_v<decltype(kv), ip::tensor<float, ip::extents<1>>>);
  CHECK(values(kv) == list({5}));
  CHECK(values(shifted) == list({3, 4}));
  CHECK(static_cast<float>(three) == 3);
  CHECK(ip::detail::run::last_call_counts.allocations == ip::plan(f, ip::borrowed).allocations);
  auto [kv2, shifted2, three2] = f.debug(a, 5.0f);
  CHECK(values(kv2) == list({5}));
  (void)shifted2, (void)three2;
}

TEST_CASE("borrowed arguments are never written; destroyed ones are copied once", "[run][donation]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y)));
  ip::tensor<float> a{1, 2, 3};
  const ip::tensor<float> b{10, 20, 30};
  auto r = f(a, b);
  CHECK(values(r) == list({11, 22, 33}));
  CHECK(values(a) == list({1, 2, 3}));
  CHECK(r.data() != a.data());
  // a view and a const tensor are borrowed too
  auto r2 = f(a.view(), b);
  CHECK(values(r2) == list({11, 22, 33}));
  CHECK(values(a) == list({1, 2, 3}));
}

TEST_CASE("a donated argument's storage is computed in and returned", "[run][donation]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::exp(x * 0.0_c) + x * y));
  ip::tensor<float> a{1, 2, 3}, b{10, 20, 30};
  const float* old = a.data();
  auto r = f(std::move(a), b);
  CHECK(r.data() == old);  // the rewrite computed the chain in a's storage
  CHECK(a.size() == 0);    // a's storage went to the result
  CHECK(a.data() == nullptr);
  CHECK(values(r) == list({11, 41, 91}));
  CHECK(values(b) == list({10, 20, 30}));

  // an explicit in-place node on a donated input
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(ip::mul_inplace(x, y)));
  ip::tensor<float> c{1, 2, 3};
  const float* oc = c.data();
  auto r2 = g(std::move(c), b);
  CHECK(r2.data() == oc);
  CHECK(values(r2) == list({10, 40, 90}));
}

TEST_CASE("a donated argument that overlaps another is treated as borrowed", "[run][donation]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y)));
  ip::tensor<float> a{1, 2, 3};
  const float* old = a.data();
  auto view = a.view();
  auto r = f(std::move(a), view);  // y reads a's elements: a cannot be overwritten
  CHECK(values(r) == list({2, 4, 6}));
  CHECK(r.data() != old);
  CHECK(values(view) == list({1, 2, 3}));  // a still owns its (unchanged) storage
  CHECK(a.data() == old);
}

TEST_CASE("views of inputs and of results", "[run][views]") {
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::transpose(A)));
  ip::tensor<float, 2> m{{1, 2, 3}, {4, 5, 6}};
  auto t = f(m);  // borrowed: a view into m
  STATIC_REQUIRE(std::is_same_v<decltype(t), ip::tensor_view<float, 2>>);
  CHECK(t.data() == m.data());
  CHECK(t(2, 1) == 6);
  const ip::tensor<float, 2>& cm = m;
  auto tc = f(cm);
  STATIC_REQUIRE(std::is_same_v<decltype(tc), ip::tensor_view<const float, 2>>);

  // donated: the view keeps the storage alive after the argument is gone
  auto kept = f(ip::tensor<float, 2>{{1, 2}, {3, 4}});
  STATIC_REQUIRE(std::is_same_v<decltype(kept), ip::kept_view<float, 2>>);
  CHECK(kept(0, 1) == 3);
  CHECK(kept(1, 0) == 2);
  auto copy = kept;  // shares the storage
  CHECK(copy.owner() == kept.owner());

  // a view of a computed value
  constexpr auto g = ip::function(ip::inputs(A), ip::outputs(ip::slice<1>(ip::exp(A * 0.0_c) + A)));
  auto s = g(m);
  STATIC_REQUIRE(std::is_same_v<decltype(s), ip::kept_view<float, 2>>);
  CHECK(values(s) == list({5, 6, 7}));

  // a view of a value that is also returned: a view into that tensor
  constexpr auto h = ip::function(ip::inputs(A), ip::outputs(A + A, ip::transpose(A + A)));
  auto [sum, tr] = h(m);
  CHECK(tr.data() == sum.data());
  CHECK(tr(0, 1) == 8);
}

TEST_CASE("inputs returned as they are", "[run][degenerate]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x, y * 2.0_c));
  ip::tensor<float> a{1, 2}, b{3, 4};
  auto [xa, yb] = f(a, b);
  STATIC_REQUIRE(std::is_same_v<decltype(xa), ip::tensor_view<float, 1>>);
  CHECK(xa.data() == a.data());
  const float* old = a.data();
  auto [xd, yd] = f(std::move(a), b);
  STATIC_REQUIRE(std::is_same_v<decltype(xd), ip::tensor<float, 1>>);
  CHECK(xd.data() == old);
  CHECK(values(yd) == list({6, 8}));
  // twice: the second is a copy
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(x + 1.0_c, x + 1.0_c));
  auto [p, q] = g(b);
  CHECK(p.data() != q.data());
  CHECK(values(p) == values(q));
  // a constant
  constexpr auto c = ip::function(ip::inputs(x), ip::outputs(2.5_c, x));
  auto [k, xx] = c(b);
  CHECK(static_cast<double>(k) == 2.5);
}

TEST_CASE("scalar inputs are passed by value", "[run][scalar]") {
  constexpr auto f = ip::function(ip::inputs(x, alpha, n), ip::outputs(x * alpha + n));
  ip::tensor<float> a{1, 2, 3};
  CHECK(values(f(a, 2.0f, 1)) == list({3, 5, 7}));
  CHECK(values(f(a, 0.5, 0)) == list({0.5f, 1, 1.5f}));  // converted to the input's dtype
  // a scalar destroyed in place: the call's own copy
  constexpr auto g = ip::function(ip::inputs(alpha, x), ip::outputs(ip::add_inplace(alpha, 1.0_c) * x));
  CHECK(values(g(2.0f, a)) == list({3, 6, 9}));
}

TEST_CASE("static extents and shapes are checked before anything runs", "[run][errors]") {
  constexpr auto f = ip::function(ip::inputs(S4), ip::outputs(ip::exp_inplace(S4)));
  ip::tensor<float> five{1, 2, 3, 4, 5};
  const auto before = values(five);
  try {
    (void)f(std::move(five));
    FAIL("no error");
  } catch (const ip::shape_error& e) {
    const std::string m = e.what();
    CHECK(m.find("inplace: shape_error: input \"S4\"") != std::string::npos);
    CHECK(m.find("(4)") != std::string::npos);
    CHECK(m.find("(5)") != std::string::npos);
  }
  CHECK(values(five) == before);  // donated, but nothing ran

  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y) * 2.0_c));
  ip::tensor<float> a{1, 2, 3}, b{1, 2};
  try {
    (void)g(a, b);
    FAIL("no error");
  } catch (const ip::shape_error& e) {
    const std::string m = e.what();
    CHECK(m.find("inplace: shape_error: add_inplace(x, y)") != std::string::npos);
    CHECK(m.find("(3), (2)") != std::string::npos);
  }
  CHECK(values(a) == list({1, 2, 3}));
  CHECK(values(b) == list({1, 2}));

  // an in-place op cannot grow its input by broadcasting
  ip::tensor<float> one{1}, three{1, 2, 3};
  CHECK_THROWS_WITH(g(one, three), Catch::Contains("cannot grow"));
  CHECK(values(one) == list({1}));

  constexpr auto d = ip::function(ip::inputs(A, B), ip::outputs(ip::dot(A, B)));
  ip::tensor<float, 2> m23(2, 3), m22(2, 2);
  CHECK_THROWS_WITH(d(m23, m22), Catch::Contains("dot(A, B)"));
}

TEST_CASE("empty and moved-from tensors", "[run][errors]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y) * 2.0_c, ip::reduce_sum(y)));
  ip::tensor<float> e1, e2;
  auto [r, s] = f(e1, e2);
  CHECK(r.size() == 0);
  CHECK(static_cast<float>(s) == 0);
  ip::tensor<float> a{1, 2}, gone{3, 4};
  ip::tensor<float> taken = std::move(gone);
  CHECK_THROWS_AS(f(a, gone), ip::shape_error);  // extents [0] do not broadcast with [2]
  CHECK(values(a) == list({1, 2}));

  constexpr auto s0 = ip::input<"s0", float, 0>;
  constexpr auto g = ip::function(ip::inputs(s0), ip::outputs(s0 + 1.0_c));
  ip::tensor<float, 0> z;
  z = 1.0f;
  ip::tensor<float, 0> moved = std::move(z);
  CHECK_THROWS_WITH(g(z), Catch::Contains("input \"s0\": a rank-0 argument without storage"));
}

namespace user_ops {  // (named: clang calls members only the library reads unused in unnamed namespaces)
// An opaque op whose kernel throws midway: it has written part of its output.
struct throws_midway {
  static constexpr std::string_view name = "throws_midway";
  static constexpr auto destroy_map =
      boost::hana::make_map(boost::hana::make_pair(boost::hana::int_c<0>, boost::hana::tuple_c<int, 0>));
  template <class O, class I>
  void kernel(const O& out, const I&) const {
    out.data()[0] = -1;
    throw std::runtime_error("kernel failed");
  }
};
}  // namespace user_ops
using user_ops::throws_midway;

TEST_CASE("a kernel that throws leaves borrowed arguments unchanged", "[run][errors]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(throws_midway{}, x) + 1.0_c));
  ip::tensor<float> a{1, 2, 3};
  CHECK_THROWS_WITH(f(a), "kernel failed");
  CHECK(values(a) == list({1, 2, 3}));  // the kernel wrote a copy
  // donated: the storage stays with the argument, its elements unspecified
  const float* old = a.data();
  CHECK_THROWS_WITH(f(std::move(a)), "kernel failed");
  CHECK(a.data() == old);
  CHECK(a[0] == -1);
}
