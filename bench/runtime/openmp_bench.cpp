// What a second thread buys (INPLACE_OPENMP): each benchmark times the same
// kernel on the same data with one thread and with all of them (OMP_NUM_THREADS,
// or every core), back to back in each round; the counter `speedup` is the
// median over the rounds of one_thread_time / all_threads_time. Sizes straddle
// each kernel's threshold (tensor/detail/parallel.hpp, texpr_loop.hpp): below
// it both runs are serial and the speed-up reads 1.
#include <inplace.hpp>

#include <benchmark/benchmark.h>
#include <omp.h>

#include "paired.hpp"

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

namespace ip = inplace;

namespace {

template <class T, auto R>
void fill(ip::tensor<T, R>& t, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (auto& v : t) v = static_cast<T>(u(g));
}

// Times f() with one thread and with `all` threads, `calls` calls each, per round.
template <class F>
void paired_threads(benchmark::State& state, std::size_t calls, F f) {
  const int all = omp_get_max_threads();
  std::vector<double> ratios;
  auto time = [&](int threads) {
    omp_set_num_threads(threads);
    return bench::batch_seconds(calls, f);
  };
  std::size_t round = 0;
  for (auto _ : state) {
    double one, many;
    if (round++ % 2 == 0) one = time(1), many = time(all);
    else many = time(all), one = time(1);
    ratios.push_back(one / many);
  }
  omp_set_num_threads(all);
  state.counters["speedup"] = bench::median(ratios);
  state.counters["threads"] = all;
}

std::size_t calls_for(std::size_t work) { return std::max<std::size_t>(1, (std::size_t{1} << 22) / std::max<std::size_t>(work, 1)); }

// x = (x * y + z) * 0.5 - x / (y + 1): the mix chain, in place.
void BM_elementwise(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  ip::tensor<float> x(n), y(n), z(n);
  fill(x, 1), fill(y, 2), fill(z, 3);
  for (auto& v : y) v = std::abs(v);
  paired_threads(state, calls_for(n), [&] {
    x = (x * y + z) * 0.5f - x / (y + 1.0f);
    benchmark::DoNotOptimize(x.data());
  });
}
void BM_reduce_all(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  ip::tensor<float> x(n);
  fill(x, 4);
  float out = 0;
  paired_threads(state, calls_for(n), [&] {
    ip::detail::texpr::reduce_sum_into<1>(&out, x.view());
    benchmark::DoNotOptimize(out);
  });
}
template <std::size_t Axis>
void BM_reduce_axis(benchmark::State& state) {  // a square matrix: row sums (1) or column sums (0)
  const auto n = static_cast<std::size_t>(state.range(0));
  ip::tensor<float, 2> a(n, n);
  fill(a, 5);
  std::vector<float> out(n);
  paired_threads(state, calls_for(n * n), [&] {
    ip::detail::texpr::reduce_sum_into<Axis>(out.data(), a.view());
    benchmark::DoNotOptimize(out.data());
  });
}
void BM_softmax(benchmark::State& state) {
  const auto rows = static_cast<std::size_t>(state.range(0)), cols = static_cast<std::size_t>(state.range(1));
  ip::tensor<float, 2> a(rows, cols);
  fill(a, 6);
  paired_threads(state, calls_for(rows * cols), [&] {
    ip::softmax_inplace(a);
    benchmark::DoNotOptimize(a.data());
  });
}
void BM_dot(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  ip::tensor<float, 2> a(n, n), b(n, n), c(n, n);
  fill(a, 7), fill(b, 8);
  paired_threads(state, calls_for(n * n * n / 16), [&] {
    ip::detail::texpr::dot_into(c.data(), a.view(), b.view());
    benchmark::DoNotOptimize(c.data());
  });
}
void BM_gemv(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  ip::tensor<float, 2> a(n, n);
  ip::tensor<float> x(n), y(n);
  fill(a, 9), fill(x, 10);
  paired_threads(state, calls_for(n * n), [&] {
    ip::detail::texpr::dot_into(y.data(), a.view(), x.view());
    benchmark::DoNotOptimize(y.data());
  });
}

}  // namespace

BENCHMARK(BM_elementwise)->RangeMultiplier(2)->Range(1 << 12, 1 << 24)->MinTime(0.3);
BENCHMARK(BM_reduce_all)->RangeMultiplier(2)->Range(1 << 12, 1 << 24)->MinTime(0.3);
BENCHMARK_TEMPLATE(BM_reduce_axis, 1)->RangeMultiplier(2)->Range(64, 4096)->MinTime(0.3);
BENCHMARK_TEMPLATE(BM_reduce_axis, 0)->RangeMultiplier(2)->Range(64, 4096)->MinTime(0.3);
BENCHMARK(BM_softmax)->Args({2, 1024})->Args({4, 1024})->Args({8, 1024})->Args({16, 1024})->Args({64, 1024})
    ->Args({4096, 1024})->Args({16384, 64})->MinTime(0.3);
BENCHMARK(BM_dot)->RangeMultiplier(2)->Range(16, 1024)->MinTime(0.3);
BENCHMARK(BM_gemv)->RangeMultiplier(2)->Range(64, 4096)->MinTime(0.3);

BENCHMARK_MAIN();
