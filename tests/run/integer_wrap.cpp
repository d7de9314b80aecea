// Integer arithmetic is never undefined: int32 and int64 add, sub, mul, neg,
// abs, square and sum wrap modulo 2^n, and integer division by zero gives 0 and
// INT_MIN / -1 gives INT_MIN, as NumPy 2 (np.floor_divide, without its
// warning). Values from NumPy 2:
//   a = [max, min, max, -7, 7, min], b = [1, -1, max, 0, 0, -1] (np.iinfo(T))
//   a + b, a - b, a * b, -a, np.abs(a), np.square(a), a + b + a, a // b.
// On tensors, in graphs (one node, a fused chain, donated, debug mode) and
// folded from constants. The UBSan build (preset asan) stops on any signed
// overflow left.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ip = inplace;
using namespace ip::literals;

namespace {
template <class T>
struct cases {
  static constexpr T max = std::numeric_limits<T>::max(), min = std::numeric_limits<T>::min();
  static constexpr std::array<T, 6> a{max, min, max, -7, 7, min}, b{1, -1, max, 0, 0, -1};
  static constexpr std::array<T, 6> add{min, max, -2, -7, 7, max}, sub{max - 1, min + 1, 0, -7, 7, min + 1},
      mul{max, min, 1, 0, 0, min}, neg{min + 1, min, min + 1, 7, -7, min}, abs{max, min, max, 7, 7, min},
      square{1, 0, 1, 49, 49, 0}, sum3{-1, -1, max - 2, -14, 14, -1}, div{max, min, 1, 0, 0, min};
};

template <class T>
ip::tensor<T, ip::extents<6>> tensor_of(const std::array<T, 6>& v) {
  ip::tensor<T, ip::extents<6>> t;
  for (std::size_t i = 0; i < 6; ++i) t[i] = v[i];
  return t;
}

template <class T, class V>
bool equal(const V& got, const std::array<T, 6>& want) {
  for (std::size_t i = 0; i < 6; ++i)
    if (got[i] != want[i]) return false;
  return true;
}

template <class T>
void check_all() {
  using C = cases<T>;
  const auto a = tensor_of<T>(C::a), b = tensor_of<T>(C::b);
  // tensors
  CHECK(equal<T>(ip::tensor<T, ip::extents<6>>(a + b), C::add));
  CHECK(equal<T>(ip::tensor<T, ip::extents<6>>(a - b), C::sub));
  CHECK(equal<T>(ip::tensor<T, ip::extents<6>>(a * b), C::mul));
  CHECK(equal<T>(ip::tensor<T, ip::extents<6>>(-a), C::neg));
  CHECK(equal<T>(ip::tensor<T, ip::extents<6>>(ip::abs(a)), C::abs));
  CHECK(equal<T>(ip::tensor<T, ip::extents<6>>(ip::square(a)), C::square));
  CHECK(equal<T>(ip::tensor<T, ip::extents<6>>(ip::sum(a, b, a)), C::sum3));
  CHECK(equal<T>(ip::tensor<T, ip::extents<6>>(a / b), C::div));
  auto c = a;
  c += b;
  CHECK(equal<T>(c, C::add));
  c = a;
  c /= b;
  CHECK(equal<T>(c, C::div));

  // graphs: each op one node, and all of them in one fused loop
  constexpr auto x = ip::input<"x", T, ip::extents<6>>;
  constexpr auto y = ip::input<"y", T, ip::extents<6>>;
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x + y, x - y, x * y, -x, ip::abs(x), ip::square(x),
                                                                ip::sum(x, y, x), x / y));
  constexpr std::array<const std::array<T, 6>*, 8> want{&C::add, &C::sub, &C::mul, &C::neg,
                                                        &C::abs, &C::square, &C::sum3, &C::div};
  const auto check_outputs = [&](const auto& r) {
    std::array<bool, 8> ok{};
    std::apply([&](const auto&... o) {
      std::size_t i = 0;
      ((ok[i] = equal<T>(o, *want[i]), ++i), ...);
    }, r);
    for (std::size_t i = 0; i < 8; ++i) CHECK(ok[i]);
  };
  check_outputs(f(a, b));
  check_outputs(f.debug(a, b));
  // a chain: (x + y) * y - x / y, fused in one loop, borrowed and donated
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs((x + y) * y - x / y));
  std::array<T, 6> chain{};
  for (std::size_t i = 0; i < 6; ++i) chain[i] = ip::ops::sub{}(T(ip::ops::mul{}(C::add[i], C::b[i])), C::div[i]);
  CHECK(equal<T>(g(a, b), chain));
  CHECK(equal<T>(g(ip::tensor<T, ip::extents<6>>(a), ip::tensor<T, ip::extents<6>>(b)), chain));
  CHECK(equal<T>(g.debug(a, b), chain));
  // neg and abs in place
  constexpr auto h = ip::function(ip::inputs(x), ip::outputs(ip::neg_inplace(x)));
  CHECK(equal<T>(h(ip::tensor<T, ip::extents<6>>(a)), C::neg));
}
}  // namespace

