// One red-black Gauss-Seidel sweep for -Laplace(u) = f on 513 x 513 unknowns:
// the graph of examples/red_black.cpp with larger static extents, called with
// the grid donated, against a hand-written loop and the same sweep written
// with Eigen (strided maps). The graph in two spellings: ip::set, as the
// example writes it (each update returns the whole grid), and add_inplace on
// the two regions (each update returns its region). Paired ratios (paired.hpp):
// vs_hand, vs_eigen = the median over rounds of (the other's time / the
// graph's); above 1 the graph is faster. Before timing, the sweeps run from
// the same state and must agree (SkipWithError otherwise).
//
// The grid: the unknowns, their Dirichlet boundary ring, and a ghost ring, 517
// x 517 doubles (odd width: the red points, i + j even, are the even elements
// of the flattened grid). I is 1 at the unknowns and 0 elsewhere, as in the
// example. All three do the same arithmetic in the same order:
//   red   (k even, rows 1 .. 515):  u[k] += I[k]*(((((u[k-1] + u[k+1]) + u[k-w]) + u[k+w]) + F[k])*0.25 - u[k])
//   black (k odd,  rows 2 .. 514):  the same, reading the new red values
//
//   BM_red_black_set      the whole sweep, ip::set: vs_hand, vs_eigen (graph_us: the graph's time)
//   BM_red_black          the whole sweep, add_inplace on the regions: the same counters
//   BM_red_black_parts    the red update alone, add_inplace (a function returning
//                         red_new only): vs_hand_red, vs_eigen_red; the red update
//                         is the one whose right-hand side reads the storage it writes
//
//   red_black_bench --benchmark_min_time=0.2 --benchmark_out=rb.json --benchmark_out_format=json
#include <inplace.hpp>

#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include "paired.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {

constexpr std::ptrdiff_t n = 513;           // unknowns per side
constexpr std::ptrdiff_t w = n + 4, rows = n + 4;  // + the boundary ring + the ghost ring
constexpr std::ptrdiff_t red_begin = w + 1, red_end = (rows - 1) * w;            // rows 1 .. rows - 2
constexpr std::ptrdiff_t black_begin = 2 * w + 1, black_end = (rows - 2) * w;    // rows 2 .. rows - 3
constexpr std::ptrdiff_t nr = (red_end - red_begin + 1) / 2, nb = (black_end - black_begin + 1) / 2;
static_assert(w % 2 == 1 && w + nb <= nr);

// ---- the graph (examples/red_black.cpp, generalised) -------------------------------
using grid = ip::tensor<double, ip::extents<rows, w>>;
using cgrid = ip::tensor_view<const double, ip::extents<rows, w>>;
constexpr auto U = ip::input<"U", double, ip::extents<rows, w>>;
constexpr auto F = ip::input<"F", double, ip::extents<rows, w>>;
constexpr auto I = ip::input<"I", double, ip::extents<rows, w>>;

template <std::ptrdiff_t B, std::ptrdiff_t E, class G>
constexpr auto every_other(G g) { return ip::view(ip::flatten(g), ip::range<B, E, 2>); }
template <class G> constexpr auto red(G g) { return every_other<red_begin, red_end, G>(g); }
template <class G> constexpr auto black(G g) { return every_other<black_begin, black_end, G>(g); }

constexpr auto red_new = ip::add_inplace(
    red(U), red(I) * (((((every_other<w, red_end - 1>(U) + every_other<w + 2, red_end + 1>(U)) +
                         every_other<1, red_end - w>(U)) + every_other<2 * w + 1, red_end + w>(U)) + red(F)) *
                          0.25_c - red(U)));
// Black element s is u.flat[black_begin + 2s]; red_new element t is u.flat[red_begin + 2t].
constexpr std::ptrdiff_t left = (w - 1) / 2, right = (w + 1) / 2, up = 0, down = w;
constexpr auto black_new = ip::add_inplace(
    black(U), black(I) * ((((((ip::slice<left, left + nb>(red_new) + ip::slice<right, right + nb>(red_new)) +
                              ip::slice<up, up + nb>(red_new)) + ip::slice<down, down + nb>(red_new)) + black(F)) *
                           0.25_c) - black(U)));
constexpr auto sweep = ip::function(ip::inputs(U, F, I), ip::outputs(red_new, black_new));
constexpr auto sweep_red = ip::function(ip::inputs(U, F, I), ip::outputs(red_new));
constexpr auto donated = ip::plan(sweep, ip::donated, ip::borrowed, ip::borrowed);
static_assert(donated.in_place == 2 && donated.copies == 0);

