// One pre-norm transformer block on a sequence of S tokens of width D, one
// attention head, as a graph: layer norm (mean and variance over the width,
// kept as columns with ip::keepdims), attention with a causal mask (a
// comparison of two aranges and ip::where), softmax over the keys, an MLP with
// gelu, and both residual connections. The values are NumPy's
// (examples/transformer_block.expected, written by
// scripts/transformer_block_reference.py).
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>

namespace ip = inplace;
using namespace ip::literals;

// [doc:transformer_block]
constexpr std::size_t S = 8, D = 16, H = 32;  // tokens, width, MLP width
constexpr auto X = ip::input<"X", double, ip::extents<S, D>>;
constexpr auto Wq = ip::input<"Wq", double, ip::extents<D, D>>;
constexpr auto Wk = ip::input<"Wk", double, ip::extents<D, D>>;
constexpr auto Wv = ip::input<"Wv", double, ip::extents<D, D>>;
constexpr auto Wo = ip::input<"Wo", double, ip::extents<D, D>>;
constexpr auto W1 = ip::input<"W1", double, ip::extents<D, H>>;
constexpr auto W2 = ip::input<"W2", double, ip::extents<H, D>>;

// (x - mean) / sqrt(var + eps) over the last axis
template <class V>
constexpr auto layer_norm(V x) {
  const auto centered = x - ip::reduce_mean<-1, ip::keepdims>(x);
  return centered / ip::sqrt(ip::reduce_mean<-1, ip::keepdims>(centered * centered) + 1e-5_c);
}
// query i sees keys j <= i
constexpr auto causal = ip::expand_dims<1>(ip::arange<std::int64_t, S>()) >= ip::expand_dims<0>(ip::arange<std::int64_t, S>());

constexpr auto h = layer_norm(X);
constexpr auto scores = ip::dot(ip::dot(h, Wq), ip::transpose(ip::dot(h, Wk))) * 0.25_c;  // 1 / sqrt(D)
constexpr auto attention = ip::dot(ip::softmax(ip::where(causal, scores, -1e30_c)), ip::dot(h, Wv));
constexpr auto x1 = X + ip::dot(attention, Wo);
constexpr auto y = x1 + ip::dot(ip::gelu(ip::dot(layer_norm(x1), W1)), W2);
constexpr auto block = ip::function(ip::inputs(X, Wq, Wk, Wv, Wo, W1, W2), ip::outputs(y));
// [/doc]

// Deterministic weights and tokens, the same in NumPy: sin of a running index, scaled.
template <class T>
void fill(T& t, double scale, int seed) {
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = scale * std::sin(0.37 * static_cast<double>(i) + static_cast<double>(seed));
}

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "transformer_block");
  dot.write("block", ip::to_dot(block, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed,
                                ip::borrowed));
  ip::tensor<double, ip::extents<S, D>> x;
  ip::tensor<double, ip::extents<D, D>> wq, wk, wv, wo;
  ip::tensor<double, ip::extents<D, H>> w1;
  ip::tensor<double, ip::extents<H, D>> w2;
  fill(x, 1.0, 0), fill(wq, 0.25, 1), fill(wk, 0.25, 2), fill(wv, 0.25, 3), fill(wo, 0.25, 4), fill(w1, 0.25, 5),
      fill(w2, 0.25, 6);
  const auto out = block(x, wq, wk, wv, wo, w1, w2);
  for (std::size_t i = 0; i < S; ++i) {
    std::printf("token %zu:", i);
    for (std::size_t j = 0; j < 4; ++j) std::printf(" %9.5f", out(i, j));
    std::printf("\n");
  }
}
