// The in-place chains of issue 3, for float arrays of 4Ki, 256Ki and 16Mi
// elements, each by: a hand-written loop, inplace, Eigen, xtensor; and memcpy
// and a STREAM triad as the bandwidth limit. Every benchmark first runs its
// chain once from a known state and checks the result against a double-precision
// reference (SkipWithError otherwise), so no loop can be optimised away.
//
//   chain 1 (axpy):  x = a*x + y
//   chain 2 (mix):   x = (x*y + z)*0.5 - x/(y + 1)
//   chain 3 (trans): x = exp(x)*y + sqrt(z)
// Inputs keep every chain bounded when it is repeated (y, z in [0, 0.1) for chain 3).
#include <inplace/tensors.hpp>

#include <benchmark/benchmark.h>

#if INPLACE_BENCH_EIGEN
#include <Eigen/Core>
#endif
#if INPLACE_BENCH_XTENSOR
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace ip = inplace;

namespace {

constexpr float alpha = 0.5f;

struct inputs {
  std::vector<float> x, y, z;
};

inputs make_inputs(std::size_t n, int chain) {
  std::mt19937 g(42);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float scale = chain == 3 ? 0.1f : 1.0f;
  inputs in{std::vector<float>(n), std::vector<float>(n), std::vector<float>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    in.x[i] = unit(g);
    in.y[i] = unit(g) * scale;
    in.z[i] = unit(g) * scale;
  }
  return in;
}

// One step of the chain in double precision: the reference of every check.
double reference(int chain, double x, double y, double z) {
  switch (chain) {
    case 1: return alpha * x + y;
    case 2: return (x * y + z) * 0.5 - x / (y + 1);
    default: return std::exp(x) * y + std::sqrt(z);
  }
}

template <class X>
bool check(benchmark::State& state, int chain, const inputs& in, const X& x) {
  for (std::size_t i = 0; i < in.x.size(); ++i) {
    const double want = reference(chain, in.x[i], in.y[i], in.z[i]);
    if (std::abs(double(x[i]) - want) > 1e-5 * std::max(1.0, std::abs(want))) {
      state.SkipWithError(("wrong result at " + std::to_string(i)).c_str());
      return false;
    }
  }
  return true;
}

void finish(benchmark::State& state, std::size_t n, int arrays) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n) * arrays *
                          static_cast<std::int64_t>(sizeof(float)));
}
int arrays_of(int chain) { return chain == 1 ? 3 : 4; }  // reads + the write of x

// Every *_step below is one out-of-line call (g++ inlined the small hand_step
// into its timing loop and not the others), so all implementations pay the same call.

// ---- hand-written loops ---------------------------------------------------------
[[gnu::noinline]] void hand_step(int chain, float* x, const float* y, const float* z, std::size_t n) {
  switch (chain) {
    case 1:
      for (std::size_t i = 0; i < n; ++i) x[i] = alpha * x[i] + y[i];
      break;
    case 2:
      for (std::size_t i = 0; i < n; ++i) x[i] = (x[i] * y[i] + z[i]) * 0.5f - x[i] / (y[i] + 1.0f);
      break;
    default:
      for (std::size_t i = 0; i < n; ++i) x[i] = std::exp(x[i]) * y[i] + std::sqrt(z[i]);
  }
}

void BM_hand(benchmark::State& state, int chain) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const inputs in = make_inputs(n, chain);
  // The same 64-byte aligned storage as the library's tensors: only the loops differ.
  using aligned = std::vector<float, ip::aligned_allocator<float>>;
  aligned x(in.x.begin(), in.x.end()), y(in.y.begin(), in.y.end()), z(in.z.begin(), in.z.end());
  hand_step(chain, x.data(), y.data(), z.data(), n);
  if (!check(state, chain, in, x)) return;
  for (auto _ : state) {
    hand_step(chain, x.data(), y.data(), z.data(), n);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  finish(state, n, arrays_of(chain));
}

// ---- inplace ------------------------------------------------------------------
[[gnu::noinline]] void inplace_step(int chain, ip::tensor<float>& x, const ip::tensor<float>& y, const ip::tensor<float>& z) {
  switch (chain) {
    case 1: x = alpha * x + y; break;
    case 2: x = (x * y + z) * 0.5f - x / (y + 1.0f); break;
    default: x = ip::exp(x) * y + ip::sqrt(z);
  }
}

void BM_inplace(benchmark::State& state, int chain) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const inputs in = make_inputs(n, chain);
  ip::tensor<float> x(n), y(n), z(n);
  std::copy(in.x.begin(), in.x.end(), x.begin());
  std::copy(in.y.begin(), in.y.end(), y.begin());
  std::copy(in.z.begin(), in.z.end(), z.begin());
  inplace_step(chain, x, y, z);
  if (!check(state, chain, in, x)) return;
  for (auto _ : state) {
    inplace_step(chain, x, y, z);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  finish(state, n, arrays_of(chain));
}

