#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <numeric>
#include <type_traits>
#include <vector>

namespace ip = inplace;

TEST_CASE("tensor_view: pointer, extents, strides, access", "[view]") {
  float buf[12];
  for (int i = 0; i < 12; ++i) buf[i] = float(i);
  ip::tensor_view<float, 2> v(buf, {3, 4});
  CHECK(v.data() == buf);
  CHECK(v.size() == 12);
  CHECK(v.stride(0) == 4);
  CHECK(v.stride(1) == 1);
  CHECK(v.is_contiguous());
  CHECK(v(2, 1) == 9);
  CHECK(v[7] == 7);
  v(0, 0) = 100;
  CHECK(buf[0] == 100);
  // Every other column: strides (4, 2).
  ip::tensor_view<float, 2> w(buf + 1, {3, 2}, {4, 2});
  CHECK(!w.is_contiguous());
  CHECK(w(1, 1) == 7);
  CHECK(w[3] == 7);  // row-major order over the view
  ip::tensor_view<const float, 2> c = w;  // mutable -> const
  CHECK(c(2, 0) == 9);
  STATIC_REQUIRE(!std::is_assignable_v<decltype(c(0, 0)), float>);
  STATIC_REQUIRE(!std::is_convertible_v<ip::tensor_view<const float, 2>, ip::tensor_view<float, 2>>);
  ip::tensor_view<float> empty;
  CHECK(empty.size() == 0);
  CHECK(empty.data() == nullptr);
}

