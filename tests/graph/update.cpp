// The analysis of updates through views. ip::set / inc / update are pure: any
// graph of them is legal. Their in-place forms (ip::set_inplace ...) overwrite
// only their region of x: a read of x elsewhere may run in any order, a read of
// the region must run before (an ordering_cycle when it cannot), a value that
// reads the region at another index pattern is an aliasing_hazard, and no other
// node may overwrite any part of x (the update returns all of it). A region at
// a run-time offset (ip::dynamic_slice) stands for its whole axis.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstdint>

namespace ip = inplace;
using namespace ip::literals;
using ek = ip::error_kind;

namespace {
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto b = ip::input<"b", float, ip::extents<6>>;
constexpr auto t = ip::scalar<"t", std::int64_t>;
template <class... V>
constexpr ek verdict(V... v) { return ip::check(v...).error; }
}  // namespace

// pure updates: always legal, whatever else reads x
static_assert(verdict(ip::inputs(S, b), ip::outputs(ip::set(ip::row<0>(S), b), ip::row<0>(S) * ip::set(ip::row<0>(S), b))) == ek::none);
static_assert(verdict(ip::inputs(S), ip::outputs(ip::inc(ip::view(S, ip::range<0, 2>), ip::view(S, ip::range<1, 3>)))) == ek::none);

// in place: the region is what it writes
constexpr auto y = ip::set_inplace(ip::row<0>(S), b);
static_assert(verdict(ip::inputs(S, b), ip::outputs(y)) == ek::none);
static_assert(verdict(ip::inputs(S, b), ip::outputs(ip::row<1>(S) * y)) == ek::none);      // reads elsewhere: any order
static_assert(verdict(ip::inputs(S, b), ip::outputs(y, ip::row<0>(S) + 1.0_c)) == ek::none);  // reads it: first
static_assert(verdict(ip::inputs(S, b), ip::outputs(ip::row<0>(S) * y)) == ek::ordering_cycle);  // reads it after: no order
// the value may read the region at the same index, or elsewhere; not at another pattern
static_assert(verdict(ip::inputs(S), ip::outputs(ip::inc_inplace(ip::row<0>(S), ip::row<0>(S)))) == ek::none);
static_assert(verdict(ip::inputs(S), ip::outputs(ip::set_inplace(ip::row<0>(S), ip::row<3>(S)))) == ek::none);
static_assert(verdict(ip::inputs(A), ip::outputs(ip::set_inplace(ip::view(A, ip::all, ip::range<0, ip::end, 2>),
                                                               ip::view(A, ip::all, ip::range<1, ip::end, 2>)))) == ek::none);
static_assert(verdict(ip::inputs(S), ip::outputs(ip::set_inplace(ip::view(S, ip::range<0, 2>), ip::view(S, ip::range<1, 3>)))) ==
              ek::aliasing_hazard);
constexpr auto Q = ip::input<"Q", float, ip::extents<5, 5>>;
static_assert(verdict(ip::inputs(Q), ip::outputs(ip::set_inplace(ip::row<0>(Q), ip::row<0>(ip::transpose(Q))))) ==
              ek::aliasing_hazard);
// no other writer of x, even of another region: the update's result holds all of x
static_assert(verdict(ip::inputs(S, b), ip::outputs(y, ip::add_inplace(ip::row<1>(S), b))) == ek::multiple_destroyers);
static_assert(verdict(ip::inputs(S, b), ip::outputs(ip::set_inplace(ip::row<2>(y), b))) == ek::none);  // an update of the update
// x is an input marked indestructible, or an output: the usual rules
static_assert(verdict(ip::inputs(S, b), ip::outputs(y, S)) == ek::destroys_output);
// a run-time offset: the whole axis, conservatively
constexpr auto yd = ip::set_inplace(ip::dynamic_slice<0, 1>(S, t), ip::expand_dims<0>(b));
static_assert(verdict(ip::inputs(S, t, b), ip::outputs(yd)) == ek::none);
static_assert(verdict(ip::inputs(S, t, b), ip::outputs(ip::row<0>(S) * yd)) == ek::ordering_cycle);
static_assert(verdict(ip::inputs(S, t, b), ip::outputs(ip::col<0>(S) * ip::col<0>(yd))) == ek::ordering_cycle);
// ... but what the views before the dynamic slice left out is apart: a run-time row of S[:, :3]
constexpr auto yr = ip::set_inplace(ip::dynamic_slice<0, 1>(ip::view(S, ip::all, ip::range<0, 3>), t), 1.0_c);
static_assert(verdict(ip::inputs(S, t), ip::outputs(ip::col<5>(S) * ip::col<5>(yr))) == ek::none);
static_assert(verdict(ip::inputs(S, t), ip::outputs(ip::col<2>(S) * ip::col<2>(yr))) == ek::ordering_cycle);
// a run-time pair of columns: any element of those columns, in every row, may be written
constexpr auto yc = ip::set_inplace(ip::dynamic_slice<1, 2>(S, t), ip::expand_dims<1>(ip::view(b, ip::range<0, 4>)));
static_assert(verdict(ip::inputs(S, t, b), ip::outputs(yc)) == ek::none);
static_assert(verdict(ip::inputs(S, t, b), ip::outputs(ip::view(S, ip::range<0, 1>) + ip::view(yc, ip::range<0, 1>))) ==
              ek::ordering_cycle);
// shapes: v must broadcast to the region
static_assert(verdict(ip::inputs(S, b), ip::outputs(ip::set(ip::col<0>(S), b))) == ek::shape_mismatch);
static_assert(verdict(ip::inputs(S), ip::outputs(ip::set(ip::view(S, ip::range<0, 2>), ip::row<0>(S)))) == ek::none);
static_assert(verdict(ip::inputs(S, t), ip::outputs(ip::set(ip::dynamic_slice<0, 5>(S, t), 0.0_c))) == ek::shape_mismatch);

// dtypes: the result has x's
constexpr auto I = ip::input<"I", std::int32_t, ip::extents<4, 6>>;
static_assert(std::is_same_v<decltype(ip::set(ip::row<0>(I), b))::dtype, std::int32_t>);
static_assert(std::is_same_v<decltype(ip::inc(ip::row<0>(S), ip::row<0>(I)))::dtype, float>);

TEST_CASE("update verdicts are compile-time constants", "[update][graph]") {
  CHECK(verdict(ip::inputs(S, b), ip::outputs(y)) == ek::none);
  CHECK(ip::to_string(verdict(ip::inputs(S, b), ip::outputs(ip::row<0>(S) * y))) == "ordering_cycle");
}
