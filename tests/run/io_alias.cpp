// io_alias at run time: must_alias returns the output in the donated input's
// storage; may_alias uses a donated input's storage and copy-protects a borrowed
// one, and where in place would break a rule, copies the output into the donated
// storage when the call returns.
#include "../tensor/allocations.hpp"
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto p = ip::input<"p", float>;
constexpr auto g = ip::input<"g", float>;
constexpr auto W = ip::input<"W", float, 2>;

}  // namespace

TEST_CASE("must_alias: XLA's increment in the parameter's storage", "[io_alias]") {
  constexpr auto inc = ip::function(ip::inputs(p), ip::outputs(p + 1.0_c), ip::io_alias<0, 0>(ip::must_alias));
  STATIC_REQUIRE(ip::plan(inc, ip::donated) == ip::plan_result{0, 0, 1, 1, 0});
  ip::tensor<float> param{1, 2, 3};
  const float* old = param.data();
  auto out = inc(std::move(param));
  CHECK(out.data() == old);
  CHECK(values(out) == std::vector<float>{2, 3, 4});
  CHECK(param.size() == 0);
}

TEST_CASE("must_alias: a donated argument overlapping another throws alias_error, nothing run", "[io_alias]") {
  // XLA's must-alias cannot be kept, so it is an error, not a fresh tensor
  // (may_alias takes a fresh tensor there, below)
  constexpr auto f = ip::function(ip::inputs(p, g), ip::outputs(p + g * 2.0_c), ip::io_alias<0, 0>(ip::must_alias));
  ip::tensor<float> a{1, 2, 3};
  const float* old = a.data();
  try {
    (void)f(std::move(a), ip::reverse(a.view()));
    FAIL("no alias_error");
  } catch (const ip::alias_error& e) {
    const std::string what = e.what();
    CHECK(what.find("alias_error") != std::string::npos);
    CHECK(what.find("must_alias to input \"p\"") != std::string::npos);
    CHECK(what.find("overlaps another argument") != std::string::npos);
  }
  CHECK(a.data() == old);  // still the caller's, unmodified
  CHECK(values(a) == std::vector<float>{1, 2, 3});
  CHECK_THROWS_AS(f(std::move(a), std::move(a)), ip::alias_error);
  CHECK(values(a) == std::vector<float>{1, 2, 3});
  // donated without overlap: in place, as before
  ip::tensor<float> b{3, 2, 1};
  auto r2 = f(std::move(a), b);
  CHECK(r2.data() == old);
  CHECK(values(r2) == std::vector<float>{7, 6, 5});
  // may_alias: the same overlap takes a fresh tensor, with the same values
  constexpr auto m = ip::function(ip::inputs(p, g), ip::outputs(p + g * 2.0_c), ip::io_alias<0, 0>(ip::may_alias));
  ip::tensor<float> c{1, 2, 3};
  auto r3 = m(std::move(c), ip::reverse(c.view()));
  CHECK(values(r3) == std::vector<float>{7, 6, 5});
}

TEST_CASE("must_alias: a training step updates parameters in place", "[io_alias]") {
  // p - 0.1 * g in p's storage, and the squared gradient norm beside it
  constexpr auto step = ip::function(ip::inputs(p, g), ip::outputs(p - 0.1_c * g, ip::reduce_sum(g * g)),
                                     ip::io_alias<0, 0>(ip::must_alias));
  ip::tensor<float> param{1, 2, 3}, grad{10, 0, -10};
  const float* old = param.data();
  auto [next, norm2] = step(std::move(param), grad);
  CHECK(next.data() == old);
  CHECK(values(next) == std::vector<float>{0, 2, 4});
  CHECK(static_cast<float>(norm2) == 200);
  CHECK(values(grad) == std::vector<float>{10, 0, -10});
}

TEST_CASE("must_alias: an opaque result in an input nobody else reads", "[io_alias]") {
  constexpr auto f = ip::function(ip::inputs(W, ip::input<"M", float, 2>), ip::outputs(ip::dot(W, W)),
                                  ip::io_alias<0, 1>(ip::must_alias));
  ip::tensor<float, 2> w{{1, 2}, {3, 4}}, m(2, 2);
  const float* old = m.data();
  auto r = f(w, std::move(m));
  CHECK(r.data() == old);
  CHECK(values(r) == std::vector<float>{7, 10, 15, 22});
}

TEST_CASE("may_alias: donated uses the storage, borrowed is copy-protected", "[io_alias]") {
  constexpr auto f = ip::function(ip::inputs(p, g), ip::outputs(p * g), ip::io_alias<0, 0>(ip::may_alias));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed) == ip::plan_result{0, 0, 1, 1, 0});
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::borrowed) == ip::plan_result{1, 1, 1, 1, ip::dynamic});
  ip::tensor<float> a{1, 2}, b{3, 4};
  auto borrowed = f(a, b);
  CHECK(borrowed.data() != a.data());
  CHECK(values(borrowed) == std::vector<float>{3, 8});
  CHECK(values(a) == std::vector<float>{1, 2});
  const float* old = a.data();
  auto donated = f(std::move(a), b);
  CHECK(donated.data() == old);
  CHECK(values(donated) == std::vector<float>{3, 8});
}

