// An opaque op run in a graph needs a kernel; the mistake is to leave it out.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: op_kernel" in the first lines).
// long: the kernel is looked up where the graph runs, deep in the executor, after its types
// expect: an opaque op run in a graph needs a kernel
#include <inplace.hpp>

namespace ip = inplace;
using namespace ip::literals;

struct row_sums {
  static constexpr std::string_view name = "row_sums";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) {
    ip::shape r{};
    r.rank = 1;
    r.extent[0] = in[0].extent[0];
    return r;
  }
#ifndef INPLACE_SHOULD_FAIL
  template <class Out, class In>
  void kernel(const Out& out, const In& m) const {
    for (std::size_t i = 0; i < m.extent(0); ++i) {
      out(i) = 0;
      for (std::size_t j = 0; j < m.extent(1); ++j) out(i) += m(i, j);
    }
  }
#endif
};
constexpr auto M = ip::input<"M", float, 2>;
constexpr auto f = ip::function(ip::inputs(M), ip::outputs(ip::apply(row_sums{}, M)));

int main() {
  ip::tensor<float, 2> m(2, 3);
  auto r = f(m);
  return r.size() == 2 ? 0 : 1;
}
