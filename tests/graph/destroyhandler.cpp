// A port of PyTensor's tests/graph/test_destroyhandler.py (pymc-devs/pytensor,
// itself Theano's theano/gof/tests/test_destroyhandler.py) to the compile-time
// destroy handler of SPEC 3.
//
// How the Python maps to C++:
// - PyTensor's `MyOp`s are plain Python ops: no kernel, not elementwise. They
//   become the opaque user op structs of namespace `pt` below, with exactly the
//   same view_map / destroy_map (`AddInPlace` {0: [0]}, `MultipleInPlace01`
//   {0: [0], 1: [1]}, ...). `transpose_view` becomes the standard
//   `ip::transpose` (view_map {0: [0]}) and `dot` the standard `ip::dot`; the
//   inputs x, y, z are rank-2 matrices so that both mean what they say.
// - `destroyhandler_tolerate_same` (`add_in_place_2`) is what an elementwise
//   op gets for free in SPEC 3: the standard `ip::add_inplace` (same-index
//   reads by an elementwise destroyer are legal). There is no counterpart of
//   `destroyhandler_tolerate_aliased` (`add_in_place_3`): SPEC 3 never lets a
//   user waive a differently-indexed aliased read.
// - A `FunctionGraph` that is `consistent()` is `ip::check(...).ok`; an
//   inconsistent one, or an `InconsistencyError`, is the `ip::error_kind` SPEC 3
//   assigns to it. `g.replace(a, b)` / `replace_validate` / a rewriter run
//   become two (or more) graphs, the one before and the one after the
//   replacement, each checked statically. A rewriter that "failed once" is the
//   graph it refused to build, which must not check.
// - Schedule facts PyTensor asserts implicitly (a reader runs before the
//   destroyer) are `ip::position` comparisons.
// - Where SPEC 3 answers differently from PyTensor (common subexpressions are
//   one node here; elementwise ops tolerate same-index aliasing; index patterns
//   of views cancel), the SPEC is followed and a comment says so.
//
// Skipped: none. Every Python test has a TEST_CASE of the same name below.

#include <inplace.hpp>

#include <boost/hana/integral_constant.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/tuple.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;

namespace pt {

// MyOp(1, "Sigmoid"), MyOp(2, "Add"): pure and opaque (MyOp is not elementwise).
struct Sigmoid {
  static constexpr std::string_view name = "Sigmoid";
};
struct Add {
  static constexpr std::string_view name = "Add";
};
// MyOp(2, "AddInPlace", dmap={0: [0]}): opaque, so any aliased read by it is a hazard.
struct AddInPlace {
  static constexpr std::string_view name = "AddInPlace";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
};
// MyOp(2, "Multiple", nout=2) and its in-place versions.
struct Multiple {
  static constexpr std::string_view name = "Multiple";
  static constexpr std::size_t num_outputs = 2;
};
struct MultipleInPlace0 {
  static constexpr std::string_view name = "MultipleInPlace0";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
};
struct MultipleInPlace1 {
  static constexpr std::string_view name = "MultipleInPlace1";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<1>, hana::tuple_c<int, 1>));
};
struct MultipleInPlace01 {
  static constexpr std::string_view name = "MultipleInPlace01";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>),
                                                     hana::make_pair(hana::int_c<1>, hana::tuple_c<int, 1>));
};

// Called qualified (pt::sigmoid), so argument-dependent lookup never picks ip's.
template <class A>
constexpr auto sigmoid(A a) { return ip::apply(Sigmoid{}, a); }
template <class A, class B>
constexpr auto add(A a, B b) { return ip::apply(Add{}, a, b); }
template <class A, class B>
constexpr auto add_in_place(A a, B b) { return ip::apply(AddInPlace{}, a, b); }
template <class A>
constexpr auto transpose_view(A a) { return ip::transpose(a); }
template <class A, class B>
constexpr auto dot(A a, B b) { return ip::dot(a, b); }
// add_in_place_2 (destroyhandler_tolerate_same=[(0, 1)]): an elementwise in-place add.
template <class A, class B>
constexpr auto add_in_place_2(A a, B b) { return ip::add_inplace(a, b); }

}  // namespace pt

