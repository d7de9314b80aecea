// Peak memory of one run of the transformer block written with Eigen
// (bench/transformer_block_eigen.hpp, the block transformer_bench times), on
// the same inputs as transformer.cpp: its nine buffers (h, q, k, v, the
// scores, the attention, x1, the hidden layer and y: 5.75 MiB) are allocated
// after the peak is reset, as a graph call's are. Prints the columns of
// transformer.cpp (no plan: allocations and plan bytes 0).
#include "../transformer_block_eigen.hpp"
#include "rss.hpp"

#include <chrono>
#include <cstdio>

using namespace transformer;

int main() {
  const double before = rss::status_mib("VmRSS");
  const weights w;
  act x;
  fill(x, 1.0f, 0);
  const double inputs = rss::status_mib("VmRSS") - before;
  rss::reset_peak();
  const auto t0 = std::chrono::steady_clock::now();
  eigen_block e;
  e.run(x, w);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double peak = rss::status_mib("VmHWM") - before;
  std::printf("eigen %.1f %.1f %.1f %.1f 0 0 %.3f %.6g\n", peak, inputs, weight_mib + activation_mib,
              weight_mib + activation_mib + 1.0, seconds, static_cast<double>(e.y(0, 0)));
}
