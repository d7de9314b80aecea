// The transformer block of bench/transformer_block.hpp (examples/transformer_block.cpp
// at sequence 256, width 512, MLP width 2048, one head, float), one thread:
// the graph, its inputs borrowed (a call allocates its intermediates and
// returns y), against the same block written with Eigen (row-major matrices,
// its buffers allocated once, products with noalias, gelu with Eigen's erf).
// Both are checked to agree before timing; the ratio is paired (paired.hpp):
// vs_eigen above 1.0 means Eigen is slower (vs_eigen_cpu: the same in thread
// CPU time, see cpu_pair). The `part/` benchmarks times the
// block's parts on their own (the products, the layer norms, the attention's
// softmax, the gelu) in the graph and in Eigen, to show where the time goes.
#include "../transformer_block_eigen.hpp"

#include "paired.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <time.h>
#include <vector>

namespace {
using namespace transformer;

// Each call's thread CPU time beside paired.hpp's wall time: on a shared
// machine (load 4-6 on 2 cores) a 30 ms call is often descheduled, which the
// wall time charges to whichever side it hit. The counter vs_eigen_cpu is the
// median over rounds of Eigen's CPU time over the graph's.
struct cpu_pair {
  std::vector<double> t[2];
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  template <class F>
  auto timed(int side, F& f) {
    return [this, side, &f] {
      const double t0 = now();
      f();
      t[side].push_back(now() - t0);
    };
  }
  double median_of(int side) {
    std::vector<double> v = t[side];
    return v.empty() ? 0 : bench::median(v);
  }
  double ratio() {
    std::vector<double> r;
    for (std::size_t i = 0; i < std::min(t[0].size(), t[1].size()); ++i) r.push_back(t[1][i] / t[0][i]);
    return r.empty() ? 0 : bench::median(r);
  }
};

struct inputs {
  act x;
  weights w;
  inputs() { fill(x, 1.0f, 0); }
};

act graph_block(const inputs& in) { return block(in.x, in.w.wq, in.w.wk, in.w.wv, in.w.wo, in.w.w1, in.w.w2); }

void BM_transformer_block(benchmark::State& state) {
  static const inputs in;
  static eigen_block e;
  act out = graph_block(in);
  e.run(in.x, in.w);
  double worst = 0;
  for (std::size_t i = 0; i < S; ++i)
    for (std::size_t j = 0; j < D; ++j)
      worst = std::max(worst, std::abs(static_cast<double>(out(i, j)) - e.y(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j))) /
                                  std::max(1.0, std::abs(static_cast<double>(e.y(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j))))));
  if (worst > 1e-4) {
    state.SkipWithError(("the graph and Eigen differ by " + std::to_string(worst)).c_str());
    return;
  }
  auto s_graph = [&] {
    out = graph_block(in);
    benchmark::DoNotOptimize(out.data());
  };
  auto s_eigen = [&] { e.run(in.x, in.w); };
  cpu_pair cpu;
  auto c_graph = cpu.timed(0, s_graph);
  auto c_eigen = cpu.timed(1, s_eigen);
  const double t = bench::paired_rounds(state, 1, {"graph", "eigen"}, c_graph, c_eigen);
  state.counters["graph_ms"] = t * 1e3;
  state.counters["vs_eigen_cpu"] = cpu.ratio();
  // Median thread CPU time of each side, and the products' GFLOP/s at it.
  state.counters["graph_cpu_ms"] = cpu.median_of(0) * 1e3;
  state.counters["eigen_cpu_ms"] = cpu.median_of(1) * 1e3;
  state.counters["graph_gflops"] = product_flops * 1e-9 / cpu.median_of(0);
  state.counters["eigen_gflops"] = product_flops * 1e-9 / cpu.median_of(1);
  state.counters["max_rel_diff"] = worst;
  state.counters["plan_allocations"] = static_cast<double>(
      ip::plan(block, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed)
          .allocations);
}
BENCHMARK(BM_transformer_block)->Iterations(15)->Unit(benchmark::kMillisecond);

// The parts, each a graph of its own against the same lines of Eigen: which
// ops the block's time goes to.
constexpr auto A = ip::input<"A", float, ip::extents<S, D>>;
constexpr auto B = ip::input<"B", float, ip::extents<S, D>>;
constexpr auto P = ip::input<"P", float, ip::extents<S, S>>;
constexpr auto U = ip::input<"U", float, ip::extents<S, H>>;
constexpr auto part_proj = ip::function(ip::inputs(A, Wq), ip::outputs(ip::dot(A, Wq)));
constexpr auto part_scores = ip::function(ip::inputs(A, B), ip::outputs(ip::dot(A, ip::transpose(B))));
constexpr auto part_pv = ip::function(ip::inputs(P, A), ip::outputs(ip::dot(P, A)));
constexpr auto part_up = ip::function(ip::inputs(A, W1), ip::outputs(ip::dot(A, W1)));
constexpr auto part_down = ip::function(ip::inputs(U, W2), ip::outputs(ip::dot(U, W2)));
constexpr auto part_norm = ip::function(ip::inputs(A), ip::outputs(layer_norm(A)));
constexpr auto part_softmax = ip::function(ip::inputs(P), ip::outputs(ip::softmax(ip::where(causal, P * scale, -1e30_c))));
constexpr auto part_gelu = ip::function(ip::inputs(U), ip::outputs(ip::gelu(U)));

