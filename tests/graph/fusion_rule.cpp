// The fused-loop rule as ip::check states it (graph/detail/fusion_rule.hpp): a
// reader that runs after the in-place node it reads shares that node's loop,
// and a graph whose loops cannot run as single steps is an ordering_cycle
// naming the nodes, never a second error inside the runtime.
#include <inplace/graph.hpp>

#include <catch2/catch.hpp>

namespace ip = inplace;
using namespace ip::literals;

TEST_CASE("a node that must run inside a needed loop is an ordering_cycle", "[fusion][rules]") {
  // sub(n3, y) reads y after n0 overwrote it: n0, n3 and sub share one loop; but
  // reduce_sum(n0) must run after n0 and before n3 overwrites n0: no legal order
  constexpr auto y = ip::input<"y", float>;
  constexpr auto n0 = ip::mul_inplace(y, y);
  constexpr auto n3 = ip::mul_inplace(n0, 3_c);
  constexpr auto in = ip::inputs(y);
  constexpr auto r = ip::check(in, ip::outputs(ip::sub(n3, y), ip::reduce_sum(n0)));
  STATIC_REQUIRE(r.error == ip::error_kind::ordering_cycle);
  STATIC_REQUIRE(r.num_names == 3);
  STATIC_REQUIRE(r.name(0) == "mul_inplace(mul_inplace(...), 3)");
  STATIC_REQUIRE(r.name(1) == "reduce_sum(mul_inplace(...))");
  STATIC_REQUIRE(r.name(2) == "mul_inplace(y, y)");
  // read before the first in-place node instead: one legal order
  STATIC_REQUIRE(ip::check(in, ip::outputs(ip::sub(n3, y))).ok);
  STATIC_REQUIRE(ip::check(in, ip::outputs(n3, ip::reduce_sum(n0))).ok);
}

TEST_CASE("the same through a view, with static extents (found with clang++)", "[fusion][rules]") {
  constexpr auto x = ip::input<"x", float, 1>;
  constexpr auto y = ip::input<"y", float, ip::extents<21>>;
  constexpr auto z = ip::input<"z", float, ip::extents<ip::dynamic, 6>>;
  constexpr auto n0 = ip::mul_inplace(y, y);
  constexpr auto n2 = ip::reduce_sum<0>(ip::view(n0, ip::range<0, ip::end, -1>));
  constexpr auto n3 = ip::mul_inplace(n0, 3_c);
  constexpr auto n8 = ip::mul(ip::dot(y, z), ip::sub(z, n2));
  constexpr auto r = ip::check(ip::inputs(x, y, z),
                               ip::outputs(n8, z, ip::view(ip::sub(n3, y), ip::range<4, ip::end, -1>)));
  STATIC_REQUIRE(r.error == ip::error_kind::ordering_cycle);
  STATIC_REQUIRE(r.name(0) == "mul_inplace(mul_inplace(...), 3)");
  STATIC_REQUIRE(r.name(1) == "slice(mul_inplace(...))");  // the view of n0 that reduce_sum reads
  STATIC_REQUIRE(r.name(2) == "mul_inplace(y, y)");
}

TEST_CASE("a late reader that broadcasts the overwritten value is an ordering_cycle", "[fusion][rules]") {
  // sub reads y (3, 1) after mul_inplace overwrote it, broadcast over (3, 4): no loop can hold both
  constexpr auto y = ip::input<"y", float, ip::extents<3, 1>>;
  constexpr auto z = ip::input<"z", float, ip::extents<3, 4>>;
  constexpr auto n = ip::mul_inplace(y, 2_c);
  constexpr auto r = ip::check(ip::inputs(y, z), ip::outputs(n, ip::sub(ip::add(n, z), y)));
  STATIC_REQUIRE(r.error == ip::error_kind::ordering_cycle);
}

TEST_CASE("a static extent 1 beside a dynamic extent is no shape_mismatch", "[shape][rules]") {
  constexpr auto y = ip::input<"y", float, ip::extents<2, 1>>;
  constexpr auto x = ip::input<"x", float, ip::extents<2, ip::dynamic>>;
  STATIC_REQUIRE(ip::check(ip::inputs(y, x), ip::outputs(ip::add_inplace(y, x))).ok);
  // the result of an in-place node has its storage's static extents
  constexpr auto f = ip::function(ip::inputs(y, x), ip::outputs(ip::add_inplace(y, x) * 2_c));
  STATIC_REQUIRE(decltype(f)::num_nodes == 2);
  // what the static extents prove is still rejected
  constexpr auto x3 = ip::input<"x", float, ip::extents<2, 3>>;
  STATIC_REQUIRE(ip::check(ip::inputs(y, x3), ip::outputs(ip::add_inplace(y, x3))).error ==
                 ip::error_kind::shape_mismatch);
  constexpr auto y2 = ip::input<"y", float, ip::extents<2, ip::dynamic>>;
  STATIC_REQUIRE(ip::check(ip::inputs(y2, x), ip::outputs(ip::add_inplace(y2, x))).ok);
}

TEST_CASE("a node that must run between members of a needed loop joins the loop when it can", "[fusion][rules]") {
  // add(add(n6, tanh(n5)), t) reads t after n5 overwrote it: n5, tanh(n5) and both
  // adds share one loop. n6 overwrites n1, which n5 reads through the same view
  // (reverse), so n6 runs after n5 and before add(n6, ...): inside that loop,
  // which it can join (elementwise, of the loop's rank, with the pattern n5 reads)
  constexpr auto a = ip::input<"A", float, 2>;
  constexpr auto n1 = ip::tanh(a);
  constexpr auto t = ip::tanh(ip::tanh(n1));
  constexpr auto in = ip::inputs(a);
  constexpr auto n5 = ip::apply(ip::inplace<1>(ip::ops::add{}), ip::reverse(n1), t);
  constexpr auto n6 = ip::tanh_inplace(ip::reverse(n1));
  STATIC_REQUIRE(ip::check(in, ip::outputs(ip::add(n6, ip::tanh(n5)) + t)).ok);
  // the late reader not needed (nothing reads t after n5), or no path through the loop
  STATIC_REQUIRE(ip::check(in, ip::outputs(ip::add(n6, ip::tanh(n5)))).ok);
  STATIC_REQUIRE(ip::check(in, ip::outputs(n6, n5)).ok);
  // the same without a view
  constexpr auto m5 = ip::apply(ip::inplace<1>(ip::ops::add{}), n1, t);
  constexpr auto m6 = ip::tanh_inplace(n1);
  STATIC_REQUIRE(ip::check(in, ip::outputs(ip::add(m6, ip::tanh(m5)) + t)).ok);
  // n6 overwrites n1 reversed while m5 reads it unreversed: no loop holds both
  constexpr auto r = ip::check(in, ip::outputs(ip::add(n6, ip::tanh(m5)) + t));
  STATIC_REQUIRE(r.error == ip::error_kind::ordering_cycle);
  STATIC_REQUIRE(r.name(0) == "tanh_inplace(reverse(...))");
  STATIC_REQUIRE(r.name(1) == "add(tanh_inplace(...), tanh(...))");
}
