// A registered in-place variant computes the op's dtype: a float variant of a
// double op would round every value the rewrite computes in place.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: variant_dtype" in the first lines).
// long: the registry is read where the graph runs, after the op's and the variant's types
#include <inplace.hpp>

namespace ip = inplace;
namespace hana = boost::hana;

struct add_d {  // a + b, in the inputs' dtype
  static constexpr std::string_view name = "add_d";
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto a, auto b) const { return a + b; }
};
struct add_d_inplace {  // the same in a's storage, but computed in float
  static constexpr std::string_view name = "add_d_inplace";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
#ifdef INPLACE_SHOULD_FAIL
  constexpr auto operator()(auto a, auto b) const { return static_cast<float>(a + b); }
#else
  constexpr auto operator()(auto a, auto b) const { return a + b; }
#endif
};
template <>
struct ip::inplace_variant_traits<add_d, 0> {
  using type = add_d_inplace;
};

constexpr auto x = ip::input<"x", double>;
constexpr auto y = ip::input<"y", double>;
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(add_d{}, x, y)));

int main() {
  ip::tensor<double> a{1.1}, b{3};
  auto r = f(std::move(a), b);
  return r[0] == 1.1 + 3 ? 0 : 1;
}
