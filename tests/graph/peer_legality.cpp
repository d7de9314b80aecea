// Verdicts of the destroy handler and of io_alias on cases from the peers that
// tests/graph/destroyhandler*.cpp, rules.cpp and io_alias.cpp do not already
// have:
// - XLA's HloInputOutputAliasConfig tests (xla/service/hlo_input_output_alias_config_test.cc):
//   an output aliased to two parameters, a parameter aliased by two outputs,
//   sizes that do not match; XLA's buffer donation of a parameter that the
//   output cannot be computed in (a leaf, another parameter's storage, a view
//   with another index pattern);
// - PyTensor's destroy handler on views of views (reverse, flatten,
//   reinterpret of a destroyed root returned), destroyers of an intermediate,
//   chains of destroyers (a destroyed result destroyed again through a view),
//   a destroyer reading its root through a reduction, and the fused-loop
//   exception around an opaque destroyer (softmax_inplace).
// Each verdict is the first error_kind SPEC 3 assigns; the names are those the
// diagnostic prints.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

namespace ip = inplace;
using namespace ip::literals;
using ek = ip::error_kind;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto xk = ip::input<"x", float, 1, ip::indestructible>;
constexpr auto X = ip::input<"X", float, 2>;
constexpr auto Y = ip::input<"Y", float, 2>;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;

template <class R>
std::string names(const R& r) {
  std::string s;
  for (std::size_t i = 0; i < r.num_names; ++i) s += (i ? " | " : "") + std::string(r.name(i));
  return s;
}
}  // namespace

TEST_CASE("XLA alias config: an output aliased twice, a parameter aliased twice", "[graph][io_alias][peer]") {
  // OutputDoNotAliasTwice (one output, two parameters)
  constexpr auto r1 = ip::check(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<0, 0>(ip::must_alias),
                                ip::io_alias<0, 1>(ip::must_alias));
  STATIC_REQUIRE(r1.error == ek::bad_alias_spec);
  CHECK(names(r1) == "io_alias<0, 1> | io_alias<0, 0> | output aliased twice");
  // InputDoNotAliasTwice (two outputs, one parameter), may_alias as well
  constexpr auto r2 = ip::check(ip::inputs(x, y), ip::outputs(x + y, x * y), ip::io_alias<0, 0>(ip::may_alias),
                                ip::io_alias<1, 0>(ip::may_alias));
  STATIC_REQUIRE(r2.error == ek::bad_alias_spec);
  CHECK(names(r2) == "io_alias<1, 0> | io_alias<0, 0> | input aliased twice");
  // SizesMustMatch, and more: rank, dtype, static extents (a transposed result)
  STATIC_REQUIRE(ip::check(ip::inputs(X, y), ip::outputs(y + 1.0_c), ip::io_alias<0, 0>(ip::may_alias)).error ==
                 ek::bad_alias_spec);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::cast<double>(y)), ip::io_alias<0, 0>(ip::may_alias))
                     .error == ek::bad_alias_spec);
  constexpr auto r3 = ip::check(ip::inputs(S), ip::outputs(ip::transpose(S) * 2.0_c), ip::io_alias<0, 0>(ip::may_alias));
  STATIC_REQUIRE(r3.error == ek::bad_alias_spec);
  CHECK(names(r3) == "io_alias<0, 0> | mul(transpose(...), 2.0) | dtype, rank or extents differ");
  // indices out of range on either side
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(y), ip::io_alias<1, 0>(ip::may_alias)).error ==
                 ek::bad_alias_spec);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(y), ip::io_alias<0, 2>(ip::may_alias)).error ==
                 ek::bad_alias_spec);
}