// ---- the graph as examples/red_black.cpp writes it: ip::set, the whole grid back ----
// The points of one colour, or the elements Shift after each of them (Shift = -1,
// 1, -w, w: the west, east, north, south neighbours).
template <std::ptrdiff_t Shift = 0, class G>
constexpr auto red_at(G g) { return every_other<red_begin + Shift, red_end + Shift>(g); }
template <std::ptrdiff_t Shift = 0, class G>
constexpr auto black_at(G g) { return every_other<black_begin + Shift, black_end + Shift>(g); }
constexpr auto relaxed_red(auto u) {
  return red_at(u) + red_at(I) * (((((red_at<-1>(u) + red_at<1>(u)) + red_at<-w>(u)) + red_at<w>(u)) + red_at(F)) *
                                       0.25_c - red_at(u));
}
constexpr auto relaxed_black(auto u) {
  return black_at(u) + black_at(I) * (((((black_at<-1>(u) + black_at<1>(u)) + black_at<-w>(u)) + black_at<w>(u)) +
                                       black_at(F)) * 0.25_c - black_at(u));
}
constexpr auto red_done = ip::set(red_at(U), relaxed_red(U));
constexpr auto swept = ip::set(black_at(red_done), relaxed_black(red_done));
constexpr auto set_sweep = ip::function(ip::inputs(U, F, I), ip::outputs(swept));
constexpr auto set_donated = ip::plan(set_sweep, ip::donated, ip::borrowed, ip::borrowed);
static_assert(set_donated.allocations == 0 && set_donated.copies == 0 && set_donated.loops == 2);

// ---- the other two ---------------------------------------------------------------------
[[gnu::noinline]] void hand_red(double* u, const double* f, const double* in) {
  for (std::ptrdiff_t k = red_begin; k < red_end; k += 2)
    u[k] += in[k] * (((((u[k - 1] + u[k + 1]) + u[k - w]) + u[k + w]) + f[k]) * 0.25 - u[k]);
}
[[gnu::noinline]] void hand_black(double* u, const double* f, const double* in) {
  for (std::ptrdiff_t k = black_begin; k < black_end; k += 2)
    u[k] += in[k] * (((((u[k - 1] + u[k + 1]) + u[k - w]) + u[k + w]) + f[k]) * 0.25 - u[k]);
}
[[gnu::noinline]] void hand_sweep(double* u, const double* f, const double* in) {
  hand_red(u, f, in);
  hand_black(u, f, in);
}

// Eigen: a strided map per operand, one statement per colour.
using strided = Eigen::Map<Eigen::ArrayXd, 0, Eigen::InnerStride<2>>;
using cstrided = Eigen::Map<const Eigen::ArrayXd, 0, Eigen::InnerStride<2>>;
[[gnu::noinline]] void eigen_colour(double* u, const double* f, const double* in, std::ptrdiff_t k0, Eigen::Index m) {
  strided x(u + k0, m);
  const cstrided l(u + k0 - 1, m), r(u + k0 + 1, m), a(u + k0 - w, m), b(u + k0 + w, m), fk(f + k0, m), ik(in + k0, m);
  x += ik * (((((l + r) + a) + b) + fk) * 0.25 - x);
}
[[gnu::noinline]] void eigen_sweep(double* u, const double* f, const double* in) {
  eigen_colour(u, f, in, red_begin, nr);
  eigen_colour(u, f, in, black_begin, nb);
}

// ---- storage -----------------------------------------------------------------------------
// U, F, I in one 64-byte aligned block, at distinct offsets modulo 4 KiB (see
// runtime_bench.cpp on 4K aliasing); U0 is the known state every check starts from.
struct arrays {
  static constexpr std::size_t size = static_cast<std::size_t>(rows * w);
  std::unique_ptr<double, void (*)(double*)> block{nullptr, [](double* p) { ip::aligned_allocator<double>().deallocate(p, 0); }};
  double *u = nullptr, *f = nullptr, *in = nullptr;
  std::vector<double> u0;
  arrays() {
    const std::size_t page = 4096 / sizeof(double), span = (size + page - 1) / page * page + page;
    double* p = ip::aligned_allocator<double>().allocate(3 * span);
    block.reset(p);
    u = p;
    f = p + span + 136;
    in = p + 2 * span + 272;
    // u = x^2 - y^2 on the boundary, 0 at the unknowns, f = 1 (times h^2)
    const double h = 1.0 / static_cast<double>(n + 1);
    u0.assign(size, 0.0);
    std::fill(f, f + size, 0.0);
    std::fill(in, in + size, 0.0);
    for (std::ptrdiff_t i = 1; i < rows - 1; ++i)
      for (std::ptrdiff_t j = 1; j < w - 1; ++j) {
        const double x = static_cast<double>(j - 1) * h, y = static_cast<double>(i - 1) * h;
        const bool edge = i == 1 || i == rows - 2 || j == 1 || j == w - 2;
        const std::size_t k = static_cast<std::size_t>(i * w + j);
        u0[k] = edge ? x * x - y * y : 0.0;
        f[k] = h * h;
        in[k] = edge ? 0.0 : 1.0;
      }
    reset();
  }
  void reset() const { std::copy(u0.begin(), u0.end(), u); }
};
const arrays& storage() {
  static const arrays a;
  return a;
}

