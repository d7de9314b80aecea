// A red-black Gauss-Seidel sweep for -Laplace(u) = f on a 7 x 7 grid, in
// place in the caller's donated storage. With the grid padded by a ghost ring
// to an odd width (9), the red points (i + j even) are the even elements of
// the flattened grid and every neighbour of a red point is odd (black): the
// red update reads four strided views of the storage it writes, which the
// analysis proves disjoint from the red points while compiling. The black
// update then reads the new red values and writes the odd elements: a second
// in-place node on another region of the same storage, independent of the
// first. The values are NumPy's (examples/red_black.expected, written by
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

// Red: the red points of rows 1 .. 7 (31 points, from u.flat[10]); their
// neighbours are the elements 1 before, 1 after, a row before, a row after.
template <class G> constexpr auto red(G g) { return every_other<w + 1, (rows - 1) * w, G>(g); }
constexpr auto red_new = ip::add_inplace(
    red(U), red(I) * (((((every_other<w, (rows - 1) * w - 1>(U) + every_other<w + 2, (rows - 1) * w + 1>(U)) +
                          every_other<1, (rows - 2) * w - 1>(U)) + every_other<2 * w + 1, rows * w - 1>(U)) + red(F)) *
                          0.25_c - red(U)));
// Black: the black points of rows 2 .. 6 (22 points, from u.flat[19]); their
// neighbours are red points of rows 1 .. 7, read from red_new (element t is
// u.flat[10 + 2t]): u.flat[k - 1] is red_new[(k - 11) / 2], and so on.
template <class G> constexpr auto black(G g) { return every_other<2 * w + 1, (rows - 2) * w, G>(g); }
constexpr auto black_new = ip::add_inplace(
    black(U), black(I) * ((((((ip::slice<4, 26>(red_new) + ip::slice<5, 27>(red_new)) + ip::slice<0, 22>(red_new)) +
                            ip::slice<9, 31>(red_new)) + black(F)) * 0.25_c) - black(U)));
constexpr auto sweep = ip::function(ip::inputs(U, F, I), ip::outputs(red_new, black_new));
// Legal: the four neighbour views share no element with the red points, the
// black points none with the red ones (and the two updates write apart).
static_assert(ip::check(ip::inputs(U, F, I), ip::outputs(red_new, black_new)).ok);
// With U donated both updates run in its storage, each as one loop that reads
// the neighbours while it writes the points (they share no element): nothing
// is allocated.
constexpr auto donated = ip::plan(sweep, ip::donated, ip::borrowed, ip::borrowed);
static_assert(donated.in_place == 2 && donated.copies == 0 && donated.allocations == 0);
// [/doc]

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "red_black");
  dot.write("sweep", ip::to_dot(sweep, ip::donated, ip::borrowed, ip::borrowed));
  // u = x^2 - y^2 on the boundary, 0 inside, f = 1, h = 1/6: one sweep
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
  const auto grid = u.view();  // the storage, seen before it is donated (kept alive by the results)
  auto [r, b] = sweep(std::move(u), f, inside);
  std::printf("red points in the grid's storage: %s, black points: %s\n", r.data() == storage + w + 1 ? "yes" : "no",
              b.data() == storage + 2 * w + 1 ? "yes" : "no");
  std::printf("updates in place (U donated): %zu\n", donated.in_place);
  for (std::ptrdiff_t i = 1; i <= 7; ++i) {
    for (std::ptrdiff_t j = 1; j <= 7; ++j) std::printf(" %9.6f", grid(i, j));
    std::printf("\n");
  }
}
