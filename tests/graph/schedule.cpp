// Schedules (SPEC 3): a topological order of data edges, destroy constraints
// and order(...) edges; ties keep the order of outputs(...), depth first.
#include <inplace/graph.hpp>

#include <catch2/catch.hpp>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto z = ip::input<"z", float>;
}  // namespace

TEST_CASE("data edges order producers first", "[schedule]") {
  constexpr auto e = ip::exp(x);
  constexpr auto l = ip::log(e);
  constexpr auto s = l + e;
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(s));
  STATIC_REQUIRE(ip::position(f, e) == 0);
  STATIC_REQUIRE(ip::position(f, l) == 1);
  STATIC_REQUIRE(ip::position(f, s) == 2);
  STATIC_REQUIRE(ip::position(f, x) == -1);  // leaves are not scheduled
  STATIC_REQUIRE(decltype(f)::num_nodes == 3);
}

TEST_CASE("ties keep the order of outputs, depth first", "[schedule]") {
  constexpr auto r1 = ip::exp(x);
  constexpr auto r2 = ip::log(y);
  constexpr auto r3 = ip::sqrt(z);
  constexpr auto r4 = ip::tanh(r3);
  constexpr auto f = ip::function(ip::inputs(x, y, z), ip::outputs(r4, r1, r2));
  STATIC_REQUIRE(ip::position(f, r3) == 0);
  STATIC_REQUIRE(ip::position(f, r4) == 1);
  STATIC_REQUIRE(ip::position(f, r1) == 2);
  STATIC_REQUIRE(ip::position(f, r2) == 3);
  constexpr auto g = ip::function(ip::inputs(x, y, z), ip::outputs(r1, r2, r4));
  STATIC_REQUIRE(ip::position(g, r1) == 0);
  STATIC_REQUIRE(ip::position(g, r2) == 1);
  STATIC_REQUIRE(ip::position(g, r3) == 2);
}

TEST_CASE("readers of a destroyed root run before its destroyer", "[schedule]") {
  constexpr auto w = ip::add_inplace(x, y);  // listed first, but must wait for the readers of x
  constexpr auto r = ip::exp(x);
  constexpr auto d = ip::dot(x, y);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(w, r, d));
  STATIC_REQUIRE(ip::position(f, r) < ip::position(f, w));
  STATIC_REQUIRE(ip::position(f, d) < ip::position(f, w));
  STATIC_REQUIRE(ip::position(f, r) < ip::position(f, d));  // in the order of outputs(...)
  // a reader through a view
  constexpr auto t = ip::exp(ip::slice<1>(x));
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(w, t));
  STATIC_REQUIRE(ip::position(g, t) < ip::position(g, w));
}

TEST_CASE("order(...) adds edges", "[schedule]") {
  constexpr auto r2 = ip::exp(x);
  constexpr auto r3 = ip::log(y);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(r2, r3));
  STATIC_REQUIRE(ip::position(f, r2) < ip::position(f, r3));
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(r2, r3), ip::order(r3, r2));
  STATIC_REQUIRE(ip::position(g, r3) < ip::position(g, r2));
  // a chain of three, and two order clauses
  constexpr auto r4 = ip::sqrt(z);
  constexpr auto h = ip::function(ip::inputs(x, y, z), ip::outputs(r2, r3, r4), ip::order(r4, r3, r2));
  STATIC_REQUIRE(ip::position(h, r4) < ip::position(h, r3));
  STATIC_REQUIRE(ip::position(h, r3) < ip::position(h, r2));
  constexpr auto k = ip::function(ip::inputs(x, y, z), ip::outputs(r2, r3, r4), ip::order(r4, r2), ip::order(r3, r2));
  STATIC_REQUIRE(ip::position(k, r2) == 2);
  // a node named only by order(...) is scheduled too
  constexpr auto extra = ip::abs(x);
  constexpr auto m = ip::function(ip::inputs(x, y), ip::outputs(r3), ip::order(extra, r3));
  STATIC_REQUIRE(ip::position(m, extra) == 0);
  STATIC_REQUIRE(ip::position(m, r3) == 1);
}

TEST_CASE("the fused-loop exception lets a reader follow its destroyer", "[schedule]") {
  constexpr auto w = ip::add_inplace(x, z);
  constexpr auto m = ip::mul(w, x);
  constexpr auto f = ip::function(ip::inputs(x, z), ip::outputs(m));
  STATIC_REQUIRE(ip::position(f, w) < ip::position(f, m));
}

TEST_CASE("common subexpressions are one node", "[schedule]") {
  constexpr auto a1 = ip::exp(x) + ip::exp(x);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(a1, ip::exp(x)));
  STATIC_REQUIRE(decltype(f)::num_nodes == 2);
  STATIC_REQUIRE(std::is_same_v<decltype(ip::exp(x)), decltype(ip::exp(x))>);
  STATIC_REQUIRE(std::is_empty_v<decltype(f)>);
}

TEST_CASE("a long chain does not recurse", "[schedule]") {
  constexpr auto n0 = x + y;
#define STEP(P, N) constexpr auto N = ip::exp(P) * 0.5_c + P;
  STEP(n0, n1) STEP(n1, n2) STEP(n2, n3) STEP(n3, n4) STEP(n4, n5) STEP(n5, n6) STEP(n6, n7) STEP(n7, n8)
  STEP(n8, n9) STEP(n9, n10) STEP(n10, n11) STEP(n11, n12) STEP(n12, n13) STEP(n13, n14) STEP(n14, n15)
#undef STEP
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(n15, y)));
  STATIC_REQUIRE(ip::position(f, n0) == 0);
  STATIC_REQUIRE(ip::position(f, n15) == 45);
}

TEST_CASE("degenerate functions", "[schedule]") {
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs()).ok);            // nothing to compute
  STATIC_REQUIRE(ip::check(ip::inputs(), ip::outputs(1.0_c)).ok);        // a constant
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x, x));     // an input, twice
  STATIC_REQUIRE(ip::position(f, x) == -1);
  STATIC_REQUIRE(decltype(f)::num_nodes == 0);
  // the same in-place expression twice is one node, one destroyer
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(x, 1.0_c), ip::add_inplace(x, 1.0_c))).ok);
}