TEST_CASE("int32 and int64 arithmetic wraps as NumPy's; integer division by zero gives 0", "[dtype][run]") {
  SECTION("int32") { check_all<std::int32_t>(); }
  SECTION("int64") { check_all<std::int64_t>(); }
  SECTION("long long") { check_all<long long>(); }
}

TEST_CASE("the scalar kernels wrap in constant expressions, and constants fold to NumPy's values", "[dtype][run]") {
  using I = std::int32_t;
  constexpr I max = std::numeric_limits<I>::max(), min = std::numeric_limits<I>::min();
  static_assert(ip::ops::add{}(max, 1) == min && ip::ops::sub{}(min, 1) == max && ip::ops::mul{}(max, max) == 1);
  static_assert(ip::ops::neg{}(min) == min && ip::ops::abs{}(min) == min && ip::ops::square{}(65536) == 0);
  static_assert(ip::ops::div{}(7, 0) == 0 && ip::ops::div{}(min, -1) == min && ip::ops::div{}(-7, 2) == -3);
  static_assert(ip::ops::sum{}(max, 1, max) == -1 && ip::ops::div{}(7u, 0u) == 0u);
  static_assert(ip::ops::div{}(std::numeric_limits<long long>::min(), -1LL) == std::numeric_limits<long long>::min());
  // in a graph: 7_c / 0_c folds to the constant 0, as the run-time kernel gives
  static_assert(ip::detail::constant_operand<decltype(7_c / 0_c)> && decltype(7_c / 0_c)::value == 0);
  constexpr auto x = ip::input<"x", std::int64_t, ip::extents<2>>;
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + 7_c / 0_c, x * 0_c + (9223372036854775807_c + 1_c)));
  ip::tensor<std::int64_t, ip::extents<2>> t;
  t[0] = 5;
  t[1] = -5;
  const auto [r, s] = f(t);
  CHECK(r[0] == 5);
  CHECK(r[1] == -5);
  CHECK(s[0] == std::numeric_limits<std::int64_t>::min());
  CHECK(s[1] == std::numeric_limits<std::int64_t>::min());
}