TEST_CASE("an aliased input read by other nodes: they run first", "[io_alias]") {
  constexpr auto f = ip::function(ip::inputs(p, g), ip::outputs(p * 2.0_c, g + p), ip::io_alias<0, 0>(ip::must_alias),
                                  ip::io_alias<1, 1>(ip::may_alias));
  ip::tensor<float> a{1, 2}, b{10, 20};
  const float* pa = a.data();
  const float* pb = b.data();
  auto [twice, sum] = f(std::move(a), std::move(b));
  CHECK(twice.data() == pa);
  CHECK(sum.data() == pb);
  CHECK(values(twice) == std::vector<float>{2, 4});
  CHECK(values(sum) == std::vector<float>{11, 22});
}

// ---- io_alias outputs that are views of their input ---------------------------------
// An output that is a same-pattern view of its input (x[0:], transpose of a vector, a
// reshape to the same extents) is accepted by ip::check: the view writes nothing. Other
// nodes may read the view or the input, before or after; a call must compile and compute
// what NumPy computes, under every donation pattern, with ip::no_rewrite and in debug mode.
namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto S23 = ip::input<"S", float, ip::extents<2, 3>>;

template <class R>
std::vector<std::vector<float>> all_values(const R& r) {
  if constexpr (requires { std::tuple_size<R>::value; })
    return std::apply([](const auto&... o) { return std::vector<std::vector<float>>{values(o)...}; }, r);
  else return {values(r)};
}
template <class G, class T>
auto call_masked(const G& g, unsigned mask, T& a) {
  return (mask & 1u) ? all_values(g(std::move(a))) : all_values(g(a));
}
template <class G, class T, class U>
auto call_masked(const G& g, unsigned mask, T& a, U& b) {
  if (mask & 1u) return (mask & 2u) ? all_values(g(std::move(a), std::move(b))) : all_values(g(std::move(a), b));
  return (mask & 2u) ? all_values(g(a, std::move(b))) : all_values(g(a, b));
}
// Calls f and its ip::no_rewrite twin with each argument borrowed and donated (every
// pattern), and f.debug once; each result must be `want`. `make` returns fresh arguments.
template <class F, class FN, class Make>
void every_way(const F& f, const FN& fn, Make make, const std::vector<std::vector<float>>& want) {
  constexpr std::size_t n = std::tuple_size_v<decltype(make())>;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    INFO("donation mask " << mask);
    auto a1 = make();
    CHECK(std::apply([&](auto&... a) { return call_masked(f, mask, a...); }, a1) == want);
    auto a2 = make();
    CHECK(std::apply([&](auto&... a) { return call_masked(fn, mask, a...); }, a2) == want);
  }
  auto args = make();
  CHECK(std::apply([&](auto&... a) { return all_values(f.debug(a...)); }, args) == want);
}
}  // namespace

TEST_CASE("io_alias: the output is x[0:], and another node reads that view", "[io_alias][view]") {
  // the case that ran into the runtime's internal static_assert: the view node counted as
  // the writer of x's storage, so the reader of the view had to run both after and before it
  constexpr auto v = ip::slice<0>(x);
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(v, v * 2.0_c), ip::io_alias<0, 0>(ip::may_alias)).error == ip::error_kind::none);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(v, v * 2.0_c), ip::io_alias<0, 0>(ip::may_alias));
  constexpr auto fn =
      ip::function(ip::inputs(x), ip::outputs(v, v * 2.0_c), ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float>{1, 2, 3}}; }, {{1, 2, 3}, {2, 4, 6}});
  // may_alias, borrowed: nothing is destroyed, so no copy; the view is into the caller's tensor
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).copies == 0);
  ip::tensor<float> b{1, 2, 3};
  auto [bv, bt] = f(b);
  CHECK(bv.data() == b.data());
  // must_alias: the donated storage is returned
  constexpr auto m = ip::function(ip::inputs(x), ip::outputs(v, v * 2.0_c), ip::io_alias<0, 0>(ip::must_alias));
  ip::tensor<float> a{1, 2, 3};
  const float* old = a.data();
  auto [view, twice] = m(std::move(a));
  CHECK(view.data() == old);
  CHECK(values(view) == std::vector<float>{1, 2, 3});
  CHECK(values(twice) == std::vector<float>{2, 4, 6});
}

TEST_CASE("io_alias: a view output with readers of the view and of x, before and after", "[io_alias][view]") {
  constexpr auto v = ip::slice<0>(x);
  // x read (x + 1), the view read and sliced again (v[1:] * 2), x read with y (x - y)
  constexpr auto outs = ip::outputs(x + 1.0_c, v, ip::slice<1>(v) * 2.0_c, x - y);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), outs, ip::io_alias<1, 0>(ip::may_alias)).error == ip::error_kind::none);
  constexpr auto f = ip::function(ip::inputs(x, y), outs, ip::io_alias<1, 0>(ip::may_alias));
  constexpr auto fn = ip::function(ip::inputs(x, y), outs, ip::io_alias<1, 0>(ip::may_alias), ip::no_rewrite);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float>{1, 2, 3}, ip::tensor<float>{10, 20, 30}}; },
            {{2, 3, 4}, {1, 2, 3}, {4, 6}, {-9, -18, -27}});
  // and y's own alias beside it: x + y computed in y's storage
  constexpr auto outs2 = ip::outputs(v, v + y);
  constexpr auto g2 = ip::function(ip::inputs(x, y), outs2, ip::io_alias<0, 0>(ip::may_alias),
                                   ip::io_alias<1, 1>(ip::may_alias));
  constexpr auto g2n = ip::function(ip::inputs(x, y), outs2, ip::io_alias<0, 0>(ip::may_alias),
                                    ip::io_alias<1, 1>(ip::may_alias), ip::no_rewrite);
  every_way(g2, g2n, [] { return std::tuple{ip::tensor<float>{1, 2, 3}, ip::tensor<float>{10, 20, 30}}; },
            {{1, 2, 3}, {11, 22, 33}});
}

