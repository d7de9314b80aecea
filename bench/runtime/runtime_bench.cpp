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
// Every implementation works on the same storage (see `arrays`).
//
// The same chains as checked graph functions (BM_graph: x donated, the call
// computes in x's storage; BM_graph_fresh: x borrowed, a fresh result per call,
// against Eigen writing a fresh array), and y = gelu(dot(X, W) + b) (BM_gelu_dot).
#include <inplace.hpp>

#include <benchmark/benchmark.h>

#include "paired.hpp"

#if INPLACE_BENCH_EIGEN
#include <Eigen/Core>
#endif
#if INPLACE_BENCH_XTENSOR
#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ip = inplace;

namespace {

constexpr float alpha = 0.5f;

// ---- storage shared by every implementation -------------------------------------
// All implementations of one (chain, size) run on the same three arrays: one
// 64-byte aligned block per process, each array starting at another offset
// modulo 4 KiB. Separately allocated arrays land wherever the heap puts them;
// when a load's address equals an in-flight store's modulo 4 KiB the CPU stalls
// it (4K aliasing), which made the same loop 1.5x slower in one process than in
// another. With one placement for everybody, only the loops differ.
struct arrays {
  std::size_t n = 0;
  float* x = nullptr;  // updated in place by every chain
  const float* y = nullptr;
  const float* z = nullptr;
  std::vector<float> x0, y0, z0;  // the known state every check starts from
  std::unique_ptr<float, void (*)(float*)> block{nullptr, [](float* p) { ip::aligned_allocator<float>().deallocate(p, 0); }};
  void reset() const { std::copy(x0.begin(), x0.end(), x); }
};

const arrays& storage(int chain, std::size_t n) {
  static std::map<std::pair<int, std::size_t>, arrays> cache;
  arrays& a = cache[{chain, n}];
  if (a.n == n) return a;
  // Offsets 0, 1 KiB + 64 and 2 KiB + 128 past whole pages: distinct modulo 4 KiB.
  const std::size_t page = 4096 / sizeof(float), span = (n + page - 1) / page * page + page;
  float* p = ip::aligned_allocator<float>().allocate(3 * span);
  a.block.reset(p);
  a.n = n;
  a.x = p;
  a.y = p + span + 272;
  a.z = p + 2 * span + 544;
  std::mt19937 g(42);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float scale = chain == 3 ? 0.1f : 1.0f;  // keeps chain 3 bounded when repeated
  a.x0.resize(n);
  a.y0.resize(n);
  a.z0.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    a.x0[i] = unit(g);
    a.y0[i] = unit(g) * scale;
    a.z0[i] = unit(g) * scale;
  }
  std::copy(a.y0.begin(), a.y0.end(), p + span + 272);
  std::copy(a.z0.begin(), a.z0.end(), p + 2 * span + 544);
  a.reset();
  return a;
}

// One step of the chain in double precision: the reference of every check.
double reference(int chain, double x, double y, double z) {
  switch (chain) {
    case 1: return alpha * x + y;
    case 2: return (x * y + z) * 0.5 - x / (y + 1);
    default: return std::exp(x) * y + std::sqrt(z);
  }
}

// Runs one step from the known state and checks it; false (and the benchmark
// skipped with an error) if any element is wrong.
template <class Step>
bool checked(benchmark::State& state, int chain, const arrays& a, Step step) {
  a.reset();
  step();
  for (std::size_t i = 0; i < a.n; ++i) {
    const double want = reference(chain, a.x0[i], a.y0[i], a.z0[i]);
    if (std::abs(double(a.x[i]) - want) > 1e-5 * std::max(1.0, std::abs(want))) {
      state.SkipWithError(("wrong result at " + std::to_string(i)).c_str());
      return false;
    }
  }
  return true;
}

