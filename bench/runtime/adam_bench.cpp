// One Adam step (examples/adam.cpp's graph) over 1Mi float parameters and
// both moments, donated: the graph's one fused loop against a hand-written
// loop of the same arithmetic and the same step written with Eigen arrays.
// The file is built with -fno-math-errno (bench/runtime/CMakeLists.txt): with
// errno, std::sqrt keeps g++ from vectorising the hand loop (5.8 ms a step
// against 1.5 ms on this machine), which would flatter the graph.
// The three are checked to agree before timing; the ratios are paired
// (paired.hpp): vs_hand above 1.0 means the hand loop is slower.
#include <inplace.hpp>

#include <Eigen/Core>

#include "paired.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {

constexpr std::size_t n = std::size_t{1} << 20;
using vec = ip::tensor<float, ip::extents<n>>;
constexpr auto p = ip::input<"p", float, ip::extents<n>>;
constexpr auto m = ip::input<"m", float, ip::extents<n>>;
constexpr auto v = ip::input<"v", float, ip::extents<n>>;
constexpr auto g = ip::input<"g", float, ip::extents<n>>;
constexpr auto lr_t = ip::scalar<"lr_t", float>;
constexpr auto b1 = 0.9_c;
constexpr auto b2 = 0.999_c;
constexpr auto eps = 1e-8_c;
constexpr auto m_next = b1 * m + (1.0_c - b1) * g;
constexpr auto v_next = b2 * v + (1.0_c - b2) * g * g;
constexpr auto adam = ip::function(ip::inputs(p, m, v, g, lr_t), ip::outputs(p - lr_t * m_next / (ip::sqrt(v_next) + eps), m_next, v_next));
constexpr auto donated = ip::plan(adam, ip::donated, ip::donated, ip::donated, ip::borrowed, ip::borrowed);
static_assert(donated.allocations == 0 && donated.loops == 1);

constexpr float rate = 1e-3f;

struct state_of_graph {
  vec p, m, v;
  void step(const vec& grad) {
    auto [p2, m2, v2] = adam(std::move(p), std::move(m), std::move(v), grad, rate);
    p = std::move(p2), m = std::move(m2), v = std::move(v2);
  }
};
[[gnu::noinline]] void hand_step(float* __restrict pp, float* __restrict mm, float* __restrict vv, const float* __restrict gg) {
  for (std::size_t i = 0; i < n; ++i) {
    const float mi = 0.9f * mm[i] + 0.1f * gg[i];
    const float vi = 0.999f * vv[i] + 0.001f * gg[i] * gg[i];
    pp[i] = pp[i] - rate * mi / (std::sqrt(vi) + 1e-8f);
    mm[i] = mi;
    vv[i] = vi;
  }
}
using arr = Eigen::Map<Eigen::ArrayXf>;
using carr = Eigen::Map<const Eigen::ArrayXf>;
[[gnu::noinline]] void eigen_step(float* pp, float* mm, float* vv, const float* gg) {
  arr P(pp, n), M(mm, n), V(vv, n);
  const carr G(gg, n);
  M = 0.9f * M + 0.1f * G;
  V = 0.999f * V + 0.001f * G * G;
  P -= rate * M / (V.sqrt() + 1e-8f);
}

void fill(vec& x, float scale, int seed) {
  for (std::size_t i = 0; i < n; ++i) x[i] = scale * static_cast<float>((i * 2654435761u + static_cast<std::size_t>(seed)) % 1000) / 1000.0f;
}

void BM_adam(benchmark::State& state) {
  vec grad;
  fill(grad, 1.0f, 7);
  state_of_graph s;
  fill(s.p, 1.0f, 1), fill(s.m, 0.1f, 2), fill(s.v, 0.01f, 3);
  // the others in the same kind of storage (64-byte aligned, huge pages): a
  // std::vector's 4 KiB pages cost its loop a TLB miss every 1024 floats
  vec hp = s.p, hm = s.m, hv = s.v, ep = s.p, em = s.m, ev = s.v;
  const float* storage = s.p.data();
  for (int k = 0; k < 3; ++k) {
    s.step(grad);
    hand_step(hp.data(), hm.data(), hv.data(), grad.data());
    eigen_step(ep.data(), em.data(), ev.data(), grad.data());
  }
  for (std::size_t i = 0; i < n; ++i)
    if (std::abs(s.p[i] - hp[i]) > 1e-5f * std::max(1.0f, std::abs(hp[i])) ||
        std::abs(ep[i] - hp[i]) > 1e-5f * std::max(1.0f, std::abs(hp[i]))) {
      state.SkipWithError(("the three differ at " + std::to_string(i)).c_str());
      return;
    }
  if (s.p.data() != storage) {
    state.SkipWithError("the graph's parameters left their storage");
    return;
  }
  auto s_graph = [&] { s.step(grad); };
  auto s_hand = [&] { hand_step(hp.data(), hm.data(), hv.data(), grad.data()); };
  auto s_eigen = [&] { eigen_step(ep.data(), em.data(), ev.data(), grad.data()); };
  const double t = bench::paired_rounds(state, 1, {"graph", "hand", "eigen"}, s_graph, s_hand, s_eigen);
  state.counters["graph_us"] = t * 1e6;
  state.counters["plan_allocations"] = static_cast<double>(donated.allocations);
}

}  // namespace

BENCHMARK(BM_adam);

BENCHMARK_MAIN();