TEST_CASE("io_alias: the transpose of a vector and a same-extents reshape as outputs", "[io_alias][view]") {
  constexpr auto t = ip::transpose(x);
  constexpr auto outs = ip::outputs(t, ip::neg(t) + x);
  STATIC_REQUIRE(ip::check(ip::inputs(x), outs, ip::io_alias<0, 0>(ip::may_alias)).error == ip::error_kind::none);
  constexpr auto f = ip::function(ip::inputs(x), outs, ip::io_alias<0, 0>(ip::may_alias));
  constexpr auto fn = ip::function(ip::inputs(x), outs, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float>{1, 2, 3}}; }, {{1, 2, 3}, {0, 0, 0}});

  constexpr auto r = ip::reshape<2, 3>(S23);
  constexpr auto outs2 = ip::outputs(r * 3.0_c, r, ip::transpose(r) + 1.0_c);
  STATIC_REQUIRE(ip::check(ip::inputs(S23), outs2, ip::io_alias<1, 0>(ip::may_alias)).error == ip::error_kind::none);
  constexpr auto g = ip::function(ip::inputs(S23), outs2, ip::io_alias<1, 0>(ip::may_alias));
  constexpr auto gn = ip::function(ip::inputs(S23), outs2, ip::io_alias<1, 0>(ip::may_alias), ip::no_rewrite);
  using T23 = ip::tensor<float, ip::extents<2, 3>>;
  every_way(g, gn, [] { return std::tuple{T23{{1, 2, 3}, {4, 5, 6}}}; },
            {{3, 6, 9, 12, 15, 18}, {1, 2, 3, 4, 5, 6}, {2, 5, 3, 6, 4, 7}});
}

TEST_CASE("io_alias: an in-place op on a view of x, returned as x's alias", "[io_alias][view]") {
  // neg_inplace(x[0:]) overwrites all of x; x * 2 reads x before it
  constexpr auto outs = ip::outputs(ip::neg_inplace(ip::slice<0>(x)), ip::reduce_sum(x));
  STATIC_REQUIRE(ip::check(ip::inputs(x), outs, ip::io_alias<0, 0>(ip::may_alias)).error == ip::error_kind::none);
  constexpr auto f = ip::function(ip::inputs(x), outs, ip::io_alias<0, 0>(ip::may_alias));
  constexpr auto fn = ip::function(ip::inputs(x), outs, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float>{1, 2, 3}}; }, {{-1, -2, -3}, {6}});
  // on x[1:]: the output is the tail of x's storage
  constexpr auto tail = ip::outputs(ip::neg_inplace(ip::slice<1>(x)));
  STATIC_REQUIRE(ip::check(ip::inputs(x), tail, ip::io_alias<0, 0>(ip::may_alias)).error == ip::error_kind::none);
  constexpr auto g = ip::function(ip::inputs(x), tail, ip::io_alias<0, 0>(ip::may_alias));
  constexpr auto gn = ip::function(ip::inputs(x), tail, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
  every_way(g, gn, [] { return std::tuple{ip::tensor<float>{1, 2, 3}}; }, {{-2, -3}});
}

