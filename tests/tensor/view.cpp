#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

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