namespace {

constexpr auto x = ip::input<"x", float, 2>;
constexpr auto y = ip::input<"y", float, 2>;
constexpr auto z = ip::input<"z", float, 2>;
// `x.tag.indestructible = True`
constexpr auto xk = ip::input<"x", float, 2, ip::indestructible>;

using ek = ip::error_kind;

}  // namespace

// test_misc: four transpose views of x; a rewrite cancels them pairwise to x;
// x is replaced by Add(x, y), then by Dot(AddInPlace(x, y), TransposeView(x)),
// which is not consistent.
TEST_CASE("test_misc", "[destroyhandler]") {
  constexpr auto e = pt::transpose_view(pt::transpose_view(pt::transpose_view(pt::transpose_view(x))));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(e)).ok);
  // The rewrite (transpose_view (transpose_view x)) -> x has no counterpart; its
  // static image: the index pattern of four transposes is x's own, so the output
  // may live in x's storage, while three transposes may not (SPEC 3, 5).
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(e), ip::io_alias<0, 0>(ip::must_alias)).ok);
  constexpr auto e3 = pt::transpose_view(pt::transpose_view(pt::transpose_view(x)));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(e3), ip::io_alias<0, 0>(ip::must_alias)).error ==
                 ek::alias_conflict);
  // FunctionGraph(x)
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(x)).ok);
  // replace_validate(x, Add(x, y)): FunctionGraph(Add(x, y))
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::add(x, y))).ok);
  // replace(..., Dot(AddInPlace(x, y), TransposeView(x))): not consistent. The dot
  // reads a view of x, so it must run before AddInPlace destroys x, and it needs
  // AddInPlace's result: a cycle.
  constexpr auto bad = pt::dot(pt::add_in_place(x, y), pt::transpose_view(x));
  constexpr auto r = ip::check(ip::inputs(x, y, z), ip::outputs(bad));
  STATIC_REQUIRE(r.error == ek::ordering_cycle);
  CHECK(std::string(r.name(0)) == "dot(AddInPlace(...), transpose(...))");
  CHECK(std::string(r.name(1)) == "AddInPlace(x, y)");
}

// test_aliased_inputs_replacement: AddInPlace(x, TransposeView(x)) is not
// consistent; replacing the view by Sigmoid(x) makes it consistent; back and
// forth, and through TransposeView(TransposeView(x)).
TEST_CASE("test_aliased_inputs_replacement", "[destroyhandler]") {
  constexpr auto tv = pt::transpose_view(x);
  constexpr auto tvv = pt::transpose_view(tv);
  constexpr auto sx = pt::sigmoid(x);
  constexpr auto r = ip::check(ip::inputs(x, y), ip::outputs(pt::add_in_place(x, tv)));
  STATIC_REQUIRE(r.error == ek::aliasing_hazard);
  CHECK(std::string(r.name(0)) == "AddInPlace(x, transpose(...))");
  CHECK(std::string(r.name(1)) == "x");
  CHECK(std::string(r.name(2)) == "transpose(x)");
  // g.replace(tv, sx): consistent, and Sigmoid reads x before it is destroyed.
  constexpr auto ok = pt::add_in_place(x, sx);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ok)).ok);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ok));
  STATIC_REQUIRE(ip::position(f, sx) < ip::position(f, ok));
  // g.replace(sx, tv): not consistent again.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::add_in_place(x, tv))).error == ek::aliasing_hazard);
  // g.replace(tv, tvv): not consistent; AddInPlace is opaque, and an opaque
  // destroyer may not read its root at all.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::add_in_place(x, tvv))).error == ek::aliasing_hazard);
  // SPEC differs from PyTensor here: an *elementwise* destroyer reading x through
  // two transposes reads it with x's own index pattern (the transposes cancel),
  // which SPEC 3 allows.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, tvv))).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, tv))).error == ek::aliasing_hazard);
  // g.replace(tv, sx): consistent.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::add_in_place(x, sx))).ok);
}

