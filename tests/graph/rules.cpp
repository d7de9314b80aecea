// Every error_kind of SPEC 3, at least two cases each, through ip::check (never
// a hard error), plus the legal neighbours of each case.
#include <inplace/graph.hpp>

#include <catch2/catch.hpp>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;
using ip::error_kind;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto z = ip::input<"z", float>;
constexpr auto i = ip::input<"i", int>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 2>;
constexpr auto k = ip::input<"k", float, 1, ip::indestructible>;
constexpr auto a = ip::scalar<"alpha", float>;
constexpr auto S = ip::input<"S", float, ip::extents<4, 4>>;
constexpr auto v4 = ip::input<"v4", float, ip::extents<4>>;
constexpr auto v5 = ip::input<"v5", float, ip::extents<5>>;

template <class... Args>
constexpr error_kind kind_of(Args... args) {
  return ip::check(args...).error;
}

// User ops with hand-written maps, as in Aesara's tests.
struct view_two {  // {0: [0, 1]}: one view of two inputs
  static constexpr auto view_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0, 1>));
};
struct destroy_out_of_range {
  static constexpr bool elementwise = true;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 3>));
  constexpr auto operator()(float p, float q) const { return p + q; }
};
struct output_out_of_range {
  static constexpr bool elementwise = true;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<1>, hana::tuple_c<int, 0>));
  constexpr auto operator()(float p) const { return p; }
};
struct view_and_destroy {  // output 0 in both maps
  static constexpr auto view_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 1>));
};
struct empty_destroy_list {
  static constexpr bool elementwise = true;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int>));
  constexpr auto operator()(float p) const { return p; }
};
struct to_double_inplace {  // a float input overwritten by a double result
  static constexpr bool elementwise = true;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  constexpr double operator()(float p) const { return p; }
};
struct opaque_update {  // not elementwise: a whole-tensor kernel writing into input 0
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
};
struct scribble_both {  // destroys both inputs (a scratch-using kernel)
  static constexpr bool elementwise = true;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0, 1>));
  constexpr auto operator()(float p, float q) const { return p * q; }
};
}  // namespace

TEST_CASE("legal graphs check ok", "[rules]") {
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(x + y)).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(x + y)).error == error_kind::none);
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y))).ok);
  // chained in-place ops: each destroy_map output is a new root
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(ip::add_inplace(ip::add_inplace(x, y), z))).ok);
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::exp_inplace(ip::mul_inplace(x, y)))) == error_kind::none);
  // a reader of x before its destroyer
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::exp(x))).ok);
  // a scalar input and constants
  STATIC_REQUIRE(ip::check(ip::inputs(x, a), ip::outputs(ip::add_inplace(x, a * 2.0_c))).ok);
  // an unused declared input is fine
  STATIC_REQUIRE(ip::check(ip::inputs(x, y, z), ip::outputs(-x)).ok);
}

TEST_CASE("undeclared_input", "[rules]") {
  constexpr auto r1 = ip::check(ip::inputs(x), ip::outputs(x + y));
  STATIC_REQUIRE(r1.error == error_kind::undeclared_input);
  STATIC_REQUIRE(r1.name(0) == "y");
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(x * a)) == error_kind::undeclared_input);  // a scalar too
  STATIC_REQUIRE(kind_of(ip::inputs(), ip::outputs(ip::exp(x))) == error_kind::undeclared_input);
  // constants need no declaration
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(x + 1.0_c)) == error_kind::none);
  // it comes first: this graph also has two destroyers of x
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::add_inplace(x, y), ip::mul_inplace(x, y))) ==
                 error_kind::undeclared_input);
}

TEST_CASE("bad_op_maps", "[rules]") {
  constexpr auto r1 = ip::check(ip::inputs(x, y), ip::outputs(ip::apply(view_two{}, x, y)));
  STATIC_REQUIRE(r1.error == error_kind::bad_op_maps);
  STATIC_REQUIRE(r1.name(0) == "view_two(x, y)");
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::apply(destroy_out_of_range{}, x, y))) ==
                 error_kind::bad_op_maps);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::apply(output_out_of_range{}, x))) == error_kind::bad_op_maps);
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::apply(view_and_destroy{}, x, y))) ==
                 error_kind::bad_op_maps);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::apply(empty_destroy_list{}, x))) == error_kind::bad_op_maps);
  // a destroy_map listing several inputs is well formed
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::apply(scribble_both{}, x, y))) == error_kind::none);
}

