#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ip = inplace;

TEST_CASE("alias: another dtype and extents over a tensor's storage", "[alias]") {
  ip::tensor<float> x(8);
  auto bytes = ip::alias<std::uint8_t>(x, 4, 8);
  STATIC_REQUIRE(std::is_same_v<decltype(bytes), ip::tensor_view<std::uint8_t, 2>>);
  CHECK(static_cast<void*>(bytes.data()) == static_cast<void*>(x.data()));
  CHECK(bytes.extents() == std::array<std::size_t, 2>{4, 8});
  bytes(0, 3) = 0x3f;  // little endian: the high byte of x(0)
  bytes(0, 2) = 0x80;
  CHECK(x(0) == 1.0f);
  auto d = ip::alias<double>(x, 4);  // 64-byte aligned storage: double is fine
  d = 0.5;
  double first;
  std::memcpy(&first, x.data(), sizeof first);
  CHECK(first == 0.5);
  auto fixed = ip::alias<std::uint32_t, ip::extents<2, 2>>(x);
  STATIC_REQUIRE(std::is_same_v<decltype(fixed), ip::tensor_view<std::uint32_t, ip::extents<2, 2>>>);
  CHECK(fixed.size() == 4);
  const auto& cx = x;
  STATIC_REQUIRE(std::is_same_v<decltype(ip::alias<std::int32_t>(cx, 8)), ip::tensor_view<const std::int32_t, 1>>);
  // Over a dense view, and with static extents on both sides within the size.
  ip::tensor<std::uint16_t, ip::extents<4, 4>> S;
  auto row = ip::alias<std::uint8_t>(ip::slice<1, 3>(S), 16);
  CHECK(row.data() == reinterpret_cast<std::uint8_t*>(S.data() + 4));
  auto whole = ip::alias<std::uint32_t, ip::extents<8>>(S);
  CHECK(whole.size() == 8);
}

TEST_CASE("alias: too many bytes throws alias_error, nothing aliased", "[alias][error]") {
  ip::tensor<float> x(3);
  CHECK_THROWS_MATCHES(ip::alias<double>(x, 2), ip::alias_error,
                       Catch::Matchers::Message("inplace: alias_error: an alias of extents (2) needs 16 bytes; the "
                                                "storage of extents (3) has 12"));
  CHECK_NOTHROW(ip::alias<std::uint8_t>(x, 12));
  CHECK_THROWS_AS(ip::alias<std::uint8_t>(x, 13), ip::alias_error);
  CHECK_THROWS_AS((ip::alias<std::uint32_t, ip::extents<4>>(x)), ip::alias_error);
}

TEST_CASE("alias: a view that is not dense cannot be aliased", "[alias][error]") {
  ip::tensor<float, 2> A(3, 3);
  CHECK_THROWS_MATCHES(ip::alias<float>(ip::transpose(A), 9), ip::alias_error,
                       Catch::Matchers::Message("inplace: alias_error: cannot alias a view that is not dense (extents "
                                                "(3, 3), strides (1, 3))"));
  CHECK_THROWS_AS(ip::alias<float>(ip::slice<0, ip::end, 2>(A), 3), ip::alias_error);
  float buf[4] = {};
  ip::tensor_view<float> broadcast(buf, {4}, {0});  // internal overlap
  CHECK_THROWS_AS(ip::alias<float>(broadcast, 1), ip::alias_error);
  CHECK_THROWS_AS(ip::alias<std::int32_t>(ip::reverse(A), 9), ip::alias_error);
}