// Times one implementation (a struct built from the arrays, with step()).
template <class Impl>
void run(benchmark::State& state, int chain) {
  const arrays& a = storage(chain, static_cast<std::size_t>(state.range(0)));
  Impl impl(a, chain);
  if (!checked(state, chain, a, [&] { impl.step(); })) return;
  for (auto _ : state) {
    impl.step();
    benchmark::DoNotOptimize(a.x);
    benchmark::ClobberMemory();
  }
  const std::int64_t bytes = static_cast<std::int64_t>(a.n) * (chain == 1 ? 3 : 4) * 4;  // reads + the write of x
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * bytes);
}

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
struct hand_impl {
  const arrays& a;
  int chain;
  hand_impl(const arrays& arr, int c) : a(arr), chain(c) {}
  void step() const { hand_step(chain, a.x, a.y, a.z, a.n); }
};

// ---- inplace ------------------------------------------------------------------
// ip::tensor with a user allocator that hands out the shared arrays (tensors
// with the default allocator run the same code; only the placement differs).
template <class T>
struct placed {
  using value_type = T;
  static constexpr std::size_t alignment = 64;
  T* p;
  explicit placed(T* q) : p(q) {}
  template <class U>
  placed(const placed<U>& o) : p(reinterpret_cast<T*>(o.p)) {}
  T* allocate(std::size_t) { return p; }
  void deallocate(T*, std::size_t) {}
  friend bool operator==(const placed& a, const placed& b) { return a.p == b.p; }
};
using placed_tensor = ip::tensor<float, 1, placed<float>>;

[[gnu::noinline]] void inplace_step(int chain, placed_tensor& x, const placed_tensor& y, const placed_tensor& z) {
  switch (chain) {
    case 1: x = alpha * x + y; break;
    case 2: x = (x * y + z) * 0.5f - x / (y + 1.0f); break;
    default: x = ip::exp(x) * y + ip::sqrt(z);
  }
}
struct inplace_impl {
  int chain;
  placed_tensor x, y, z;
  static placed_tensor over(const float* p, std::size_t n) {  // a tensor over p that keeps its values
    std::vector<float> keep(p, p + n);
    placed_tensor t(std::array<std::size_t, 1>{n}, placed<float>(const_cast<float*>(p)));
    std::copy(keep.begin(), keep.end(), t.begin());
    return t;
  }
  inplace_impl(const arrays& a, int c) : chain(c), x(over(a.x, a.n)), y(over(a.y, a.n)), z(over(a.z, a.n)) {}
  void step() { inplace_step(chain, x, y, z); }
};

#if INPLACE_BENCH_EIGEN
// Eigen::Map over the shared arrays, with the alignment they have (Eigen then
// uses aligned loads, as for its own ArrayXf).
using eigen_map = Eigen::Map<Eigen::ArrayXf, Eigen::Aligned64>;
using eigen_cmap = Eigen::Map<const Eigen::ArrayXf, Eigen::Aligned64>;
[[gnu::noinline]] void eigen_step(int chain, eigen_map& x, const eigen_cmap& y, const eigen_cmap& z) {
  switch (chain) {
    case 1: x = alpha * x + y; break;
    case 2: x = (x * y + z) * 0.5f - x / (y + 1.0f); break;
    default: x = x.exp() * y + z.sqrt();
  }
}
struct eigen_impl {
  int chain;
  eigen_map x;
  eigen_cmap y, z;
  eigen_impl(const arrays& a, int c)
      : chain(c), x(a.x, static_cast<Eigen::Index>(a.n)), y(a.y, static_cast<Eigen::Index>(a.n)),
        z(a.z, static_cast<Eigen::Index>(a.n)) {}
  void step() { eigen_step(chain, x, y, z); }
};
#endif