TEST_CASE("io_alias: more view outputs ip::check accepts", "[io_alias][view]") {
  constexpr auto v = ip::slice<0>(x);
  const auto xy = [] { return std::tuple{ip::tensor<float>{1, 2, 3}, ip::tensor<float>{10, 20, 30}}; };
  const auto x1 = [] { return std::tuple{ip::tensor<float>{1, 2, 3}}; };
  {  // the view read by an in-place node on another input
    constexpr auto o = ip::outputs(v, ip::add_inplace(y, v));
    constexpr auto f = ip::function(ip::inputs(x, y), o, ip::io_alias<0, 0>(ip::may_alias));
    constexpr auto fn = ip::function(ip::inputs(x, y), o, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
    every_way(f, fn, xy, {{1, 2, 3}, {11, 22, 33}});
  }
  {  // a second alias, and a second input returned as itself
    constexpr auto o = ip::outputs(v, y);
    constexpr auto f =
        ip::function(ip::inputs(x, y), o, ip::io_alias<0, 0>(ip::may_alias), ip::io_alias<1, 1>(ip::may_alias));
    constexpr auto fn = ip::function(ip::inputs(x, y), o, ip::io_alias<0, 0>(ip::may_alias),
                                     ip::io_alias<1, 1>(ip::may_alias), ip::no_rewrite);
    every_way(f, fn, xy, {{1, 2, 3}, {10, 20, 30}});
  }
  {  // the view, a view of it, and x itself, all returned
    constexpr auto o = ip::outputs(v, ip::slice<0>(v), x);
    constexpr auto f = ip::function(ip::inputs(x), o, ip::io_alias<0, 0>(ip::may_alias));
    constexpr auto fn = ip::function(ip::inputs(x), o, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
    every_way(f, fn, x1, {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}});
  }
  {  // a chain of views as the output
    constexpr auto o = ip::outputs(ip::slice<0>(v), v * 2.0_c);
    constexpr auto f = ip::function(ip::inputs(x), o, ip::io_alias<0, 0>(ip::may_alias));
    constexpr auto fn = ip::function(ip::inputs(x), o, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
    every_way(f, fn, x1, {{1, 2, 3}, {2, 4, 6}});
  }
  {  // an in-place node on the view, and another view of x read before it
    constexpr auto o = ip::outputs(ip::neg_inplace(v), ip::slice<0>(x) * 2.0_c);
    constexpr auto f = ip::function(ip::inputs(x), o, ip::io_alias<0, 0>(ip::may_alias));
    constexpr auto fn = ip::function(ip::inputs(x), o, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
    every_way(f, fn, x1, {{-1, -2, -3}, {2, 4, 6}});
  }
  {  // a transposed transpose of a matrix
    constexpr auto o = ip::outputs(ip::transpose(ip::transpose(W)), W * 2.0_c);
    constexpr auto f = ip::function(ip::inputs(W), o, ip::io_alias<0, 0>(ip::may_alias));
    constexpr auto fn = ip::function(ip::inputs(W), o, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
    every_way(f, fn, [] { return std::tuple{ip::tensor<float, 2>{{1, 2}, {3, 4}}}; }, {{1, 2, 3, 4}, {2, 4, 6, 8}});
  }
}

// ---- may_alias honoured by a copy ------------------------------------------------------
// Where computing the output in its input's storage would break a rule, a may_alias is
// honoured as XLA's copy insertion does: the output is computed where it would be without
// the alias and, when the input is donated, copied into its storage as the call returns;
// outputs that live in that storage are copied out first. must_alias stays in place only.
namespace {
constexpr auto a = ip::input<"a", float>;
constexpr auto b = ip::input<"b", float>;
constexpr auto S4 = ip::input<"S4", float, ip::extents<4>>;
constexpr auto T4 = ip::input<"T4", float, ip::extents<4>>;
constexpr auto K = ip::input<"K", float, ip::extents<4>, ip::indestructible>;

// The call's counts against ip::plan for a donation pattern given as markers.
template <class F, class... M, class... Args>
auto counted(const F& f, ip::plan_result p, Args&&... args) {
  const int before = allocations::aligned();
  auto r = f(std::forward<Args>(args)...);
  CHECK(allocations::aligned() - before == static_cast<int>(p.allocations));
  CHECK(ip::detail::run::last_call_counts.allocations == p.allocations);
  CHECK(ip::detail::run::last_call_counts.copies == p.copies);
  return r;
}
}  // namespace

TEST_CASE("may_alias by copy: outputs(a, b) with io_alias<0, 1>", "[io_alias][copy]") {
  // output 0 (a) belongs in b's storage, but b is output 1: in place would destroy it
  STATIC_REQUIRE(ip::check(ip::inputs(a, b), ip::outputs(a, b), ip::io_alias<0, 1>(ip::may_alias)).ok);
  constexpr auto must = ip::check(ip::inputs(a, b), ip::outputs(a, b), ip::io_alias<0, 1>(ip::must_alias));
  STATIC_REQUIRE(must.error == ip::error_kind::alias_conflict);
  STATIC_REQUIRE(must.name(2) == "the output is another leaf");
  constexpr auto f = ip::function(ip::inputs(a, b), ip::outputs(a, b), ip::io_alias<0, 1>(ip::may_alias));
  // b donated: b copied out (1 allocation, 1 copy), then a copied into b's storage (1 copy)
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::donated) == ip::plan_result{1, 2, 0, 0, ip::dynamic});
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::donated) == ip::plan_result{1, 2, 0, 0, ip::dynamic});
  // b borrowed: nothing to copy into
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed) == ip::plan_result{0, 0, 0, 0, 0});
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::borrowed) == ip::plan_result{0, 0, 0, 0, 0});
  {
    ip::tensor<float> x{1, 2, 3}, y{10, 20, 30};
    const float* py = y.data();
    auto [o0, o1] = counted(f, ip::plan(f, ip::donated, ip::donated), std::move(x), std::move(y));
    CHECK(o0.data() == py);  // output 0 in b's storage
    CHECK(values(o0) == std::vector<float>{1, 2, 3});
    CHECK(values(o1) == std::vector<float>{10, 20, 30});
    CHECK(o1.data() != py);
  }
  {
    ip::tensor<float> x{1, 2, 3}, y{10, 20, 30};
    const float* py = y.data();
    auto [o0, o1] = counted(f, ip::plan(f, ip::borrowed, ip::donated), x, std::move(y));
    CHECK(o0.data() == py);
    CHECK(values(o0) == std::vector<float>{1, 2, 3});
    CHECK(values(o1) == std::vector<float>{10, 20, 30});
    CHECK(values(x) == std::vector<float>{1, 2, 3});  // borrowed: untouched
  }
  {  // borrowed b: the outputs are the arguments, as without the alias
    ip::tensor<float> x{1, 2, 3}, y{10, 20, 30};
    auto [o0, o1] = counted(f, ip::plan(f, ip::borrowed, ip::borrowed), x, y);
    CHECK(o0.data() == x.data());
    CHECK(o1.data() == y.data());
    CHECK(values(x) == std::vector<float>{1, 2, 3});
    CHECK(values(y) == std::vector<float>{10, 20, 30});
  }
  // every donation pattern, with and without the rewrite, and debug mode
  constexpr auto fn = ip::function(ip::inputs(a, b), ip::outputs(a, b), ip::io_alias<0, 1>(ip::may_alias), ip::no_rewrite);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float>{1, 2, 3}, ip::tensor<float>{10, 20, 30}}; },
            {{1, 2, 3}, {10, 20, 30}});
  ip::tensor<float> x{1, 2, 3}, y{10, 20, 30};
  const float* py = y.data();
  auto [d0, d1] = f.debug(std::move(x), std::move(y));
  CHECK(d0.data() == py);
  CHECK(values(d0) == std::vector<float>{1, 2, 3});
  CHECK(values(d1) == std::vector<float>{10, 20, 30});
}