// Weak integer constants at the edges of the integer dtype they are converted
// to (NumPy 2: np.int8(1) + 127 is int8 128 -> -128 wraps) give NumPy 2's
// values; the ops that read values (comparisons, logical_and/or) take any
// constant, and ip::full converts. (Beyond the edges, arithmetic converts
// modulo 2^n, where NumPy 2 raises OverflowError: docs/reference.md.)
TEST_CASE("weak integer constants at the edges of their dtype", "[dtype][run]") {
  constexpr auto i8 = ip::input<"i8", std::int8_t, ip::extents<3>>;
  constexpr auto u8 = ip::input<"u8", std::uint8_t, ip::extents<3>>;
  constexpr auto f = ip::function(
      ip::inputs(i8, u8),
      ip::outputs(i8 + 127_c, i8 + -128_c, u8 + 255_c, ip::max(u8, 255_c), ip::where(u8 > 1_c, u8, 255_c),
                  u8 > -1_c, i8 == 1000_c, u8 != 256_c, ip::logical_and(u8, 256_c), ip::logical_or(i8, -1000_c),
                  ip::full<std::uint8_t, 3>(-1_c), ip::cast<std::int16_t>(i8) + 1000_c));
  const ip::tensor<std::int8_t, ip::extents<3>> a{-128, 0, 127};
  const ip::tensor<std::uint8_t, ip::extents<3>> b{0, 1, 255};
  const auto [p127, m128, u255, mx, wh, gt, eq, ne, land, lor, full, wide] = f(a, b);
  // np.array([-128, 0, 127], np.int8) + 127 -> [-1, 127, -2]; + -128 -> [0, -128, -1]
  // np.array([0, 1, 255], np.uint8) + 255 -> [255, 0, 254]
  const std::array<int, 3> want_p127{-1, 127, -2}, want_m128{0, -128, -1}, want_u255{255, 0, 254};
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(int(p127[i]) == want_p127[i]);
    CHECK(int(m128[i]) == want_m128[i]);
    CHECK(int(u255[i]) == want_u255[i]);
    CHECK(int(mx[i]) == 255);
    CHECK(int(wh[i]) == 255);  // u8 where u8 > 1 (255), else 255
    CHECK(gt[i]);
    CHECK(!eq[i]);
    CHECK(ne[i]);
    CHECK(land[i] == (b[i] != 0));
    CHECK(lor[i]);
    CHECK(int(full[i]) == 255);
    CHECK(int(wide[i]) == int(a[i]) + 1000);
  }
}

// Sums and products of int64 that overflow wrap (NumPy's np.sum(a, axis) and
// np.prod(p)); those of int32 are computed in int64, as NumPy's, and do not
// (docs/reference.md), on tensors, in a graph (the sum of x + x fused into its
// loop: x + x itself wraps in int32) and in debug mode. a: 4 x 300, rows max,
// min, max with every other element -5, and i * (max / 7) (wrapped).
namespace {
template <class T>
struct sum_cases;
template <>
struct sum_cases<std::int32_t> {  // NumPy 1.24: int64 results
  static constexpr std::array<std::int64_t, 4> rows{644245094100, -644245094400, 322122546300, 49698894468};
  static constexpr std::array<std::int64_t, 3> cols{-6, 2454267024, 613566750};
  static constexpr std::int64_t total = 371821440468, twice_total = 613538728, prod3 = -6289078614652622815,
                                prod2 = 1099511627776;
};
template <>
struct sum_cases<std::int64_t> {
  static constexpr std::array<std::int64_t, 4> rows{-300, 0, -900, -7905747460161242814};
  static constexpr std::array<std::int64_t, 3> cols{-6, -7905747460161236409, 2635249153387078796};
  static constexpr std::int64_t total = -7905747460161244014, twice_total = 2635249153387063588,
                                prod3 = -6289078614652622815, prod2 = 1099511627776;
};

template <class T>
void check_sums() {
  using C = sum_cases<T>;
  constexpr T max = std::numeric_limits<T>::max(), min = std::numeric_limits<T>::min();
  ip::tensor<T, ip::extents<4, 300>> a;
  for (std::size_t j = 0; j < 300; ++j) {
    a(0, j) = max, a(1, j) = min, a(2, j) = j % 2 == 0 ? T(-5) : max;
    a(3, j) = static_cast<T>(ip::ops::mul{}(static_cast<T>(j), static_cast<T>(max / 7)));  // wraps
  }
  using R = std::int64_t;  // np.sum's dtype for both
  static_assert(std::is_same_v<ip::ops::sum_dtype<T>, R>);
  const ip::tensor<R, ip::extents<4>> rows = ip::reduce_sum<1>(a);
  const ip::tensor<R, ip::extents<300>> cols = ip::reduce_sum<0>(a);
  for (std::size_t i = 0; i < 4; ++i) CHECK(rows[i] == C::rows[i]);
  for (std::size_t j = 0; j < 3; ++j) CHECK(cols[j] == C::cols[j]);
  ip::tensor<T, ip::extents<40>> threes, twos;
  for (std::size_t i = 0; i < 40; ++i) threes[i] = 3, twos[i] = 2;
  CHECK(ip::tensor<R, ip::extents<>>(ip::reduce_prod(threes))() == C::prod3);
  CHECK(ip::tensor<R, ip::extents<>>(ip::reduce_prod(twos))() == C::prod2);

  constexpr auto x = ip::input<"x", T, ip::extents<4, 300>>;
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::reduce_sum<1>(x), ip::reduce_sum(x),
                                                             ip::reduce_sum(x + x), ip::reduce_sum<0>(x)));
  const auto check = [&](const auto& r) {
    const auto& [r1, total, twice, r0] = r;
    for (std::size_t i = 0; i < 4; ++i) CHECK(r1[i] == C::rows[i]);
    CHECK(total() == C::total);
    CHECK(twice() == C::twice_total);
    for (std::size_t j = 0; j < 3; ++j) CHECK(r0[j] == C::cols[j]);
  };
  check(f(a));
  check(f.debug(a));
}
}  // namespace