#if INPLACE_BENCH_XTENSOR
// xt::adapt over the shared arrays; xt::noalias is xtensor's fast path (without
// it, x = f(x) goes through a temporary).
using xt_shape = std::array<std::size_t, 1>;
using xt_view = decltype(xt::adapt(std::declval<float*>(), std::size_t{}, xt::no_ownership(), xt_shape{}));
using xt_cview = decltype(xt::adapt(std::declval<const float*>(), std::size_t{}, xt::no_ownership(), xt_shape{}));
[[gnu::noinline]] void xtensor_step(int chain, xt_view& x, const xt_cview& y, const xt_cview& z) {
  switch (chain) {
    case 1: xt::noalias(x) = alpha * x + y; break;
    case 2: xt::noalias(x) = (x * y + z) * 0.5f - x / (y + 1.0f); break;
    default: xt::noalias(x) = xt::exp(x) * y + xt::sqrt(z);
  }
}
struct xtensor_impl {
  int chain;
  xt_view x;
  xt_cview y, z;
  template <class P>
  static P copy(P p) {  // adapt holds what it is given: a pointer, not a reference to one
    return p;
  }
  xtensor_impl(const arrays& a, int c)
      : chain(c), x(xt::adapt(copy(a.x), a.n, xt::no_ownership(), xt_shape{a.n})),
        y(xt::adapt(copy(a.y), a.n, xt::no_ownership(), xt_shape{a.n})),
        z(xt::adapt(copy(a.z), a.n, xt::no_ownership(), xt_shape{a.n})) {}
  void step() { xtensor_step(chain, x, y, z); }
};
#endif

// ---- checked graph functions ------------------------------------------------------
// Plain ip::tensors (the default allocator: donatable) over the shared arrays;
// they give the arrays back instead of freeing them (tensor_access is the
// runtime's internal door; only this benchmark uses it from outside).
namespace graphs {
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto z = ip::input<"z", float>;
constexpr auto axpy = ip::function(ip::inputs(x, y, z), ip::outputs(0.5_c * x + y));
constexpr auto mix = ip::function(ip::inputs(x, y, z), ip::outputs((x * y + z) * 0.5_c - x / (y + 1.0_c)));
constexpr auto trans = ip::function(ip::inputs(x, y, z), ip::outputs(ip::exp(x) * y + ip::sqrt(z)));
static_assert(ip::plan(mix, ip::donated, ip::borrowed, ip::borrowed) == ip::plan_result{0, 0, 1, 4, 0});
static_assert(ip::plan(mix, ip::borrowed, ip::borrowed, ip::borrowed).allocations == 1);
}  // namespace graphs

struct borrowed_tensor {  // an ip::tensor over storage it must not free
  ip::tensor<float> t;
  borrowed_tensor(const float* p, std::size_t n)
      : t(ip::detail::tensor_access::adopt<ip::tensor<float>>(const_cast<float*>(p), {n})) {}
  borrowed_tensor(borrowed_tensor&& o) noexcept : t(std::move(o.t)) {}
  ~borrowed_tensor() { (void)ip::detail::tensor_access::take(t); }
};

[[gnu::noinline]] void graph_step(int chain, ip::tensor<float>& x, const ip::tensor<float>& y, const ip::tensor<float>& z) {
  switch (chain) {
    case 1: x = graphs::axpy(std::move(x), y, z); break;
    case 2: x = graphs::mix(std::move(x), y, z); break;
    default: x = graphs::trans(std::move(x), y, z);
  }
}
struct graph_impl {
  int chain;
  borrowed_tensor x, y, z;
  graph_impl(const arrays& a, int c) : chain(c), x(a.x, a.n), y(a.y, a.n), z(a.z, a.n) {}
  void step() { graph_step(chain, x.t, y.t, z.t); }
};

// x borrowed: every call returns a new tensor (allocated, then freed here).
[[gnu::noinline]] float graph_fresh_step(int chain, const ip::tensor<float>& x, const ip::tensor<float>& y,
                                         const ip::tensor<float>& z) {
  switch (chain) {
    case 1: return graphs::axpy(x, y, z)[0];
    case 2: return graphs::mix(x, y, z)[0];
    default: return graphs::trans(x, y, z)[0];
  }
}
struct graph_fresh_impl {
  int chain;
  const arrays& a;
  borrowed_tensor x, y, z;
  graph_fresh_impl(const arrays& arr, int c) : chain(c), a(arr), x(a.x, a.n), y(a.y, a.n), z(a.z, a.n) {}
  void step() { benchmark::DoNotOptimize(graph_fresh_step(chain, x.t, y.t, z.t)); }
  void publish() {  // the result where the check reads it
    ip::tensor<float> r = chain == 1 ? graphs::axpy(x.t, y.t, z.t) : chain == 2 ? graphs::mix(x.t, y.t, z.t) : graphs::trans(x.t, y.t, z.t);
    std::copy(r.begin(), r.end(), a.x);
  }
};