TEST_CASE("XLA donation: outputs that cannot live in the aliased parameter", "[graph][io_alias][peer]") {
  // computed in another parameter's storage by an explicit in-place node
  constexpr auto r1 = ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(y, x)), ip::io_alias<0, 0>(ip::must_alias));
  STATIC_REQUIRE(r1.error == ek::alias_conflict);
  CHECK(names(r1) == "x | add_inplace(y, x) | the output is computed in another input's storage");
  // ... and in its own: fine
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(y, x)), ip::io_alias<0, 1>(ip::must_alias)).ok);
  // another leaf, a view of another parameter
  constexpr auto r2 = ip::check(ip::inputs(x, y), ip::outputs(y), ip::io_alias<0, 0>(ip::must_alias));
  STATIC_REQUIRE(r2.error == ek::alias_conflict);
  CHECK(names(r2) == "x | y | the output is another leaf");
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(x), ip::io_alias<0, 0>(ip::must_alias)).ok);
  constexpr auto r3 =
      ip::check(ip::inputs(x, y), ip::outputs(ip::reverse(ip::reverse(y))), ip::io_alias<0, 0>(ip::must_alias));
  STATIC_REQUIRE(r3.error == ek::alias_conflict);
  CHECK(names(r3) == "x | reverse(reverse(...)) | the output is a view with another index pattern or root");
  // the output reads the parameter reversed: an aliasing_hazard once in place
  constexpr auto r4 = ip::check(ip::inputs(x, y), ip::outputs(ip::reverse(x) + y), ip::io_alias<0, 0>(ip::must_alias));
  STATIC_REQUIRE(r4.error == ek::alias_conflict);
  CHECK(names(r4) == "add(reverse(...), y) | x | aliasing_hazard");
  // same-index reads, and another output reading the parameter first: legal
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(x * x + y), ip::io_alias<0, 0>(ip::must_alias)).ok);
  STATIC_REQUIRE(
      ip::check(ip::inputs(x, y), ip::outputs(x + y, ip::reduce_sum(x)), ip::io_alias<0, 0>(ip::must_alias)).ok);
  // an opaque reader needing both the output and the parameter
  constexpr auto r5 =
      ip::check(ip::inputs(x, y), ip::outputs(x + y, ip::dot(x + y, x)), ip::io_alias<0, 0>(ip::must_alias));
  STATIC_REQUIRE(r5.error == ek::alias_conflict);
  CHECK(names(r5) == "add(x, y) | dot(add(...), x) | ordering_cycle");
  // an indestructible parameter, even with may_alias
  constexpr auto r6 = ip::check(ip::inputs(xk, y), ip::outputs(xk + y), ip::io_alias<0, 0>(ip::may_alias));
  STATIC_REQUIRE(r6.error == ek::alias_conflict);
  CHECK(names(r6) == "x | add(x, y) | destroys_protected");
}

TEST_CASE("destroyed roots returned through views of views", "[graph][destroyhandler][peer]") {
  constexpr auto r1 = ip::check(ip::inputs(X, Y), ip::outputs(ip::add_inplace(X, Y), ip::flatten(X)));
  STATIC_REQUIRE(r1.error == ek::destroys_output);
  CHECK(names(r1) == "flatten(X) | add_inplace(X, Y)");
  constexpr auto r2 = ip::check(ip::inputs(x), ip::outputs(ip::neg_inplace(x), ip::reinterpret<std::int32_t>(x)));
  STATIC_REQUIRE(r2.error == ek::destroys_output);
  CHECK(names(r2) == "reinterpret(x) | neg_inplace(x)");
  // an intermediate destroyed and returned, directly or reversed
  constexpr auto r3 = ip::check(ip::inputs(x), ip::outputs(ip::neg_inplace(ip::exp(x)), ip::exp(x)));
  STATIC_REQUIRE(r3.error == ek::destroys_output);
  CHECK(names(r3) == "exp(x) | neg_inplace(exp(...))");
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::neg_inplace(ip::exp(x)), ip::reverse(ip::exp(x)))).error ==
                 ek::destroys_output);
  // returning the destroyer's own result twice is fine
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::add_inplace(x, y))).ok);
}

