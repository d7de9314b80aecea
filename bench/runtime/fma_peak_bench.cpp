// The machine's single-core float FMA peak, the ceiling of any matrix product:
// N independent chains acc = acc * a + b on the widest vectors the build
// enables (AVX-512: 16 floats, AVX2/FMA: 8), nothing loaded or stored in the
// loop. With enough chains to cover the FMA's latency times the pipes' count,
// the rate is the core's peak (`GFLOPs`, 2 operations an FMA lane, per second
// of thread CPU time); one chain is latency-bound (its rate times the FMA's
// latency in cycles, over 2 * lanes, is the clock). transformer_bench's
// graph_gflops and eigen_gflops are read against it (docs/performance.md).
#include <benchmark/benchmark.h>

#if defined(__AVX512F__) || defined(__FMA__)  // (elsewhere: no benchmark registered)
#include <immintrin.h>
#endif

#include <cstddef>
#include <utility>

namespace {

template <int Bits>
struct vec;
#if defined(__AVX512F__)
template <>
struct vec<512> {
  using type = __m512;
  static constexpr int lanes = 16;
  static type splat(float x) { return _mm512_set1_ps(x); }
  static type fma(type a, type b, type c) { return _mm512_fmadd_ps(a, b, c); }
  static float sum(type v) {  // not _mm512_reduce_add_ps: g++ 12 warns inside it (GCC bug 105593)
    alignas(64) float f[16];
    _mm512_store_ps(f, v);
    float s = 0;
    for (float x : f) s += x;
    return s;
  }
};
#endif
#if defined(__FMA__)
template <>
struct vec<256> {
  using type = __m256;
  static constexpr int lanes = 8;
  static type splat(float x) { return _mm256_set1_ps(x); }
  static type fma(type a, type b, type c) { return _mm256_fmadd_ps(a, b, c); }
  static float sum(type v) {
    alignas(32) float f[8];
    _mm256_store_ps(f, v);
    float s = 0;
    for (float x : f) s += x;
    return s;
  }
};
#endif

constexpr std::size_t steps = 4096;  // FMAs per chain and benchmark iteration

// N chains, each step one FMA on every chain (a fold, so that every
// accumulator stays in a register of its own).
template <int Bits, std::size_t... J>
void chains(benchmark::State& state, std::index_sequence<J...>) {
  using V = vec<Bits>;
  constexpr std::size_t N = sizeof...(J);
  // acc tends to b / (1 - a) = 1e-3 / 1e-6 = 1000: no overflow, no denormals.
  const typename V::type a = V::splat(0.999999f), b = V::splat(1e-3f);
  typename V::type acc[N] = {V::splat(static_cast<float>(J))...};  // not std::array: it drops the vector's alignment attribute
  for (auto _ : state) {
    for (std::size_t s = 0; s < steps; ++s) ((acc[J] = V::fma(acc[J], a, b)), ...);
    ((benchmark::DoNotOptimize(acc[J])), ...);
  }
  float total = 0;
  ((total += V::sum(acc[J])), ...);
  benchmark::DoNotOptimize(total);
  // Per second of the thread's CPU time (Google Benchmark's default clock).
  state.counters["GFLOPs"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(steps * N * 2 * V::lanes) * 1e-9,
      benchmark::Counter::kIsRate);
}

template <int Bits, std::size_t N>
void BM_fma(benchmark::State& state) {
  chains<Bits>(state, std::make_index_sequence<N>{});
}

#if defined(__AVX512F__)  // 32 registers: up to 24 chains with a and b
BENCHMARK(BM_fma<512, 1>)->Name("fma_peak/avx512/chains:1");
BENCHMARK(BM_fma<512, 4>)->Name("fma_peak/avx512/chains:4");
BENCHMARK(BM_fma<512, 8>)->Name("fma_peak/avx512/chains:8");
BENCHMARK(BM_fma<512, 12>)->Name("fma_peak/avx512/chains:12");
BENCHMARK(BM_fma<512, 16>)->Name("fma_peak/avx512/chains:16");
BENCHMARK(BM_fma<512, 24>)->Name("fma_peak/avx512/chains:24");
#endif
#if defined(__FMA__)  // 16 registers: up to 12 chains with a and b
BENCHMARK(BM_fma<256, 1>)->Name("fma_peak/avx2/chains:1");
BENCHMARK(BM_fma<256, 4>)->Name("fma_peak/avx2/chains:4");
BENCHMARK(BM_fma<256, 8>)->Name("fma_peak/avx2/chains:8");
BENCHMARK(BM_fma<256, 12>)->Name("fma_peak/avx2/chains:12");
#endif

}  // namespace

BENCHMARK_MAIN();
