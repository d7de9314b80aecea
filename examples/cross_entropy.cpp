// The cross-entropy loss of a batch of logits against one-hot labels, with
// logsumexp computed stably: log(sum(exp(x))) = m + log(sum(exp(x - m))), m
// the row's max (kept as a column with ip::keepdims, so that x - m
// broadcasts). The values are NumPy's (examples/cross_entropy.expected,
// written by scripts/cross_entropy_reference.py).
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cstddef>
#include <cstdio>

namespace ip = inplace;

// [doc:cross_entropy]
constexpr std::size_t batch = 6, classes = 5;
constexpr auto X = ip::input<"X", double, ip::extents<batch, classes>>;  // logits
constexpr auto Y = ip::input<"Y", double, ip::extents<batch, classes>>;  // one-hot labels

constexpr auto m = ip::reduce_max<1, ip::keepdims>(X);                                   // (batch, 1)
constexpr auto lse = m + ip::log(ip::reduce_sum<1, ip::keepdims>(ip::exp(X - m)));      // logsumexp, (batch, 1)
constexpr auto picked = ip::reduce_sum<1, ip::keepdims>(X * Y);                         // the label's logit
constexpr auto losses = lse - picked;                                                   // -log softmax(x)[label]
constexpr auto loss = ip::function(ip::inputs(X, Y), ip::outputs(ip::reduce_mean(losses), ip::squeeze<1>(losses)));
// [/doc]

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "cross_entropy");
  dot.write("loss", ip::to_dot(loss, ip::borrowed, ip::borrowed));
  ip::tensor<double, ip::extents<batch, classes>> x, y{};
  for (std::size_t i = 0; i < batch; ++i) {
    for (std::size_t j = 0; j < classes; ++j)
      x(i, j) = static_cast<double>((i * 3 + j * 7) % 9) - 4.0 + (i == 2 ? 700.0 : 0.0);  // row 2: exp would overflow
    y(i, (i * 2) % classes) = 1.0;
  }
  const auto [mean, each] = loss(x, y);
  std::printf("mean loss: %.6f\n", static_cast<double>(mean));
  for (std::size_t i = 0; i < batch; ++i) std::printf("row %zu: %.6f\n", i, each[i]);
}
