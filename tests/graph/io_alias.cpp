// io_alias validation (SPEC 5): bad_alias_spec and alias_conflict.
#include <inplace/graph.hpp>

#include <catch2/catch.hpp>

namespace ip = inplace;
using namespace ip::literals;
using ip::error_kind;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto d = ip::input<"d", double>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 2>;
constexpr auto S4 = ip::input<"S4", float, ip::extents<4>>;
constexpr auto S5 = ip::input<"S5", float, ip::extents<5>>;
constexpr auto k = ip::input<"k", float, 1, ip::indestructible>;

template <class... Args>
constexpr error_kind kind_of(Args... args) {
  return ip::check(args...).error;
}
}  // namespace

TEST_CASE("legal aliases", "[io_alias]") {
  // XLA's increment: out = p + 1 in p's storage
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(x + 1.0_c), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<0, 1>(ip::may_alias)) == error_kind::none);
  // already in place in that input
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y)), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::none);
  // the output is the input itself
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x, y * 2.0_c), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::none);
  // an input nobody reads receives an opaque result
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(ip::dot(A, A)), ip::io_alias<0, 1>(ip::must_alias)) ==
                 error_kind::none);
  // two outputs in two inputs
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x * 2.0_c, y + x), ip::io_alias<0, 0>(ip::must_alias),
                         ip::io_alias<1, 1>(ip::may_alias)) == error_kind::none);
  // a reader of the aliased input that can run first
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x + y, ip::exp(x)), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(A + B, ip::dot(A, B)), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::none);
}

TEST_CASE("an alias adds the constraints of an in-place node", "[io_alias]") {
  constexpr auto twice = x * 2.0_c;  // will live in x: every other reader of x goes first
  constexpr auto sum = y + x;        // will live in y
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(twice, sum), ip::io_alias<0, 0>(ip::must_alias),
                                  ip::io_alias<1, 1>(ip::may_alias));
  STATIC_REQUIRE(ip::position(f, sum) < ip::position(f, twice));
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(twice, sum));
  STATIC_REQUIRE(ip::position(g, twice) < ip::position(g, sum));
}

TEST_CASE("bad_alias_spec", "[io_alias]") {
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<1, 0>(ip::must_alias)) ==
                 error_kind::bad_alias_spec);  // output out of range
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<0, 2>(ip::must_alias)) ==
                 error_kind::bad_alias_spec);  // input out of range
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<-1, 0>(ip::may_alias)) ==
                 error_kind::bad_alias_spec);
  constexpr auto twice = ip::check(ip::inputs(x, y), ip::outputs(x + y, x * y), ip::io_alias<0, 0>(ip::must_alias),
                                   ip::io_alias<1, 0>(ip::may_alias));
  STATIC_REQUIRE(twice.error == error_kind::bad_alias_spec);  // one input aliased twice
  STATIC_REQUIRE(twice.name(0) == "io_alias<1, 0>");
  STATIC_REQUIRE(twice.name(2) == "input aliased twice");
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<0, 0>(ip::must_alias),
                         ip::io_alias<0, 1>(ip::must_alias)) == error_kind::bad_alias_spec);  // one output twice
  // dtype, rank, static extents: only ip::reinterpret reinterprets bytes
  STATIC_REQUIRE(kind_of(ip::inputs(x, d), ip::outputs(x + 1.0_c), ip::io_alias<0, 1>(ip::must_alias)) ==
                 error_kind::bad_alias_spec);
  STATIC_REQUIRE(kind_of(ip::inputs(x, A), ip::outputs(x + 1.0_c), ip::io_alias<0, 1>(ip::must_alias)) ==
                 error_kind::bad_alias_spec);
  STATIC_REQUIRE(kind_of(ip::inputs(S4, S5), ip::outputs(S4 + 1.0_c), ip::io_alias<0, 1>(ip::must_alias)) ==
                 error_kind::bad_alias_spec);
  STATIC_REQUIRE(kind_of(ip::inputs(S4, x), ip::outputs(S4 + 1.0_c), ip::io_alias<0, 1>(ip::must_alias)) ==
                 error_kind::bad_alias_spec);  // static vs dynamic extents
  // it comes after the destroy rules
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), x), ip::io_alias<3, 0>(ip::must_alias)) ==
                 error_kind::destroys_output);
}

