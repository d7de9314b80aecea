// User ops: maps as Boost.Hana maps, an elementwise kernel, an opaque op with
// a shape rule, and registering an in-place variant for the rewrite.
#include <inplace/graph.hpp>

#include <cstdio>

namespace ip = inplace;
namespace hana = boost::hana;

// An elementwise op computing a*x + y in the storage of x (input 0).
struct axpy_inplace {
  static constexpr auto destroy_map =
      hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto x, auto y) const { return 2 * x + y; }
};

// The pure op, and its in-place variant registered for input 0.
struct axpy {
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto x, auto y) const { return 2 * x + y; }
};
template <>
struct ip::inplace_variant_traits<axpy, 0> {
  using type = axpy_inplace;
};
static_assert(std::is_same_v<ip::inplace_variant<axpy, 0>, axpy_inplace>);
// Any elementwise op also has a generic variant: ip::inplace<1>(axpy{}).

// An opaque op: the row sums of a matrix, with its output-shape rule.
struct row_sums {
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) {
    ip::shape r{};
    r.rank = 1;
    r.extent[0] = in[0].extent[0];
    return r;
  }
};

constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto M = ip::input<"M", float, ip::extents<3, 5>>;

constexpr auto r = ip::apply(axpy_inplace{}, x, y);
constexpr auto s = ip::apply(row_sums{}, M);
static_assert(std::remove_cvref_t<decltype(s)>::value_shape.extent[0] == 3);
static_assert(ip::check(ip::inputs(x, y), ip::outputs(r)).ok);
// x is destroyed: returning it as well is an error.
static_assert(ip::check(ip::inputs(x, y), ip::outputs(r, x)).error == ip::error_kind::destroys_output);

int main() {
  std::printf("axpy_inplace(x, y) in x: %s\n", ip::check(ip::inputs(x, y), ip::outputs(r)).ok ? "ok" : "error");
  std::printf("row_sums(M) has %zu rows\n", std::remove_cvref_t<decltype(s)>::value_shape.extent[0]);
}
