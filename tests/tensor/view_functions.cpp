#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

namespace ip = inplace;

namespace {
template <class V>
std::vector<int> elements(const V& v) {
  std::vector<int> r;
  for (std::size_t i = 0; i < v.size(); ++i) r.push_back(static_cast<int>(v[i]));
  return r;
}
ip::tensor<int> arange(int n) {
  ip::tensor<int> x(n);
  std::iota(x.begin(), x.end(), 0);
  return x;
}
}  // namespace

TEST_CASE("slice follows Python's x[b:e:s] on the first axis", "[view][slice]") {
  auto x = arange(10);
  using V = std::vector<int>;
  CHECK(elements(ip::slice<1>(x)) == V{1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(elements(ip::slice<0, -1>(x)) == V{0, 1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(elements(ip::slice<2, 8, 3>(x)) == V{2, 5});
  CHECK(elements(ip::slice<3, ip::end, 4>(x)) == V{3, 7});
  CHECK(elements(ip::slice<-3>(x)) == V{7, 8, 9});
  CHECK(elements(ip::slice<-100, 3>(x)) == V{0, 1, 2});
  CHECK(elements(ip::slice<0, 20>(x)) == V{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(elements(ip::slice<5, 2>(x)).empty());
  CHECK(elements(ip::slice<8, 2, -2>(x)) == V{8, 6, 4});
  CHECK(elements(ip::slice<-1, ip::end, -1>(x)) == V{9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(elements(ip::slice<-1, -4, -1>(x)) == V{9, 8, 7});
  CHECK(elements(ip::slice<100, ip::end, -3>(x)) == V{9, 6, 3, 0});
  CHECK(elements(ip::slice<2, 5, -1>(x)).empty());
  // Slices of slices, and slices are views: writing goes to x.
  auto s = ip::slice<1, ip::end, 2>(ip::slice<2>(x));  // x[2:][1::2] = 3, 5, 7, 9
  CHECK(elements(s) == V{3, 5, 7, 9});
  s(0) = -3;
  CHECK(x(3) == -3);
}

TEST_CASE("slice of a matrix takes rows; transpose swaps strides", "[view][slice]") {
  ip::tensor<int, 2> A{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}};
  auto rows = ip::slice<1, 3>(A);
  STATIC_REQUIRE(std::is_same_v<decltype(rows), ip::tensor_view<int, 2>>);
  CHECK(rows.extents() == std::array<std::size_t, 2>{2, 3});
  CHECK(elements(rows) == std::vector<int>{3, 4, 5, 6, 7, 8});
  auto t = ip::transpose(A);
  CHECK(t.extents() == std::array<std::size_t, 2>{3, 4});
  CHECK(t.strides() == std::array<std::ptrdiff_t, 2>{1, 3});
  CHECK(t(2, 1) == 5);
  CHECK(elements(t) == std::vector<int>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11});
  CHECK(elements(ip::transpose(ip::transpose(A))) == elements(A));
  auto x = arange(4);
  CHECK(ip::transpose(x).data() == x.data());  // rank 1: itself
  const auto& C = A;
  STATIC_REQUIRE(std::is_same_v<decltype(ip::transpose(C)), ip::tensor_view<const int, 2>>);
}

TEST_CASE("reverse, reshape, flatten", "[view]") {
  auto x = arange(6);
  CHECK(elements(ip::reverse(x)) == std::vector<int>{5, 4, 3, 2, 1, 0});
  auto R = ip::reshape<2, 3>(x);
  STATIC_REQUIRE(std::is_same_v<decltype(R), ip::tensor_view<int, ip::extents<2, 3>>>);
  CHECK(R(1, 0) == 3);
  auto R2 = ip::reshape(x, 3, 2);
  STATIC_REQUIRE(std::is_same_v<decltype(R2), ip::tensor_view<int, 2>>);
  CHECK(R2(2, 1) == 5);
  CHECK(elements(ip::flatten(R2)) == elements(x));
  ip::tensor<int, 2> A{{1, 2}, {3, 4}};
  CHECK(elements(ip::reverse(A)) == std::vector<int>{3, 4, 1, 2});  // rows reversed
  CHECK(ip::flatten(ip::slice<1>(A)).size() == 2);                  // a contiguous row slice
}

TEST_CASE("reshape and flatten of a strided view, or to another count, throw", "[view][error]") {
  ip::tensor<int, 2> A{{1, 2}, {3, 4}};
  CHECK_THROWS_MATCHES(ip::flatten(ip::transpose(A)), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: flatten needs a contiguous view; got extents "
                                                "(2, 2) with strides (1, 2)"));
  CHECK_THROWS_MATCHES(ip::reshape<3>(A), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: reshape: cannot view extents (2, 2) as (3)"));
  CHECK_THROWS_AS(ip::reshape(ip::reverse(A), 4), ip::shape_error);
}

TEST_CASE("reinterpret: the same bytes as another type of the same size", "[view]") {
  ip::tensor<float> x{1.0f, -2.0f};
  auto bits = ip::reinterpret<std::uint32_t>(x);
  STATIC_REQUIRE(std::is_same_v<decltype(bits), ip::tensor_view<std::uint32_t, 1>>);
  CHECK(bits(0) == 0x3f800000u);
  CHECK(bits(1) == 0xc0000000u);
  bits(1) &= 0x7fffffffu;  // clear the sign bit
  CHECK(x(1) == 2.0f);
  const auto& cx = x;
  STATIC_REQUIRE(std::is_same_v<decltype(ip::reinterpret<std::int32_t>(cx)), ip::tensor_view<const std::int32_t, 1>>);
}
