// The axis views in graphs: their shapes, and the analysis's verdicts on
// in-place updates through them (same index pattern or not, broadcasts).
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>

namespace ip = inplace;
using namespace ip::literals;
using ek = ip::error_kind;

namespace {
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;  // static extents
constexpr auto A = ip::input<"A", float, 2>;                  // dynamic extents
constexpr auto x = ip::input<"x", float>;
constexpr auto T = ip::input<"T", float, ip::extents<2, 3, 4>>;

template <class... V>
constexpr ek kind_of(V... v) {
  return ip::check(v...).error;
}
template <class V>
constexpr ip::shape shape_of(V) {
  return V::value_shape;
}
template <class... E>
constexpr ip::shape sh(E... e) {
  ip::shape s{sizeof...(E), {}};
  s.extent.fill(ip::dynamic);
  std::size_t k = 0;
  ((s.extent[k++] = static_cast<std::size_t>(e)), ...);
  return s;
}
}  // namespace

TEST_CASE("shapes of the axis views", "[views][graph]") {
  constexpr std::size_t d = ip::dynamic;
  STATIC_REQUIRE(shape_of(ip::view(S, ip::range<1, 3>, ip::range<0, ip::end, 2>)) == sh(2, 3));
  STATIC_REQUIRE(shape_of(ip::view(S, ip::range<-1, ip::end, -2>)) == sh(2, 6));
  STATIC_REQUIRE(shape_of(ip::view(S, ip::all, ip::at<-1>)) == sh(4));
  STATIC_REQUIRE(shape_of(ip::view(S, ip::new_axis, ip::at<2>)) == sh(1, 6));
  STATIC_REQUIRE(shape_of(ip::row<2>(S)) == sh(6));
  STATIC_REQUIRE(shape_of(ip::col<5>(S)) == sh(4));
  STATIC_REQUIRE(shape_of(ip::block<1, 2, 3, 4>(S)) == sh(3, 4));
  STATIC_REQUIRE(shape_of(ip::transpose<2, 0, 1>(T)) == sh(4, 2, 3));
  STATIC_REQUIRE(shape_of(ip::swap_axes<0, -1>(T)) == sh(4, 3, 2));
  STATIC_REQUIRE(shape_of(ip::expand_dims<-1>(S)) == sh(4, 6, 1));
  STATIC_REQUIRE(shape_of(ip::squeeze<1>(ip::expand_dims<1>(S))) == sh(4, 6));
  STATIC_REQUIRE(shape_of(ip::diagonal(S)) == sh(4));
  STATIC_REQUIRE(shape_of(ip::diagonal<3>(S)) == sh(3));
  STATIC_REQUIRE(shape_of(ip::diagonal<-2>(S)) == sh(2));
  STATIC_REQUIRE(shape_of(ip::diagonal(T)) == sh(4, 2));
  STATIC_REQUIRE(shape_of(ip::broadcast_to<3, 4, 6>(S)) == sh(3, 4, 6));
  STATIC_REQUIRE(shape_of(ip::broadcast_to<5, 6>(ip::row<0>(S))) == sh(5, 6));
  STATIC_REQUIRE(shape_of(ip::row<1>(A)) == sh(d));
  STATIC_REQUIRE(shape_of(ip::view(A, ip::range<1, 3>)) == sh(2, d));  // literal bounds: assumed long enough
  // what does not fit is a shape_mismatch
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::row<4>(S))) == ek::shape_mismatch);
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::squeeze<0>(S))) == ek::shape_mismatch);
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::transpose<0, 0>(S))) == ek::shape_mismatch);
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::broadcast_to<4, 5>(S))) == ek::shape_mismatch);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::diagonal(x))) == ek::shape_mismatch);
}