// The graph's call. U is donated: an ip::tensor adopted over the shared grid
// (tensor_access is the runtime's internal door, as in runtime_bench.cpp). Its
// storage comes back only inside the two results (kept_views, whose shared
// owner would free it): each call's owner is deliberately leaked (one small
// control block per call), the grid itself freed once by `arrays`.
grid donate(double* u) { return ip::detail::tensor_access::adopt<grid>(u, {rows, w}); }
void keep(const std::shared_ptr<void>& owner) { (void)new std::shared_ptr<void>(owner); }

[[gnu::noinline]] void graph_sweep(double* u, const cgrid& f, const cgrid& in) {
  auto [r, b] = sweep(donate(u), f, in);
  keep(r.owner());
}
// The ip::set form returns the grid itself: released, not freed (its storage is `arrays`').
[[gnu::noinline]] double* graph_set_sweep(double* u, const cgrid& f, const cgrid& in) {
  grid r = set_sweep(donate(u), f, in);
  return ip::detail::tensor_access::take(r);
}
[[gnu::noinline]] void graph_red(double* u, const cgrid& f, const cgrid& in) { keep(sweep_red(donate(u), f, in).owner()); }

bool agree(benchmark::State& state, const std::vector<double>& want, const double* got, const char* who) {
  for (std::size_t k = 0; k < want.size(); ++k)
    if (std::abs(got[k] - want[k]) > 1e-12 * std::max(1.0, std::abs(want[k]))) {
      state.SkipWithError((std::string(who) + " differs from the hand loop at " + std::to_string(k)).c_str());
      return false;
    }
  return true;
}

void BM_red_black(benchmark::State& state) {
  const arrays& a = storage();
  const cgrid f(a.f, {rows, w}), in(a.in, {rows, w});
  auto s_graph = [&] { graph_sweep(a.u, f, in); };
  auto s_hand = [&] { hand_sweep(a.u, a.f, a.in); };
  auto s_eigen = [&] { eigen_sweep(a.u, a.f, a.in); };
  // Two sweeps from the known state, by each: the second reads values the first changed.
  a.reset();
  s_hand();
  s_hand();
  const std::vector<double> want(a.u, a.u + arrays::size);
  a.reset();
  s_graph();
  s_graph();
  if (!agree(state, want, a.u, "the graph")) return;
  a.reset();
  s_eigen();
  s_eigen();
  if (!agree(state, want, a.u, "Eigen")) return;
  a.reset();
  const double t = bench::paired_rounds(state, 1, {"graph", "hand", "eigen"}, s_graph, s_hand, s_eigen);
  state.counters["graph_us"] = t * 1e6;
  state.counters["plan_allocations"] = static_cast<double>(donated.allocations);  // the red update's buffer, if any
  state.counters["plan_loops"] = static_cast<double>(donated.loops);
}

// The sweep as users write it (ip::set): graph vs hand vs Eigen.
void BM_red_black_set(benchmark::State& state) {
  const arrays& a = storage();
  const cgrid f(a.f, {rows, w}), in(a.in, {rows, w});
  double* back = nullptr;
  auto s_graph = [&] { back = graph_set_sweep(a.u, f, in); };
  auto s_hand = [&] { hand_sweep(a.u, a.f, a.in); };
  auto s_eigen = [&] { eigen_sweep(a.u, a.f, a.in); };
  a.reset();
  s_hand();
  s_hand();
  const std::vector<double> want(a.u, a.u + arrays::size);
  a.reset();
  s_graph();
  s_graph();
  if (back != a.u) return state.SkipWithError("the graph did not return the grid in its own storage");
  if (!agree(state, want, a.u, "the graph (ip::set)")) return;
  a.reset();
  const double t = bench::paired_rounds(state, 1, {"graph", "hand", "eigen"}, s_graph, s_hand, s_eigen);
  state.counters["graph_us"] = t * 1e6;
  state.counters["plan_allocations"] = static_cast<double>(set_donated.allocations);
  state.counters["plan_loops"] = static_cast<double>(set_donated.loops);
}

// The red update alone: graph vs hand vs Eigen.
void BM_red_black_parts(benchmark::State& state) {
  const arrays& a = storage();
  const cgrid f(a.f, {rows, w}), in(a.in, {rows, w});
  auto r_graph = [&] { graph_red(a.u, f, in); };
  auto r_hand = [&] { hand_red(a.u, a.f, a.in); };
  auto r_eigen = [&] { eigen_colour(a.u, a.f, a.in, red_begin, nr); };
  a.reset();
  r_hand();
  const std::vector<double> want(a.u, a.u + arrays::size);
  a.reset();
  r_graph();
  if (!agree(state, want, a.u, "the graph's red update")) return;
  a.reset();
  const double t = bench::paired_rounds(state, 1, {"graph_red", "hand_red", "eigen_red"}, r_graph, r_hand, r_eigen);
  state.counters["graph_red_us"] = t * 1e6;
}

}  // namespace

BENCHMARK(BM_red_black_set);
BENCHMARK(BM_red_black);
BENCHMARK(BM_red_black_parts);

BENCHMARK_MAIN();
