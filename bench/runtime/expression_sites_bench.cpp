// An immediate tensor expression that the program spells in more than one
// place, against Eigen's same statement and a hand loop, at 16, 256 and 4Ki
// floats. The in-place statement r = (a * b + c) * 0.5f - a / (b + 1.0f) is
// timed; a second function builds a new tensor from the same expression, so the
// compiler sees every node type of it used twice (which once made g++ keep the
// node builders out of line: 3.5x slower at 16 floats). Paired ratios
// (paired.hpp): vs_eigen, vs_hand = the median over rounds of (the other's time
// / our time) for the same batch of calls; below 1.0 we are slower.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "inplace/tensors.hpp"
#include "paired.hpp"

namespace ip = inplace;
namespace {
using cmap = Eigen::Map<const Eigen::ArrayXf>;
using emap = Eigen::Map<Eigen::ArrayXf>;

[[gnu::noinline]] void ours(const ip::tensor<float>& a, const ip::tensor<float>& b, const ip::tensor<float>& c,
                            ip::tensor<float>& r) {
  r = (a * b + c) * 0.5f - a / (b + 1.0f);
}
// The same expression at a second site (called once, to check it).
[[gnu::noinline]] ip::tensor<float> ours_fresh(const ip::tensor<float>& a, const ip::tensor<float>& b,
                                               const ip::tensor<float>& c) {
  return ip::tensor<float>((a * b + c) * 0.5f - a / (b + 1.0f));
}
[[gnu::noinline]] void eigen(const cmap& a, const cmap& b, const cmap& c, emap& r) {
  r = (a * b + c) * 0.5f - a / (b + 1.0f);
}
[[gnu::noinline]] void hand(const float* a, const float* b, const float* c, float* r, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) r[i] = (a[i] * b[i] + c[i]) * 0.5f - a[i] / (b[i] + 1.0f);
}

void BM_expression_two_sites(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  ip::tensor<float> a(n), b(n), c(n), r(n), re(n), rh(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = 0.25f * static_cast<float>(i % 97);
    b[i] = 1.0f + 0.5f * static_cast<float>(i % 13);
    c[i] = -0.125f * static_cast<float>(i % 31);
  }
  const cmap ea(a.data(), static_cast<Eigen::Index>(n)), eb(b.data(), static_cast<Eigen::Index>(n)),
      ec(c.data(), static_cast<Eigen::Index>(n));
  // Checked, each writes its own array; timed, all three write r: a destination
  // at another address modulo 4 KiB meets other load-store aliasing.
  emap er(re.data(), static_cast<Eigen::Index>(n)), er_timed(r.data(), static_cast<Eigen::Index>(n));
  emap* e_out = &er;
  float* h_out = rh.data();
  auto step_ours = [&] { ours(a, b, c, r); };
  auto step_eigen = [&] { eigen(ea, eb, ec, *e_out); };
  auto step_hand = [&] { hand(a.data(), b.data(), c.data(), h_out, n); };
  step_ours();
  step_eigen();
  step_hand();
  const ip::tensor<float> f = ours_fresh(a, b, c);
  for (std::size_t i = 0; i < n; ++i)
    if (std::abs(r[i] - re[i]) > 1e-5f * (1 + std::abs(re[i])) || r[i] != f[i] ||
        std::abs(r[i] - rh[i]) > 1e-5f * (1 + std::abs(rh[i]))) {
      state.SkipWithError("results differ");
      return;
    }
  e_out = &er_timed;
  h_out = r.data();
  const std::size_t calls = std::max<std::size_t>(1, (std::size_t{1} << 18) / n);
  const double batch = bench::paired_rounds(state, calls, {"ours", "eigen", "hand"}, step_ours, step_eigen, step_hand);
  state.counters["ns_per_call"] = batch * 1e9 / static_cast<double>(calls);
}
BENCHMARK(BM_expression_two_sites)->Arg(16)->Arg(256)->Arg(4096)->MinTime(0.5);
}  // namespace

BENCHMARK_MAIN();
