// A view op run in a graph needs a view function; the mistake is to leave it out.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: op_kernel" in the first lines).
// long: the kernel is looked up where the graph runs, deep in the executor, after its types
// expect: a view op run in a graph needs a view function
#include <inplace.hpp>

namespace ip = inplace;
using namespace ip::literals;

namespace hana = boost::hana;
struct first_half {
  static constexpr std::string_view name = "first_half";
  static constexpr auto view_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) {
    ip::shape r = in[0];
    r.extent[0] = in[0].extent[0] == ip::dynamic ? ip::dynamic : in[0].extent[0] / 2;
    return r;
  }
#ifndef INPLACE_SHOULD_FAIL
  template <class V>
  static auto view(const V& v) {
    return ip::tensor_view<typename V::element_type, 1>(v.data(), {v.extent(0) / 2}, {v.stride(0)});
  }
#endif
};
constexpr auto x = ip::input<"x", float>;
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::exp(ip::apply(first_half{}, x))));

int main() {
  ip::tensor<float> a{1, 2, 3, 4};
  auto r = f(a);
  return r.size() == 2 ? 0 : 1;
}