TEST_CASE("destroying what may not be destroyed, through views", "[graph][destroyhandler][peer]") {
  constexpr auto r1 = ip::check(ip::inputs(xk), ip::outputs(ip::neg_inplace(ip::slice<1>(xk))));
  STATIC_REQUIRE(r1.error == ek::destroys_protected);
  CHECK(names(r1) == "x | neg_inplace(slice(...))");
  STATIC_REQUIRE(ip::check(ip::inputs(xk), ip::outputs(ip::neg_inplace(ip::reverse(xk)))).error ==
                 ek::destroys_protected);
  constexpr auto r2 = ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(ip::zeros<float, 3>(), x)));
  STATIC_REQUIRE(r2.error == ek::destroys_protected);
  CHECK(names(r2) == "0 | add_inplace(broadcast_to(...), x)");
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::neg_inplace(2.0_c))).error == ek::destroys_protected);
  // arange is a node writing a fresh buffer, not a constant: destroying it is fine
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(ip::arange<float, 3>(), x))).ok);
}

TEST_CASE("destroyers of intermediates", "[graph][destroyhandler][peer]") {
  // an opaque reader of the intermediate runs first
  constexpr auto e = ip::exp(x);
  constexpr auto d = ip::neg_inplace(e);
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(d, ip::reduce_sum(e))).ok);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(d, ip::reduce_sum(e)));
  STATIC_REQUIRE(ip::position(f, ip::reduce_sum(e)) < ip::position(f, d));
  // an opaque reader that needs it before and after
  constexpr auto r1 = ip::check(ip::inputs(x), ip::outputs(ip::dot(d, e)));
  STATIC_REQUIRE(r1.error == ek::ordering_cycle);
  CHECK(names(r1) == "dot(neg_inplace(...), exp(...)) | neg_inplace(exp(...))");
  // two destroyers of it
  constexpr auto r2 = ip::check(ip::inputs(x), ip::outputs(d + ip::abs_inplace(e)));
  STATIC_REQUIRE(r2.error == ek::multiple_destroyers);
  CHECK(names(r2) == "exp(x) | neg_inplace(exp(...)) | abs_inplace(exp(...))");
}

TEST_CASE("chains of destroyers: a destroyed result is a new root", "[graph][destroyhandler][peer]") {
  constexpr auto r1 = ip::neg_inplace(x);
  constexpr auto r2 = ip::neg_inplace(ip::reverse(r1));  // destroys r1 through a reversed view
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(r2)).ok);
  // r1 (or a view of it) returned beside its destroyer
  constexpr auto a = ip::check(ip::inputs(x), ip::outputs(r2, r1));
  STATIC_REQUIRE(a.error == ek::destroys_output);
  CHECK(names(a) == "neg_inplace(x) | neg_inplace(reverse(...))");
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(r2, ip::reverse(r1))).error == ek::destroys_output);
  // an opaque reader of r1 runs before r2
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(r2, ip::reduce_sum(r1))).ok);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(r2, ip::reduce_sum(r1)));
  STATIC_REQUIRE(ip::position(f, ip::reduce_sum(r1)) < ip::position(f, r2));
  // a fused reader of r1 with the identity pattern while r2 writes it reversed
  constexpr auto b = ip::check(ip::inputs(x), ip::outputs(ip::mul(r2, r1)));
  STATIC_REQUIRE(b.error == ek::ordering_cycle);
  CHECK(names(b) == "mul(neg_inplace(...), neg_inplace(...)) | neg_inplace(reverse(...))");
  // x destroyed by a node reading the sum of another destroyer of x
  constexpr auto c = ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, ip::reduce_sum(ip::add_inplace(x, y)))));
  STATIC_REQUIRE(c.error == ek::multiple_destroyers);
  CHECK(names(c) == "x | add_inplace(x, y) | add_inplace(x, reduce_sum(...))");
  // y destroyed after the destroyer of x that reads it
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(y, ip::add_inplace(x, y)))).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(y, ip::exp(ip::add_inplace(x, y))))).ok);
}

