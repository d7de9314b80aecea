// One decode step on a 64 MiB KV cache: 4096 rows of 4096 floats, the step
// writes one row, at the run-time position t, with a new row k:
//
//   step = ip::function(ip::inputs(cache, t, k),
//                       ip::outputs(ip::set(ip::dynamic_slice<0, 1>(cache, t), ip::expand_dims<0>(k))))
//
// BM_decode_step: the step called with the cache donated (`c = step(std::move(c), t, k)`,
// the in-place path: no allocation, the cache's storage kept), timed back to back
// with a hand-written row copy (std::memcpy, and a plain loop) and with the same
// step on a cache of run-time extents (rank 2). vs_<other> = other_time /
// donated_time (above 1: the donated step is faster; the goal is >= 0.5, i.e.
// within 2x of the hand copy).
//
// BM_decode_copy: what a call without donation must do: the same step with the
// cache borrowed (a new 64 MiB result, the cache copied into it, then the row
// written), against the same by hand (hand_copy: a new block from the same
// allocator, memcpy, the row) and the copy alone (copy_into: memcpy into a
// block allocated once, the row). Timed in thread CPU time (see
// cpu_batch_seconds). ns_<name> counters: the median time of one step, for
// every implementation.
//
// NumPy's `cache[t] = k` and `c = cache.copy(); c[t] = k`: numpy_decode.py,
// which also prints the table of this benchmark's JSON output.
//
// The rounds of both benchmarks are paired as in paired.hpp: every round times
// each implementation back to back, in a rotating order; the counters are
// medians over rounds. Every implementation is checked before it is timed (the
// row written, every other row untouched, the storage pointer kept).
#include <inplace.hpp>

#include <benchmark/benchmark.h>

#include "paired.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ip = inplace;

namespace {

constexpr std::size_t rows = 4096, cols = 4096;  // 64 MiB of floats, a 16 KiB row

namespace graphs {
constexpr auto cache = ip::input<"cache", float, ip::extents<rows, cols>>;
constexpr auto t = ip::scalar<"t", std::int64_t>;
constexpr auto k = ip::input<"k", float, ip::extents<cols>>;
constexpr auto step = ip::function(ip::inputs(cache, t, k), ip::outputs(ip::set(ip::dynamic_slice<0, 1>(cache, t), ip::expand_dims<0>(k))));
static_assert(ip::plan(step, ip::donated, ip::borrowed, ip::borrowed).allocations == 0);
static_assert(ip::plan(step, ip::borrowed, ip::borrowed, ip::borrowed).copies == 1);

// The same step on extents known only when the program runs.
constexpr auto dcache = ip::input<"cache", float, 2>;
constexpr auto dk = ip::input<"k", float, 1>;
constexpr auto dstep = ip::function(ip::inputs(dcache, t, dk), ip::outputs(ip::set(ip::dynamic_slice<0, 1>(dcache, t), ip::expand_dims<0>(dk))));
static_assert(ip::plan(dstep, ip::donated, ip::borrowed, ip::borrowed).allocations == 0);
}  // namespace graphs

using cache_t = ip::tensor<float, ip::extents<rows, cols>>;
using row_t = ip::tensor<float, ip::extents<cols>>;
using dcache_t = ip::tensor<float, 2>;
using drow_t = ip::tensor<float, 1>;

// Every implementation is one out-of-line call per step.
[[gnu::noinline]] void donated_step(cache_t& c, std::int64_t t, const row_t& k) { c = graphs::step(std::move(c), t, k); }
[[gnu::noinline]] void donated_dynamic_step(dcache_t& c, std::int64_t t, const drow_t& k) {
  c = graphs::dstep(std::move(c), t, k);
}
[[gnu::noinline]] void memcpy_step(float* c, std::int64_t t, const float* k) {
  std::memcpy(c + static_cast<std::size_t>(t) * cols, k, cols * sizeof(float));
}
[[gnu::noinline]] void loop_step(float* c, std::int64_t t, const float* k) {
  float* r = c + static_cast<std::size_t>(t) * cols;
  for (std::size_t j = 0; j < cols; ++j) r[j] = k[j];
}
[[gnu::noinline]] cache_t borrowed_step(const cache_t& c, std::int64_t t, const row_t& k) { return graphs::step(c, t, k); }
// What the borrowed call does, by hand: a new block (the same allocator), the
// cache copied into it, the row written; freed by the caller.
[[gnu::noinline]] float* copy_step(const float* c, std::int64_t t, const float* k) {
  float* r = ip::aligned_allocator<float>().allocate(rows * cols);
  std::memcpy(r, c, rows * cols * sizeof(float));
  std::memcpy(r + static_cast<std::size_t>(t) * cols, k, cols * sizeof(float));
  return r;
}

// The copy alone: the cache copied into a block allocated (and faulted in) once.
[[gnu::noinline]] void copy_into_step(float* r, const float* c, std::int64_t t, const float* k) {
  std::memcpy(r, c, rows * cols * sizeof(float));
  std::memcpy(r + static_cast<std::size_t>(t) * cols, k, cols * sizeof(float));
}

// The value every element of row i holds before any step: i * 8192 + j/2
// (exact in float), and the row a step at t writes: -(t + 1) - j.
float initial(std::size_t i, std::size_t j) { return static_cast<float>(i * 8192 + j / 2); }
float written(std::size_t t, std::size_t j) { return -static_cast<float>(t + 1 + j); }

template <class C>
void fill_cache(C& c) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) c.data()[i * cols + j] = initial(i, j);
}
template <class K>
void fill_row(K& k, std::size_t t) {
  for (std::size_t j = 0; j < cols; ++j) k.data()[j] = written(t, j);
}
// Rows [0, n) written by steps 0 .. n-1, the rest as filled.
bool holds(const float* c, std::size_t n) {
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      if (c[i * cols + j] != (i < n ? written(i, j) : initial(i, j))) return false;
  return true;
}