// test_indestructible: destroying an indestructible x is not consistent;
// replace_validate(e, Add(x, y)) is. (`copy(x)` keeping the tag: an
// ip::indestructible flag is part of the symbol's type, so every copy keeps it.)
TEST_CASE("test_indestructible", "[destroyhandler]") {
  constexpr auto xc = xk;  // copy(x)
  STATIC_REQUIRE(decltype(xc)::indestructible);
  constexpr auto r = ip::check(ip::inputs(xc, y, z), ip::outputs(pt::add_in_place(xc, y)));
  STATIC_REQUIRE(r.error == ek::destroys_protected);
  CHECK(std::string(r.name(0)) == "x");
  CHECK(std::string(r.name(1)) == "AddInPlace(x, y)");
  STATIC_REQUIRE(ip::check(ip::inputs(xc, y, z), ip::outputs(pt::add(xc, y))).ok);
  // The same with the standard elementwise op.
  STATIC_REQUIRE(ip::check(ip::inputs(xc, y, z), ip::outputs(ip::add_inplace(xc, y))).error ==
                 ek::destroys_protected);
}

// test_usage_loop_through_views_2: Dot(AddInPlace(x, y), T(T(T(Sigmoid(x)))))
// is consistent because Sigmoid copies x first; replacing e0 = T(T(Sigmoid(x)))
// by x cuts the path to the sigmoid: Dot(AddInPlace(x, y), T(x)) is a cycle.
TEST_CASE("test_usage_loop_through_views_2", "[destroyhandler]") {
  constexpr auto e0 = pt::transpose_view(pt::transpose_view(pt::sigmoid(x)));
  constexpr auto aip = pt::add_in_place(x, y);
  constexpr auto e = pt::dot(aip, pt::transpose_view(e0));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(e)).ok);
  constexpr auto f = ip::function(ip::inputs(x, y, z), ip::outputs(e));
  STATIC_REQUIRE(ip::position(f, pt::sigmoid(x)) < ip::position(f, aip));
  STATIC_REQUIRE(ip::position(f, aip) < ip::position(f, e));
  // g.replace(e0, x)
  constexpr auto cut = pt::dot(aip, pt::transpose_view(x));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(cut)).error == ek::ordering_cycle);
}

// test_destroyers_loop: [Add(x, y), Add(y, x)]; either one may become
// AddInPlace, but not both (an InconsistencyError, the graph unchanged).
TEST_CASE("test_destroyers_loop", "[destroyhandler]") {
  constexpr auto e1 = pt::add(x, y);
  constexpr auto e2 = pt::add(y, x);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(e1, e2)).ok);
  // First order: e1 in place, then e2 in place (refused).
  constexpr auto i1 = pt::add_in_place(x, y);
  constexpr auto i2 = pt::add_in_place(y, x);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(i1, e2)).ok);
  constexpr auto f1 = ip::function(ip::inputs(x, y, z), ip::outputs(i1, e2));
  STATIC_REQUIRE(ip::position(f1, e2) < ip::position(f1, i1));  // Add(y, x) reads x before it is destroyed
  STATIC_REQUIRE(ip::position(f1, e2) == 0);
  constexpr auto r = ip::check(ip::inputs(x, y, z), ip::outputs(i1, i2));
  STATIC_REQUIRE(r.error == ek::ordering_cycle);
  // Second order: e2 in place, then e1 in place (refused).
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(e1, i2)).ok);
  constexpr auto f2 = ip::function(ip::inputs(x, y, z), ip::outputs(e1, i2));
  STATIC_REQUIRE(ip::position(f2, e1) < ip::position(f2, i2));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(i1, i2)).error == ek::ordering_cycle);
  // SPEC 3 names this very case: with the standard elementwise ops, siblings that
  // only share inputs are not joined, so it is still a cycle.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(ip::add_inplace(x, y), ip::add_inplace(y, x))).error ==
                 ek::ordering_cycle);
}