TEST_CASE("dtype_mismatch", "[rules]") {
  STATIC_REQUIRE(kind_of(ip::inputs(i, x), ip::outputs(ip::add_inplace(i, x))) == error_kind::dtype_mismatch);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::apply(to_double_inplace{}, x))) == error_kind::dtype_mismatch);
  // int32 + float is double (NumPy's rule), so neither input fits; int16 + float is float
  STATIC_REQUIRE(kind_of(ip::inputs(i, x), ip::outputs(ip::add_inplace(x, i))) == error_kind::dtype_mismatch);
  constexpr auto h = ip::input<"h", short>;
  STATIC_REQUIRE(kind_of(ip::inputs(h, x), ip::outputs(ip::add_inplace(x, h))) == error_kind::none);
  // two int16 inputs: int16, in place (C++ alone would promote to int)
  STATIC_REQUIRE(kind_of(ip::inputs(h), ip::outputs(ip::add_inplace(h, h))) == error_kind::none);
  // weak constants take the tensor's dtype: an int stays int
  STATIC_REQUIRE(kind_of(ip::inputs(i), ip::outputs(ip::mul_inplace(i, 3_c))) == error_kind::none);
  // reinterpret makes the dtype explicit: a float view of i's bytes is a float root
  STATIC_REQUIRE(kind_of(ip::inputs(i, x), ip::outputs(ip::add_inplace(ip::reinterpret<float>(i), x))) ==
                 error_kind::none);
}

TEST_CASE("shape_mismatch", "[rules]") {
  constexpr auto M = ip::input<"M", float, ip::extents<3, 4>>;
  STATIC_REQUIRE(kind_of(ip::inputs(v4, M), ip::outputs(ip::add_inplace(v4, M))) == error_kind::shape_mismatch);
  STATIC_REQUIRE(kind_of(ip::inputs(v4, M), ip::outputs(ip::add_inplace(M, v4))) == error_kind::none);
  // static extents that do not broadcast at all
  STATIC_REQUIRE(kind_of(ip::inputs(v4, v5), ip::outputs(v4 + v5)) == error_kind::shape_mismatch);
  // a static 1 that would be stretched
  constexpr auto one = ip::input<"one", float, ip::extents<1>>;
  STATIC_REQUIRE(kind_of(ip::inputs(one, v4), ip::outputs(ip::add_inplace(one, v4))) == error_kind::shape_mismatch);
  STATIC_REQUIRE(kind_of(ip::inputs(one, v4), ip::outputs(ip::add_inplace(v4, one))) == error_kind::none);
  // a rank-1 input overwritten by a rank-2 result (dynamic extents)
  STATIC_REQUIRE(kind_of(ip::inputs(x, A), ip::outputs(ip::add_inplace(x, A))) == error_kind::shape_mismatch);
  // a reshape to another number of elements
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::reshape<3, 5>(S))) == error_kind::shape_mismatch);
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::reshape<2, 8>(S))) == error_kind::none);
  // dot with static inner extents that differ
  constexpr auto P = ip::input<"P", float, ip::extents<3, 4>>;
  STATIC_REQUIRE(kind_of(ip::inputs(P), ip::outputs(ip::dot(P, P))) == error_kind::shape_mismatch);
  STATIC_REQUIRE(kind_of(ip::inputs(P), ip::outputs(ip::dot(P, ip::transpose(P)))) == error_kind::none);
}

TEST_CASE("multiple_destroyers", "[rules]") {
  constexpr auto r = ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::mul_inplace(x, y)));
  STATIC_REQUIRE(r.error == error_kind::multiple_destroyers);
  STATIC_REQUIRE(r.name(0) == "x");
  STATIC_REQUIRE(r.name(1) == "add_inplace(x, y)");
  STATIC_REQUIRE(r.name(2) == "mul_inplace(x, y)");
  // through views: both destroy the root A
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(ip::add_inplace(ip::transpose(A), B),
                                                       ip::exp_inplace(ip::slice<1>(A)))) ==
                 error_kind::multiple_destroyers);
  // a scribbling op destroys its second input too
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::apply(scribble_both{}, x, y), ip::exp_inplace(y))) ==
                 error_kind::multiple_destroyers);
}

TEST_CASE("destroys_protected", "[rules]") {
  constexpr auto r = ip::check(ip::inputs(k, x), ip::outputs(ip::add_inplace(k, x)));
  STATIC_REQUIRE(r.error == error_kind::destroys_protected);
  STATIC_REQUIRE(r.name(0) == "k");
  // through a view of the indestructible input
  STATIC_REQUIRE(kind_of(ip::inputs(k, x), ip::outputs(ip::exp_inplace(ip::slice<0, 2>(k)))) ==
                 error_kind::destroys_protected);
  // a constant
  STATIC_REQUIRE(kind_of(ip::inputs(a), ip::outputs(ip::add_inplace(2.0_c, a))) == error_kind::destroys_protected);
  // reading k is fine
  STATIC_REQUIRE(kind_of(ip::inputs(k, x), ip::outputs(ip::add_inplace(x, k))) == error_kind::none);
}

TEST_CASE("destroys_output", "[rules]") {
  constexpr auto r = ip::check(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), x));
  STATIC_REQUIRE(r.error == error_kind::destroys_output);
  STATIC_REQUIRE(r.name(0) == "x");
  // a view of the destroyed root
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(ip::add_inplace(A, B), ip::transpose(A))) ==
                 error_kind::destroys_output);
  // the destroyer's own result is fine
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), y)) == error_kind::none);
  // an intermediate in-place result returned and overwritten later
  constexpr auto t = ip::add_inplace(x, y);
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(t, ip::exp_inplace(t))) == error_kind::destroys_output);
}

