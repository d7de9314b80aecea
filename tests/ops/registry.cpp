#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

namespace ip = inplace;

struct scale_op {  // a user elementwise op with no registered variant
  static constexpr bool elementwise = true;
  template <class A>
  auto operator()(A a) const { return a * A(3); }
};

TEST_CASE("standard ops register their in-place variants", "[ops]") {
  STATIC_REQUIRE(std::is_same_v<ip::inplace_variant<ip::ops::add, 0>, ip::ops::add_inplace>);
  STATIC_REQUIRE(std::is_same_v<ip::inplace_variant<ip::ops::exp, 0>, ip::ops::exp_inplace>);
  STATIC_REQUIRE(ip::has_inplace_variant<ip::ops::sum, 2>);
  STATIC_REQUIRE_FALSE(ip::has_inplace_variant<ip::ops::max, 0>);   // not marked + in the spec
  STATIC_REQUIRE_FALSE(ip::has_inplace_variant<ip::ops::where, 0>);
  STATIC_REQUIRE_FALSE(ip::has_inplace_variant<scale_op, 0>);
}

TEST_CASE("ip::inplace<I>(op) builds a variant of any elementwise op", "[ops]") {
  constexpr auto v = ip::inplace<0>(scale_op{});
  STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(v)>, ip::ops::inplace_op<scale_op, 0>>);
  CHECK(v(2.0) == 6.0);
  CHECK(ip::ops::inplace_op<scale_op, 1>::name == "scale_op_inplace<1>");
  CHECK(ip::ops::add_inplace::name == "add_inplace");
}

TEST_CASE("elementwise kernels", "[ops]") {
  CHECK(ip::ops::sub{}(5, 3) == 2);
  CHECK(ip::ops::min{}(2.0f, 1.0) == 1.0);
  CHECK(ip::ops::max{}(2, 7) == 7);
  CHECK(ip::ops::relu{}(-1.5f) == 0.0f);
  CHECK(ip::ops::relu{}(1.5f) == 1.5f);
  CHECK(ip::ops::where{}(false, 1.0f, 2.0f) == 2.0f);
  CHECK(ip::ops::sum{}(1, 2, 3, 4) == 10);
  CHECK(ip::ops::sigmoid{}(0.0) == Approx(0.5));
  CHECK(ip::ops::gelu{}(1.0) == Approx(0.8413447460685429));
}