// A row k for each of a few steps, chosen by t: the values change from step to step.
struct rows_of_k {
  std::vector<row_t> k;
  std::vector<drow_t> dk;
  rows_of_k() {
    for (std::size_t t = 0; t < 8; ++t) {
      k.emplace_back();
      fill_row(k.back(), t);
      dk.emplace_back(cols);
      fill_row(dk.back(), t);
    }
  }
};

struct impl {
  std::string name;
  std::function<void()> step;
};

// Seconds of this thread's CPU time taken by `calls` calls of f: for the
// copies of BM_decode_copy, tens of ms each, which on a shared machine are
// rarely timed without the thread being descheduled in between (their wall
// time then counts another process's time slice). The page faults of a new
// block are system time of this thread, and count.
template <class F>
double cpu_batch_seconds(std::size_t calls, F&& f) {
  auto now = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  const double t0 = now();
  for (std::size_t c = 0; c < calls; ++c) f();
  benchmark::ClobberMemory();
  return now() - t0;
}

// Times impls[0] and the others, `calls` steps each, in rotating order every
// round (wall time as in paired.hpp, or thread CPU time); counters vs_<name>
// (median over rounds of t_other / t_first) and ns_<name> (median over rounds
// of one step's time).
void paired(benchmark::State& state, std::size_t calls, const std::vector<impl>& impls, bool cpu_time = false) {
  const std::size_t K = impls.size();
  std::vector<std::vector<double>> ratios(K), times(K);
  std::vector<double> t(K);
  std::size_t round = 0;
  for (auto _ : state) {
    for (std::size_t q = 0; q < K; ++q) {
      const std::size_t which = (round + q) % K;
      t[which] = cpu_time ? cpu_batch_seconds(calls, impls[which].step) : bench::batch_seconds(calls, impls[which].step);
    }
    ++round;
    for (std::size_t q = 0; q < K; ++q) {
      times[q].push_back(t[q] / static_cast<double>(calls) * 1e9);
      if (q > 0) ratios[q].push_back(t[q] / t[0]);
    }
  }
  for (std::size_t q = 0; q < K; ++q) {
    state.counters["ns_" + impls[q].name] = bench::median(times[q]);
    if (q > 0) state.counters["vs_" + impls[q].name] = bench::median(ratios[q]);
  }
}

