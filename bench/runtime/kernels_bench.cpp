// The opaque kernels (reduce_sum, softmax, dot) against Eigen, as paired ratios
// (see paired.hpp for why): every round times each implementation back
// to back on the same arrays, in a rotating order, and the counter vs_<other>
// is the median over rounds of other_time / inplace_time (above 1: inplace is
// faster). Each case first checks every implementation's result (the
// benchmark is skipped with an error otherwise).
//
//   BM_sum/<T>/<n>          ip::reduce_sum(x) vs Eigen x.sum(); err_* counters:
//                           |error| / sum|x_i| against a long double sum
//   BM_rows, BM_cols/<T>/<n> reduce_sum<1>, <0> of a square row-major matrix of n
//                           elements vs Eigen rowwise().sum(), colwise().sum()
//   BM_softmax/<rows>/<cols> softmax_inplace vs an Eigen row loop (max, exp, sum, scale)
//   BM_dot/<T>/<n>          n x n products vs Eigen C.noalias() = A * B
//   BM_gemv, BM_gevm/<T>/<n> (n, n)(n) and (n)(n, n) vs Eigen A * x, x^T * A
// With INPLACE_USE_BLAS (the kernels_bench_blas target), dot goes to the BLAS
// and the counter vs_blas compares it with a direct call of the same routine
// (run it with OPENBLAS_NUM_THREADS=1 for one thread, as Eigen here).
#include <inplace/tensors.hpp>

#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include "paired.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ip = inplace;
namespace tx = ip::detail::texpr;

namespace {

// One 64-byte aligned block per case, its arrays at distinct offsets modulo 4 KiB.
template <class T>
struct block {
  std::vector<T*> arrays;
  std::unique_ptr<T, void (*)(T*)> mem{nullptr, [](T* p) { ip::aligned_allocator<T>().deallocate(p, 0); }};
  block(std::initializer_list<std::size_t> sizes) {
    const std::size_t page = 4096 / sizeof(T);
    std::size_t total = 0;
    for (std::size_t n : sizes) total += (n + page - 1) / page * page + page;
    mem.reset(ip::aligned_allocator<T>().allocate(total));
    T* p = mem.get();
    std::size_t k = 0;
    for (std::size_t n : sizes) {
      arrays.push_back(p + k * (1024 + 64) / sizeof(T) % page);
      p += (n + page - 1) / page * page + page;
      ++k;
    }
  }
};

template <class T>
void fill(T* p, std::size_t n, unsigned seed, double lo = -1, double hi = 1) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<T>(d(g));
}

// Times impls[0] (inplace) and the others in rotating order every round; sets
// vs_<name> = median over rounds of t_other / t_inplace.
void paired(benchmark::State& state, const std::vector<std::pair<std::string, std::function<void()>>>& impls) {
  const std::size_t K = impls.size();
  // Calls per timing: enough for ~50 us.
  const double one = bench::batch_seconds(1, impls[0].second);
  const auto calls = static_cast<std::size_t>(std::max(1.0, 50e-6 / std::max(one, 1e-9)));
  std::vector<std::vector<double>> ratios(K);
  std::vector<double> t(K);
  std::size_t round = 0;
  for (auto _ : state) {
    for (std::size_t q = 0; q < K; ++q) {
      const std::size_t which = (round + q) % K;
      t[which] = bench::batch_seconds(calls, impls[which].second);
    }
    ++round;
    for (std::size_t q = 1; q < K; ++q) ratios[q].push_back(t[q] / t[0]);
  }
  for (std::size_t q = 1; q < K; ++q) state.counters["vs_" + impls[q].first] = bench::median(ratios[q]);
}

template <class T>
using emat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using evec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T>
using rvec = Eigen::Matrix<T, 1, Eigen::Dynamic>;

// ---- reduce_sum -------------------------------------------------------------------
template <class T>
void BM_sum(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  block<T> b{n};
  T* x = b.arrays[0];
  fill(x, n, 1, 0, 1);
  long double exact = 0, mag = 0;
  for (std::size_t i = 0; i < n; ++i) exact += x[i], mag += std::abs(static_cast<long double>(x[i]));
  const ip::tensor_view<const T, 1> v(x, {n});
  const Eigen::Map<const evec<T>, Eigen::Aligned64> e(x, static_cast<Eigen::Index>(n));
  // Each result stored to a volatile: the sums cannot be optimised away (with g++ 12,
  // benchmark::DoNotOptimize on a float result here left it unwritten).
  volatile T r_ip{}, r_eigen{}, r_api{};
  std::vector<std::pair<std::string, std::function<void()>>> impls{
      {"inplace", [&] {
         T s;
         tx::reduce_sum_into<1>(&s, v);
         r_ip = s;
       }},
      {"eigen", [&] { r_eigen = e.sum(); }},
      {"api", [&] { r_api = ip::reduce_sum(v); }}};
  for (auto& i : impls) i.second();
  const long double err_ip = std::abs(r_ip - exact) / mag, err_eigen = std::abs(r_eigen - exact) / mag;
  if (err_ip > 1e-5) return state.SkipWithError("inplace: wrong sum");
  paired(state, impls);
  state.counters["err_inplace"] = static_cast<double>(err_ip);
  state.counters["err_eigen"] = static_cast<double>(err_eigen);
}

