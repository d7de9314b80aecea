// The tutorial's graph examples (docs/tutorial.md); each [doc:...] region is
// quoted verbatim there.
#include <inplace/run/to_dot.hpp>

#include "dot_option.hpp"

#include <cstdio>

// [doc:symbols]
#include <inplace/graph.hpp>  // graphs and their compile-time checks (no tensors)

namespace ip = inplace;
using namespace ip::literals;

constexpr auto x = ip::input<"x", float>;                       // rank 1, dynamic extent
constexpr auto A = ip::input<"A", float, 2>;                    // rank 2
constexpr auto S = ip::input<"S", float, ip::extents<4, 4>>;    // static extents
constexpr auto alpha = ip::scalar<"alpha", float>;              // a run-time scalar
constexpr auto k = ip::input<"k", float, 1, ip::indestructible>;

constexpr auto y = alpha * x + 1.0_c;     // a graph: its type is the expression
static_assert(std::is_empty_v<decltype(y)>);
static_assert(std::is_same_v<std::remove_const_t<decltype(y)>, decltype(alpha * x + 1.0_c)>);  // one node
// [/doc]

// [doc:check]
static_assert(ip::check(ip::inputs(x, alpha), ip::outputs(y)).ok);
static_assert(ip::check(ip::inputs(x), ip::outputs(y)).error == ip::error_kind::undeclared_input);
// [/doc]

// [doc:inplace]
constexpr auto z = ip::input<"z", float>;
constexpr auto u = ip::add_inplace(x, z);        // computed in x's storage
constexpr auto v = ip::mul_inplace(u, z);        // chained: u is a new root
static_assert(ip::check(ip::inputs(x, z), ip::outputs(v)).ok);
// x is gone once u is computed: it cannot be returned too ...
static_assert(ip::check(ip::inputs(x, z), ip::outputs(v, x)).error == ip::error_kind::destroys_output);
// ... nor overwritten twice, nor overwritten if indestructible.
static_assert(ip::check(ip::inputs(x, z), ip::outputs(u, ip::exp_inplace(x))).error ==
              ip::error_kind::multiple_destroyers);
static_assert(ip::check(ip::inputs(k, z), ip::outputs(ip::add_inplace(k, z))).error ==
              ip::error_kind::destroys_protected);
// [/doc]

// [doc:views]
// Views share their root's storage; what matters is the index pattern.
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(A, A))).ok);
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::transpose(A)))).error ==
              ip::error_kind::aliasing_hazard);
static_assert(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(ip::slice<1>(x), ip::slice<0, -1>(x)))).error ==
              ip::error_kind::aliasing_hazard);
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::transpose(ip::transpose(A))))).ok);
// [/doc]

// [doc:axis_views]
// NumPy's x[1:3, ::2], x[1], x[:, -1]; Eigen's row, col, block, diagonal.
constexpr auto part = ip::view(A, ip::range<1, 3>, ip::range<0, ip::end, 2>);
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(part, part))).ok);
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(ip::view(A, ip::range<0, 2>), ip::view(A, ip::range<1, 3>))))
                  .error == ip::error_kind::aliasing_hazard);  // rows 0, 1 and 1, 2: row 1 read and written
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(ip::row<1>(A), ip::row<2>(A)))).ok);  // disjoint rows
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::mul_inplace(ip::col<-1>(A), ip::view(A, ip::all, ip::at<-1>)))).ok);
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::swap_axes<0, 1>(ip::transpose(A))))).ok);
// broadcast_to is read-only: writing through it is a hazard
static_assert(ip::check(ip::inputs(x), ip::outputs(ip::exp_inplace(ip::broadcast_to<3, 4>(x)))).error ==
              ip::error_kind::aliasing_hazard);
// [/doc]

// [doc:fused]
// A reader after its destroyer is legal only inside one fused loop:
static_assert(ip::check(ip::inputs(x, z), ip::outputs(ip::mul(ip::add_inplace(x, z), x))).ok);
static_assert(ip::check(ip::inputs(x, z), ip::outputs(ip::mul(ip::reduce_sum(ip::add_inplace(x, z)), x))).error ==
              ip::error_kind::ordering_cycle);
static_assert(ip::check(ip::inputs(x, z), ip::outputs(ip::dot(x, ip::add_inplace(x, z)))).error ==
              ip::error_kind::ordering_cycle);
// [/doc]

// [doc:schedule]
constexpr auto r2 = ip::exp(x);
constexpr auto r3 = ip::log(z);
constexpr auto w = ip::add_inplace(x, z);
constexpr auto f = ip::function(ip::inputs(x, z), ip::outputs(w, r2, r3), ip::order(r3, r2));
static_assert(ip::position(f, r3) < ip::position(f, r2));  // asked for by order(...)
static_assert(ip::position(f, r2) < ip::position(f, w));   // r2 reads x before w overwrites it
// [/doc]

// [doc:io_alias]
// XLA's increment: the output lives in input 0's storage.
constexpr auto inc = ip::function(ip::inputs(x), ip::outputs(x + 1.0_c), ip::io_alias<0, 0>(ip::must_alias));
static_assert(ip::position(inc, x + 1.0_c) == 0);  // one node, computed in x's storage
static_assert(ip::check(ip::inputs(x, z), ip::outputs(x + z), ip::io_alias<0, 2>(ip::may_alias)).error ==
              ip::error_kind::bad_alias_spec);
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::dot(A, A)), ip::io_alias<0, 0>(ip::must_alias)).error ==
              ip::error_kind::alias_conflict);
// [/doc]

int main(int argc, char** argv) {
  dot_option(argc, argv, "tutorial_graph").write("f", ip::to_dot(f));
  std::printf("schedule: log(z) %d, exp(x) %d, add_inplace(x, z) %d\n", ip::position(f, r3), ip::position(f, r2),
              ip::position(f, w));
  (void)S;
  (void)inc;
}
