#pragma once
// Paired timing, shared by the run-time benchmarks. Timed separately, two
// implementations of the same loop can differ by 10% on a shared machine whose
// speed drifts between their runs (frequency, another tenant's memory
// traffic). So every round times each implementation back to back, in a
// rotating order, and the ratios of one round are kept: their median over the
// rounds is what the benchmarks report, and the drifts cancel in it.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace bench {

// Seconds taken by `calls` calls of f (its stores made visible once after).
template <class F>
double batch_seconds(std::size_t calls, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t c = 0; c < calls; ++c) f();
  benchmark::ClobberMemory();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The median of v (reorders v).
inline double median(std::vector<double>& v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Times f[0] (inplace) and the others, `calls` calls each, in rotating order
// every round of `state`; sets the counters vs_<names[k]> = median over rounds
// of t_k / t_0 (below 1.0: inplace is slower). Returns the median seconds of
// one batch of f[0].
template <class... F>
double paired_rounds(benchmark::State& state, std::size_t calls, const std::array<const char*, sizeof...(F)>& names,
                     F&... f) {
  constexpr std::size_t K = sizeof...(F);
  std::array<std::vector<double>, K> ratios;
  std::vector<double> first;
  std::array<double, K> t{};
  std::size_t round = 0;
  auto time_one = [&](std::size_t which) {
    std::size_t i = 0;
    ((i++ == which ? void(t[which] = batch_seconds(calls, f)) : void()), ...);
  };
  for (auto _ : state) {
    for (std::size_t k = 0; k < K; ++k) time_one((round + k) % K);
    ++round;
    first.push_back(t[0]);
    for (std::size_t k = 1; k < K; ++k) ratios[k].push_back(t[k] / t[0]);
  }
  for (std::size_t k = 1; k < K; ++k) state.counters[std::string("vs_") + names[k]] = median(ratios[k]);
  return median(first);
}

}  // namespace bench
