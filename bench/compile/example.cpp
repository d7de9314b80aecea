// The goal's "example program": one function, its explanation, one call
// (bench/compile/measure.py --goals compiles it with -O2 -c).
#include <inplace.hpp>

#include <cstdio>

namespace ip = inplace;

constexpr auto a = ip::input<"a", float, 2>;
constexpr auto b = ip::input<"b", float, 2>;
constexpr auto f = ip::function(ip::inputs(a, b), ip::outputs(ip::softmax(ip::gelu(a + b))));

int main() {
  ip::tensor<float, 2> x(64, 1000), y(64, 1000);
  for (std::size_t i = 0; i < 64; ++i)
    for (std::size_t j = 0; j < 1000; ++j) x(i, j) = static_cast<float>(j % 7) * 0.1f, y(i, j) = 0.01f;
  std::printf("%s\n", ip::explain(f, ip::donated, ip::borrowed).c_str());
  auto r = f(std::move(x), y);
  std::printf("%g\n", static_cast<double>(r(0, 0)));
}
