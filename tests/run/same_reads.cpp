// Loops that read the same elements as two or more operands (the same root and
// index pattern: set(r, r * r + 1), a red-black update reading its own points
// twice) read them through one pointer (run/detail/fusion.hpp's same_reads,
// texpr::same_read). Values checked against a reference computed here from a
// copy: borrowed, donated and in debug mode; operands that look alike but are
// not the same elements (another root, another offset, another element type)
// keep their own pointers.
#include "../tensor/naive.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <utility>

namespace ip = inplace;
using naive::iota;
using namespace ip::literals;

namespace {
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 2>;
constexpr std::ptrdiff_t w = 7, rows = 5;  // odd width: the even elements of the flattened grid
constexpr auto U = ip::input<"U", double, ip::extents<rows, w>>;

template <class V>
constexpr auto even_cols(V v) { return ip::view(v, ip::all, ip::range<0, ip::end, 2>); }
template <class V>
constexpr auto odd_cols(V v) { return ip::view(v, ip::all, ip::range<1, ip::end, 2>); }
// u.flat[w + 1 + Shift : (rows - 1) * w + Shift : 2]
template <std::ptrdiff_t Shift = 0, class G>
constexpr auto red(G g) { return ip::view(ip::flatten(g), ip::range<w + 1 + Shift, (rows - 1) * w + Shift, 2>); }
}  // namespace

TEST_CASE("set(a[0], a[0] * a[0] + a[0]): one row read three times", "[run][same_reads]") {
  constexpr auto r = ip::row<0>(A);
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::set(r, r * r + r)));
  static_assert(ip::plan(f, ip::donated).allocations == 0);
  const auto a = iota(3, 5);
  auto expect = [&](const auto& got) {
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 5; ++j) CHECK(got(i, j) == (i == 0 ? a(i, j) * a(i, j) + a(i, j) : a(i, j)));
  };
  expect(f(a));
  expect(f.debug(a));
  auto d = a;
  const float* p = d.data();
  auto got = f(std::move(d));
  expect(got);
  CHECK(got.data() == p);
}

TEST_CASE("a[:, ::2] = a[:, ::2] * b[:, ::2] + a[:, ::2] - a[:, 1::2]: another root and another offset", "[run][same_reads]") {
  constexpr auto e = even_cols(A);
  constexpr auto f =
      ip::function(ip::inputs(A, B), ip::outputs(ip::set(e, e * even_cols(B) + e - odd_cols(A))));
  const auto a = iota(4, 6);
  auto b = iota(4, 6);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 6; ++j) b(i, j) = 0.5f * b(i, j) - 3.0f;
  auto expect = [&](const auto& got) {
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 6; ++j)
        CHECK(got(i, j) == (j % 2 == 0 ? a(i, j) * b(i, j) + a(i, j) - a(i, j + 1) : a(i, j)));
  };
  expect(f(a, b));
  expect(f.debug(a, b));
  auto d = a;
  const float* p = d.data();
  auto got = f(std::move(d), b);
  expect(got);
  CHECK(got.data() == p);
}

TEST_CASE("a red-black update: its points read twice beside their neighbours (stride 2)", "[run][same_reads]") {
  constexpr auto relaxed = red(U) + (red<-1>(U) + red<1>(U) + red<-w>(U) + red<w>(U)) * 0.25_c - red(U) * 0.5_c;
  constexpr auto f = ip::function(ip::inputs(U), ip::outputs(ip::set(red(U), relaxed)));
  static_assert(ip::plan(f, ip::donated).allocations == 0);
  ip::tensor<double, ip::extents<rows, w>> u{};
  for (std::ptrdiff_t i = 0; i < rows; ++i)
    for (std::ptrdiff_t j = 0; j < w; ++j) u(i, j) = 0.25 * static_cast<double>(i * w + j) - 3.0;
  auto expect = [&](const auto& got) {
    const double* x = u.data();
    for (std::ptrdiff_t k = 0; k < rows * w; ++k) {
      const bool point = k >= w + 1 && k < (rows - 1) * w && (k - w - 1) % 2 == 0;
      const double want =
          point ? x[k] + (x[k - 1] + x[k + 1] + x[k - w] + x[k + w]) * 0.25 - x[k] * 0.5 : x[k];
      CHECK(got.data()[k] == want);
    }
  };
  expect(f(u));
  expect(f.debug(u));
  auto d = u;
  const double* p = d.data();
  auto got = f(std::move(d));
  expect(got);
  CHECK(got.data() == p);
}

TEST_CASE("tensor expressions: reads tagged alike share a pointer only with their element type", "[run][same_reads]") {
  namespace tx = ip::detail::texpr;
  ip::tensor<double, 1> x(9), out(9);
  ip::tensor<float, 1> y(9);
  for (std::size_t i = 0; i < 9; ++i) x(i) = 1.5 * static_cast<double>(i), y(i) = 100.0f + static_cast<float>(i);
  const auto xv = x.view();
  const auto yv = y.view();
  // unit stride (run_unit) and stride 2 (run_strided): the same id on a double and a float view
  auto sum = tx::make(ip::ops::add{}, tx::make(ip::ops::mul{}, tx::read_as<3>(xv), tx::read_as<3>(xv)), tx::read_as<3>(yv));
  ip::detail::assign(out.view(), std::move(sum));
  for (std::size_t i = 0; i < 9; ++i) CHECK(out(i) == x(i) * x(i) + static_cast<double>(y(i)));
  const auto xs = ip::view(x, ip::range<0, ip::end, 2>);
  const auto ys = ip::view(y, ip::range<0, ip::end, 2>);
  const auto os = ip::view(out, ip::range<0, ip::end, 2>);
  auto strided = tx::make(ip::ops::sub{}, tx::read_as<3>(xs),
                          tx::make(ip::ops::mul{}, tx::read_as<3>(ys), tx::read_as<3>(xs)));
  ip::detail::assign(os, std::move(strided));
  for (std::size_t i = 0; i < 9; i += 2) CHECK(out(i) == x(i) - static_cast<double>(y(i)) * x(i));
}

TEST_CASE("two results in one loop read a alike: a * a + b, a - b", "[run][same_reads]") {
  constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(A * A + B, A - B));
  static_assert(ip::plan(f, ip::donated, ip::donated).loops == 1);
  const auto a = iota(2, 7);
  auto b = iota(2, 7);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 7; ++j) b(i, j) = 2.0f - b(i, j);
  auto expect = [&](const auto& got) {
    const auto& [s, t] = got;
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 7; ++j) {
        CHECK(s(i, j) == a(i, j) * a(i, j) + b(i, j));
        CHECK(t(i, j) == a(i, j) - b(i, j));
      }
  };
  expect(f(a, b));
  expect(f.debug(a, b));
  auto da = a;
  auto db = b;
  expect(f(std::move(da), std::move(db)));
}