TEST_CASE("may_alias by copy: the two inputs swapped", "[io_alias][copy]") {
  constexpr auto f = ip::function(ip::inputs(a, b), ip::outputs(b, a), ip::io_alias<0, 0>(ip::may_alias),
                                  ip::io_alias<1, 1>(ip::may_alias));
  // both outputs live in storage that receives the other: both copied out, then both in
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::donated) == ip::plan_result{2, 4, 0, 0, ip::dynamic});
  ip::tensor<float> x{1, 2}, y{10, 20};
  const float* px = x.data();
  const float* py = y.data();
  auto [o0, o1] = counted(f, ip::plan(f, ip::donated, ip::donated), std::move(x), std::move(y));
  CHECK(o0.data() == px);
  CHECK(o1.data() == py);
  CHECK(values(o0) == std::vector<float>{10, 20});
  CHECK(values(o1) == std::vector<float>{1, 2});
  constexpr auto fn = ip::function(ip::inputs(a, b), ip::outputs(b, a), ip::io_alias<0, 0>(ip::may_alias),
                                   ip::io_alias<1, 1>(ip::may_alias), ip::no_rewrite);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float>{1, 2}, ip::tensor<float>{10, 20}}; }, {{10, 20}, {1, 2}});
}

TEST_CASE("may_alias by copy: the input is also returned (destroys_output)", "[io_alias][copy]") {
  constexpr auto outs = ip::outputs(S4 + 1.0_c, S4);
  STATIC_REQUIRE(ip::check(ip::inputs(S4), outs, ip::io_alias<0, 0>(ip::must_alias)).error ==
                 ip::error_kind::alias_conflict);
  constexpr auto f = ip::function(ip::inputs(S4), outs, ip::io_alias<0, 0>(ip::may_alias));
  // S4 + 1 in a fresh buffer; S4 copied out; the sum copied into S4's storage
  STATIC_REQUIRE(ip::plan(f, ip::donated) == ip::plan_result{2, 2, 1, 0, 32});
  STATIC_REQUIRE(ip::plan(f, ip::borrowed) == ip::plan_result{1, 0, 1, 0, 16});
  using T = ip::tensor<float, ip::extents<4>>;
  T x{1, 2, 3, 4};
  const float* px = x.data();
  auto [sum, old] = counted(f, ip::plan(f, ip::donated), std::move(x));
  CHECK(sum.data() == px);
  CHECK(values(sum) == std::vector<float>{2, 3, 4, 5});
  CHECK(values(old) == std::vector<float>{1, 2, 3, 4});
  constexpr auto fn = ip::function(ip::inputs(S4), outs, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
  every_way(f, fn, [] { return std::tuple{T{1, 2, 3, 4}}; }, {{2, 3, 4, 5}, {1, 2, 3, 4}});
  const auto e = ip::explain(f, ip::donated);
  CHECK_THAT(e, Catch::Matchers::Contains("io_alias<0, 0>: output 0 (#0) is copied into S4's storage (donated) when "
                                          "the call returns: in place it would break destroys_output (S4, add(S4, 1.0))"));
  CHECK_THAT(e, Catch::Matchers::Contains("  output 1 (S4) lives in S4's storage: copied out first, into a fresh tensor"));
  CHECK_THAT(ip::explain(f, ip::borrowed),
             Catch::Matchers::Contains("io_alias<0, 0>: output 0 (#0) stays where it is computed: S4 is borrowed;"));
}

TEST_CASE("may_alias by copy: an opaque node reading its input (aliasing_hazard)", "[io_alias][copy]") {
  constexpr auto f = ip::function(ip::inputs(W), ip::outputs(ip::dot(W, W)), ip::io_alias<0, 0>(ip::may_alias));
  STATIC_REQUIRE(ip::plan(f, ip::donated).allocations == 1);
  STATIC_REQUIRE(ip::plan(f, ip::donated).copies == 1);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).copies == 0);
  ip::tensor<float, 2> w{{1, 2}, {3, 4}};
  const float* pw = w.data();
  auto r = counted(f, ip::plan(f, ip::donated), std::move(w));
  CHECK(r.data() == pw);
  CHECK(values(r) == std::vector<float>{7, 10, 15, 22});
  constexpr auto fn = ip::function(ip::inputs(W), ip::outputs(ip::dot(W, W)), ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float, 2>{{1, 2}, {3, 4}}}; }, {{7, 10, 15, 22}});
}