// test_aliased_inputs: AddInPlace(x, x) is not consistent.
TEST_CASE("test_aliased_inputs", "[destroyhandler]") {
  constexpr auto r = ip::check(ip::inputs(x), ip::outputs(pt::add_in_place(x, x)));
  STATIC_REQUIRE(r.error == ek::aliasing_hazard);
  CHECK(std::string(r.name(0)) == "AddInPlace(x, x)");
  // SPEC differs for elementwise ops: add_inplace(x, x) reads x with the
  // destroyer's own index pattern, which is legal (SPEC 3, aliasing_hazard).
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(x, x))).ok);
}

// test_aliased_inputs2: AddInPlace(x, TransposeView(x)) is not consistent.
TEST_CASE("test_aliased_inputs2", "[destroyhandler]") {
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(pt::add_in_place(x, pt::transpose_view(x)))).error ==
                 ek::aliasing_hazard);
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(x, ip::transpose(x)))).error ==
                 ek::aliasing_hazard);
}

// test_aliased_inputs_tolerate: add_in_place_2 (tolerate_same (0, 1)) on (x, x)
// is consistent: an elementwise ip::add_inplace.
TEST_CASE("test_aliased_inputs_tolerate", "[destroyhandler]") {
  constexpr auto e = pt::add_in_place_2(x, x);
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(e)).ok);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(e));
  STATIC_REQUIRE(ip::position(f, e) == 0);
  STATIC_REQUIRE(decltype(f)::num_nodes == 1);
}

// test_aliased_inputs_tolerate2: add_in_place_2(x, TransposeView(x)) is not
// consistent: tolerating the *same* input says nothing of a transposed view.
TEST_CASE("test_aliased_inputs_tolerate2", "[destroyhandler]") {
  constexpr auto r = ip::check(ip::inputs(x), ip::outputs(pt::add_in_place_2(x, pt::transpose_view(x))));
  STATIC_REQUIRE(r.error == ek::aliasing_hazard);
  CHECK(std::string(r.name(0)) == "add_inplace(x, transpose(...))");
  CHECK(std::string(r.name(1)) == "x");
  CHECK(std::string(r.name(2)) == "transpose(x)");
}

// test_same_aliased_inputs_ignored: add_in_place_3 (tolerate_aliased (0, 1)) on
// (x, x) is consistent. There is no tolerate_aliased in SPEC; the same-index read
// is legal anyway for the elementwise ip::add_inplace.
TEST_CASE("test_same_aliased_inputs_ignored", "[destroyhandler]") {
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(x, x))).ok);
}

// test_different_aliased_inputs_ignored: add_in_place_3(x, TransposeView(x)) is
// consistent in PyTensor only because the op promises to cope ("it would produce
// the wrong answer"). SPEC differs: no op can waive the rule, so it is an
// aliasing_hazard here; the read that *is* safe (two transposes) is legal.
TEST_CASE("test_different_aliased_inputs_ignored", "[destroyhandler]") {
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(x, ip::transpose(x)))).error ==
                 ek::aliasing_hazard);
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(x, ip::transpose(ip::transpose(x))))).ok);
}

// test_indestructible_through_views: destroying TransposeView(x) destroys the
// indestructible x; replacing the view by Sigmoid(x) is consistent.
TEST_CASE("test_indestructible_through_views", "[destroyhandler]") {
  constexpr auto tv = pt::transpose_view(xk);
  constexpr auto r = ip::check(ip::inputs(xk, y, z), ip::outputs(pt::add_in_place(tv, y)));
  STATIC_REQUIRE(r.error == ek::destroys_protected);
  CHECK(std::string(r.name(0)) == "x");
  CHECK(std::string(r.name(1)) == "AddInPlace(transpose(...), y)");
  // replace_validate(tv, Sigmoid(x))
  constexpr auto ok = pt::add_in_place(pt::sigmoid(xk), y);
  STATIC_REQUIRE(ip::check(ip::inputs(xk, y, z), ip::outputs(ok)).ok);
}

