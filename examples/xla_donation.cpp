// XLA's aliasing page, as inplace graphs: the increment p + 1 with its output
// aliased to parameter 0 (input_output_alias={ {}: 0 }), donated and not
// donated at run time, and a training step that updates the parameters in
// place from their gradients, with the plan of each donation pattern.
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cstdio>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

// [doc:xla_increment]
// HloModule increment, input_output_alias={ {}: 0 }: ROOT %out = add(%p, 1)
constexpr auto p = ip::input<"p", float, 0>;  // f32[]: a rank-0 tensor
constexpr auto inc = ip::function(ip::inputs(p), ip::outputs(p + 1.0_c), ip::io_alias<0, 0>(ip::may_alias));
// Donated (XLA: an owning ExecutionInput): computed in p's buffer, nothing allocated.
static_assert(ip::plan(inc, ip::donated) == ip::plan_result{0, 0, 1, 1, 0});
// Not donated: copy-protection, one extra 4-byte buffer holding a copy of p.
static_assert(ip::plan(inc, ip::borrowed) == ip::plan_result{1, 1, 1, 1, 4});
// With ip::must_alias the output must live in p: passing p as an lvalue is a
// compile error (inplace: must_alias), where XLA fails at run time.
// [/doc]

// [doc:xla_training]
// One step of gradient descent on a layer's weights and bias:
//   W' = W - lr * dW,  b' = b - lr * db,  returned in W's and b's storage.
constexpr auto W = ip::input<"W", float, ip::extents<256, 128>>;
constexpr auto b = ip::input<"b", float, ip::extents<128>>;
constexpr auto dW = ip::input<"dW", float, ip::extents<256, 128>>;
constexpr auto db = ip::input<"db", float, ip::extents<128>>;
constexpr auto lr = ip::scalar<"lr", float>;
constexpr auto step = ip::function(ip::inputs(W, b, dW, db, lr), ip::outputs(W - lr * dW, b - lr * db),
                                   ip::io_alias<0, 0>(ip::may_alias), ip::io_alias<1, 1>(ip::may_alias));
constexpr auto donated = ip::plan(step, ip::donated, ip::donated, ip::borrowed, ip::borrowed);
constexpr auto borrowed = ip::plan(step, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed);
static_assert(donated.allocations == 0 && donated.peak_bytes == 0);
static_assert(borrowed.copies == 2 && borrowed.peak_bytes == (256 * 128 + 128) * sizeof(float));
// [/doc]

void print(const char* what, const ip::plan_result& r) {
  std::printf("%-22s allocations %zu, copies %zu, loops %zu, in_place %zu, peak_bytes %zu\n", what, r.allocations,
              r.copies, r.loops, r.in_place, r.peak_bytes);
}

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "xla_donation");
  dot.write("increment", ip::to_dot(inc, ip::donated));
  dot.write("step", ip::to_dot(step, ip::donated, ip::donated, ip::borrowed, ip::borrowed));
  ip::tensor<float, 0> counter;
  counter() = 41;
  const float* storage = counter.data();
  auto copy = inc(counter);  // borrowed: a copy of p, incremented; p stays 41
  std::printf("increment, borrowed: %g, p is still %g\n", static_cast<float>(copy), static_cast<float>(counter));
  auto next = inc(std::move(counter));  // donated: computed in p's buffer
  std::printf("increment, donated: %g, in p's buffer: %s\n", static_cast<float>(next),
              next.data() == storage ? "yes" : "no");
  print("increment, donated", ip::plan(inc, ip::donated));
  print("increment, borrowed", ip::plan(inc, ip::borrowed));

  ip::tensor<float, ip::extents<256, 128>> w, dw;
  ip::tensor<float, ip::extents<128>> bias, dbias;
  for (std::size_t i = 0; i < w.size(); ++i) w.data()[i] = 1, dw.data()[i] = 0.5f;
  for (std::size_t i = 0; i < bias.size(); ++i) bias.data()[i] = 0, dbias.data()[i] = -1;
  const float* w_storage = w.data();
  for (int it = 0; it < 3; ++it) {  // each step returns the parameters, of the same types, in the same storage
    auto [w2, b2] = step(std::move(w), std::move(bias), dw, dbias, 0.1f);
    w = std::move(w2);
    bias = std::move(b2);
  }
  std::printf("training: W[0,0] = %.2f, b[0] = %.2f after 3 steps, W still in its first storage: %s\n", w(0, 0),
              bias(0), w.data() == w_storage ? "yes" : "no");
  print("training, donated", donated);
  print("training, borrowed", borrowed);
}
