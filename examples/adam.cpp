// One Adam step over a layer's parameters and both moments, in the storage of
// all three (donated), as an optimizer does it a hundred times in a loop:
//   m' = b1 m + (1 - b1) g
//   v' = b2 v + (1 - b2) g^2
//   p' = p - lr_t m' / (sqrt(v') + eps),  lr_t = lr sqrt(1 - b2^t) / (1 - b1^t)
// (Kingma and Ba's algorithm 1 with the bias corrections folded into lr_t, as
// PyTorch's and Optax's Adam do.) The three results are one loop over the
// elements, each written where its input was: no allocation, the same storage
// after every step, proved while compiling. The values are NumPy's
// (examples/adam.expected, written by scripts/adam_reference.py).
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

// [doc:adam]
constexpr std::size_t rows = 64, cols = 32;
constexpr auto p = ip::input<"p", float, ip::extents<rows, cols>>;  // parameters (donated)
constexpr auto m = ip::input<"m", float, ip::extents<rows, cols>>;  // first moment (donated)
constexpr auto v = ip::input<"v", float, ip::extents<rows, cols>>;  // second moment (donated)
constexpr auto g = ip::input<"g", float, ip::extents<rows, cols>>;  // the gradient
constexpr auto lr_t = ip::scalar<"lr_t", float>;                     // the step's corrected rate

constexpr auto b1 = 0.9_c;
constexpr auto b2 = 0.999_c;
constexpr auto eps = 1e-8_c;
constexpr auto m_next = b1 * m + (1.0_c - b1) * g;
constexpr auto v_next = b2 * v + (1.0_c - b2) * g * g;
constexpr auto p_next = p - lr_t * m_next / (ip::sqrt(v_next) + eps);
constexpr auto adam = ip::function(ip::inputs(p, m, v, g, lr_t), ip::outputs(p_next, m_next, v_next));
constexpr auto in_place = ip::plan(adam, ip::donated, ip::donated, ip::donated, ip::borrowed, ip::borrowed);
static_assert(in_place.allocations == 0 && in_place.copies == 0);
// [/doc]

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "adam");
  dot.write("adam", ip::to_dot(adam, ip::donated, ip::donated, ip::donated, ip::borrowed, ip::borrowed));
  ip::tensor<float, ip::extents<rows, cols>> params, m1{}, m2{}, grad;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) params(i, j) = static_cast<float>((i * 7 + j * 3) % 11) * 0.1f - 0.5f;
  const float* storage[3] = {params.data(), m1.data(), m2.data()};
  bool kept = true;
  const float lr = 1e-2f, beta1 = 0.9f, beta2 = 0.999f;
  constexpr int steps = 100;
  for (int t = 1; t <= steps; ++t) {
    // the gradient of sum((p - target)^2 / 2) with target[i, j] = sin(i + j), plus a small periodic term
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        grad(i, j) = params(i, j) - std::sin(static_cast<float>(i + j)) + 0.01f * static_cast<float>((t + static_cast<int>(i)) % 3 - 1);
    const float rate = lr * std::sqrt(1.0f - std::pow(beta2, static_cast<float>(t))) / (1.0f - std::pow(beta1, static_cast<float>(t)));
    auto [p2, mm, vv] = adam(std::move(params), std::move(m1), std::move(m2), grad, rate);
    params = std::move(p2);
    m1 = std::move(mm);
    m2 = std::move(vv);
    kept = kept && params.data() == storage[0] && m1.data() == storage[1] && m2.data() == storage[2];
  }
  std::printf("%d steps in the storage of p, m and v: %s; per step %zu allocations, %zu loops\n", steps,
              kept ? "yes" : "no", in_place.allocations, in_place.loops);
  double err = 0;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) err += std::abs(params(i, j) - std::sin(static_cast<float>(i + j)));
  std::printf("mean |p - target| after %d steps: %.4f\n", steps, err / (rows * cols));
  for (std::size_t i : {std::size_t{0}, std::size_t{17}, std::size_t{63}})
    std::printf("p[%zu, 0:4] = %8.4f %8.4f %8.4f %8.4f\n", i, static_cast<double>(params(i, 0)), static_cast<double>(params(i, 1)),
                static_cast<double>(params(i, 2)), static_cast<double>(params(i, 3)));
}