#if INPLACE_BENCH_EIGEN
[[gnu::noinline]] void eigen_step(int chain, Eigen::ArrayXf& x, const Eigen::ArrayXf& y, const Eigen::ArrayXf& z) {
  switch (chain) {
    case 1: x = alpha * x + y; break;
    case 2: x = (x * y + z) * 0.5f - x / (y + 1.0f); break;
    default: x = x.exp() * y + z.sqrt();
  }
}
void BM_eigen(benchmark::State& state, int chain) {
  const auto n = static_cast<Eigen::Index>(state.range(0));
  const inputs in = make_inputs(static_cast<std::size_t>(n), chain);
  Eigen::ArrayXf x = Eigen::Map<const Eigen::ArrayXf>(in.x.data(), n);
  Eigen::ArrayXf y = Eigen::Map<const Eigen::ArrayXf>(in.y.data(), n);
  Eigen::ArrayXf z = Eigen::Map<const Eigen::ArrayXf>(in.z.data(), n);
  eigen_step(chain, x, y, z);
  if (!check(state, chain, in, x)) return;
  for (auto _ : state) {
    eigen_step(chain, x, y, z);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  finish(state, static_cast<std::size_t>(n), arrays_of(chain));
}
#endif

#if INPLACE_BENCH_XTENSOR
// xt::noalias: xtensor's fast path (without it, x = f(x) goes through a temporary).
[[gnu::noinline]] void xtensor_step(int chain, xt::xtensor<float, 1>& x, const xt::xtensor<float, 1>& y, const xt::xtensor<float, 1>& z) {
  switch (chain) {
    case 1: xt::noalias(x) = alpha * x + y; break;
    case 2: xt::noalias(x) = (x * y + z) * 0.5f - x / (y + 1.0f); break;
    default: xt::noalias(x) = xt::exp(x) * y + xt::sqrt(z);
  }
}
void BM_xtensor(benchmark::State& state, int chain) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const inputs in = make_inputs(n, chain);
  xt::xtensor<float, 1> x = xt::xtensor<float, 1>::from_shape({n}), y = x, z = x;
  std::copy(in.x.begin(), in.x.end(), x.begin());
  std::copy(in.y.begin(), in.y.end(), y.begin());
  std::copy(in.z.begin(), in.z.end(), z.begin());
  xtensor_step(chain, x, y, z);
  if (!check(state, chain, in, x)) return;
  for (auto _ : state) {
    xtensor_step(chain, x, y, z);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  finish(state, n, arrays_of(chain));
}
#endif

// ---- bandwidth limits -----------------------------------------------------------
void BM_memcpy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<float> a(n, 1.0f), b(n, 0.0f);
  std::memcpy(b.data(), a.data(), n * sizeof(float));
  if (b[n - 1] != 1.0f) state.SkipWithError("memcpy did not copy");
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), n * sizeof(float));
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
  }
  finish(state, n, 2);
}

void BM_triad(benchmark::State& state) {  // STREAM: a = b + s*c
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<float> a(n), b(n, 1.0f), c(n, 2.0f);
  const float s = 3.0f;
  auto triad = [&] {
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
  };
  triad();
  if (a[n / 2] != 7.0f) state.SkipWithError("triad wrong");
  for (auto _ : state) {
    triad();
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
  finish(state, n, 3);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {std::int64_t{4} << 10, std::int64_t{256} << 10, std::int64_t{16} << 20}) b->Arg(n);
}

}  // namespace

BENCHMARK(BM_memcpy)->Apply(sizes);
BENCHMARK(BM_triad)->Apply(sizes);
#define INPLACE_CHAIN(C, NAME)                                   \
  BENCHMARK_CAPTURE(BM_hand, NAME, C)->Apply(sizes);             \
  BENCHMARK_CAPTURE(BM_inplace, NAME, C)->Apply(sizes);
INPLACE_CHAIN(1, axpy)
INPLACE_CHAIN(2, mix)
INPLACE_CHAIN(3, trans)
#if INPLACE_BENCH_EIGEN
BENCHMARK_CAPTURE(BM_eigen, axpy, 1)->Apply(sizes);
BENCHMARK_CAPTURE(BM_eigen, mix, 2)->Apply(sizes);
BENCHMARK_CAPTURE(BM_eigen, trans, 3)->Apply(sizes);
#endif
#if INPLACE_BENCH_XTENSOR
BENCHMARK_CAPTURE(BM_xtensor, axpy, 1)->Apply(sizes);
BENCHMARK_CAPTURE(BM_xtensor, mix, 2)->Apply(sizes);
BENCHMARK_CAPTURE(BM_xtensor, trans, 3)->Apply(sizes);
#endif

BENCHMARK_MAIN();
