// User ops: maps as Boost.Hana maps, an elementwise kernel, one with a SIMD form,
// an opaque op with a shape rule and a tensor kernel, registering an in-place
// variant for the rewrite, and all of them running inside a graph.
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cstdio>

namespace ip = inplace;
namespace hana = boost::hana;

// [doc:elementwise]
// An elementwise op computing 2x + y in the storage of x (input 0).
struct axpy_inplace {
  static constexpr std::string_view name = "axpy_inplace";
  static constexpr auto destroy_map =
      hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto x, auto y) const { return 2 * x + y; }
};

// The pure op, and its in-place variant registered for input 0: the rewrite
// computes a pure axpy in x's storage when x is donated and read by nobody else.
struct axpy {
  static constexpr std::string_view name = "axpy";
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto x, auto y) const { return 2 * x + y; }
};
template <>
struct ip::inplace_variant_traits<axpy, 0> {
  using type = axpy_inplace;
};
// [/doc]
static_assert(std::is_same_v<ip::inplace_variant<axpy, 0>, axpy_inplace>);
// Any elementwise op also has a generic variant: ip::inplace<1>(axpy{}).

// [doc:simd]
// An elementwise op with the power of a built-in one: its kernel also takes
// xsimd batches (math functions called unqualified), so tensor loops and a
// graph's fused loops run it vectorised, and has_inplace registers its in-place
// variant ip::ops::inplace_op<softplus, I> for every input.
struct softplus {
  static constexpr std::string_view name = "softplus";
  static constexpr bool elementwise = true;
  static constexpr bool simd = true;
  static constexpr bool has_inplace = true;
  template <class A>
  constexpr auto operator()(A a) const {
    using std::exp;
    using std::log1p;
    return log1p(exp(a));
  }
};
// [/doc]
static_assert(ip::detail::texpr::simd_op<softplus>::value);  // what the SIMD evaluator asks
static_assert(std::is_same_v<ip::inplace_variant<softplus, 0>, ip::ops::inplace_op<softplus, 0>>);

// [doc:opaque]
// An opaque op: the row sums of a matrix. Its shape rule says what it returns;
// its kernel receives the output views first, then the input views.
struct row_sums {
  static constexpr std::string_view name = "row_sums";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) {
    ip::shape r{};
    r.rank = 1;
    r.extent[0] = in[0].extent[0];
    return r;
  }
  template <class Out, class In>
  void kernel(const Out& out, const In& m) const {
    for (std::size_t i = 0; i < m.extent(0); ++i) {
      out(i) = 0;
      for (std::size_t j = 0; j < m.extent(1); ++j) out(i) += m(i, j);
    }
  }
};
// [/doc]

constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;

// [doc:several_outputs]
// An elementwise op of several outputs returns them as one tuple: (a + b, a - b).
struct sum_diff {
  static constexpr bool elementwise = true;
  static constexpr std::size_t num_outputs = 2;
  constexpr auto operator()(auto a, auto b) const { return std::tuple{a + b, a - b}; }
};
constexpr auto sd = ip::apply(sum_diff{}, x, y);  // hana::at_c<0>(sd), hana::at_c<1>(sd)
// [/doc]

constexpr auto M = ip::input<"M", float, ip::extents<3, 5>>;

constexpr auto r = ip::apply(axpy_inplace{}, x, y);
constexpr auto s = ip::apply(row_sums{}, M);
static_assert(std::remove_cvref_t<decltype(s)>::value_shape.extent[0] == 3);
static_assert(ip::check(ip::inputs(x, y), ip::outputs(r)).ok);
// x is destroyed: returning it as well is an error.
static_assert(ip::check(ip::inputs(x, y), ip::outputs(r, x)).error == ip::error_kind::destroys_output);

int main(int argc, char** argv) {
  std::printf("axpy_inplace(x, y) in x: %s\n", ip::check(ip::inputs(x, y), ip::outputs(r)).ok ? "ok" : "error");
  std::printf("row_sums(M) has %zu rows\n", std::remove_cvref_t<decltype(s)>::value_shape.extent[0]);

  // [doc:run]
  // Both kinds in one graph: the row sums, then axpy fused with a relu.
  constexpr auto f = ip::function(ip::inputs(M, y), ip::outputs(ip::relu(ip::apply(axpy{}, ip::apply(row_sums{}, M), y))));
  static_assert(ip::plan(f, ip::borrowed, ip::borrowed).allocations == 1);  // row_sums' result, reused in place
  ip::tensor<float, ip::extents<3, 5>> m;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 5; ++j) m(i, j) = static_cast<float>(i) - 1;
  ip::tensor<float> b{1, 2, 3};
  auto out = f(m, b);  // relu(2 * row_sums(m) + b)
  std::printf("relu(axpy(row_sums(M), y)): %g %g %g\n", out[0], out[1], out[2]);
  // [/doc]
  dot_option(argc, argv, "custom_op").write("f", ip::to_dot(f, ip::borrowed, ip::borrowed));

  {
    ip::tensor<float> t{-1, 0, 1, 2, 3, 4, 5, 6};
    ip::tensor<float> sp = ip::apply(softplus{}, t) * 2.0f;  // one vectorised loop
    constexpr auto h = ip::function(ip::inputs(x), ip::outputs(ip::apply(softplus{}, x) - x));
    auto d = h(std::move(t));  // donated: computed in t's storage
    std::printf("softplus: %.4f %.4f %.4f, softplus(x) - x: %.4f\n", sp[0] / 2, sp[1] / 2, sp[2] / 2, d[7]);
  }

  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(hana::at_c<0>(sd), ip::neg(hana::at_c<1>(sd))));
  auto [sum, diff2] = g(ip::tensor<float>{3, 5}, ip::tensor<float>{1, 2});
  std::printf("sum_diff: sums %g %g, negated differences %g %g\n", sum[0], sum[1], diff2[0], diff2[1]);

  // [doc:debug]
  // Debug mode runs the graph beside a pure reference and checks each op
  // against its maps (row_sums writes only its output; axpy_inplace, the
  // variant registered for axpy, computes what axpy computes). A lying op
  // throws ip::debug_error naming it.
  auto checked = f.debug(m, b);
  std::printf("debug mode: %g %g %g, no lie found\n", checked[0], checked[1], checked[2]);
  // [/doc]
}