TEST_CASE("int32 sums and products in int64, int64 ones wrap, as NumPy's", "[dtype][run]") {
  SECTION("int32") { check_sums<std::int32_t>(); }
  SECTION("int64") { check_sums<std::int64_t>(); }
}

// Integer products wrap in their sums too (NumPy: m @ m and m @ m.T of
// [[max, 1], [1, 1]] are [[2, min], [min, 2]]; dot([max, 1], [1, 1]) is min),
// through both loops of the plain product (b's rows contiguous, and b
// transposed), on tensors and in a graph.
TEMPLATE_TEST_CASE("int32 and int64 dot and matmul wrap as NumPy's", "[dtype][run]", std::int32_t, std::int64_t) {
  using T = TestType;
  constexpr T max = std::numeric_limits<T>::max(), min = std::numeric_limits<T>::min();
  ip::tensor<T, ip::extents<2, 2>> m;
  m(0, 0) = max, m(0, 1) = 1, m(1, 0) = 1, m(1, 1) = 1;
  const ip::tensor<T, ip::extents<2>> v{max, 1}, ones{1, 1};
  const auto check = [&](const auto& r) {
    CHECK(r(0, 0) == 2);
    CHECK(r(0, 1) == min);
    CHECK(r(1, 0) == min);
    CHECK(r(1, 1) == 2);
  };
  check(ip::tensor<T, ip::extents<2, 2>>(ip::matmul(m, m)));
  check(ip::tensor<T, ip::extents<2, 2>>(ip::dot(m, ip::transpose(m))));
  CHECK(ip::tensor<T, ip::extents<>>(ip::dot(v, ones))() == min);
  constexpr auto x = ip::input<"x", T, ip::extents<2, 2>>;
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::matmul(x, x), ip::dot(x, ip::transpose(x))));
  const auto [a, b] = f(m);
  check(a);
  check(b);
}