void BM_decode_step(benchmark::State& state) {
  const rows_of_k ks;
  cache_t c;  // zero, then filled: every page touched before timing
  dcache_t dc(rows, cols);
  fill_cache(c);
  fill_cache(dc);
  const float* p = c.data();
  const float* dp = dc.data();

  // Checked first: steps 0..7 by each implementation on a fresh copy of the
  // filled cache (the donated steps on c and dc themselves).
  for (std::size_t s = 0; s < 8; ++s) donated_step(c, static_cast<std::int64_t>(s), ks.k[s]);
  if (c.data() != p) return state.SkipWithError("donated step: the cache's storage was not kept");
  if (!holds(c.data(), 8)) return state.SkipWithError("donated step: wrong cache");
  for (std::size_t s = 0; s < 8; ++s) donated_dynamic_step(dc, static_cast<std::int64_t>(s), ks.dk[s]);
  if (dc.data() != dp) return state.SkipWithError("donated step (run-time extents): the storage was not kept");
  if (!holds(dc.data(), 8)) return state.SkipWithError("donated step (run-time extents): wrong cache");
  {
    cache_t h;
    fill_cache(h);
    for (std::size_t s = 0; s < 8; ++s) memcpy_step(h.data(), static_cast<std::int64_t>(s), ks.k[s].data());
    if (!holds(h.data(), 8)) return state.SkipWithError("memcpy step: wrong cache");
    fill_cache(h);
    for (std::size_t s = 0; s < 8; ++s) loop_step(h.data(), static_cast<std::int64_t>(s), ks.k[s].data());
    if (!holds(h.data(), 8)) return state.SkipWithError("loop step: wrong cache");
  }

  // Timed: each implementation steps through `window` rows in order, from its
  // own start (0, 1024, 2048, 3072), on the same cache c (dc for the run-time
  // extents). window 4096: the whole cache, so that the row a step writes was
  // last written 64 MiB of writes ago, out of this machine's 32 MiB last level
  // cache, as a decode step finds it; window 8: the same 8 rows (128 KiB per
  // implementation) over and over, in cache: the step's own cost.
  const auto window = static_cast<std::int64_t>(state.range(0));
  std::array<std::int64_t, 4> pos{};
  auto at = [&](std::size_t q) {
    pos[q] = (pos[q] + 1) % window;
    return (static_cast<std::int64_t>(q * 1024) + pos[q]) % static_cast<std::int64_t>(rows);
  };
  const std::vector<impl> impls{
      {"donated", [&] { const auto t = at(0); donated_step(c, t, ks.k[static_cast<std::size_t>(t) & 7]); }},
      {"memcpy", [&] { const auto t = at(1); memcpy_step(c.data(), t, ks.k[static_cast<std::size_t>(t) & 7].data()); }},
      {"loop", [&] { const auto t = at(2); loop_step(c.data(), t, ks.k[static_cast<std::size_t>(t) & 7].data()); }},
      {"donated_dynamic", [&] { const auto t = at(3); donated_dynamic_step(dc, t, ks.dk[static_cast<std::size_t>(t) & 7]); }}};
  paired(state, 64, impls);  // 64 steps (1 MiB of rows) per timing
  if (c.data() != p || dc.data() != dp) state.SkipWithError("donated step: the storage was not kept while timed");
}

void BM_decode_copy(benchmark::State& state) {
  const rows_of_k ks;
  cache_t c;
  fill_cache(c);
  const cache_t before = c;
  {
    const cache_t r = borrowed_step(c, 5, ks.k[0]);
    if (r.data() == c.data()) return state.SkipWithError("borrowed step: the result is the cache's storage");
    if (std::memcmp(c.data(), before.data(), rows * cols * sizeof(float)) != 0)
      return state.SkipWithError("borrowed step: the cache was changed");
    cache_t e = before;
    memcpy_step(e.data(), 5, ks.k[0].data());
    if (std::memcmp(r.data(), e.data(), rows * cols * sizeof(float)) != 0)
      return state.SkipWithError("borrowed step: wrong result");
    float* h = copy_step(c.data(), 5, ks.k[0].data());
    const bool ok = std::memcmp(h, e.data(), rows * cols * sizeof(float)) == 0;
    ip::aligned_allocator<float>().deallocate(h, rows * cols);
    if (!ok) return state.SkipWithError("hand copy step: wrong result");
    cache_t into;
    copy_into_step(into.data(), c.data(), 5, ks.k[0].data());
    if (std::memcmp(into.data(), e.data(), rows * cols * sizeof(float)) != 0)
      return state.SkipWithError("copy_into step: wrong result");
  }
  cache_t into;  // a block reused by every step, its pages touched once
  fill_cache(into);
  std::int64_t tb = 0, th = 0, ti = 0;
  auto next = [](std::int64_t& t) { return t = (t + 1) & static_cast<std::int64_t>(rows - 1); };
  const std::vector<impl> impls{
      {"borrowed", [&] { benchmark::DoNotOptimize(borrowed_step(c, next(tb), ks.k[0]).data()); }},
      {"hand_copy", [&] {
         float* r = copy_step(c.data(), next(th), ks.k[0].data());
         benchmark::DoNotOptimize(r);
         ip::aligned_allocator<float>().deallocate(r, rows * cols);
       }},
      {"copy_into", [&] { copy_into_step(into.data(), c.data(), next(ti), ks.k[0].data()); }}};
  paired(state, 1, impls, true);
}

}  // namespace

BENCHMARK(BM_decode_step)->ArgName("window")->Arg(4096)->Arg(8)->MinTime(2.0)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_decode_copy)->MinTime(2.0)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