TEST_CASE("in place through the axis views: the same pattern is legal, another is a hazard", "[views][graph]") {
  // one row, one column, one block: read and written with the same pattern
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(ip::row<1>(S), ip::row<1>(S)))) == ek::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::mul_inplace(ip::col<2>(A), ip::col<2>(A)))) == ek::none);
  // x[1:3, ::2] written by two spellings of it
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(ip::view(S, ip::range<1, 3>, ip::range<0, ip::end, 2>),
                                                                    ip::view(ip::slice<1, 3>(S), ip::all, ip::range<0, 6, 2>)))) ==
                 ek::none);
  // another row, a neighbouring column: disjoint, legal (tests/graph/disjoint_views.cpp);
  // the transpose, a shifted block: hazards
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(ip::row<1>(S), ip::row<2>(S)))) == ek::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(ip::col<1>(A), ip::col<2>(A)))) == ek::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::transpose<1, 0>(A)))) == ek::aliasing_hazard);
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(ip::block<0, 0, 2, 2>(S), ip::block<1, 1, 2, 2>(S)))) ==
                 ek::aliasing_hazard);
  // compositions the analysis sees through
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(S, ip::transpose(ip::transpose(S))))) == ek::none);
  STATIC_REQUIRE(kind_of(ip::inputs(T), ip::outputs(ip::add_inplace(T, ip::transpose<1, 2, 0>(ip::transpose<2, 0, 1>(T))))) ==
                 ek::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::swap_axes<0, 1>(ip::transpose(A))))) == ek::none);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::squeeze<0>(ip::expand_dims<0>(A))))) == ek::none);
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::add_inplace(ip::slice<0, ip::end, 4>(x),
                                                                    ip::slice<0, ip::end, 2>(ip::slice<0, ip::end, 2>(x))))) ==
                 ek::aliasing_hazard);  // dynamic extent: ceil(ceil(n/2)/2) is not recognised as ceil(n/4)
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(ip::col<0>(S),
                                                                    ip::slice<0, ip::end, 2>(ip::slice<0, ip::end, 2>(ip::col<0>(S)))))) ==
                 ek::aliasing_hazard);  // extents 4 and 1 (a broadcast)
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(ip::view(S, ip::range<0, ip::end, 4>),
                                                                    ip::slice<0, ip::end, 2>(ip::slice<0, ip::end, 2>(S))))) ==
                 ek::none);  // static extents: x[::2][::2] is x[::4]
  STATIC_REQUIRE(kind_of(ip::inputs(x), ip::outputs(ip::add_inplace(ip::slice<1, -1>(x), ip::slice<1>(ip::slice<0, -1>(x))))) ==
                 ek::none);  // x[1:-1] is x[:-1][1:], for any length
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::add_inplace(ip::row<-1>(A), ip::row<0>(ip::reverse(A))))) == ek::none);
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(ip::diagonal(S), ip::view(ip::flatten(S), ip::range<0, 24, 7>)))) ==
                 ek::none);  // the diagonal of a 4 x 6 matrix is every 7th element
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(ip::diagonal<1>(S), ip::diagonal(S)))) == ek::none);  // disjoint
}

TEST_CASE("broadcast_to is never written through", "[views][graph]") {
  // destroying through a broadcast: every repeated element written more than once
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(ip::broadcast_to<3, 6>(ip::row<0>(S)), 1.0_c))) ==
                 ek::aliasing_hazard);
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::exp_inplace(ip::broadcast_to<2, 3, 3>(A)))) == ek::aliasing_hazard);
  // a broadcast of a dynamic extent may repeat (if it is 1 when the program runs)
  STATIC_REQUIRE(kind_of(ip::inputs(A), ip::outputs(ip::exp_inplace(ip::broadcast_to<3, 3>(A)))) == ek::aliasing_hazard);
  // reading one is fine, and a broadcast of extent-1 axes that do not repeat is a plain view
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::exp(ip::broadcast_to<2, 4, 6>(S)))) == ek::none);
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::exp_inplace(ip::broadcast_to<1, 4, 6>(S)))) == ek::none);
  // a broadcast read beside the destroyed root is a hazard, as every broadcast is
  STATIC_REQUIRE(kind_of(ip::inputs(S), ip::outputs(ip::add_inplace(S, ip::broadcast_to<4, 6>(ip::row<0>(S))))) ==
                 ek::aliasing_hazard);
  // never aliased to an output
  STATIC_REQUIRE(ip::check(ip::inputs(S), ip::outputs(ip::broadcast_to<4, 6>(ip::row<0>(S)) + 0.0_c),
                           ip::io_alias<0, 0>(ip::must_alias))
                     .error == ek::alias_conflict);
}

TEST_CASE("the fused-loop exception with axis views", "[views][graph]") {
  // the reader reads row 1 with the destroyer's pattern: one loop, legal
  STATIC_REQUIRE(kind_of(ip::inputs(S, x), ip::outputs(ip::mul(ip::add_inplace(ip::row<1>(S), x), ip::row<1>(S)))) == ek::none);
  // row 1 reversed: it must run before the destroyer, which needs its result: a cycle
  STATIC_REQUIRE(kind_of(ip::inputs(S, x), ip::outputs(ip::mul(ip::add_inplace(ip::row<1>(S), x),
                                                                ip::view(S, ip::at<1>, ip::range<-1, ip::end, -1>)))) ==
                 ek::ordering_cycle);
  // another row: disjoint from the one written, it may run after it
  STATIC_REQUIRE(kind_of(ip::inputs(S, x), ip::outputs(ip::mul(ip::add_inplace(ip::row<1>(S), x), ip::row<2>(S)))) == ek::none);
}