// test_indirect: Dot(Sigmoid(AddInPlace(x, y)), TransposeView(x)) is not
// consistent; with Add instead it is; back to AddInPlace it is not.
TEST_CASE("test_indirect", "[destroyhandler]") {
  constexpr auto bad = pt::dot(pt::sigmoid(pt::add_in_place(x, y)), pt::transpose_view(x));
  constexpr auto r = ip::check(ip::inputs(x, y, z), ip::outputs(bad));
  STATIC_REQUIRE(r.error == ek::ordering_cycle);
  CHECK(std::string(r.name(0)) == "dot(Sigmoid(...), transpose(...))");
  // g.replace(e0, Add(x, y))
  constexpr auto good = pt::dot(pt::sigmoid(pt::add(x, y)), pt::transpose_view(x));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(good)).ok);
  // g.replace(new_e0, AddInPlace(x, y))
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(bad)).error == ek::ordering_cycle);
  // With the standard ops the reader is still a dot (opaque): no fused-loop
  // exception, the same cycle.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(ip::dot(ip::sigmoid(ip::add_inplace(x, y)),
                                                                      ip::transpose(x))))
                     .error == ek::ordering_cycle);
}

// test_indirect_2: Dot(Sigmoid(AddInPlace(x, y)), TransposeView(x)) is not
// consistent; replacing the view e0 by Add(e0, y) is: the Add reads the view
// before x is destroyed, and the dot only reads the Add.
TEST_CASE("test_indirect_2", "[destroyhandler]") {
  constexpr auto e0 = pt::transpose_view(x);
  constexpr auto aip = pt::add_in_place(x, y);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::dot(pt::sigmoid(aip), e0))).error ==
                 ek::ordering_cycle);
  constexpr auto new_e0 = pt::add(e0, y);
  constexpr auto e = pt::dot(pt::sigmoid(aip), new_e0);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(e)).ok);
  constexpr auto f = ip::function(ip::inputs(x, y, z), ip::outputs(e));
  STATIC_REQUIRE(ip::position(f, e0) < ip::position(f, new_e0));
  STATIC_REQUIRE(ip::position(f, new_e0) < ip::position(f, aip));
  STATIC_REQUIRE(ip::position(f, aip) < ip::position(f, pt::sigmoid(aip)));
  STATIC_REQUIRE(ip::position(f, e) == 4);
}

// test_long_destroyers_loop: Dot(Dot(AddInPlace(x, y), AddInPlace(y, z)), Add(z, x))
// is consistent; the rewriter must not turn Add(z, x) into AddInPlace(z, x), and
// building the all-in-place graph raises.
TEST_CASE("test_long_destroyers_loop", "[destroyhandler]") {
  constexpr auto a = pt::add_in_place(x, y);
  constexpr auto b = pt::add_in_place(y, z);
  constexpr auto c = pt::add(z, x);
  constexpr auto e = pt::dot(pt::dot(a, b), c);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(e)).ok);
  // The schedule it forces: Add(z, x) reads x before a destroys it, and a reads y
  // before b destroys it.
  constexpr auto f = ip::function(ip::inputs(x, y, z), ip::outputs(e));
  STATIC_REQUIRE(ip::position(f, c) < ip::position(f, a));
  STATIC_REQUIRE(ip::position(f, a) < ip::position(f, b));
  STATIC_REQUIRE(ip::position(f, b) < ip::position(f, pt::dot(a, b)));
  STATIC_REQUIRE(ip::position(f, e) == 4);
  // The graph the rewriter must not produce: a three-node cycle a < b < c' < a.
  constexpr auto e2 = pt::dot(pt::dot(a, b), pt::add_in_place(z, x));
  constexpr auto r = ip::check(ip::inputs(x, y, z), ip::outputs(e2));
  STATIC_REQUIRE(r.error == ek::ordering_cycle);
  STATIC_REQUIRE(r.num_names == 3);
}

// test_misc_2: AddInPlace(x, TransposeView(x)) is not consistent, and replacing
// the view by x (AddInPlace(x, x)) does not help.
TEST_CASE("test_misc_2", "[destroyhandler]") {
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::add_in_place(x, pt::transpose_view(x)))).error ==
                 ek::aliasing_hazard);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::add_in_place(x, x))).error == ek::aliasing_hazard);
  // SPEC differs for an elementwise destroyer: the replacement does help.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, ip::transpose(x)))).error ==
                 ek::aliasing_hazard);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, x))).ok);
}