#if INPLACE_BENCH_EIGEN
[[gnu::noinline]] float eigen_fresh_step(int chain, const eigen_cmap& x, const eigen_cmap& y, const eigen_cmap& z) {
  Eigen::ArrayXf r;
  switch (chain) {
    case 1: r = alpha * x + y; break;
    case 2: r = (x * y + z) * 0.5f - x / (y + 1.0f); break;
    default: r = x.exp() * y + z.sqrt();
  }
  return r[0];
}
struct eigen_fresh_impl {
  int chain;
  const arrays& a;
  eigen_cmap x, y, z;
  eigen_fresh_impl(const arrays& arr, int c)
      : chain(c), a(arr), x(a.x, static_cast<Eigen::Index>(a.n)), y(a.y, static_cast<Eigen::Index>(a.n)),
        z(a.z, static_cast<Eigen::Index>(a.n)) {}
  void step() { benchmark::DoNotOptimize(eigen_fresh_step(chain, x, y, z)); }
  void publish() {
    Eigen::ArrayXf r = chain == 1 ? Eigen::ArrayXf(alpha * x + y)
                       : chain == 2 ? Eigen::ArrayXf((x * y + z) * 0.5f - x / (y + 1.0f))
                                    : Eigen::ArrayXf(x.exp() * y + z.sqrt());
    std::copy(r.data(), r.data() + r.size(), a.x);
  }
};
#endif

void BM_hand(benchmark::State& state, int chain) { run<hand_impl>(state, chain); }
void BM_inplace(benchmark::State& state, int chain) { run<inplace_impl>(state, chain); }
#if INPLACE_BENCH_EIGEN
void BM_eigen(benchmark::State& state, int chain) { run<eigen_impl>(state, chain); }
#endif
#if INPLACE_BENCH_XTENSOR
void BM_xtensor(benchmark::State& state, int chain) { run<xtensor_impl>(state, chain); }
#endif

// ---- paired ratios --------------------------------------------------------------
// Each implementation timed back to back with the others every round, at least
// ~8 us each (64 calls at 4Ki): bench::paired_rounds (paired.hpp). The
// benchmark's own time is that of a whole round.
template <class... Impl>
void paired(benchmark::State& state, int chain, const std::array<const char*, sizeof...(Impl)>& names) {
  const arrays& a = storage(chain, static_cast<std::size_t>(state.range(0)));
  std::tuple<Impl...> impls{Impl(a, chain)...};
  bool ok = true;
  auto once = [](auto& impl) {
    impl.step();
    if constexpr (requires { impl.publish(); }) impl.publish();
  };
  std::apply([&](auto&... impl) { ((ok = ok && checked(state, chain, a, [&] { once(impl); })), ...); }, impls);
  if (!ok) return;
  const std::size_t calls = std::max<std::size_t>(1, (std::size_t{1} << 18) / a.n);  // 64 calls at 4Ki
  std::apply(
      [&](auto&... impl) {
        auto steps = std::make_tuple([&impl] { impl.step(); }...);
        std::apply([&](auto&... step) { bench::paired_rounds(state, calls, names, step...); }, steps);
      },
      impls);
}
void BM_paired(benchmark::State& state, int chain) {
  paired<inplace_impl, hand_impl
#if INPLACE_BENCH_EIGEN
         , eigen_impl
#endif
#if INPLACE_BENCH_XTENSOR
         , xtensor_impl
#endif
         >(state, chain, {"inplace", "hand"
#if INPLACE_BENCH_EIGEN
                          , "eigen"
#endif
#if INPLACE_BENCH_XTENSOR
                          , "xtensor"
#endif
                         });
}