TEST_CASE("tensor_view: t.view(), const tensors give const views, static extents", "[view]") {
  ip::tensor<int, 2> A{{1, 2}, {3, 4}};
  auto v = A.view();
  STATIC_REQUIRE(std::is_same_v<decltype(v), ip::tensor_view<int, 2>>);
  v(1, 0) = 30;
  CHECK(A(1, 0) == 30);
  const auto& C = A;
  STATIC_REQUIRE(std::is_same_v<decltype(C.view()), ip::tensor_view<const int, 2>>);
  ip::tensor_view<int, 2> implicit = A;
  CHECK(implicit.data() == A.data());

  ip::tensor<float, ip::extents<2, 3>> S;
  auto sv = S.view();
  STATIC_REQUIRE(std::is_same_v<decltype(sv), ip::tensor_view<float, ip::extents<2, 3>>>);
  ip::tensor_view<float, 2> dyn = sv;  // static -> rank only
  CHECK(dyn.extent(1) == 3);
  float buf[6];
  CHECK_THROWS_MATCHES((ip::tensor_view<float, ip::extents<2, 3>>(buf, {3, 2})), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: extents (3, 2) do not match the static extents (2, 3)"));
}

TEST_CASE("tensor_view: assigning to a view writes its elements", "[view]") {
  ip::tensor<int> x{1, 2, 3, 4};
  ip::tensor<int> y{10, 20, 30, 40};
  ip::tensor_view<int> vx = x, vy = y;
  vx = vy;  // element copy, not rebinding
  CHECK(vx.data() == x.data());
  CHECK(std::vector<int>(x.begin(), x.end()) == std::vector<int>{10, 20, 30, 40});
  vx = 7;  // fill
  CHECK(std::vector<int>(x.begin(), x.end()) == std::vector<int>{7, 7, 7, 7});
  STATIC_REQUIRE(!std::is_assignable_v<ip::tensor_view<const int>&, ip::tensor_view<const int>>);
}

TEST_CASE("tensor_view: a destination with internal overlap is refused", "[view][error]") {
  float buf[4] = {1, 2, 3, 4};
  ip::tensor_view<float> zero_stride(buf, {3}, {0});
  ip::tensor<float> src{5, 6, 7};
  CHECK_THROWS_MATCHES(zero_stride = src, ip::aliasing_error,
                       Catch::Matchers::Message("inplace: aliasing_error: the destination (extents (3), strides (0)) "
                                                "has internal overlap and cannot be written"));
  ip::tensor_view<float, 2> interleaved(buf, {2, 2}, {1, 1});
  CHECK_THROWS_AS(interleaved = 0.0f, ip::aliasing_error);
  CHECK(buf[0] == 1);  // nothing written
  CHECK(buf[1] == 2);
  CHECK(buf[2] == 3);
}

TEST_CASE("tensor_view: row-major random-access iterators over any strides", "[view][iterator]") {
  ip::tensor<float, 2> A{{1, 2, 3}, {4, 5, 6}};
  STATIC_REQUIRE(std::random_access_iterator<ip::tensor_view<float, 2>::iterator>);
  STATIC_REQUIRE(std::is_same_v<std::iter_reference_t<ip::tensor_view<const float, 2>::iterator>, const float&>);
  std::vector<float> seen;
  for (float v : ip::transpose(A)) seen.push_back(v);  // a temporary view: its iterators hold a copy
  CHECK(seen == std::vector<float>{1, 4, 2, 5, 3, 6});
  auto T = ip::transpose(A);
  CHECK(std::vector<float>(T.begin(), T.end()) == seen);
  CHECK(T.end() - T.begin() == 6);
  CHECK(T.begin()[3] == 5);
  CHECK(*(T.end() - 1) == 6);
  CHECK(std::accumulate(T.begin(), T.end(), 0.0f) == 21);
  std::sort(T.begin(), T.end(), std::greater<>{});  // writes through the strided view
  CHECK(std::vector<float>(A.begin(), A.end()) == std::vector<float>{6, 4, 2, 5, 3, 1});
  auto R = ip::reverse(ip::slice<0, ip::end, 2>(ip::tensor_view<float>(A.data(), {6})));  // A[0::2][::-1]
  CHECK(std::vector<float>(R.begin(), R.end()) == std::vector<float>{3, 2, 6});
  ip::tensor_view<float> none;
  CHECK(none.begin() == none.end());
}

TEST_CASE("a tensor converts to views of its rank, with a rank or checked static extents", "[view][conversion]") {
  auto sum = [](ip::tensor_view<const float, 2> v) { return std::accumulate(v.begin(), v.end(), 0.0f); };
  auto fill = [](ip::tensor_view<float, 2> v) { v = 1.0f; };
  auto fixed = [](ip::tensor_view<float, ip::extents<2, 3>> v) { return v.size(); };
  ip::tensor<float, ip::extents<2, 3>> S{{1, 2, 3}, {4, 5, 6}};
  CHECK(sum(S) == 21);  // static extents to a rank-only view of const elements
  fill(S);
  CHECK(sum(S) == 6);
  ip::tensor<float, 2> D(2, 3);
  CHECK(fixed(D) == 6);  // dynamic to static: checked
  ip::tensor<float, 2> W(3, 3);
  CHECK_THROWS_AS(fixed(W), ip::shape_error);
  const ip::tensor<float, 2>& C = D;
  CHECK(sum(C) == 0);
  STATIC_REQUIRE(!std::is_convertible_v<const ip::tensor<float, 2>&, ip::tensor_view<float, 2>>);
  STATIC_REQUIRE(!std::is_convertible_v<ip::tensor<float, 2>&, ip::tensor_view<float, 1>>);
  STATIC_REQUIRE(!std::is_convertible_v<ip::tensor<float, 2>&, ip::tensor_view<double, 2>>);
}

TEST_CASE("views too large to address are refused", "[view][error]") {
  float buf[8] = {};
  const std::size_t big = (std::size_t{1} << 61) + 1;
  CHECK_THROWS_AS((ip::tensor_view<float, 2>(buf, {big, 8})), ip::shape_error);
  ip::tensor<float> f(8);
  CHECK_THROWS_AS(ip::reshape(f, big, 8), ip::shape_error);
  CHECK_THROWS_AS(ip::alias<float>(f, big, 8), ip::alias_error);
  CHECK_THROWS_AS((ip::tensor<float, 2>(std::size_t{1} << 32, std::size_t{1} << 32)), ip::shape_error);
  // A huge step is one element, Python's x[0::2**63-1].
  CHECK(ip::slice<0, ip::end, PTRDIFF_MAX>(f).size() == 1);
  CHECK(ip::slice<-1, ip::end, -PTRDIFF_MAX>(f).size() == 1);
}
