// The axis views on tensors, views and expressions: NumPy's indexing results,
// compile-time and run-time specs alike, errors, and lazy views of expressions.
#include "naive.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <type_traits>

namespace ip = inplace;
using naive::iota;

namespace {
template <class V>
auto ex(const V& v) {  // extents as a vector, for comparing
  return std::vector<std::size_t>(v.extents().begin(), v.extents().end());
}
}  // namespace

TEST_CASE("view: NumPy's x[spec, ...]", "[views][tensor]") {
  auto a = iota(4, 6);  // a(i, j) == 6 i + j
  SECTION("x[1:3, ::2]") {
    auto v = ip::view(a, ip::range<1, 3>, ip::range<0, ip::end, 2>);
    CHECK(ex(v) == std::vector<std::size_t>{2, 3});
    CHECK(v(1, 2) == a(2, 4));
    auto w = ip::view(a, ip::runtime_range{1, 3}, ip::runtime_range{0, ip::end, 2});
    CHECK(w.data() == v.data());
    CHECK(w.strides() == v.strides());
  }
  SECTION("negative bounds and steps") {
    auto v = ip::view(a, ip::range<-1, ip::end, -1>, ip::range<-2, 0, -3>);  // a[::-1, -2:0:-3]
    CHECK(ex(v) == std::vector<std::size_t>{4, 2});
    CHECK(v(0, 0) == a(3, 4));
    CHECK(v(3, 1) == a(0, 1));
    auto e = ip::view(a, ip::range<3, 1>);  // empty
    CHECK(e.size() == 0);
  }
  SECTION("an integer drops its axis; new_axis adds one") {
    auto r = ip::view(a, 2);
    STATIC_REQUIRE(decltype(r)::rank == 1);
    CHECK(r(5) == a(2, 5));
    auto c = ip::view(a, ip::all, ip::at<-1>);
    CHECK(ex(c) == std::vector<std::size_t>{4});
    CHECK(c(3) == a(3, 5));
    auto n = ip::view(a, ip::new_axis, 1);
    CHECK(ex(n) == std::vector<std::size_t>{1, 6});
    CHECK(n(0, 4) == a(1, 4));
    CHECK(static_cast<float>(ip::view(a, 3, -1)) == a(3, 5));
    CHECK_THROWS_AS(ip::view(a, 4), ip::shape_error);
    CHECK_THROWS_AS(ip::view(a, ip::all, -7), ip::shape_error);
    CHECK_THROWS_AS(ip::view(a, ip::runtime_range{0, 2, 0}), ip::shape_error);
  }
  SECTION("Eigen's row, col, block, compile-time and run-time") {
    CHECK(ip::row<1>(a)(2) == a(1, 2));
    CHECK(ip::row(a, -1)(0) == a(3, 0));
    CHECK(ip::col<4>(a)(3) == a(3, 4));
    CHECK(ip::col(a, 0)(2) == a(2, 0));
    auto b = ip::block<1, 2, 3, 2>(a);
    CHECK(ex(b) == std::vector<std::size_t>{3, 2});
    CHECK(b(2, 1) == a(3, 3));
    auto b2 = ip::block(a, 1, 2, 3, 2);
    CHECK(b2.data() == b.data());
    // Eigen's bottomRightCorner(2, 2), topRows(1), rightCols(3) in one call each
    CHECK(ip::view(a, ip::range<-2>, ip::range<-2>)(0, 0) == a(2, 4));
    CHECK(ip::view(a, ip::range<0, 1>).extent(0) == 1);
    CHECK(ip::view(a, ip::all, ip::range<-3>)(0, 0) == a(0, 3));
    // a row of a view, written through
    ip::row(ip::block<1, 1, 2, 2>(a), 0) = 0.0f;
    CHECK(a(1, 1) == 0.0f);
    CHECK(a(1, 2) == 0.0f);
    CHECK(a(1, 3) == 9.0f);
  }
}