// The graph call first: vs_<other> is other_time / graph_time.
void BM_graph(benchmark::State& state, int chain) {
  paired<graph_impl, inplace_impl, hand_impl
#if INPLACE_BENCH_EIGEN
         , eigen_impl
#endif
         >(state, chain, {"graph", "expression", "hand"
#if INPLACE_BENCH_EIGEN
                          , "eigen"
#endif
                         });
}
void BM_graph_fresh(benchmark::State& state, int chain) {
  paired<graph_fresh_impl
#if INPLACE_BENCH_EIGEN
         , eigen_fresh_impl
#endif
         >(state, chain, {"graph_fresh"
#if INPLACE_BENCH_EIGEN
                          , "eigen_fresh"
#endif
                         });
}

// ---- y = gelu(dot(X, W) + b): one allocation, bias and gelu fused into dot's result
namespace graphs {
constexpr auto X = ip::input<"X", float, 2>;
constexpr auto W = ip::input<"W", float, 2>;
constexpr auto b = ip::input<"b", float>;
constexpr auto dense = ip::function(ip::inputs(X, W, b), ip::outputs(ip::gelu(ip::dot(X, W) + b)));
static_assert(ip::plan(dense, ip::borrowed, ip::borrowed, ip::borrowed) == ip::plan_result{1, 0, 2, 2, ip::dynamic});
}  // namespace graphs

void BM_gelu_dot(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  ip::tensor<float, 2> X(n, n), W(n, n);
  ip::tensor<float> b(n);
  std::mt19937 g(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (auto& v : X) v = u(g);
  for (auto& v : W) v = u(g) / static_cast<float>(n);
  for (auto& v : b) v = u(g);
  auto graph = [&] { return graphs::dense(X, W, b); };
#if INPLACE_BENCH_EIGEN
  using mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const mat> eX(X.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  Eigen::Map<const mat> eW(W.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  Eigen::Map<const Eigen::RowVectorXf> eb(b.data(), static_cast<Eigen::Index>(n));
  auto eigen = [&] {
    mat C(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
    C.noalias() = eX * eW;
    C.rowwise() += eb;
    C = C.unaryExpr([](float v) { return 0.5f * v * (1.0f + std::erf(v * 0.70710678f)); });
    return C;
  };
  {  // the same result
    const auto r = graph();
    const mat e = eigen();
    for (std::size_t i = 0; i < n * n; i += 97)
      if (std::abs(r[i] - e(static_cast<Eigen::Index>(i / n), static_cast<Eigen::Index>(i % n))) > 1e-4f) {
        state.SkipWithError("gelu(dot(X, W) + b) differs from Eigen's");
        return;
      }
  }
#endif
  auto graph_call = [&] { benchmark::DoNotOptimize(graph().data()); };
#if INPLACE_BENCH_EIGEN
  auto eigen_call = [&] { benchmark::DoNotOptimize(eigen().data()); };
  bench::paired_rounds(state, 1, {"graph", "eigen"}, graph_call, eigen_call);
#else
  bench::paired_rounds(state, 1, {"graph"}, graph_call);
#endif
}

// ---- bandwidth limits -----------------------------------------------------------
void finish(benchmark::State& state, std::size_t n, int arrays) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n) * arrays * 4);
}
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
BENCHMARK_CAPTURE(BM_paired, axpy, 1)->Apply(sizes)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_paired, mix, 2)->Apply(sizes)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_paired, trans, 3)->Apply(sizes)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_graph, axpy, 1)->Arg(16)->Apply(sizes)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_graph, mix, 2)->Arg(16)->Apply(sizes)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_graph, trans, 3)->Arg(16)->Apply(sizes)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_graph_fresh, mix, 2)->Arg(16)->Apply(sizes)->MinTime(1.0);
BENCHMARK(BM_gelu_dot)->Arg(256)->Arg(1024)->MinTime(2.0);
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
