// Disjoint regions of one root: an in-place update through one view may read
// other views of the same storage when their index patterns prove that no
// element is both written and read (docs/analysis.md, "Disjoint regions").
// Proved for static extents exactly, and for dynamic extents where a stride's
// phase or an offset's reach proves it for every extent; other reads stay an
// aliasing_hazard (the brute force is tests/graph/view_patterns.cpp).
#include <inplace.hpp>

#include <catch2/catch.hpp>

namespace ip = inplace;
using namespace ip::literals;
using ek = ip::error_kind;

namespace {
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;  // static extents
constexpr auto Q = ip::input<"Q", float, ip::extents<5, 5>>;
constexpr auto A = ip::input<"A", float, 2>;  // dynamic extents
constexpr auto x = ip::input<"x", float>;
constexpr auto W = ip::input<"W", float, ip::extents<ip::dynamic, 6>>;  // dynamic rows, static columns

template <class V>
constexpr auto even_cols(V v) { return ip::view(v, ip::all, ip::range<0, ip::end, 2>); }
template <class V>
constexpr auto odd_cols(V v) { return ip::view(v, ip::all, ip::range<1, ip::end, 2>); }
// The verdict on in-place node `out` of the function of input `in`.
template <class In, class Out>
constexpr ek verdict(In in, Out out) { return ip::check(ip::inputs(in), ip::outputs(out)).error; }
template <class... V>
constexpr ek verdict2(V... v) { return ip::check(v...).error; }
}  // namespace

// Each case of the rule, proved while compiling.
// even and odd columns: the column's phase (static width, dynamic width, a vector)
static_assert(ip::check(ip::inputs(S), ip::outputs(ip::add_inplace(even_cols(S), odd_cols(S)))).ok);
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(even_cols(A), odd_cols(A)))).ok);
static_assert(ip::check(ip::inputs(W), ip::outputs(ip::add_inplace(even_cols(W), odd_cols(W)))).ok);
static_assert(verdict(x, ip::mul_inplace(ip::slice<1, ip::end, 2>(x), ip::slice<0, ip::end, 2>(x))) == ek::none);
// row 0 and the rows after it; the last row and the one before (dynamic rows)
static_assert(verdict(A, ip::add_inplace(ip::row<0>(A), ip::row<0>(ip::slice<1, ip::end>(A)))) == ek::none);
static_assert(verdict(A, ip::add_inplace(ip::row<-1>(A), ip::row<-2>(A))) == ek::none);
static_assert(verdict(S, ip::add_inplace(ip::view(S, ip::range<1, ip::end>), ip::broadcast_to<3, 6>(ip::row<0>(S)))) == ek::none);
// two halves: a static split of a static extent, of a dynamic one, of a vector
static_assert(verdict(S, ip::add_inplace(ip::view(S, ip::all, ip::range<0, 3>), ip::view(S, ip::all, ip::range<3, ip::end>))) ==
              ek::none);
static_assert(verdict(A, ip::add_inplace(ip::view(A, ip::range<0, 2>), ip::view(A, ip::range<2, 4>))) == ek::none);
static_assert(verdict(x, ip::add_inplace(ip::slice<0, 3>(x), ip::slice<3, 6>(x))) == ek::none);
static_assert(verdict(x, ip::add_inplace(ip::slice<0, 2>(x), ip::slice<-2, ip::end>(x))) == ek::aliasing_hazard);  // (n < 4)
// different rows of one column slice
static_assert(verdict(S, ip::add_inplace(ip::row<2>(odd_cols(S)), ip::row<3>(odd_cols(S)))) == ek::none);
static_assert(verdict(A, ip::add_inplace(ip::row<2>(odd_cols(A)), ip::row<3>(odd_cols(A)))) == ek::none);
static_assert(verdict(W, ip::add_inplace(ip::col<1>(W), ip::col<4>(W))) == ek::none);
// the superdiagonal and the diagonal; row 0 right of the diagonal (strictly upper) and the diagonal
static_assert(verdict(Q, ip::add_inplace(ip::diagonal<1>(Q), ip::diagonal(ip::slice<0, 4>(Q)))) == ek::none);
static_assert(verdict(S, ip::add_inplace(ip::view(S, ip::at<0>, ip::range<1, 5>), ip::diagonal(S))) == ek::none);
// red and black points of a grid of odd width: even and odd elements of its flattening
static_assert(verdict(Q, ip::add_inplace(ip::view(ip::flatten(Q), ip::range<6, 18, 2>),
                                         ip::view(ip::flatten(Q), ip::range<1, 13, 2>))) == ek::none);

TEST_CASE("disjoint regions of one root: legal where the patterns prove it", "[views][graph][disjoint]") {
  STATIC_REQUIRE(verdict(S, ip::add_inplace(even_cols(S), odd_cols(S))) == ek::none);
  STATIC_REQUIRE(verdict(A, ip::add_inplace(even_cols(A), odd_cols(A))) == ek::none);
  // the first rows' even columns against the last rows' odd columns, reversed
  STATIC_REQUIRE(verdict(S, ip::add_inplace(ip::view(S, ip::range<0, 2>, ip::range<0, ip::end, 2>),
                                            ip::view(S, ip::range<3, 1, -1>, ip::range<-1, ip::end, -2>))) == ek::none);
  // two reads, both disjoint from the region written
  STATIC_REQUIRE(verdict(A, ip::add_inplace(even_cols(ip::slice<1, ip::end>(A)),
                                            ip::add(odd_cols(ip::slice<1, ip::end>(A)), even_cols(ip::slice<0, 1>(A))))) ==
                 ek::none);  // (add reads before: legal already; the in-place node reads nothing of A)
  STATIC_REQUIRE(verdict(S, ip::mul_inplace(ip::view(S, ip::all, ip::range<0, 3>), ip::view(S, ip::all, ip::range<-1, 2, -1>))) ==
                 ek::none);  // columns 5, 4, 3 reversed against columns 0, 1, 2
}

