// ip::matmul against NumPy (scripts/gen_matmul_cases.py writes the cases):
// each on tensors and in a running graph, both NumPy's values; then the
// operands that do not fit, on tensors and in graphs of dynamic extents.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
// The generator's element(i, seed), in row-major order.
template <class T, std::size_t... E>
ip::tensor<T, ip::extents<E...>> make(int seed) {
  ip::tensor<T, ip::extents<E...>> t;
  constexpr bool integral = std::is_integral_v<T>;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const long long v = seed == 0 ? static_cast<long long>(i * 7 + 3) % 11 - 5 : static_cast<long long>(i * 5 + 1) % 9 - 4;
    t[i] = integral ? static_cast<T>(v) : static_cast<T>(static_cast<double>(v) * (seed == 0 ? 0.25 : 0.5));
  }
  return t;
}

template <class R>
void compare(const R& r, const std::vector<std::size_t>& extents, const std::vector<double>& expected) {
  REQUIRE(static_cast<std::size_t>(R::rank) == extents.size());
  for (std::size_t k = 0; k < extents.size(); ++k) REQUIRE(r.extent(k) == extents[k]);
  REQUIRE(r.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i);
    CHECK(static_cast<double>(r.data()[i]) == Approx(expected[i]).epsilon(1e-6).margin(1e-9));
  }
}
// fn on the tensors, and in a graph of inputs of the tensors' types.
template <class TA, auto SA, class TB, auto SB, class F>
void check(const ip::tensor<TA, SA>& a, const ip::tensor<TB, SB>& b, F fn, const std::vector<std::size_t>& extents,
           const std::vector<double>& expected) {
  const auto r = fn(a, b);
  using V = typename std::remove_cvref_t<decltype(r)>::value_type;
  STATIC_REQUIRE(std::is_same_v<V, ip::detail::common_dtype_t<TA, TB>>);
  compare(r, extents, expected);
  constexpr auto A = ip::input<"A", TA, SA>;
  constexpr auto B = ip::input<"B", TB, SB>;
  const auto f = ip::function(ip::inputs(A, B), ip::outputs(fn(A, B)));
  const auto g = f(a, b);
  STATIC_REQUIRE(std::is_same_v<typename std::remove_cvref_t<decltype(g)>::value_type, V>);
  compare(g, extents, expected);
}
}  // namespace

#define LIST(...) __VA_ARGS__
#define VIEW_plain(x) (x)
#define VIEW_T(x) ip::transpose(x)
#define VIEW_step(x) ip::slice<0, ip::end, 2>(x)
#define VIEW_rev(x) ip::reverse(x)
#define CASE(NAME, TA, EA, VA, TB, EB, VB, ER, VALUES)                                                   \
  SECTION(NAME) {                                                                                        \
    const auto a = make<TA, LIST EA>(0);                                                                 \
    const auto b = make<TB, LIST EB>(1);                                                                 \
    check(a, b, [](const auto& x, const auto& y) { return ip::matmul(VIEW_##VA(x), VIEW_##VB(y)); }, \
          {LIST ER}, {LIST VALUES});                                                                     \
  }

TEST_CASE("matmul: NumPy's values on tensors and in graphs") {
#include "matmul_cases.inc"
}

TEST_CASE("matmul: operands that do not fit") {
  const ip::tensor<float, 2> m34(3, 4), m54(5, 4);
  const ip::tensor<float, 3> b2(2, 4, 5), b3(3, 4, 5);
  const ip::tensor<float> v5(5);
  CHECK_THROWS_AS(ip::matmul(m34, m54), ip::shape_error);  // 4 != 5
  CHECK_THROWS_AS(ip::matmul(m34, v5), ip::shape_error);
  CHECK_THROWS_AS(ip::matmul(v5, b2), ip::shape_error);
  CHECK_THROWS_AS(ip::matmul(ip::tensor<float, 3>(2, 3, 4), b3), ip::shape_error);  // batch 2 against 3
  CHECK_THROWS_WITH(ip::matmul(m34, m54), Catch::Contains("inplace: shape_error: matmul: operands with extents (3, 4) and (5, 4)"));
  CHECK_NOTHROW(ip::matmul(ip::tensor<float, 3>(1, 3, 4), b3));  // batch 1 broadcasts

  constexpr auto A = ip::input<"A", float, 3>;
  constexpr auto B = ip::input<"B", float, 3>;
  const auto f = ip::function(ip::inputs(A, B), ip::outputs(ip::matmul(A, B)));
  CHECK_THROWS_AS(f(ip::tensor<float, 3>(2, 3, 4), b3), ip::shape_error);
  CHECK_THROWS_AS(f(ip::tensor<float, 3>(3, 3, 5), b3), ip::shape_error);
  CHECK(f(ip::tensor<float, 3>(1, 3, 4), b3).extents() == ip::tensor<float, 3>(3, 3, 5).extents());
}

TEST_CASE("matmul: the static rule") {
  using ip::dynamic;
  constexpr auto rule = [](ip::shape a, ip::shape b) { return ip::ops::matmul::output_shape(0, {a, b}); };
  STATIC_REQUIRE(rule({4, {2, 1, 3, 4}}, {3, {5, 4, 6}}) == ip::shape{4, {2, 5, 3, 6}});
  STATIC_REQUIRE(rule({1, {4}}, {3, {2, 4, 3}}) == ip::shape{2, {2, 3}});
  STATIC_REQUIRE(rule({3, {2, 3, 4}}, {1, {4}}) == ip::shape{2, {2, 3}});
  STATIC_REQUIRE(rule({1, {4}}, {1, {4}}) == ip::shape{});
  STATIC_REQUIRE(rule({3, {dynamic, 3, dynamic}}, {2, {4, 5}}) == ip::shape{3, {dynamic, 3, 5}});
  STATIC_REQUIRE(rule({0, {}}, {2, {4, 5}}).rank == dynamic);  // scalars: NumPy's matmul refuses them
  STATIC_REQUIRE(rule({2, {3, 4}}, {2, {5, 6}}).rank == dynamic);
  STATIC_REQUIRE(rule({3, {2, 3, 4}}, {3, {3, 4, 5}}).rank == dynamic);
}

TEST_CASE("matmul: an expression operand is evaluated first; a graph's matmul of transposes") {
  const auto a = make<float, 2, 3, 4>(0);
  const auto b = make<float, 5, 4>(1);
  const ip::tensor<float, 3> twice = a * 2.0f;
  const auto want = ip::matmul(twice, ip::transpose(b));
  const auto got = ip::matmul(a * 2.0f, ip::transpose(b));
  REQUIRE(got.extents() == want.extents());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == want[i]);

  // the transpose of a rank-2 matmul is the matmul of the transposes, with the same values
  constexpr auto M = ip::input<"M", float, 2>;
  constexpr auto N = ip::input<"N", float, 2>;
  const auto f = ip::function(ip::inputs(M, N), ip::outputs(ip::transpose(ip::matmul(M, N)) * 2.0_c));
  const auto m = make<float, 3, 4>(0);
  const auto n = make<float, 4, 5>(1);
  const ip::tensor<float, 2> mn = ip::matmul(m, n);
  const auto r = f(m, n);
  REQUIRE(r.extent(0) == 5);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 3; ++j) CHECK(r(i, j) == 2 * mn(j, i));
}