TEST_CASE("axis permutations, expand_dims, squeeze, diagonal", "[views][tensor]") {
  ip::tensor<float, 3> t(2, 3, 4);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<float>(i);
  auto p = ip::transpose<2, 0, 1>(t);
  CHECK(ex(p) == std::vector<std::size_t>{4, 2, 3});
  CHECK(p(3, 1, 2) == t(1, 2, 3));
  auto s = ip::swap_axes<0, -1>(t);
  CHECK(ex(s) == std::vector<std::size_t>{4, 3, 2});
  CHECK(s(3, 1, 0) == t(0, 1, 3));
  CHECK(ip::transpose(t)(3, 2, 1) == t(1, 2, 3));
  auto e = ip::expand_dims<1>(t);
  CHECK(ex(e) == std::vector<std::size_t>{2, 1, 3, 4});
  CHECK(e(1, 0, 2, 3) == t(1, 2, 3));
  CHECK(ex(ip::expand_dims<-1>(t)) == std::vector<std::size_t>{2, 3, 4, 1});
  auto q = ip::squeeze<1>(e);
  CHECK(q.strides() == t.view().strides());
  CHECK_THROWS_AS(ip::squeeze<0>(t), ip::shape_error);
  auto a = iota(3, 5);
  auto d = ip::diagonal(a);
  CHECK(ex(d) == std::vector<std::size_t>{3});
  CHECK(d(2) == a(2, 2));
  auto d1 = ip::diagonal<2>(a);
  CHECK(ex(d1) == std::vector<std::size_t>{3});
  CHECK(d1(2) == a(2, 4));
  auto dm = ip::diagonal<-1>(a);
  CHECK(ex(dm) == std::vector<std::size_t>{2});
  CHECK(dm(1) == a(2, 1));
  CHECK(ip::diagonal<9>(a).size() == 0);
  auto dt = ip::diagonal(t);  // axes 0 and 1; the diagonal last
  CHECK(ex(dt) == std::vector<std::size_t>{4, 2});
  CHECK(dt(3, 1) == t(1, 1, 3));
  ip::diagonal(a) = -1.0f;  // Eigen's a.diagonal().setConstant(-1)
  CHECK(a(1, 1) == -1.0f);
  CHECK(a(1, 2) == 7.0f);
}

TEST_CASE("broadcast_to: a read-only stride-0 view", "[views][tensor]") {
  ip::tensor<float> x{1.0f, 2.0f, 3.0f};
  auto b = ip::broadcast_to<4, 3>(x);
  STATIC_REQUIRE(std::is_const_v<decltype(b)::element_type>);  // never written through
  CHECK(ex(b) == std::vector<std::size_t>{4, 3});
  CHECK(b.stride(0) == 0);
  CHECK(b(3, 2) == 3.0f);
  auto c = ip::broadcast_to(ip::expand_dims<1>(x), 3, 2);
  CHECK(ex(c) == std::vector<std::size_t>{3, 2});
  CHECK(c(2, 1) == 3.0f);
  CHECK_THROWS_AS((ip::broadcast_to<2, 4>(x)), ip::shape_error);
  ip::tensor<float, 2> y(4, 3);
  y = b * 2.0f;
  CHECK(y(2, 1) == 4.0f);
}

TEST_CASE("views of expressions are lazy and fused", "[views][tensor]") {
  auto a = iota(3, 4);
  auto b = iota(3, 4);
  b = b * 10.0f;
  auto e = ip::transpose(a + b);
  STATIC_REQUIRE(ip::detail::texpr::node_like<decltype(e)>);  // an expression, not a tensor
  ip::tensor<float, 2> t(4, 3);
  t = e;
  CHECK(t(3, 2) == 11.0f * a(2, 3));
  // a row of an expression with a broadcast operand, and a scalar
  ip::tensor<float> v{1.0f, 2.0f, 3.0f, 4.0f};
  ip::tensor<float> r(4);
  r = ip::row(a * v + 1.0f, 2);
  CHECK(r[3] == a(2, 3) * 4.0f + 1.0f);
  // the column of an expression of columns, the diagonal of a product, a view of a view of one
  ip::tensor<float> c(3);
  c = ip::col<1>(ip::transpose(ip::transpose(a)) - a);
  CHECK(c[2] == 0.0f);
  auto s = iota(3, 3);
  ip::tensor<float> d(3);
  d = ip::diagonal(s * s);
  CHECK(d[2] == 64.0f);
  d = ip::view(ip::reverse(s + 0.0f), ip::all, 0);
  CHECK(d[0] == 6.0f);
  // written into its own operand: the transposed read is seen and goes through a temporary
  auto q = iota(3, 3);
  q = ip::transpose(q + 1.0f);
  CHECK(q(0, 1) == 4.0f);
  CHECK(q(1, 0) == 2.0f);
}