template <class T, int Axis>
void BM_axis(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto r = static_cast<std::size_t>(std::lround(std::sqrt(double(n))));
  block<T> b{r * r, r, r};
  fill(b.arrays[0], r * r, 2, 0, 1);
  const ip::tensor_view<const T, 2> v(b.arrays[0], {r, r});
  const auto ri = static_cast<Eigen::Index>(r);
  const Eigen::Map<const emat<T>, Eigen::Aligned64> M(b.arrays[0], ri, ri);
  T* out = b.arrays[1];
  T* eout = b.arrays[2];
  std::vector<std::pair<std::string, std::function<void()>>> impls{
      {"inplace", [&] { tx::reduce_sum_into<Axis>(out, v); benchmark::DoNotOptimize(out); }},
      {"eigen", [&] {
         if constexpr (Axis == 1) {
           Eigen::Map<evec<T>, Eigen::Aligned64> o(eout, ri);
           o.noalias() = M.rowwise().sum();
         } else {
           Eigen::Map<rvec<T>, Eigen::Aligned64> o(eout, ri);
           o.noalias() = M.colwise().sum();
         }
         benchmark::DoNotOptimize(eout);
       }}};
  for (auto& i : impls) i.second();
  for (std::size_t i = 0; i < r; ++i)
    if (std::abs(out[i] - eout[i]) > 1e-4 * std::abs(eout[i])) return state.SkipWithError("inplace: wrong axis sum");
  paired(state, impls);
}