TEST_CASE("may_alias by copy: a reader needs the output and the input (ordering_cycle)", "[io_alias][copy]") {
  constexpr auto e = ip::exp(W);
  constexpr auto outs = ip::outputs(e, ip::dot(e, W));
  STATIC_REQUIRE(ip::check(ip::inputs(W), outs, ip::io_alias<0, 0>(ip::must_alias)).error ==
                 ip::error_kind::alias_conflict);
  constexpr auto f = ip::function(ip::inputs(W), outs, ip::io_alias<0, 0>(ip::may_alias));
  constexpr auto fn = ip::function(ip::inputs(W), outs, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
  const float e0 = std::exp(0.0f), e1 = std::exp(1.0f);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float, 2>{{0, 1}, {1, 0}}}; },
            {{e0, e1, e1, e0}, {e1, e0, e0, e1}});
  ip::tensor<float, 2> w{{0, 1}, {1, 0}};
  const float* pw = w.data();
  auto [ex, d] = counted(f, ip::plan(f, ip::donated), std::move(w));
  CHECK(ex.data() == pw);
}

TEST_CASE("may_alias by copy: another node destroys the input (multiple_destroyers)", "[io_alias][copy]") {
  constexpr auto outs = ip::outputs(ip::exp(S4), ip::add_inplace(S4, T4));
  constexpr auto f = ip::function(ip::inputs(S4, T4), outs, ip::io_alias<0, 0>(ip::may_alias));
  constexpr auto fn = ip::function(ip::inputs(S4, T4), outs, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
  using T = ip::tensor<float, ip::extents<4>>;
  const auto make = [] { return std::tuple{T{0, 1, 0, 1}, T{1, 2, 3, 4}}; };
  const float e1 = std::exp(1.0f);
  every_way(f, fn, make, {{1, e1, 1, e1}, {1, 3, 3, 5}});
  // donated: the sum is computed in S4's storage, copied out; exp(S4) copied in
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed).copies == 2);
  T s{0, 1, 0, 1}, t{1, 2, 3, 4};
  const float* ps = s.data();
  auto [ex, sum] = counted(f, ip::plan(f, ip::donated, ip::borrowed), std::move(s), t);
  CHECK(ex.data() == ps);
  CHECK(values(ex) == std::vector<float>{1, e1, 1, e1});
  CHECK(values(sum) == std::vector<float>{1, 3, 3, 5});
  CHECK(values(t) == std::vector<float>{1, 2, 3, 4});
}

TEST_CASE("may_alias by copy: two aliases whose readers cross", "[io_alias][copy]") {
  // x + y in x's storage needs y - x read first; y - x in y's storage needs x + y first
  constexpr auto outs = ip::outputs(x + y, y - x);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), outs, ip::io_alias<0, 0>(ip::must_alias), ip::io_alias<1, 1>(ip::must_alias))
                     .error == ip::error_kind::alias_conflict);
  constexpr auto f = ip::function(ip::inputs(x, y), outs, ip::io_alias<0, 0>(ip::may_alias), ip::io_alias<1, 1>(ip::may_alias));
  constexpr auto fn = ip::function(ip::inputs(x, y), outs, ip::io_alias<0, 0>(ip::may_alias),
                                   ip::io_alias<1, 1>(ip::may_alias), ip::no_rewrite);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float>{1, 2}, ip::tensor<float>{10, 20}}; }, {{11, 22}, {9, 18}});
  ip::tensor<float> u{1, 2}, w{10, 20};
  const float* pu = u.data();
  const float* pw = w.data();
  auto [s, d] = counted(f, ip::plan(f, ip::donated, ip::donated), std::move(u), std::move(w));
  CHECK(s.data() == pu);
  CHECK(d.data() == pw);
  // one alias in place, the other by one copy
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::donated).copies == 1);
  // a must_alias is placed first, and the may_alias gives way
  constexpr auto g2 = ip::function(ip::inputs(x, y), outs, ip::io_alias<0, 0>(ip::may_alias), ip::io_alias<1, 1>(ip::must_alias));
  STATIC_REQUIRE(ip::plan(g2, ip::donated, ip::donated).copies == 1);
  ip::tensor<float> u2{1, 2}, w2{10, 20};
  auto [s2, d2] = g2(std::move(u2), std::move(w2));
  CHECK(values(s2) == std::vector<float>{11, 22});
  CHECK(values(d2) == std::vector<float>{9, 18});
}

