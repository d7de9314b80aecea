// Peak memory of one call of the transformer block (bench/transformer_block.hpp:
// sequence 256, width 512, MLP width 2048, float), its inputs borrowed or the
// tokens X donated, or borrowed in a second call (the first one's first
// touches of code and stack not counted, nor any memory it kept). Two
// baselines with the same inputs: `nothing` (no call: what measuring itself
// costs) and `trivial` (a one-op graph, y = X + X: the executor's first
// touches and a 0.5 MiB result); and `assigned`, the borrowed call assigned
// to a y declared before it (a zeroed 0.5 MiB tensor alive during the call,
// as this harness measured until 2026-11-26). Prints: the variant; the call's
// peak resident set above the process before the inputs existed (the peak is
// reset once they exist); the inputs (MiB); weights + activations (X and y);
// the goal, that + 1 MiB; the plan's allocations and peak bytes (MiB); the
// call's seconds; y[0, 0]. bench/memory/run.py prints it beside the Eigen
// block's (transformer_eigen.cpp) and NumPy's (numpy_transformer.py).
#include "../transformer_block.hpp"
#include "rss.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

using namespace transformer;

namespace {
constexpr auto b = ip::borrowed;
constexpr auto borrowed_plan = ip::plan(block, b, b, b, b, b, b, b);
constexpr auto donated_plan = ip::plan(block, ip::donated, b, b, b, b, b, b);
constexpr auto twice = ip::function(ip::inputs(X), ip::outputs(X + X));
constexpr auto trivial_plan = ip::plan(twice, b);
}  // namespace

int main(int argc, char** argv) {
  const std::string variant = argc > 1 ? argv[1] : "borrowed";
  const double before = rss::status_mib("VmRSS");
  const weights w;
  act x;
  fill(x, 1.0f, 0);
  if (variant == "second") {  // a first call, dropped: the second's peak is without first touches (code, stack)
    act first = block(x, w.wq, w.wk, w.wv, w.wo, w.w1, w.w2);
  }
  const double inputs = rss::status_mib("VmRSS") - before;
  rss::reset_peak();
  const auto t0 = std::chrono::steady_clock::now();
  float y00 = 0;
  if (variant == "borrowed" || variant == "second") {
    const act y = block(x, w.wq, w.wk, w.wv, w.wo, w.w1, w.w2);
    y00 = y(0, 0);
  } else if (variant == "donated") {
    const act y = block(std::move(x), w.wq, w.wk, w.wv, w.wo, w.w1, w.w2);
    y00 = y(0, 0);
  } else if (variant == "assigned") {
    act y;
    y = block(x, w.wq, w.wk, w.wv, w.wo, w.w1, w.w2);
    y00 = y(0, 0);
  } else if (variant == "trivial") {
    const act y = twice(x);
    y00 = y(0, 0);
  } else if (variant != "nothing") {
    std::fprintf(stderr, "variant: borrowed | donated | second (borrowed, after a first call) | assigned | trivial | nothing\n");
    return 2;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double peak = rss::status_mib("VmHWM") - before;
  const bool small = variant == "trivial" || variant == "nothing";
  const auto& p = variant == "donated" ? donated_plan : small ? trivial_plan : borrowed_plan;
  const std::size_t allocations = variant == "nothing" ? 0 : static_cast<std::size_t>(p.allocations);
  const double plan_mib = variant == "nothing" ? 0 : static_cast<double>(p.peak_bytes) / (1 << 20);
  std::printf("%s %.1f %.1f %.1f %.1f %zu %.2f %.3f %.6g\n", variant.c_str(), peak, inputs, weight_mib + activation_mib,
              weight_mib + activation_mib + 1.0, allocations, plan_mib, seconds, static_cast<double>(y00));
}