TEST_CASE("overlapping or unproved regions stay an aliasing_hazard", "[views][graph][disjoint]") {
  // the even columns shifted by two: they share columns 2
  STATIC_REQUIRE(verdict(S, ip::add_inplace(ip::view(S, ip::all, ip::range<0, 4, 2>), ip::view(S, ip::all, ip::range<2, 6, 2>))) ==
                 ek::aliasing_hazard);
  // a static split of a dynamic axis that overlaps (rows 1, 2 and 2, 3)
  STATIC_REQUIRE(verdict(A, ip::add_inplace(ip::view(A, ip::range<1, 3>), ip::view(A, ip::range<2, 4>))) == ek::aliasing_hazard);
  // row 0 and row -1 of a dynamic matrix: the same row when it has one row
  STATIC_REQUIRE(verdict(A, ip::add_inplace(ip::row<0>(A), ip::row<-1>(A))) == ek::aliasing_hazard);
  // the even columns 0, 2 and the columns 1, 2
  STATIC_REQUIRE(verdict(S, ip::add_inplace(ip::view(S, ip::all, ip::range<0, 4, 2>), ip::view(S, ip::all, ip::range<1, 3>))) ==
                 ek::aliasing_hazard);
  // the superdiagonal and row 0: they share (0, 1)
  STATIC_REQUIRE(verdict(Q, ip::add_inplace(ip::diagonal<1>(Q), ip::view(Q, ip::at<0>, ip::range<0, 4>))) == ek::aliasing_hazard);
  // (the subdiagonal of the transposed block is the superdiagonal itself: the same pattern, legal)
  STATIC_REQUIRE(verdict(Q, ip::add_inplace(ip::diagonal<1>(Q), ip::diagonal<-1>(ip::transpose(ip::slice<0, 4>(Q))))) == ek::none);
  // a phase Python clamps when the axis is short: x[-3::2] starts at 0 for 2 elements, as x[-4::2] does
  STATIC_REQUIRE(verdict(x, ip::add_inplace(ip::slice<-4, ip::end, 2>(x), ip::slice<-3, ip::end, 2>(x))) == ek::aliasing_hazard);
  // rows 0, 1 against the transpose of columns 0, 1: they meet in the corner
  STATIC_REQUIRE(verdict(Q, ip::add_inplace(ip::view(Q, ip::range<0, 2>), ip::transpose(ip::view(Q, ip::all, ip::range<0, 2>)))) ==
                 ek::aliasing_hazard);
  // a dynamic extent split where its length is unknown: odd columns of A[:, 1:] are even columns of A
  STATIC_REQUIRE(verdict(A, ip::add_inplace(even_cols(A), odd_cols(ip::view(A, ip::all, ip::range<1, ip::end>)))) == ek::aliasing_hazard);
}

TEST_CASE("in-place nodes writing disjoint regions of one root are independent", "[views][graph][disjoint]") {
  // a[:, ::2] += 1 and a[:, 1::2] *= 2: two destroyers of A, of disjoint regions
  constexpr auto e = ip::add_inplace(even_cols(A), 1.0_c);
  constexpr auto o = ip::mul_inplace(odd_cols(A), 2.0_c);
  STATIC_REQUIRE(verdict2(ip::inputs(A), ip::outputs(e, o)) == ek::none);
  // in either order, as ip::order asks
  STATIC_REQUIRE(verdict2(ip::inputs(A), ip::outputs(e, o), ip::order(o, e)) == ek::none);
  STATIC_REQUIRE(verdict2(ip::inputs(A), ip::outputs(e, o), ip::order(e, o)) == ek::none);
  // a read of the odd columns may run after the even ones are written (and not after the odd ones)
  STATIC_REQUIRE(verdict2(ip::inputs(A), ip::outputs(e, ip::exp(odd_cols(A))), ip::order(e, ip::exp(odd_cols(A)))) == ek::none);
  STATIC_REQUIRE(verdict2(ip::inputs(A), ip::outputs(o, ip::exp(odd_cols(A))), ip::order(o, ip::exp(odd_cols(A)))) ==
                 ek::ordering_cycle);
  // the second update reads the first one's result: a data edge orders them
  STATIC_REQUIRE(verdict2(ip::inputs(S), ip::outputs(ip::add_inplace(odd_cols(S), ip::add_inplace(even_cols(S), 1.0_c)))) ==
                 ek::none);
  // overlapping regions: still two destroyers of one root
  STATIC_REQUIRE(verdict2(ip::inputs(S), ip::outputs(ip::add_inplace(even_cols(S), 1.0_c),
                                                     ip::add_inplace(ip::view(S, ip::all, ip::range<2, 5>), 1.0_c))) ==
                 ek::multiple_destroyers);
  STATIC_REQUIRE(verdict2(ip::inputs(A), ip::outputs(ip::add_inplace(ip::row<0>(A), 1.0_c), ip::add_inplace(ip::row<-1>(A), 1.0_c))) ==
                 ek::multiple_destroyers);
}