TEST_CASE("may_alias by copy: views with another pattern, and other storage", "[io_alias][copy]") {
  {  // a transposed square matrix: copied out of W's storage, then back in
    constexpr auto f = ip::function(ip::inputs(W), ip::outputs(ip::transpose(W)), ip::io_alias<0, 0>(ip::may_alias));
    STATIC_REQUIRE(ip::plan(f, ip::donated) == ip::plan_result{1, 2, 0, 0, ip::dynamic});
    ip::tensor<float, 2> w{{1, 2}, {3, 4}};
    const float* pw = w.data();
    auto t = counted(f, ip::plan(f, ip::donated), std::move(w));
    CHECK(t.data() == pw);
    CHECK(values(t) == std::vector<float>{1, 3, 2, 4});
    // not square: the extents differ from the input's in this call, so a fresh tensor
    ip::tensor<float, 2> r{{1, 2, 3}, {4, 5, 6}};
    const float* pr = r.data();
    auto rt = f(std::move(r));
    CHECK(rt.data() != pr);
    CHECK(values(rt) == std::vector<float>{1, 4, 2, 5, 3, 6});
  }
  {  // x[1:] is shorter than x
    constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::slice<1>(x)), ip::io_alias<0, 0>(ip::may_alias));
    constexpr auto fn = ip::function(ip::inputs(x), ip::outputs(ip::slice<1>(x)), ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
    every_way(f, fn, [] { return std::tuple{ip::tensor<float>{1, 2, 3}}; }, {{2, 3}});
  }
  {  // computed in y's storage by an explicit in-place node, copied into x's
    constexpr auto outs = ip::outputs(ip::add_inplace(y, x));
    STATIC_REQUIRE(ip::check(ip::inputs(x, y), outs, ip::io_alias<0, 0>(ip::must_alias)).error ==
                   ip::error_kind::alias_conflict);
    constexpr auto f = ip::function(ip::inputs(x, y), outs, ip::io_alias<0, 0>(ip::may_alias));
    constexpr auto fn = ip::function(ip::inputs(x, y), outs, ip::io_alias<0, 0>(ip::may_alias), ip::no_rewrite);
    every_way(f, fn, [] { return std::tuple{ip::tensor<float>{1, 2}, ip::tensor<float>{10, 20}}; }, {{11, 22}});
    ip::tensor<float> u{1, 2}, w{10, 20};
    const float* pu = u.data();
    auto s = counted(f, ip::plan(f, ip::donated, ip::donated), std::move(u), std::move(w));
    CHECK(s.data() == pu);
  }
  {  // the aliased output is a constant
    constexpr auto f = ip::function(ip::inputs(S4), ip::outputs(ip::broadcast_to<4>(2.0_c) + 0.0_c, S4 * 2.0_c),
                                    ip::io_alias<1, 0>(ip::may_alias));
    (void)f;
  }
}

TEST_CASE("may_alias by copy: a view of the copied output is returned beside it", "[io_alias][copy]") {
  // output 0 goes into b's storage by a copy; output 1, a view of it, keeps its own storage
  constexpr auto e = ip::exp(a);
  constexpr auto outs = ip::outputs(e, ip::slice<1>(e), b);
  constexpr auto f = ip::function(ip::inputs(a, b), outs, ip::io_alias<0, 1>(ip::may_alias));
  constexpr auto fn = ip::function(ip::inputs(a, b), outs, ip::io_alias<0, 1>(ip::may_alias), ip::no_rewrite);
  const float e1 = std::exp(1.0f);
  every_way(f, fn, [] { return std::tuple{ip::tensor<float>{0, 1}, ip::tensor<float>{10, 20}}; },
            {{1, e1}, {e1}, {10, 20}});
}

TEST_CASE("may_alias into an indestructible input stays alias_conflict", "[io_alias][copy]") {
  STATIC_REQUIRE(ip::check(ip::inputs(K, S4), ip::outputs(K + S4), ip::io_alias<0, 0>(ip::may_alias)).error ==
                 ip::error_kind::alias_conflict);
  STATIC_REQUIRE(ip::check(ip::inputs(K, S4), ip::outputs(S4), ip::io_alias<0, 0>(ip::may_alias)).error ==
                 ip::error_kind::alias_conflict);
}

TEST_CASE("may_alias by copy under strict_donation: the donated storage is used", "[io_alias][copy]") {
  constexpr auto f =
      ip::function(ip::inputs(a, b), ip::outputs(a, b), ip::io_alias<0, 1>(ip::may_alias), ip::strict_donation);
  ip::tensor<float> x{1, 2}, y{3, 4};
  auto [o0, o1] = f(x, std::move(y));
  CHECK(values(o0) == std::vector<float>{1, 2});
  CHECK(values(o1) == std::vector<float>{3, 4});
}