// Sums and products of narrow integers are NumPy's: int8, int16 and int32 in
// int64, uint8, uint16 and uint32 in uint64 (np.sum(np.int8([100, 100, 100]))
// is 300, not the wrapped 44), on every function (one axis, several, kept,
// every axis), on tensors, in graphs and in debug mode. Values: NumPy 1.24.
TEST_CASE("sums and products of narrow integers are int64 or uint64, as NumPy's", "[dtype][run]") {
  static_assert(std::is_same_v<ip::ops::sum_dtype<std::int8_t>, std::int64_t>);
  static_assert(std::is_same_v<ip::ops::sum_dtype<std::int16_t>, std::int64_t>);
  static_assert(std::is_same_v<ip::ops::sum_dtype<std::int32_t>, std::int64_t>);
  static_assert(std::is_same_v<ip::ops::sum_dtype<std::uint8_t>, std::uint64_t>);
  static_assert(std::is_same_v<ip::ops::sum_dtype<std::uint32_t>, std::uint64_t>);
  static_assert(std::is_same_v<ip::ops::sum_dtype<bool>, std::int64_t>);
  static_assert(std::is_same_v<ip::ops::sum_dtype<std::uint64_t>, std::uint64_t>);
  static_assert(std::is_same_v<ip::ops::sum_dtype<float>, float>);

  // a = np.array([[100, 100, 100], [-128, -128, 7]], np.int8)
  ip::tensor<std::int8_t, ip::extents<2, 3>> a;
  const std::int8_t av[] = {100, 100, 100, -128, -128, 7};
  for (std::size_t i = 0; i < 6; ++i) a[i] = av[i];
  // u = np.array([200, 250, 255], np.uint8)
  const ip::tensor<std::uint8_t, ip::extents<3>> u{200, 250, 255};

  const auto all = ip::reduce_sum(a);                   // 51
  const auto rows = ip::reduce_sum<1>(a);               // [300, -249]
  const auto cols = ip::reduce_sum<0>(a);               // [-28, -28, 107]
  const auto kept = ip::reduce_sum<-1, ip::keepdims>(a);  // [[300], [-249]]
  const auto both = ip::reduce_sum<0, 1>(a);            // 51
  const auto prod = ip::reduce_prod<1>(a);              // [1000000, 114688]
  const auto usum = ip::reduce_sum(u);                  // 705, uint64
  const auto uprod = ip::reduce_prod(u);                // 12750000, uint64
  static_assert(std::is_same_v<decltype(all), const ip::tensor<std::int64_t, 0>>);
  static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(prod)>::value_type, std::int64_t>);
  static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(usum)>::value_type, std::uint64_t>);
  CHECK(all() == 51);
  CHECK((rows[0] == 300 && rows[1] == -249));
  CHECK((cols[0] == -28 && cols[1] == -28 && cols[2] == 107));
  CHECK((kept(0, 0) == 300 && kept(1, 0) == -249));
  CHECK(both() == 51);
  CHECK((prod[0] == 1000000 && prod[1] == 114688));
  CHECK(usum() == 705u);
  CHECK(uprod() == 12750000u);
  // the max and min keep the dtype, the mean is double (NumPy's too)
  static_assert(std::is_same_v<typename decltype(ip::reduce_max<1>(a))::value_type, std::int8_t>);
  static_assert(std::is_same_v<typename decltype(ip::reduce_mean<1>(a))::value_type, double>);

  constexpr auto x = ip::input<"x", std::int8_t, ip::extents<2, 3>>;
  constexpr auto y = ip::input<"y", std::uint8_t, ip::extents<3>>;
  constexpr auto outs = ip::outputs(ip::reduce_sum(x), ip::reduce_sum<1>(x), ip::reduce_sum<-1, ip::keepdims>(x + x),
                                    ip::reduce_prod<1>(x), ip::reduce_sum(y), ip::reduce_prod(y));
  static_assert(ip::check(ip::inputs(x, y), outs).ok);
  constexpr auto f = ip::function(ip::inputs(x, y), outs);
  const auto check = [](const auto& r) {
    const auto& [s, r1, twice, p1, us, up] = r;
    static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(s)>::value_type, std::int64_t>);
    static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(us)>::value_type, std::uint64_t>);
    CHECK(s() == 51);
    CHECK((r1[0] == 300 && r1[1] == -249));
    // (x + x) wraps in int8 first: np.sum(x + x, -1, keepdims=True) is [[-168], [14]]
    CHECK((twice(0, 0) == -168 && twice(1, 0) == 14));
    CHECK((p1[0] == 1000000 && p1[1] == 114688));
    CHECK(us() == 705u);
    CHECK(up() == 12750000u);
  };
  check(f(a, u));
  check(f.debug(a, u));
}
