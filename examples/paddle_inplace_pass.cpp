// PaddlePaddle's oneDNN in-place pass, as an inplace graph: an elementwise_add
// whose output shares its input's variable, followed by an activation and a
// softmax, all computed in place. Paddle finds such ops with its InplaceInferer
// and a list of oneDNN kernels that support in-place execution; here the same
// registry is ip::inplace_variant, and the pass is the compile-time rewrite.
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cstdio>

namespace ip = inplace;

// [doc:paddle]
// a, b: [batch, classes]; e = elementwise_add(a, b); g = gelu(e); s = softmax(g)
constexpr auto a = ip::input<"a", float, ip::extents<64, 1000>>;
constexpr auto b = ip::input<"b", float, ip::extents<64, 1000>>;
constexpr auto s = ip::softmax(ip::gelu(a + b));
constexpr auto f = ip::function(ip::inputs(a, b), ip::outputs(s));

// One loop: softmax runs add and gelu inside its row loop, a block of rows at
// a time, into its result. a donated: the result is a's storage, nothing is
// allocated.
static_assert(ip::plan(f, ip::donated, ip::borrowed) == ip::plan_result{0, 0, 1, 1, 0});
// Both borrowed: one buffer, the result's; add + gelu are never stored.
static_assert(ip::plan(f, ip::borrowed, ip::borrowed) == ip::plan_result{1, 0, 1, 0, 64 * 1000 * 4});
// Without the rewrite (ip::no_rewrite): the same one buffer.
constexpr auto pure = ip::function(ip::inputs(a, b), ip::outputs(s), ip::no_rewrite);
static_assert(ip::plan(pure, ip::borrowed, ip::borrowed).allocations == 1);
// [/doc]

int main(int argc, char** argv) {
  dot_option(argc, argv, "paddle_inplace_pass").write("f", ip::to_dot(f, ip::donated, ip::borrowed));
  ip::tensor<float, ip::extents<64, 1000>> x, y;
  for (std::size_t i = 0; i < 64; ++i)
    for (std::size_t j = 0; j < 1000; ++j) x(i, j) = static_cast<float>(j % 7) * 0.1f, y(i, j) = static_cast<float>(i % 3) * 0.01f;
  const float* storage = x.data();
  auto r = f(std::move(x), y);
  float row = 0;
  for (std::size_t j = 0; j < 1000; ++j) row += r(0, j);
  std::printf("softmax(gelu(a + b)) computed in a's storage: %s; row 0 sums to %.4f\n",
              r.data() == storage ? "yes" : "no", row);
  std::printf("\n%s\n", ip::explain(f, ip::donated, ip::borrowed).c_str());
  std::printf("%s\n", ip::explain(f, ip::borrowed, ip::borrowed).c_str());
  std::printf("%s", ip::explain(pure, ip::borrowed, ip::borrowed).c_str());
}
