// A fused loop that overwrites part of a root may also read that root in a
// region disjoint from the part it writes (graph/detail/fusion_rule.hpp): the
// red update of a red-black sweep, u_red += (west + east) / 2 - u_red, is one
// loop in the donated grid, with no buffer for its right-hand side. Values
// are the hand loop's (NumPy's u.flat[6:19:2] = ... computed from a copy),
// donated, borrowed and in debug mode.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto Q = ip::input<"Q", float, ip::extents<5, 5>>;
constexpr auto A = ip::input<"A", float, 2>;
template <std::ptrdiff_t B, std::ptrdiff_t E, class G>
constexpr auto flat(G g) { return ip::view(ip::flatten(g), ip::range<B, E, 2>); }
}  // namespace

TEST_CASE("the red update reads its black neighbours in its own loop", "[run][fusion][disjoint]") {
  constexpr auto red = flat<6, 19>(Q);
  constexpr auto f = ip::function(ip::inputs(Q), ip::outputs(ip::add_inplace(red, (flat<5, 18>(Q) + flat<7, 20>(Q)) * 0.5_c - red)));
  constexpr auto donated = ip::plan(f, ip::donated);
  static_assert(donated.allocations == 0 && donated.copies == 0 && donated.loops == 1);  // no buffer, one loop
  static_assert(ip::plan(f, ip::borrowed).allocations == 1);                  // the copy of the grid
  ip::tensor<float, ip::extents<5, 5>> u;
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = static_cast<float>((i * 7) % 11);
  const auto u0 = u;
  auto expect = [&](const auto& r) {
    REQUIRE(r.extent(0) == 7);
    for (std::size_t k = 0; k < 7; ++k) CHECK(r[k] == u0[6 + 2 * k] + ((u0[5 + 2 * k] + u0[7 + 2 * k]) * 0.5f - u0[6 + 2 * k]));
  };
  expect(f(u0));
  CHECK(u0[6] == u[6]);  // borrowed: intact
  expect(f.debug(u0));
  const float* p = u.data();
  auto r = f(std::move(u));
  expect(r);
  CHECK(r.data() == p + 6);
  for (std::size_t k = 1; k < 25; k += 2) CHECK(p[k] == u0[k]);  // the black points, read, not written
}

TEST_CASE("a[:, ::2] = a[:, ::2] * a[:, 1::2] + a[:, 1::2] / 2 as one loop, dynamic extents", "[run][fusion][disjoint]") {
  constexpr auto even = ip::view(A, ip::all, ip::range<0, ip::end, 2>);
  constexpr auto odd = ip::view(A, ip::all, ip::range<1, ip::end, 2>);
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::add_inplace(even, even * odd - even + odd * 0.5_c)));
  static_assert(ip::plan(f, ip::donated).allocations == 0);
  static_assert(ip::plan(f, ip::donated).loops == 1);
  ip::tensor<float, 2> a(3, 8);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.25f * static_cast<float>(i % 9) - 1.0f;
  const auto a0 = a;
  auto expect = [&](const auto& r) {
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 4; ++j) {
        const float e = a0(i, 2 * j), o = a0(i, 2 * j + 1);
        CHECK(r(i, j) == e + ((e * o - e) + o * 0.5f));
      }
  };
  expect(f(a0));
  expect(f.debug(a0));
  auto r = f(std::move(a));
  expect(r);
}