// test_multi_destroyers: Add(AddInPlace(x, y), AddInPlace(x, y)) raises in
// PyTensor, where the two applications are two nodes. SPEC differs: two equal
// expressions are one node (SPEC 1), so there is one destroyer of x and the
// graph is legal. Two *different* destroyers of x are the error PyTensor means.
TEST_CASE("test_multi_destroyers", "[destroyhandler]") {
  constexpr auto same = pt::add(pt::add_in_place(x, y), pt::add_in_place(x, y));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(same)).ok);
  constexpr auto f = ip::function(ip::inputs(x, y, z), ip::outputs(same));
  STATIC_REQUIRE(decltype(f)::num_nodes == 2);
  constexpr auto two = pt::add(pt::add_in_place(x, y), pt::add_in_place(x, z));
  constexpr auto r = ip::check(ip::inputs(x, y, z), ip::outputs(two));
  STATIC_REQUIRE(r.error == ek::multiple_destroyers);
  CHECK(std::string(r.name(0)) == "x");
  CHECK(std::string(r.name(1)) == "AddInPlace(x, y)");
  CHECK(std::string(r.name(2)) == "AddInPlace(x, z)");
  // Two different ops with the same arguments are two nodes, too.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::add(pt::add_in_place(x, y), ip::add_inplace(x, y))))
                     .error == ek::multiple_destroyers);
}

// test_multi_destroyers_through_views: Dot(Add(T(z), y), Add(z, x)); turning
// every Add into AddInPlace succeeds once and fails once, since both would
// destroy z (once through a view).
TEST_CASE("test_multi_destroyers_through_views", "[destroyhandler]") {
  constexpr auto tz = pt::transpose_view(z);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::dot(pt::add(tz, y), pt::add(z, x)))).ok);
  // Either one in place is fine, and the other Add reads z first.
  constexpr auto first = pt::dot(pt::add_in_place(tz, y), pt::add(z, x));
  constexpr auto second = pt::dot(pt::add(tz, y), pt::add_in_place(z, x));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(first)).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(second)).ok);
  constexpr auto f1 = ip::function(ip::inputs(x, y, z), ip::outputs(first));
  STATIC_REQUIRE(ip::position(f1, pt::add(z, x)) < ip::position(f1, pt::add_in_place(tz, y)));
  constexpr auto f2 = ip::function(ip::inputs(x, y, z), ip::outputs(second));
  STATIC_REQUIRE(ip::position(f2, pt::add(tz, y)) < ip::position(f2, pt::add_in_place(z, x)));
  // Both: the failure the FailureWatch counts.
  constexpr auto both = pt::dot(pt::add_in_place(tz, y), pt::add_in_place(z, x));
  constexpr auto r = ip::check(ip::inputs(x, y, z), ip::outputs(both));
  STATIC_REQUIRE(r.error == ek::multiple_destroyers);
  CHECK(std::string(r.name(0)) == "z");
}

// test_repair_destroy_path: e3 = AddInPlace(T(T(T(T(x)))), y) and
// e4 = AddInPlace(T(T(x)), z) both destroy x; replacing e2 by T(x) does not repair it.
TEST_CASE("test_repair_destroy_path", "[destroyhandler]") {
  constexpr auto e1 = pt::transpose_view(pt::transpose_view(x));
  constexpr auto e2 = pt::transpose_view(pt::transpose_view(e1));
  constexpr auto e3 = pt::add_in_place(e2, y);
  constexpr auto e4 = pt::add_in_place(e1, z);
  constexpr auto r = ip::check(ip::inputs(x, y, z), ip::outputs(e3, e4));
  STATIC_REQUIRE(r.error == ek::multiple_destroyers);
  CHECK(std::string(r.name(0)) == "x");
  // g.replace(e2, TransposeView(x))
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::add_in_place(pt::transpose_view(x), y), e4)).error ==
                 ek::multiple_destroyers);
}