TEST_CASE("readers and the fused-loop exception around destroyers", "[graph][destroyhandler][peer]") {
  // a destroyer reading its own root through a reduction: the reduction runs first
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(x, ip::reduce_sum(x)))).ok);
  // an elementwise sibling read (exp(x)) beside an in-place add, fused or opaque consumer
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::mul(ip::add_inplace(x, y), ip::exp(x)))).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::dot(ip::add_inplace(x, y), ip::exp(x)))).ok);
  // the same slice read by the fused reader; a reversed read is a cycle
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::mul(ip::add_inplace(ip::slice<1>(x), ip::slice<1>(y)),
                                                                 ip::slice<1>(x))))
                     .ok);
  constexpr auto r1 = ip::check(ip::inputs(x, y), ip::outputs(ip::mul(ip::add_inplace(x, y), ip::reverse(x))));
  STATIC_REQUIRE(r1.error == ek::ordering_cycle);
  CHECK(names(r1) == "mul(add_inplace(...), reverse(...)) | add_inplace(x, y)");
  // where(x > 0, add_inplace(x, y), x): every read of x in the destroyer's loop
  STATIC_REQUIRE(
      ip::check(ip::inputs(x, y), ip::outputs(ip::where(x > 0.0_c, ip::add_inplace(x, y), x))).ok);
  // an opaque destroyer has no fused loop: softmax_inplace(X) * X is a cycle,
  // softmax(X) beside it runs first
  constexpr auto r2 = ip::check(ip::inputs(X), ip::outputs(ip::softmax_inplace(X) * X));
  STATIC_REQUIRE(r2.error == ek::ordering_cycle);
  CHECK(names(r2) == "mul(softmax_inplace(...), X) | softmax_inplace(X)");
  STATIC_REQUIRE(ip::check(ip::inputs(X), ip::outputs(ip::softmax_inplace(X), ip::softmax(X))).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(X, Y), ip::outputs(ip::softmax_inplace(ip::add_inplace(X, Y)) + Y)).ok);
  STATIC_REQUIRE(
      ip::check(ip::inputs(X, Y), ip::outputs(ip::add_inplace(Y, ip::softmax_inplace(ip::add_inplace(X, Y))))).ok);
  // order(...) against a destroy constraint, and with it
  constexpr auto d = ip::add_inplace(x, y);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(d, ip::reduce_sum(x)), ip::order(d, ip::reduce_sum(x))).error ==
                 ek::ordering_cycle);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(d, ip::reduce_sum(x)), ip::order(ip::reduce_sum(x), d)).ok);
}

TEST_CASE("aliased reads by destroyers: index patterns of views", "[graph][destroyhandler][peer]") {
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(ip::reverse(x), ip::reverse(x)))).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(ip::reverse(x), x))).error ==
                 ek::aliasing_hazard);
  STATIC_REQUIRE(ip::check(ip::inputs(S), ip::outputs(ip::add_inplace(S, ip::transpose(ip::transpose(S))))).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(ip::slice<1>(x), ip::slice<1>(x)))).ok);
  constexpr auto r = ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(ip::slice<1>(x), ip::slice<0, -1>(x))));
  STATIC_REQUIRE(r.error == ek::aliasing_hazard);
  CHECK(names(r) == "add_inplace(slice(...), slice(...)) | x | slice(x)");
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::sum_inplace(x, x, y))).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::sum_inplace(x, ip::reverse(x)))).error ==
                 ek::aliasing_hazard);
  // a broadcast read of another input, and a destroyed input that would grow
  STATIC_REQUIRE(ip::check(ip::inputs(X, x), ip::outputs(ip::add_inplace(X, x))).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(X, x), ip::outputs(ip::add_inplace(x, X))).error == ek::shape_mismatch);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, ip::cast<double>(y)))).error ==
                 ek::dtype_mismatch);
}
