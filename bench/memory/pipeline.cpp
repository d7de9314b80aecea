// Peak memory of a 4-step pipeline over a 64 MiB matrix, one variant per process:
//   y = reduce_sum<1>(softmax(X * 0.5 + 1) * 2 - 1)
// (elementwise, softmax, elementwise, reduce). Variants: X borrowed, X donated,
// X donated to the function built with ip::no_rewrite. Prints the variant, the
// peak resident set above what the process had before X existed, X's size, and
// the time of the call. bench/memory/run.py runs every variant beside NumPy's.
#include <inplace.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto X = ip::input<"X", float, 2>;
constexpr auto pipeline = ip::reduce_sum<1>(ip::softmax(X * 0.5_c + 1.0_c) * 2.0_c - 1.0_c);
constexpr auto f = ip::function(ip::inputs(X), ip::outputs(pipeline));
constexpr auto f_pure = ip::function(ip::inputs(X), ip::outputs(pipeline), ip::no_rewrite);
static_assert(ip::plan(f, ip::donated).allocations == 1);  // the 4096 row sums only
static_assert(ip::plan(f, ip::borrowed).allocations == 1);  // the same: X * 0.5 + 1 and the rest run row by row (row chains)

// The peak resident set of this process (VmHWM; getrusage's ru_maxrss would
// include the parent's peak from before exec).
double peak_mib() {
  std::ifstream status("/proc/self/status");
  std::string key;
  double kib = 0;
  while (status >> key)
    if (key == "VmHWM:") {
      status >> kib;
      break;
    }
  return kib / 1024.0;
}
}  // namespace

int main(int argc, char** argv) {
  const std::string variant = argc > 1 ? argv[1] : "donated";
  constexpr std::size_t n = 4096;
  const double before = peak_mib();
  ip::tensor<float, 2> x(n, n);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 97) * 0.01f;
  const double inputs = peak_mib() - before;
  const auto t0 = std::chrono::steady_clock::now();
  ip::tensor<float, 1> r;
  if (variant == "borrowed") r = f(x);
  else if (variant == "donated") r = f(std::move(x));
  else if (variant == "no_rewrite") r = f_pure(std::move(x));
  else {
    std::fprintf(stderr, "variant: borrowed | donated | no_rewrite\n");
    return 2;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double peak = peak_mib() - before;
  std::printf("%s %.1f %.1f %.3f %g\n", variant.c_str(), peak, inputs, seconds, static_cast<double>(r[0]));
}