// test_usage_loop: Dot(AddInPlace(x, z), x) is not consistent; the rewriter
// replacing AddInPlace by Add makes it consistent.
TEST_CASE("test_usage_loop", "[destroyhandler]") {
  constexpr auto r = ip::check(ip::inputs(x, y, z), ip::outputs(pt::dot(pt::add_in_place(x, z), x)));
  STATIC_REQUIRE(r.error == ek::ordering_cycle);
  CHECK(std::string(r.name(0)) == "dot(AddInPlace(...), x)");
  CHECK(std::string(r.name(1)) == "AddInPlace(x, z)");
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::dot(pt::add(x, z), x))).ok);
  // SPEC 3's own example: dot(x, add_inplace(x, y)) is a cycle with the standard
  // ops, while an elementwise reader in the same fused loop is legal (SPEC
  // differs from PyTensor, which has no fused-loop exception).
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(ip::dot(x, ip::add_inplace(x, y)))).error ==
                 ek::ordering_cycle);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(ip::mul(ip::add_inplace(x, z), x))).ok);
}

// test_usage_loop_through_views: Dot(AddInPlace(x, y), TransposeView(x)) is not
// consistent; replace_validate(aip, Add(x, z)) is.
TEST_CASE("test_usage_loop_through_views", "[destroyhandler]") {
  constexpr auto aip = pt::add_in_place(x, y);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::dot(aip, pt::transpose_view(x)))).error ==
                 ek::ordering_cycle);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::dot(pt::add(x, z), pt::transpose_view(x)))).ok);
  // The fused-loop exception does not reach a transposed read (SPEC 3).
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(ip::mul(ip::add_inplace(x, y), ip::transpose(x)))).error ==
                 ek::ordering_cycle);
}

// test_usage_loop_insert_views: Dot(AddInPlace(x, Add(y, z)), Sigmoid^5(x)); the
// rewriter replacing each Sigmoid by a TransposeView (inner to outer) succeeds four
// times and must keep the last Sigmoid, the copy that lets x be destroyed.
TEST_CASE("test_usage_loop_insert_views", "[destroyhandler]") {
  constexpr auto aip = pt::add_in_place(x, pt::add(y, z));
  constexpr auto s5 = pt::sigmoid(pt::sigmoid(pt::sigmoid(pt::sigmoid(pt::sigmoid(x)))));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::dot(aip, s5))).ok);
  // After the four successful replacements: Sigmoid(T(T(T(T(x))))).
  constexpr auto t4 = pt::transpose_view(pt::transpose_view(pt::transpose_view(pt::transpose_view(x))));
  constexpr auto kept = pt::sigmoid(t4);
  constexpr auto e = pt::dot(aip, kept);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(e)).ok);
  constexpr auto f = ip::function(ip::inputs(x, y, z), ip::outputs(e));
  STATIC_REQUIRE(ip::position(f, kept) < ip::position(f, aip));
  STATIC_REQUIRE(ip::position(f, t4) < ip::position(f, kept));
  // Every intermediate state of the rewrite is consistent too.
  STATIC_REQUIRE(
      ip::check(ip::inputs(x, y, z),
                ip::outputs(pt::dot(aip, pt::sigmoid(pt::sigmoid(pt::sigmoid(pt::sigmoid(pt::transpose_view(x))))))))
          .ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z),
                           ip::outputs(pt::dot(aip, pt::sigmoid(pt::sigmoid(pt::transpose_view(
                                                        pt::transpose_view(pt::transpose_view(x))))))))
                     .ok);
  // The refused fifth replacement: the dot would read a view of x after it is destroyed.
  constexpr auto t5 = pt::transpose_view(t4);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(pt::dot(aip, t5))).error == ek::ordering_cycle);
}