template <int Part>
void BM_part(benchmark::State& state) {
  static const inputs in;
  static eigen_block e;
  static const act a = [] { act t; fill(t, 1.0f, 7); return t; }();
  static const ip::tensor<float, ip::extents<S, S>> p = [] { ip::tensor<float, ip::extents<S, S>> t; fill(t, 3.0f, 8); return t; }();
  static const ip::tensor<float, ip::extents<S, H>> uu = [] { ip::tensor<float, ip::extents<S, H>> t; fill(t, 2.0f, 9); return t; }();
  const cmap Am(a.data(), S, D), Wq(in.w.wq.data(), D, D), W1(in.w.w1.data(), D, H), W2(in.w.w2.data(), H, D);
  auto g = [&] {
    if constexpr (Part == 0) benchmark::DoNotOptimize(part_proj(a, in.w.wq).data());
    else if constexpr (Part == 1) benchmark::DoNotOptimize(part_scores(a, a).data());
    else if constexpr (Part == 2) benchmark::DoNotOptimize(part_up(a, in.w.w1).data());
    else if constexpr (Part == 3) benchmark::DoNotOptimize(part_down(uu, in.w.w2).data());
    else if constexpr (Part == 4) benchmark::DoNotOptimize(part_norm(a).data());
    else if constexpr (Part == 5) benchmark::DoNotOptimize(part_softmax(p).data());
    else if constexpr (Part == 6) benchmark::DoNotOptimize(part_gelu(uu).data());
    else benchmark::DoNotOptimize(part_pv(p, a).data());
  };
  auto eg = [&] {
    if constexpr (Part == 0) e.q.noalias() = Am * Wq;
    else if constexpr (Part == 1) e.s.noalias() = Am * Am.transpose();
    else if constexpr (Part == 2) e.u.noalias() = Am * W1;
    else if constexpr (Part == 3) e.y.noalias() = cmap(uu.data(), S, H) * W2;
    else if constexpr (Part == 4) e.layer_norm(Am, e.h);
    else if constexpr (Part == 5) {
      e.s = cmap(p.data(), S, S) * 0.044194173824159216f;
      for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(S); ++i) {
        auto r = e.s.row(i);
        r.tail(static_cast<Eigen::Index>(S) - 1 - i).setConstant(-1e30f);
        const float m = r.maxCoeff();
        r = (r.array() - m).exp();
        r /= r.sum();
      }
    } else if constexpr (Part == 7) {
      e.att.noalias() = cmap(p.data(), S, S) * Am;
    } else {
      e.u = 0.5f * cmap(uu.data(), S, H).array() * (1.0f + (cmap(uu.data(), S, H).array() * 0.70710678118654752f).erf());
    }
    benchmark::ClobberMemory();
  };
  cpu_pair cpu;
  auto cg = cpu.timed(0, g);
  auto ce = cpu.timed(1, eg);
  const double t = bench::paired_rounds(state, 1, {"graph", "eigen"}, cg, ce);
  state.counters["graph_ms"] = t * 1e3;
  state.counters["vs_eigen_cpu"] = cpu.ratio();
  state.counters["graph_cpu_ms"] = cpu.median_of(0) * 1e3;
  state.counters["eigen_cpu_ms"] = cpu.median_of(1) * 1e3;
}
// 0: h Wq (x4 in the block, with attention Wo), 1: q k^T, 7: p v, 2: h W1, 3: gelu(.) W2,
// 4: layer norm (x2), 5: mask and softmax, 6: gelu
BENCHMARK(BM_part<0>)->Name("part/proj_SxD_DxD")->Iterations(31)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_part<1>)->Name("part/scores_q_kT")->Iterations(31)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_part<7>)->Name("part/attn_p_v")->Iterations(31)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_part<2>)->Name("part/up_SxD_DxH")->Iterations(31)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_part<3>)->Name("part/down_SxH_HxD")->Iterations(31)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_part<4>)->Name("part/layer_norm")->Iterations(31)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_part<5>)->Name("part/mask_softmax")->Iterations(31)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_part<6>)->Name("part/gelu")->Iterations(31)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
