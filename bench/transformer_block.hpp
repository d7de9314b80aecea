#pragma once
// examples/transformer_block.cpp's block at the benchmarks' size, in float:
// a sequence of S = 256 tokens of width D = 512, one attention head of width
// D (scores scaled by 1 / sqrt(D)), an MLP of width H = 2048 with gelu.
// Pre-norm: layer norm (mean and variance over the width, eps 1e-5), causal
// attention (a comparison of two aranges and ip::where), softmax over the
// keys, both residuals. bench/runtime/transformer_bench.cpp times it against
// the same block in Eigen; bench/memory/transformer.cpp measures its peak.
#include <inplace.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace transformer {
namespace ip = inplace;
using namespace ip::literals;

constexpr std::size_t S = 256, D = 512, H = 2048;  // tokens, width, MLP width
constexpr auto X = ip::input<"X", float, ip::extents<S, D>>;
constexpr auto Wq = ip::input<"Wq", float, ip::extents<D, D>>;
constexpr auto Wk = ip::input<"Wk", float, ip::extents<D, D>>;
constexpr auto Wv = ip::input<"Wv", float, ip::extents<D, D>>;
constexpr auto Wo = ip::input<"Wo", float, ip::extents<D, D>>;
constexpr auto W1 = ip::input<"W1", float, ip::extents<D, H>>;
constexpr auto W2 = ip::input<"W2", float, ip::extents<H, D>>;

template <class V>
constexpr auto layer_norm(V x) {
  const auto centered = x - ip::reduce_mean<-1, ip::keepdims>(x);
  return centered / ip::sqrt(ip::reduce_mean<-1, ip::keepdims>(centered * centered) + 1e-5_c);
}
constexpr auto causal = ip::expand_dims<1>(ip::arange<std::int64_t, S>()) >= ip::expand_dims<0>(ip::arange<std::int64_t, S>());
constexpr auto scale = 0.044194173824159216_c;  // 1 / sqrt(512)

constexpr auto h = layer_norm(X);
constexpr auto scores = ip::dot(ip::dot(h, Wq), ip::transpose(ip::dot(h, Wk))) * scale;
constexpr auto attention = ip::dot(ip::softmax(ip::where(causal, scores, -1e30_c)), ip::dot(h, Wv));
constexpr auto x1 = X + ip::dot(attention, Wo);
constexpr auto y = x1 + ip::dot(ip::gelu(ip::dot(layer_norm(x1), W1)), W2);
constexpr auto block = ip::function(ip::inputs(X, Wq, Wk, Wv, Wo, W1, W2), ip::outputs(y));

using act = ip::tensor<float, ip::extents<S, D>>;
using sq = ip::tensor<float, ip::extents<D, D>>;
using up = ip::tensor<float, ip::extents<D, H>>;
using down = ip::tensor<float, ip::extents<H, D>>;

// Deterministic values, the same in NumPy (bench/memory/numpy_transformer.py):
// scale * sin(0.37 i + seed) over the row-major elements.
template <class T>
void fill(T& t, float scale, int seed) {
  for (std::size_t i = 0; i < t.size(); ++i)
    t[i] = scale * static_cast<float>(std::sin(0.37 * static_cast<double>(i) + static_cast<double>(seed)));
}
struct weights {
  sq wq, wk, wv, wo;
  up w1;
  down w2;
  weights() {
    const float s = 1.0f / std::sqrt(static_cast<float>(D));  // keeps the activations of order 1
    fill(wq, s, 1), fill(wk, s, 2), fill(wv, s, 3), fill(wo, s, 4), fill(w1, s, 5),
        fill(w2, 1.0f / std::sqrt(static_cast<float>(H)), 6);
  }
};
inline constexpr double weight_mib = (4.0 * D * D + 2.0 * D * H) * sizeof(float) / (1 << 20);
inline constexpr double activation_mib = 2.0 * S * D * sizeof(float) / (1 << 20);  // X and y
// The block's floating-point operations in its products, 2 m n k each: q, k, v
// and the output projection (4 x 2 S D D), q k^T and p v (2 x 2 S S D), the
// MLP (2 x 2 S D H): 1,744,830,464. The rest (layer norms, softmax, gelu, the
// residuals) is some 20 M operations, mostly gelu's: about 1%, not counted.
inline constexpr double product_flops = 4 * 2.0 * S * D * D + 2 * 2.0 * S * S * D + 2 * 2.0 * S * D * H;

}  // namespace transformer