// test_value_repl: AddInPlace(x, Sigmoid(y)) is consistent, and so is it after
// replacing Sigmoid(y) by a constant.
TEST_CASE("test_value_repl", "[destroyhandler]") {
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::add_in_place(x, pt::sigmoid(y)))).ok);
  constexpr auto e = pt::add_in_place(x, 2.5_c);  // MyConstant("abc")
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(e)).ok);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(e));
  STATIC_REQUIRE(ip::position(f, e) == 0);
  STATIC_REQUIRE(std::is_same_v<typename decltype(e)::dtype, float>);
}

// test_value_repl_2: as test_value_repl, with a TransposeView of the constant:
// reading a view of a constant is fine, only destroying it is not. A view of a
// constant is a stored value of the constant's default dtype (double for
// 2.5_c, as NumPy's 0-d array np.transpose(2.5) is float64, not weak), so the
// in-place destination here is double; with a float x the same graph is
// dtype_mismatch (an in-place float result cannot take double's value).
TEST_CASE("test_value_repl_2", "[destroyhandler]") {
  constexpr auto xd = ip::input<"x", double, 2>;
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::add_in_place(x, pt::sigmoid(y)))).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(pt::add_in_place(x, pt::transpose_view(2.5_c)))).error ==
                 ek::dtype_mismatch);
  constexpr auto e = pt::add_in_place(xd, pt::transpose_view(2.5_c));
  STATIC_REQUIRE(ip::check(ip::inputs(xd, y), ip::outputs(e)).ok);
  constexpr auto f = ip::function(ip::inputs(xd, y), ip::outputs(e));
  STATIC_REQUIRE(ip::position(f, ip::transpose(2.5_c)) < ip::position(f, e));
  // Destroying the view of the constant is destroys_protected.
  constexpr auto r = ip::check(ip::inputs(x, y), ip::outputs(ip::neg_inplace(ip::transpose(2.5_c))));
  STATIC_REQUIRE(r.error == ek::destroys_protected);
  CHECK(std::string(r.name(0)) == "2.5");
}

// test_multiple_inplace (Theano issue #5223): m = Multiple(x, y), outputs
// [Dot(m[0], x), Dot(y, y)]. Running in place on x (output 0) must fail, in place
// on y (output 1) must succeed (the Dot(y, y) runs first), and on both must fail.
TEST_CASE("test_multiple_inplace", "[destroyhandler]") {
  constexpr auto m = ip::apply(pt::Multiple{}, x, y);
  constexpr auto e_2 = pt::dot(y, y);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::dot(hana::at_c<0>(m), x), e_2)).ok);

  // multiple -> multiple_in_place_0_1: fails
  constexpr auto m01 = ip::apply(pt::MultipleInPlace01{}, x, y);
  constexpr auto r01 = ip::check(ip::inputs(x, y), ip::outputs(pt::dot(hana::at_c<0>(m01), x), e_2));
  STATIC_REQUIRE(r01.error == ek::ordering_cycle);
  // multiple -> multiple_in_place_0: fails
  constexpr auto m0 = ip::apply(pt::MultipleInPlace0{}, x, y);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::dot(hana::at_c<0>(m0), x), e_2)).error ==
                 ek::ordering_cycle);
  // multiple -> multiple_in_place_1: succeeds; Dot(y, y) is scheduled before it,
  // although it is the second output (the data edge does not order them).
  constexpr auto m1 = ip::apply(pt::MultipleInPlace1{}, x, y);
  constexpr auto e_1 = pt::dot(hana::at_c<0>(m1), x);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(e_1, e_2)).ok);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(e_1, e_2));
  STATIC_REQUIRE(ip::position(f, e_2) < ip::position(f, hana::at_c<0>(m1)));
  STATIC_REQUIRE(ip::position(f, hana::at_c<0>(m1)) == ip::position(f, hana::at_c<1>(m1)));
  STATIC_REQUIRE(ip::position(f, e_1) == 2);
  // multiple_in_place_1 -> multiple_in_place_0_1: still fails.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::dot(hana::at_c<0>(m01), x), e_2)).error ==
                 ek::ordering_cycle);
  // The failing one also keeps failing when y's reader is dropped: x is read
  // after it is destroyed whatever happens to y.
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(pt::dot(hana::at_c<0>(m01), x))).error ==
                 ek::ordering_cycle);
}
