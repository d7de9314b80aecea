// Red-black Gauss-Seidel sweeps for -Laplace(u) = f on a 7 x 7 grid, in place
// in the caller's donated storage. With the grid padded by a ghost ring to an
// odd width (9), the red points (i + j even) are the even elements of the
// flattened grid and every neighbour of a red point is odd (black). A sweep is
// two updates, each an ip::set of a region of the grid: the red points from
// their black neighbours, then the black points from the new red ones. Each
// update's value reads four strided views of the storage it writes, which the
// index patterns prove disjoint from the points written; so the call computes
// each value straight into its region, and a sweep gives the whole grid back
// in the storage it was given: no allocation, the same storage at every sweep.
// The values are NumPy's (examples/red_black.expected, written by
// scripts/red_black_reference.py).
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cstddef>
#include <cstdio>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

// [doc:red_black]
constexpr std::ptrdiff_t w = 9, rows = 9;  // the 7 x 7 grid and its ghost ring
constexpr auto U = ip::input<"U", double, ip::extents<rows, w>>;  // the grid (donated)
constexpr auto F = ip::input<"F", double, ip::extents<rows, w>>;  // f * h^2
constexpr auto I = ip::input<"I", double, ip::extents<rows, w>>;  // 1 at interior points, else 0

// Every other element of the flattened grid from B to E: u.flat[B:E:2].
template <std::ptrdiff_t B, std::ptrdiff_t E, class G>
constexpr auto every_other(G g) { return ip::view(ip::flatten(g), ip::range<B, E, 2>); }
// The red points of rows 1 .. 7 (u.flat[10:72:2]), or the elements Shift after
// each of them: Shift = -1, 1, -w, w are their west, east, north, south neighbours.
template <std::ptrdiff_t Shift = 0, class G>
constexpr auto red(G g) { return every_other<w + 1 + Shift, (rows - 1) * w + Shift>(g); }
// The black points of rows 2 .. 6 (u.flat[19:63:2]), and their neighbours.
template <std::ptrdiff_t Shift = 0, class G>
constexpr auto black(G g) { return every_other<2 * w + 1 + Shift, (rows - 2) * w + Shift>(g); }

// u + inside * ((west + east + north + south + f h^2) / 4 - u) at the points of one colour.
constexpr auto relaxed_red(auto u) {
  return red(u) + red(I) * (((((red<-1>(u) + red<1>(u)) + red<-w>(u)) + red<w>(u)) + red(F)) * 0.25_c - red(u));
}
constexpr auto relaxed_black(auto u) {
  return black(u) + black(I) * (((((black<-1>(u) + black<1>(u)) + black<-w>(u)) + black<w>(u)) + black(F)) * 0.25_c -
                                black(u));
}
constexpr auto red_done = ip::set(red(U), relaxed_red(U));
constexpr auto swept = ip::set(black(red_done), relaxed_black(red_done));
constexpr auto sweep = ip::function(ip::inputs(U, F, I), ip::outputs(swept));
// With U donated both updates run in its storage, their values computed
// straight into the points they replace: the index patterns prove that each
// value reads only the other colour's points besides its own, at the same index.
constexpr auto donated = ip::plan(sweep, ip::donated, ip::borrowed, ip::borrowed);
static_assert(donated.allocations == 0 && donated.copies == 0 && donated.loops == 2);
// Borrowed, the call copies U once, into the grid it returns.
static_assert(ip::plan(sweep, ip::borrowed, ip::borrowed, ip::borrowed).copies == 1);
// [/doc]

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "red_black");
  dot.write("sweep", ip::to_dot(sweep, ip::donated, ip::borrowed, ip::borrowed));
  // u = x^2 - y^2 on the boundary, 0 inside, f = 1, h = 1/6
  ip::tensor<double, ip::extents<rows, w>> u{}, f{}, inside{};
  const double h = 1.0 / 6.0;
  for (std::ptrdiff_t i = 1; i <= 7; ++i)
    for (std::ptrdiff_t j = 1; j <= 7; ++j) {
      const double x = static_cast<double>(j - 1) * h, y = static_cast<double>(i - 1) * h;
      const bool edge = i == 1 || i == 7 || j == 1 || j == 7;
      u(i, j) = edge ? x * x - y * y : 0.0;
      f(i, j) = 1.0 * h * h;
      inside(i, j) = edge ? 0.0 : 1.0;
    }
  const double* storage = u.data();
  constexpr int sweeps = 3;
  bool kept = true;
  for (int s = 0; s < sweeps; ++s) {
    u = sweep(std::move(u), f, inside);
    kept = kept && u.data() == storage;
  }
  std::printf("%d sweeps in the grid's storage: %s; per sweep %zu allocations, %zu loops\n", sweeps, kept ? "yes" : "no",
              donated.allocations, donated.loops);
  for (std::ptrdiff_t i = 1; i <= 7; ++i) {
    for (std::ptrdiff_t j = 1; j <= 7; ++j) std::printf(" %9.6f", u(i, j));
    std::printf("\n");
  }
}
