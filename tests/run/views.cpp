// Running graphs with the axis views: the values NumPy gives, views returned
// into the caller's storage, in-place updates through a row, a column, a block.
#include "../tensor/naive.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <utility>

namespace ip = inplace;
using naive::iota;
using namespace ip::literals;

namespace {
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto S = ip::input<"S", float, ip::extents<3, 4>>;
constexpr auto x = ip::input<"x", float>;

}  // namespace

TEST_CASE("graph views compute NumPy's values", "[views][run]") {
  constexpr auto f = ip::function(
      ip::inputs(A),
      ip::outputs(ip::row<1>(A) + ip::col<2>(ip::transpose(A)),                      // a[1] + a.T[:, 2]
                  ip::diagonal(A) * 2.0_c,                                           // np.diagonal(a) * 2
                  ip::view(A, ip::range<-1, ip::end, -1>, ip::at<0>),                // a[::-1, 0]
                  ip::broadcast_to<2, 3, 4>(A) + 1.0_c,                              // np.broadcast_to(a, (2, 3, 4)) + 1
                  ip::squeeze<0>(ip::expand_dims<0>(A)),                             // a[None][0]
                  ip::swap_axes<0, 1>(A) - ip::transpose<1, 0>(A),                   // zeros
                  ip::view(A, ip::new_axis, ip::range<0, ip::end, 2>, ip::at<-1>)));  // a[None, ::2, -1]
  const auto a = iota(3, 4);
  auto [r, d, v, b, q, z, n] = f(a);
  CHECK(r[0] == a(1, 0) + a(2, 0));
  CHECK(r[3] == a(1, 3) + a(2, 3));
  CHECK(d.extent(0) == 3);
  CHECK(d[2] == 2 * a(2, 2));
  CHECK(v.extent(0) == 3);
  CHECK(v[0] == a(2, 0));
  CHECK(&v[0] == &a(2, 0));  // a view of a borrowed input: into the caller's storage
  CHECK(b(1, 2, 3) == a(2, 3) + 1);
  CHECK(q(2, 3) == a(2, 3));
  CHECK(z(3, 2) == 0.0f);
  CHECK(n.extent(0) == 1);
  CHECK(n.extent(1) == 2);
  CHECK(n(0, 1) == a(2, 3));
}

TEST_CASE("in place through a row, a column, every other column", "[views][run]") {
  // a[1] += a[1]; a[:, 2] *= a[:, 2]: one loop each, in the donated storage
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::add_inplace(ip::row<1>(A), ip::row<1>(A))));
  auto a = iota(3, 4);
  const float* p = a.data();
  auto r = f(std::move(a));
  CHECK(r.data() == p + 4);
  CHECK(r[3] == 14.0f);
  constexpr auto g =
      ip::function(ip::inputs(A), ip::outputs(ip::mul_inplace(ip::view(A, ip::all, ip::range<0, ip::end, 2>),
                                                               ip::view(A, ip::all, ip::range<0, ip::end, 2>))));
  auto o = g(iota(3, 4));
  CHECK(o.extent(1) == 2);
  CHECK(o(2, 1) == 100.0f);
  // borrowed: copy-protected, the caller's data intact
  const auto c = iota(3, 4);
  auto o2 = g(c);
  CHECK(o2(2, 1) == 100.0f);
  CHECK(c(2, 2) == 10.0f);
}

TEST_CASE("a broadcast is read, not written: static extents", "[views][run]") {
  // exp of a row broadcast over the whole matrix, with the input donated: the
  // result may not be computed over the row it still reads
  constexpr auto h = ip::function(ip::inputs(S), ip::outputs(ip::exp(ip::broadcast_to<3, 4>(ip::row<0>(S))) + S));
  ip::tensor<float, ip::extents<3, 4>> s;
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<float>(i) / 10.0f;
  const auto keep = s;
  auto e = h(std::move(s));
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) CHECK(e(i, j) == Approx(std::exp(keep(0, j)) + keep(i, j)));
}

TEST_CASE("dynamic extents are checked when the graph runs", "[views][run]") {
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::row<3>(A) + 0.0_c));
  CHECK_THROWS_AS(f(iota(3, 4)), ip::shape_error);
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::squeeze<0>(ip::expand_dims<0>(x)) * 2.0_c));
  ip::tensor<float> v{1.0f, 2.0f};
  CHECK(g(v)[1] == 4.0f);
}