TEST_CASE("aliasing_hazard", "[rules]") {
  constexpr auto r = ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::transpose(A))));
  STATIC_REQUIRE(r.error == error_kind::aliasing_hazard);
  STATIC_REQUIRE(r.name(0) == "add_inplace(A, transpose(...))");
  STATIC_REQUIRE(r.name(1) == "A");
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::add_inplace(x, ip::reverse(x)))) == error_kind::aliasing_hazard);
  // shifted slices, both directions
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::add_inplace(ip::slice<1>(x), ip::slice<0, -1>(x)))) ==
                 error_kind::aliasing_hazard);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::add_inplace(ip::slice<0, -1>(x), ip::slice<1>(x)))) ==
                 error_kind::aliasing_hazard);
  // a reduction of the destroyed root computed before it is overwritten: legal
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::reduce_sum<0>(A)))) == error_kind::none);
  // a broadcast read of the destroyed root
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::slice<0, 1>(A)))) ==
                 error_kind::aliasing_hazard);  // row 0 broadcast over every row
  // same-index reads are legal
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::add_inplace(x, x))) == error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(ip::transpose(A), ip::transpose(A)))) ==
                 error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::transpose(ip::transpose(A))))) ==
                 error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::add_inplace(x, ip::reverse(ip::reverse(x))))) ==
                 error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::add_inplace(x, ip::slice<0>(x)))) == error_kind::none);
  // any aliased read by an opaque destroyer is a hazard
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::apply(ip::ops::softmax_inplace{}, A))) == error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::apply(opaque_update{}, A, A))) == error_kind::aliasing_hazard);
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(ip::apply(opaque_update{}, A, B))) == error_kind::none);
}

TEST_CASE("ordering_cycle", "[rules]") {
  constexpr auto r = ip::check(ip::inputs(x, y), ip::outputs(ip::dot(x, ip::add_inplace(x, y))));
  STATIC_REQUIRE(r.error == error_kind::ordering_cycle);
  STATIC_REQUIRE(r.name(0) == "dot(x, add_inplace(...))");
  STATIC_REQUIRE(r.name(1) == "add_inplace(x, y)");
  // siblings that only share inputs are not joined (Aesara's classic)
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::add_inplace(y, x))) ==
                 error_kind::ordering_cycle);
  // the fused-loop exception: an elementwise reader after the destroyer, same index
  STATIC_REQUIRE(kind_of(ip::inputs(x, z), ip::outputs(ip::mul(ip::add_inplace(x, z), x))) == error_kind::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x, z), ip::outputs(ip::mul(ip::exp(ip::add_inplace(x, z)), x))) ==
                 error_kind::none);
  // ... not through reduce_sum, nor with a transposed read
  STATIC_REQUIRE(kind_of(ip::inputs(x, z), ip::outputs(ip::mul(ip::reduce_sum(ip::add_inplace(x, z)), x))) ==
                 error_kind::ordering_cycle);
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(ip::mul(ip::add_inplace(A, B), ip::transpose(A)))) ==
                 error_kind::ordering_cycle);
  // ... nor when the reader is opaque
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(ip::dot(ip::add_inplace(A, B), A))) ==
                 error_kind::ordering_cycle);
  // ... nor when the path leaves the rank (a broadcast into a rank-2 loop)
  STATIC_REQUIRE(kind_of(ip::inputs(x, z, A), ip::outputs(ip::mul(ip::add(ip::add_inplace(x, z), A), x))) ==
                 error_kind::ordering_cycle);
  // order(...) contradicting the destroy constraint
  constexpr auto w = ip::add_inplace(x, y);
  constexpr auto e = ip::exp(x);
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(w, e), ip::order(w, e)) == error_kind::ordering_cycle);
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(w, e), ip::order(e, w)) == error_kind::none);
  // order(...) contradicting a data edge
  constexpr auto u = ip::exp(x);
  constexpr auto u2 = ip::log(u);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(u2), ip::order(u2, u)) == error_kind::ordering_cycle);
}

TEST_CASE("the first rule that applies is reported", "[rules]") {
  // dtype before shape before destroy rules
  constexpr auto M = ip::input<"M", int, ip::extents<3, 4>>;
  STATIC_REQUIRE(kind_of(ip::inputs(v4, M), ip::outputs(ip::add_inplace(M, v4))) == error_kind::dtype_mismatch);
  // multiple_destroyers before destroys_output
  STATIC_REQUIRE(kind_of(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::mul_inplace(x, y), x)) ==
                 error_kind::multiple_destroyers);
  // destroys_protected before destroys_output
  STATIC_REQUIRE(kind_of(ip::inputs(k, x), ip::outputs(ip::add_inplace(k, x), k)) == error_kind::destroys_protected);
  // destroys_output before aliasing_hazard
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::transpose(A)), A)) ==
                 error_kind::destroys_output);
  // aliasing_hazard before ordering_cycle
  STATIC_REQUIRE(kind_of(ip::inputs(A, B), ip::outputs(ip::add_inplace(A, ip::transpose(A)), ip::dot(A, B))) ==
                 error_kind::aliasing_hazard);
  // bad_op_maps before undeclared... no: undeclared_input first
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::apply(view_two{}, x, y))) == error_kind::undeclared_input);
}