TEST_CASE("alias_conflict", "[io_alias]") {
  constexpr auto r = ip::check(ip::inputs(A, B), ip::outputs(ip::dot(A, A)), ip::io_alias<0, 0>(ip::must_alias));
  STATIC_REQUIRE(r.error == error_kind::alias_conflict);
  STATIC_REQUIRE(r.name(0) == "dot(A, A)");
  STATIC_REQUIRE(r.name(1) == "A");
  STATIC_REQUIRE(r.name(2) == "aliasing_hazard");
  // the aliased input is indestructible
  STATIC_REQUIRE(kind_of(ip::inputs(k, x), ip::outputs(k + x), ip::io_alias<0, 0>(ip::may_alias)) ==
                 error_kind::alias_conflict);
  // the output is a transposed view of the input
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::transpose(A)), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::alias_conflict);
  // the output is computed in another input's storage already
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::add_inplace(y, x)), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::alias_conflict);
  // the aliased input is also returned
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x + y, x), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::alias_conflict);
  // the aliased input is destroyed by another node
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x + y, ip::exp_inplace(x)), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::alias_conflict);
  // a reader that must come after the output's node (reads the result and the input)
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(ip::dot(A + B, A)), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::alias_conflict);
  constexpr auto s = A + B;
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(s, ip::dot(s, A)), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::alias_conflict);
  // the output is another leaf
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(y), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::alias_conflict);
}

TEST_CASE("io_alias outputs that are same-pattern views of the input", "[io_alias]") {
  // the view writes nothing: other nodes may read it, or the input, in any order
  constexpr auto v = ip::slice<0>(x);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(v, v * 2.0_c), ip::io_alias<0, 0>(ip::may_alias)) ==
                 error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(x + 1.0_c, v, ip::slice<1>(v) * 2.0_c, x - y),
                         ip::io_alias<1, 0>(ip::may_alias)) == error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(v, v + y), ip::io_alias<0, 0>(ip::may_alias),
                         ip::io_alias<1, 1>(ip::may_alias)) == error_kind::none);
  constexpr auto t = ip::transpose(x);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(t, ip::neg(t) + x), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::none);
  constexpr auto S23 = ip::input<"S", float, ip::extents<2, 3>>;
  constexpr auto r = ip::reshape<2, 3>(S23);
  STATIC_REQUIRE(kind_of(ip::inputs(S23), ip::outputs(r * 3.0_c, r, ip::transpose(r) + 1.0_c),
                         ip::io_alias<1, 0>(ip::may_alias)) == error_kind::none);
  // an in-place op on a view of x, returned as x's alias, with a reader of x before it
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::neg_inplace(v), ip::reduce_sum(x)),
                         ip::io_alias<0, 0>(ip::may_alias)) == error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::neg_inplace(ip::slice<1>(x))),
                         ip::io_alias<0, 0>(ip::may_alias)) == error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(v, ip::add_inplace(y, v)), ip::io_alias<0, 0>(ip::may_alias)) ==
                 error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(v, ip::slice<0>(v), x), ip::io_alias<0, 0>(ip::may_alias)) ==
                 error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::neg_inplace(v), ip::slice<0>(x) * 2.0_c),
                         ip::io_alias<0, 0>(ip::may_alias)) == error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::transpose(ip::transpose(A)), A * 2.0_c),
                         ip::io_alias<0, 0>(ip::may_alias)) == error_kind::none);
  // the view is returned, and the input destroyed by another node
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(v, ip::neg_inplace(x)), ip::io_alias<0, 0>(ip::may_alias)) ==
                 error_kind::destroys_output);
  // a view with another index pattern cannot be the input's storage: must_alias refuses it,
  // may_alias is honoured by a copy (transposed matrix: see alias_conflict)
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::slice<1>(x)), ip::io_alias<0, 0>(ip::must_alias)) ==
                 error_kind::alias_conflict);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::slice<1>(x)), ip::io_alias<0, 0>(ip::may_alias)) ==
                 error_kind::none);
}
