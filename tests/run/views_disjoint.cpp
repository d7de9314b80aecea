// Running in-place updates that read disjoint regions of the storage they
// write (graph/disjoint_views.cpp proves them legal): NumPy's values
// (a[:, ::2] += a[:, 1::2] and the like, computed here by hand from a copy),
// borrowed (the caller's data intact), donated (the caller's storage written in
// place, the other region untouched) and in debug mode.
#include "../tensor/naive.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <tuple>
#include <utility>

namespace ip = inplace;
using naive::iota;
using namespace ip::literals;

namespace {
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto Q = ip::input<"Q", float, ip::extents<5, 5>>;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;

template <class V>
constexpr auto even_cols(V v) { return ip::view(v, ip::all, ip::range<0, ip::end, 2>); }
template <class V>
constexpr auto odd_cols(V v) { return ip::view(v, ip::all, ip::range<1, ip::end, 2>); }
}  // namespace

TEST_CASE("a[:, ::2] += a[:, 1::2]: borrowed, donated, debug", "[views][run][disjoint]") {
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::add_inplace(even_cols(A), odd_cols(A))));
  static_assert(ip::plan(f, ip::donated).allocations == 0);
  static_assert(ip::plan(f, ip::donated).in_place == 1);
  const auto a = iota(3, 6);
  auto expect = [&](const auto& r) {
    REQUIRE(r.extent(0) == 3);
    REQUIRE(r.extent(1) == 3);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) CHECK(r(i, j) == a(i, 2 * j) + a(i, 2 * j + 1));
  };
  expect(f(a));
  CHECK(a(1, 2) == 8.0f);  // borrowed: intact
  expect(f.debug(a));
  auto d = a;
  const float* p = d.data();
  auto r = f(std::move(d));
  expect(r);
  CHECK(r.data() == p);  // the even columns of the caller's storage
  for (std::size_t i = 0; i < 3; ++i)  // the odd columns, read, not written
    for (std::size_t j = 0; j < 3; ++j) CHECK(p[i * 6 + 2 * j + 1] == a(i, 2 * j + 1));
  auto d2 = a;
  expect(f.debug(std::move(d2)));
}

TEST_CASE("row 0 from the rows after it; two halves; the superdiagonal from the diagonal", "[views][run][disjoint]") {
  // a[0] *= a[1:][0] (dynamic rows)
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::mul_inplace(ip::row<0>(A), ip::row<0>(ip::slice<1, ip::end>(A)))));
  const auto a = iota(3, 4);
  auto d = a;
  const float* p = d.data();
  auto r = f(std::move(d));
  CHECK(r.data() == p);
  for (std::size_t j = 0; j < 4; ++j) CHECK(r[j] == a(0, j) * a(1, j));
  CHECK(p[4] == 4.0f);
  CHECK(f.debug(a)[3] == 3.0f * 7.0f);

  // s[:, :3] -= s[:, 3:] (static extents)
  constexpr auto g = ip::function(ip::inputs(S), ip::outputs(ip::sub_inplace(ip::view(S, ip::all, ip::range<0, 3>),
                                                                             ip::view(S, ip::all, ip::range<3, ip::end>))));
  ip::tensor<float, ip::extents<4, 6>> s;
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<float>(i * i % 7);
  const auto s0 = s;
  auto h = g(std::move(s));
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) CHECK(h(i, j) == s0(i, j) - s0(i, j + 3));
  auto hd = g.debug(s0);
  CHECK(hd(3, 2) == s0(3, 2) - s0(3, 5));

  // np.fill_diagonal-like: q.diagonal(1) += q[:4].diagonal() (static 5 x 5)
  constexpr auto k = ip::function(ip::inputs(Q), ip::outputs(ip::add_inplace(ip::diagonal<1>(Q), ip::diagonal(ip::slice<0, 4>(Q)))));
  ip::tensor<float, ip::extents<5, 5>> q;
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = static_cast<float>(i);
  const auto q0 = q;
  auto t = k(std::move(q));
  for (std::size_t i = 0; i < 4; ++i) CHECK(t[i] == q0(i, i + 1) + q0(i, i));
  CHECK(k(q0)[3] == 19.0f + 18.0f);
}

