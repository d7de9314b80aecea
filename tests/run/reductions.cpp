// The reductions against NumPy (scripts/gen_reduction_cases.py writes the
// cases): each on a tensor and in a running graph, both NumPy's values.
// Then what has no value: max of an empty axis, and the misuses the analysis
// reports.
#include "../tensor/naive.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ip = inplace;

namespace {
constexpr double NaN = std::numeric_limits<double>::quiet_NaN(), Inf = std::numeric_limits<double>::infinity();

template <class T, std::size_t... E>
ip::tensor<T, ip::extents<E...>> make(double (*f)(std::size_t)) {
  ip::tensor<T, ip::extents<E...>> t;
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<T>(f(i));
  return t;
}
// The inputs of the generator, element by element.
const auto f345 = make<float, 3, 4, 5>([](std::size_t i) { return (static_cast<double>(i * 7 % 11) - 5) * 0.25; });
const auto fnan = make<float, 2, 3>([](std::size_t i) {
  const double v[] = {1.0, NaN, -2.0, Inf, 3.0, -Inf};
  return v[i];
});
const auto i46 = make<std::int32_t, 4, 6>([](std::size_t i) { return static_cast<double>(static_cast<int>(i * 5 % 9) - 3); });
const ip::tensor<double, ip::extents<0, 3>> d03{};

template <class R>
void compare(const R& r, const std::vector<std::size_t>& extents, const std::vector<double>& expected) {
  REQUIRE(static_cast<std::size_t>(R::rank) == extents.size());
  for (std::size_t k = 0; k < extents.size(); ++k) REQUIRE(r.extent(k) == extents[k]);
  REQUIRE(r.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double got = static_cast<double>(r.data()[i]), want = expected[i];
    INFO("element " << i);
    if (std::isnan(want)) CHECK(std::isnan(got));
    else if (std::isinf(want)) CHECK(got == want);
    else CHECK(got == Approx(want).epsilon(1e-6).margin(1e-6));
  }
}
// fn on the tensor, and in a graph of an input of the tensor's type.
template <class T, auto S, class F>
void check(const ip::tensor<T, S>& in, F fn, const std::vector<std::size_t>& extents, const std::vector<double>& expected) {
  compare(fn(in), extents, expected);
  constexpr auto X = ip::input<"X", T, S>;
  const auto f = ip::function(ip::inputs(X), ip::outputs(fn(X)));
  compare(f(in), extents, expected);
}
}  // namespace

#define AXES(...) __VA_ARGS__
#define CASE(FN, SPEC, IN, EXTENTS, VALUES)                                                            \
  SECTION(#FN "<" #SPEC "> of " #IN) {                                                                   \
    check(IN, [](const auto& v) { return ip::FN<AXES SPEC>(v); }, std::vector<std::size_t>{AXES EXTENTS}, \
          std::vector<double>{AXES VALUES});                                                             \
  }

TEST_CASE("reductions equal NumPy's, on tensors and in graphs", "[reductions][run]") {
#include "reductions_cases.inc"
}

TEST_CASE("dtypes, keepdims broadcasting, and what has no value", "[reductions][run]") {
  constexpr auto X = ip::input<"X", float, ip::extents<3, 4, 5>>;
  constexpr auto I = ip::input<"I", std::int32_t, ip::extents<4, 6>>;
  static_assert(std::is_same_v<decltype(ip::reduce_mean<0>(I))::dtype, double>);  // NumPy: int mean is float64
  static_assert(std::is_same_v<decltype(ip::reduce_mean<0>(X))::dtype, float>);
  static_assert(std::is_same_v<decltype(ip::argmax<1>(X))::dtype, std::int64_t>);
  static_assert(std::is_same_v<decltype(ip::reduce_any<1>(I))::dtype, bool>);
  static_assert(std::is_same_v<decltype(ip::reduce_max(I))::dtype, std::int32_t>);
  // ip::keepdims alone: every axis, kept, for reduce_sum as for the others
  static_assert(decltype(ip::reduce_sum<ip::keepdims>(X))::value_shape == ip::shape{3, {1, 1, 1}});
  static_assert(decltype(ip::reduce_max<ip::keepdims>(X))::value_shape == ip::shape{3, {1, 1, 1}});
  static_assert(decltype(ip::reduce_sum<-1, ip::keepdims>(I))::value_shape == ip::shape{2, {4, 1}});
  static_assert(std::is_same_v<decltype(ip::reduce_sum<ip::keepdims>(I))::dtype, std::int64_t>);  // np.sum: int64
  static_assert(decltype(ip::reduce_sum<ip::keepdims>(f345))::rank == 3);
  // x - x.mean(1, keepdims=True): one graph, centered columns
  constexpr auto f = ip::function(ip::inputs(X), ip::outputs(X - ip::reduce_mean<1, ip::keepdims>(X)));
  const auto c = f(f345);
  const auto back = ip::reduce_sum<1>(c);
  for (std::size_t i = 0; i < back.size(); ++i) CHECK(back[i] == Approx(0.0).margin(1e-5));
  // the max of an empty axis: NumPy raises, we throw
  constexpr auto D = ip::input<"D", double, ip::extents<0, 3>>;
  CHECK_THROWS_AS(ip::reduce_max<0>(d03), ip::shape_error);
  CHECK_THROWS_AS(ip::argmin<0>(d03), ip::shape_error);
  const auto g = ip::function(ip::inputs(D), ip::outputs(ip::reduce_max<0>(D)));
  try {
    (void)g(d03);
    FAIL("no shape_error");
  } catch (const ip::shape_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("reduce_max of an empty axis"));
  }
  // the row path (trailing axes, one run per result) on views: strided and
  // reversed rows, and trailing axes that are not one run, equal the same
  // reductions of a contiguous copy
  const auto tv = ip::transpose(f345);  // (5, 4, 3), last axis of stride 20
  const ip::tensor<float, ip::extents<5, 4, 3>> tc(tv);
  const auto same = [](const auto& a, const auto& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) CHECK(static_cast<double>(a.data()[k]) == Approx(static_cast<double>(b.data()[k])));
  };
  same(ip::reduce_mean<-1, ip::keepdims>(tv), ip::reduce_mean<-1, ip::keepdims>(tc));
  same(ip::reduce_max<-1>(tv), ip::reduce_max<-1>(tc));
  same(ip::argmin<-1>(tv), ip::argmin<-1>(tc));
  same(ip::reduce_sum<1, 2>(tv), ip::reduce_sum<1, 2>(tc));
  same(ip::reduce_prod<-2, -1, ip::keepdims>(tv), ip::reduce_prod<-2, -1, ip::keepdims>(tc));
  same(ip::argmax(tv), ip::argmax(tc));
  same(ip::reduce_sum<-1>(ip::reverse(f345)), ip::reduce_sum<-1, ip::keepdims>(ip::reverse(f345)));
  // over an axis of an empty array with nothing to reduce to: an empty result
  CHECK(ip::reduce_max<1>(d03).size() == 0);
}