TEST_CASE("may_alias by copy: extents that differ in this call, and overlapping arguments", "[io_alias][copy]") {
  constexpr auto f = ip::function(ip::inputs(a, b), ip::outputs(a, b), ip::io_alias<0, 1>(ip::may_alias));
  {  // a has 2 elements, b 3: output 0 cannot live in b's storage, and gets a fresh tensor
    ip::tensor<float> x{1, 2}, y{10, 20, 30};
    const float* py = y.data();
    auto [o0, o1] = f(std::move(x), std::move(y));
    CHECK(o0.data() != py);
    CHECK(values(o0) == std::vector<float>{1, 2});
    CHECK(values(o1) == std::vector<float>{10, 20, 30});
  }
  {  // a borrowed view of the donated b: b's storage is not written, the results are the same
    ip::tensor<float> y{10, 20, 30};
    const auto rev = ip::reverse(y);
    auto [o0, o1] = f(rev, std::move(y));
    CHECK(values(o0) == std::vector<float>{30, 20, 10});
    CHECK(values(o1) == std::vector<float>{10, 20, 30});
  }
}

// ip::plan against the call's own counts, for every donation pattern.
namespace {
template <bool D>
constexpr auto marker() {
  if constexpr (D) return ip::donated;
  else return ip::borrowed;
}
template <bool D, class T>
decltype(auto) pass(T& t) {
  if constexpr (D) return std::move(t);
  else return (t);
}
template <std::uint64_t M, class F, class Make, std::size_t... I>
void counts_match(const F& f, Make make, std::index_sequence<I...>) {
  constexpr ip::plan_result p = ip::plan(F{}, marker<((M >> I) & 1u) != 0>()...);
  auto args = make();
  INFO("donation mask " << M);
  const int before = allocations::aligned();
  {
    [[maybe_unused]] auto r = f(pass<((M >> I) & 1u) != 0>(std::get<I>(args))...);
    CHECK(allocations::aligned() - before == static_cast<int>(p.allocations));
    CHECK(ip::detail::run::last_call_counts.copies == p.copies);
  }
}
template <class F, class Make>
void counts_match_all(const F& f, Make make) {
  constexpr std::size_t n = std::tuple_size_v<decltype(make())>;
  [&]<std::uint64_t... M>(std::integer_sequence<std::uint64_t, M...>) {
    (counts_match<M>(f, make, std::make_index_sequence<n>{}), ...);
  }(std::make_integer_sequence<std::uint64_t, (1u << n)>{});
}
}  // namespace

TEST_CASE("may_alias by copy: ip::plan counts what the call allocates and copies", "[io_alias][copy]") {
  const auto ab = [] { return std::tuple{ip::tensor<float>{1, 2, 3}, ip::tensor<float>{10, 20, 30}}; };
  counts_match_all(ip::function(ip::inputs(a, b), ip::outputs(a, b), ip::io_alias<0, 1>(ip::may_alias)), ab);
  counts_match_all(ip::function(ip::inputs(a, b), ip::outputs(b, a), ip::io_alias<0, 0>(ip::may_alias),
                                ip::io_alias<1, 1>(ip::may_alias)),
                   ab);
  counts_match_all(ip::function(ip::inputs(a, b), ip::outputs(a + b, b - a), ip::io_alias<0, 0>(ip::may_alias),
                                ip::io_alias<1, 1>(ip::may_alias)),
                   ab);
  counts_match_all(ip::function(ip::inputs(a, b), ip::outputs(ip::exp(a), ip::slice<1>(ip::exp(a)), b),
                                ip::io_alias<0, 1>(ip::may_alias)),
                   ab);
  counts_match_all(ip::function(ip::inputs(a, b), ip::outputs(ip::add_inplace(b, a)), ip::io_alias<0, 0>(ip::may_alias)), ab);
  counts_match_all(ip::function(ip::inputs(W), ip::outputs(ip::dot(W, W), W), ip::io_alias<0, 0>(ip::may_alias)),
                   [] { return std::tuple{ip::tensor<float, 2>{{1, 2}, {3, 4}}}; });
  using T = ip::tensor<float, ip::extents<4>>;
  counts_match_all(ip::function(ip::inputs(S4, T4), ip::outputs(ip::exp(S4), ip::add_inplace(S4, T4)),
                                ip::io_alias<0, 0>(ip::may_alias)),
                   [] { return std::tuple{T{0, 1, 0, 1}, T{1, 2, 3, 4}}; });
}

TEST_CASE("one value returned twice, aliased to two inputs", "[io_alias][copy]") {
  // the value can be computed in one storage only: a second must_alias is refused (it was
  // accepted before and returned a copy elsewhere), a second may_alias is a copy
  constexpr auto s = x + y;
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(s, s), ip::io_alias<0, 0>(ip::must_alias),
                           ip::io_alias<1, 1>(ip::must_alias))
                     .error == ip::error_kind::alias_conflict);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(s, s), ip::io_alias<0, 0>(ip::must_alias),
                                  ip::io_alias<1, 1>(ip::may_alias));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::donated) == ip::plan_result{0, 1, 1, 1, 0});
  ip::tensor<float> u{1, 2}, w{10, 20};
  const float* pu = u.data();
  const float* pw = w.data();
  auto [s0, s1] = counted(f, ip::plan(f, ip::donated, ip::donated), std::move(u), std::move(w));
  CHECK(s0.data() == pu);
  CHECK(s1.data() == pw);
  CHECK(values(s0) == std::vector<float>{11, 22});
  CHECK(values(s1) == std::vector<float>{11, 22});
}