TEST_CASE("the red points of an odd-width grid from their black neighbours", "[views][run][disjoint]") {
  // u.flat[6:19:2] = (u.flat[5:18:2] + u.flat[7:20:2]) / 2 on a 5 x 5 grid: the
  // even flat indices are the points with i + j even, their left and right
  // neighbours odd; computed in place as u_red += (w + e) / 2 - u_red
  constexpr auto red = [](auto u) { return ip::view(ip::flatten(u), ip::range<6, 19, 2>); };
  constexpr auto west = [](auto u) { return ip::view(ip::flatten(u), ip::range<5, 18, 2>); };
  constexpr auto east = [](auto u) { return ip::view(ip::flatten(u), ip::range<7, 20, 2>); };
  constexpr auto f = ip::function(
      ip::inputs(Q), ip::outputs(ip::add_inplace(red(Q), (west(Q) + east(Q)) * 0.5_c - red(Q))));
  // in place in the donated grid, one loop reading the neighbours while it
  // writes the red points (tests/run/disjoint_loop.cpp)
  static_assert(ip::plan(f, ip::donated).in_place == 1);
  static_assert(ip::plan(f, ip::donated).allocations == 0);
  ip::tensor<float, ip::extents<5, 5>> u;
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = static_cast<float>((i * 7) % 11);
  const auto u0 = u;
  auto r = f(std::move(u));
  REQUIRE(r.extent(0) == 7);
  for (std::size_t k = 0; k < 7; ++k) CHECK(r[k] == (u0[5 + 2 * k] + u0[7 + 2 * k]) * 0.5f);
  auto rd = f.debug(u0);
  CHECK(rd[6] == (u0[17] + u0[19]) * 0.5f);
}

TEST_CASE("two in-place updates of disjoint regions of one donated matrix", "[views][run][disjoint]") {
  // a[:, ::2] += 1; a[:, 1::2] *= 2, both in a's storage
  constexpr auto e = ip::add_inplace(even_cols(A), 1.0_c);
  constexpr auto o = ip::mul_inplace(odd_cols(A), 2.0_c);
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(e, o));
  static_assert(ip::plan(f, ip::donated).allocations == 0);
  const auto a = iota(3, 4);
  auto expect = [&](const auto& r) {
    const auto& [re, ro] = r;
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 2; ++j) {
        CHECK(re(i, j) == a(i, 2 * j) + 1.0f);
        CHECK(ro(i, j) == a(i, 2 * j + 1) * 2.0f);
      }
  };
  expect(f(a));
  CHECK(a(2, 3) == 11.0f);
  expect(f.debug(a));
  auto d = a;
  const float* p = d.data();
  auto r = f(std::move(d));
  expect(r);
  CHECK(std::get<0>(r).data() == p);
  CHECK(std::get<1>(r).data() == p + 1);
  for (std::size_t i = 0; i < 12; ++i) CHECK(p[i] == (i % 2 == 0 ? a[i] + 1.0f : a[i] * 2.0f));

  // readers of the old even columns run before they are written, also inside a loop
  // (exp(a[:, ::2]) + 1 is one loop, returned beside the two updates)
  constexpr auto g = ip::function(ip::inputs(A), ip::outputs(e, o, ip::exp(even_cols(A)) + 1.0_c, odd_cols(A) * 3.0_c));
  auto check_g = [&](const auto& r2) {
    const auto& [re, ro, x, y] = r2;
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 2; ++j) {
        CHECK(re(i, j) == a(i, 2 * j) + 1.0f);
        CHECK(ro(i, j) == a(i, 2 * j + 1) * 2.0f);
        CHECK(x(i, j) == Approx(std::exp(a(i, 2 * j)) + 1.0f));
        CHECK(y(i, j) == a(i, 2 * j + 1) * 3.0f);
      }
  };
  check_g(g(a));
  check_g(g.debug(a));
  auto d2 = a;
  check_g(g(std::move(d2)));
  // the second update reads the first one's result
  constexpr auto h = ip::function(ip::inputs(S), ip::outputs(ip::add_inplace(odd_cols(S), ip::add_inplace(even_cols(S), 1.0_c))));
  ip::tensor<float, ip::extents<4, 6>> s;
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<float>(i);
  const auto s0 = s;
  auto t = h(std::move(s));
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) CHECK(t(i, j) == s0(i, 2 * j + 1) + s0(i, 2 * j) + 1.0f);
  CHECK(h.debug(s0)(3, 2) == 23.0f + 22.0f + 1.0f);
}
