// Peak memory of one call of the transformer block (bench/transformer_block.hpp:
// sequence 256, width 512, MLP width 2048, float), its inputs borrowed or the
// tokens X donated, or borrowed in a second call (the first one's first
// touches of code and stack not counted, nor any memory it kept). Prints: the variant; the call's peak resident set above
// the process before the inputs existed (the peak is reset once they exist);
// the inputs (MiB); weights + activations (X and y); the goal, that + 1 MiB;
// the plan's allocations and peak bytes (MiB); the call's seconds; y[0, 0].
// bench/memory/run.py prints it beside NumPy's (numpy_transformer.py).
#include "../transformer_block.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>

using namespace transformer;

namespace {
double status_mib(const std::string& which) {  // VmHWM (the peak) or VmRSS (now)
  std::ifstream status("/proc/self/status");
  std::string key;
  double kib = 0;
  while (status >> key)
    if (key == which + ":") {
      status >> kib;
      break;
    }
  return kib / 1024.0;
}
void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }  // VmHWM from here on
constexpr auto b = ip::borrowed;
constexpr auto borrowed_plan = ip::plan(block, b, b, b, b, b, b, b);
constexpr auto donated_plan = ip::plan(block, ip::donated, b, b, b, b, b, b);
}  // namespace

int main(int argc, char** argv) {
  const std::string variant = argc > 1 ? argv[1] : "borrowed";
  const double before = status_mib("VmRSS");
  const weights w;
  act x;
  fill(x, 1.0f, 0);
  if (variant == "second") {  // a first call, dropped: the second's peak is without first touches (code, stack)
    act first = block(x, w.wq, w.wk, w.wv, w.wo, w.w1, w.w2);
  }
  const double inputs = status_mib("VmRSS") - before;
  reset_peak();
  const auto t0 = std::chrono::steady_clock::now();
  act y;
  if (variant == "borrowed" || variant == "second") y = block(x, w.wq, w.wk, w.wv, w.wo, w.w1, w.w2);
  else if (variant == "donated") y = block(std::move(x), w.wq, w.wk, w.wv, w.wo, w.w1, w.w2);
  else {
    std::fprintf(stderr, "variant: borrowed | donated | second (borrowed, after a first call)\n");
    return 2;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double peak = status_mib("VmHWM") - before;
  const auto& p = variant == "donated" ? donated_plan : borrowed_plan;
  std::printf("%s %.1f %.1f %.1f %.1f %zu %.2f %.3f %.6g\n", variant.c_str(), peak, inputs, weight_mib + activation_mib,
              weight_mib + activation_mib + 1.0, static_cast<std::size_t>(p.allocations),
              static_cast<double>(p.peak_bytes) / (1 << 20), seconds, static_cast<double>(y(0, 0)));
}