// ---- softmax ----------------------------------------------------------------------
void BM_softmax(benchmark::State& state) {
  const auto rows = static_cast<std::size_t>(state.range(0)), cols = static_cast<std::size_t>(state.range(1));
  block<float> b{rows * cols, rows * cols};
  float* x = b.arrays[0];
  float* check = b.arrays[1];
  fill(x, rows * cols, 3, -5, 5);
  std::copy(x, x + rows * cols, check);
  const ip::tensor_view<float, 2> v(x, {rows, cols});
  Eigen::Map<emat<float>, Eigen::Aligned64> M(x, static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  auto eigen_rows = [&](Eigen::Map<emat<float>, Eigen::Aligned64>& m) {
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      auto row = m.row(r);
      const float mx = row.maxCoeff();
      row = (row.array() - mx).exp().matrix();
      const float s = row.sum();
      row *= 1.0f / s;
    }
  };
  std::vector<std::pair<std::string, std::function<void()>>> impls{
      {"inplace", [&] { ip::softmax_inplace(v); benchmark::DoNotOptimize(x); }},
      {"eigen", [&] { eigen_rows(M); benchmark::DoNotOptimize(x); }}};
  // Checked on a copy: inplace once against Eigen once.
  impls[0].second();
  Eigen::Map<emat<float>, Eigen::Aligned64> C(check, static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  eigen_rows(C);
  for (std::size_t i = 0; i < rows * cols; ++i)
    if (std::abs(x[i] - check[i]) > 1e-5f * std::max(1e-3f, check[i])) return state.SkipWithError("inplace: wrong softmax");
  paired(state, impls);  // repeated softmax of a softmax stays in [0, 1]
}

// ---- dot --------------------------------------------------------------------------
template <class T>
bool dot_ok(const T* a, const T* b, const T* c, std::size_t m, std::size_t k, std::size_t n) {
  for (std::size_t i = 0; i < m; i += std::max<std::size_t>(1, m / 7))
    for (std::size_t j = 0; j < n; j += std::max<std::size_t>(1, n / 7)) {
      long double s = 0, mag = 0;
      for (std::size_t p = 0; p < k; ++p) {
        s += static_cast<long double>(a[i * k + p]) * b[p * n + j];
        mag += std::abs(static_cast<long double>(a[i * k + p]) * b[p * n + j]);
      }
      if (std::abs(c[i * n + j] - s) > 4 * k * std::numeric_limits<T>::epsilon() * mag) return false;
    }
  return true;
}

template <class T>
void BM_dot(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto ni = static_cast<Eigen::Index>(n);
  block<T> b{n * n, n * n, n * n};
  fill(b.arrays[0], n * n, 4);
  fill(b.arrays[1], n * n, 5);
  const ip::tensor_view<const T, 2> A(b.arrays[0], {n, n}), B(b.arrays[1], {n, n});
  T* c = b.arrays[2];
  const Eigen::Map<const emat<T>, Eigen::Aligned64> EA(b.arrays[0], ni, ni), EB(b.arrays[1], ni, ni);
  Eigen::Map<emat<T>, Eigen::Aligned64> EC(c, ni, ni);
  std::vector<std::pair<std::string, std::function<void()>>> impls{
      {"inplace", [&] { tx::dot_into(c, A, B); benchmark::DoNotOptimize(c); }},
      {"eigen", [&] { EC.noalias() = EA * EB; benchmark::DoNotOptimize(c); }}};
#if INPLACE_HAS_BLAS
  // The same routine called directly: row-major C = A B is column-major C^T = B^T A^T.
  const int nn = static_cast<int>(n);
  impls.emplace_back("blas", [&, nn] {
    tx::blas::gemm_call('N', 'N', nn, nn, nn, b.arrays[1], nn, b.arrays[0], nn, c, nn);
    benchmark::DoNotOptimize(c);
  });
#endif
  for (auto& i : impls) {
    std::fill_n(c, n * n, T(7));
    i.second();
    if (!dot_ok(b.arrays[0], b.arrays[1], c, n, n, n)) return state.SkipWithError(("wrong product: " + i.first).c_str());
  }
  paired(state, impls);
  state.counters["GFLOPs"] = 0;  // filled below from the independent time of inplace
  state.counters["GFLOPs"] = 2.0 * double(n) * double(n) * double(n) / bench::batch_seconds(1, impls[0].second) / 1e9;
}

template <class T, bool Left>
void BM_gemv(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto ni = static_cast<Eigen::Index>(n);
  block<T> b{n * n, n, n};
  fill(b.arrays[0], n * n, 6);
  fill(b.arrays[1], n, 7);
  const ip::tensor_view<const T, 2> A(b.arrays[0], {n, n});
  const ip::tensor_view<const T, 1> x(b.arrays[1], {n});
  T* y = b.arrays[2];
  const Eigen::Map<const emat<T>, Eigen::Aligned64> EA(b.arrays[0], ni, ni);
  const Eigen::Map<const evec<T>, Eigen::Aligned64> ex(b.arrays[1], ni);
  Eigen::Map<evec<T>, Eigen::Aligned64> ey(y, ni);
  std::vector<std::pair<std::string, std::function<void()>>> impls{
      {"inplace", [&] {
         if constexpr (Left) tx::dot_into(y, x, A);
         else tx::dot_into(y, A, x);
         benchmark::DoNotOptimize(y);
       }},
      {"eigen", [&] {
         if constexpr (Left) ey.transpose().noalias() = ex.transpose() * EA;
         else ey.noalias() = EA * ex;
         benchmark::DoNotOptimize(y);
       }}};
#if INPLACE_HAS_BLAS
  const int nn = static_cast<int>(n);
  impls.emplace_back("blas", [&, nn] {
    tx::blas::gemv_call(Left ? 'N' : 'T', nn, nn, b.arrays[0], nn, b.arrays[1], 1, y);
    benchmark::DoNotOptimize(y);
  });
#endif
  std::vector<T> at(n * n);  // A transposed, for the check of x^T A
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) at[j * n + i] = b.arrays[0][i * n + j];
  for (auto& i : impls) {
    std::fill_n(y, n, T(7));
    i.second();
    if (!dot_ok(Left ? at.data() : b.arrays[0], b.arrays[1], y, n, n, 1))
      return state.SkipWithError(("wrong product: " + i.first).c_str());
  }
  paired(state, impls);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {std::int64_t{4} << 10, std::int64_t{256} << 10, std::int64_t{16} << 20}) b->Arg(n);
}

}  // namespace

BENCHMARK(BM_sum<float>)->Apply(sizes)->MinTime(1.0);
BENCHMARK(BM_sum<double>)->Apply(sizes)->MinTime(1.0);
BENCHMARK(BM_axis<float, 1>)->Name("BM_rows<float>")->Apply(sizes)->MinTime(1.0);
BENCHMARK(BM_axis<double, 1>)->Name("BM_rows<double>")->Apply(sizes)->MinTime(1.0);
BENCHMARK(BM_axis<float, 0>)->Name("BM_cols<float>")->Apply(sizes)->MinTime(1.0);
BENCHMARK(BM_axis<double, 0>)->Name("BM_cols<double>")->Apply(sizes)->MinTime(1.0);
BENCHMARK(BM_softmax)->Args({64, 1024})->Args({4096, 1024})->Args({16384, 64})->MinTime(1.0);
BENCHMARK(BM_dot<float>)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->MinTime(1.0);
BENCHMARK(BM_dot<double>)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->MinTime(1.0);
BENCHMARK(BM_gemv<float, false>)->Name("BM_gemv<float>")->Arg(256)->Arg(1024)->Arg(4096)->MinTime(1.0);
BENCHMARK(BM_gemv<double, false>)->Name("BM_gemv<double>")->Arg(256)->Arg(1024)->Arg(4096)->MinTime(1.0);
BENCHMARK(BM_gemv<float, true>)->Name("BM_gevm<float>")->Arg(256)->Arg(1024)->Arg(4096)->MinTime(1.0);
BENCHMARK(BM_gemv<double, true>)->Name("BM_gevm<double>")->Arg(256)->Arg(1024)->Arg(4096)->MinTime(1.0);

BENCHMARK_MAIN();
