// np.concatenate of computed values, in a graph: each operand's loop writes
// straight into its region of the result, so the call allocates the result
// and nothing else (oneDNN's and XLA's in-place concat).
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cstddef>
#include <cstdio>

namespace ip = inplace;
using namespace ip::literals;

constexpr auto a = ip::input<"a", float, ip::extents<2, 3>>;
constexpr auto b = ip::input<"b", float, ip::extents<2, 2>>;
// [doc:concatenate]
constexpr auto f = ip::function(ip::inputs(a, b), ip::outputs(ip::concatenate<1>(ip::exp(a), b * 2.0_c)));
static_assert(ip::plan(f, ip::borrowed, ip::borrowed).allocations == 1);  // the result only
// [/doc]

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "concatenate");
  dot.write("f", ip::to_dot(f, ip::borrowed, ip::borrowed));
  ip::tensor<float, ip::extents<2, 3>> x;
  ip::tensor<float, ip::extents<2, 2>> y;
  for (std::size_t i = 0; i < 6; ++i) x[i] = 0.5f * static_cast<float>(i);
  for (std::size_t i = 0; i < 4; ++i) y[i] = static_cast<float>(i);
  const auto r = f(x, y);
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 5; ++j) std::printf(" %7.4f", static_cast<double>(r(i, j)));
    std::printf("\n");
  }
  std::printf("%s", ip::explain(f, ip::borrowed, ip::borrowed).c_str());
}
