// Dtypes and values at the edges of the rule (docs/reference.md, "Element types"):
// - bool operands of pow and square compute in int8, as NumPy's (no bool loop:
//   np.square(np.array([False, True])) is int8 [0 1], np.power(a, b) of bools
//   int8); add, mul, min, max, abs and clip keep bool; sums and products of
//   bool are int64 (np.prod([True, True]) is int64 1).
// - ip::cast<T> of a floating value to an integer T is defined for every value,
//   as JAX's astype (XLA's convert): NaN -> 0, beyond T's range T's minimum or
//   maximum, else truncated toward zero; to bool, != 0 (NaN is true). NumPy
//   agrees wherever its own result is defined (in T's range; bool); beyond it,
//   NumPy's values depend on the machine (x86: int32 and int64 give the minimum,
//   uint8 -2.9 gives 254).
// On tensors (ip::cast, a store of a floating expression into an integer tensor,
// a number assigned), in graphs (borrowed, donated, debug mode) and folded
// from constants. The UBSan build (preset asan: -fsanitize=undefined takes
// float-cast-overflow) stops on any conversion left undefined.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace ip = inplace;
using namespace ip::literals;

namespace {
using ip::detail::texpr::value_t;
template <class V>
using dtype_of = typename V::dtype;

// --- bool operands ------------------------------------------------------------------
constexpr auto b = ip::input<"b", bool, ip::extents<4>>;
constexpr auto c = ip::input<"c", bool, ip::extents<4>>;
constexpr auto i8 = ip::input<"i8", std::int8_t, ip::extents<4>>;
constexpr auto u8 = ip::input<"u8", std::uint8_t, ip::extents<4>>;
// NumPy: np.square(b), np.power(b, c), np.power(b, int8), np.power(b, uint8), np.power(b, 2)
static_assert(std::is_same_v<dtype_of<decltype(ip::square(b))>, std::int8_t>);
static_assert(std::is_same_v<dtype_of<decltype(ip::pow(b, c))>, std::int8_t>);
static_assert(std::is_same_v<dtype_of<decltype(ip::pow(b, i8))>, std::int8_t>);
static_assert(std::is_same_v<dtype_of<decltype(ip::pow(b, u8))>, std::uint8_t>);
static_assert(std::is_same_v<dtype_of<decltype(ip::pow(b, 2_c))>, std::int64_t>);
static_assert(std::is_same_v<dtype_of<decltype(ip::pow(b, 2.0_c))>, double>);
// NumPy's bool loops: np.add, np.multiply, np.minimum, np.maximum, np.abs, np.clip keep bool
static_assert(std::is_same_v<dtype_of<decltype(b + c)>, bool>);
static_assert(std::is_same_v<dtype_of<decltype(b * c)>, bool>);
static_assert(std::is_same_v<dtype_of<decltype(ip::min(b, c))>, bool>);
static_assert(std::is_same_v<dtype_of<decltype(ip::max(b, c))>, bool>);
static_assert(std::is_same_v<dtype_of<decltype(ip::abs(b))>, bool>);
static_assert(std::is_same_v<dtype_of<decltype(ip::clip(b, c, b))>, bool>);
static_assert(std::is_same_v<dtype_of<decltype(ip::clip(b, 0_c, 1_c))>, std::int64_t>);  // np.clip(b, 0, 1)
// deviations (docs/reference.md): sign and round of bool keep bool (NumPy:
// sign raises, round gives float16); -b is b (NumPy raises)
static_assert(std::is_same_v<dtype_of<decltype(ip::sign(b))>, bool>);
static_assert(std::is_same_v<dtype_of<decltype(ip::round(b))>, bool>);
static_assert(std::is_same_v<dtype_of<decltype(-b)>, bool>);
// np.sum and np.prod of bool: int64
static_assert(std::is_same_v<dtype_of<decltype(ip::reduce_sum(b))>, std::int64_t>);
static_assert(std::is_same_v<dtype_of<decltype(ip::reduce_prod(b))>, std::int64_t>);
// folded: a bool constant (1_c < 2_c) squared is int8 1, as np.square(np.True_)
using true_c = decltype(1_c < 2_c);
using false_c = decltype(1_c > 2_c);
static_assert(std::is_same_v<dtype_of<decltype(ip::square(true_c{}))>, std::int8_t> &&
              decltype(ip::square(true_c{}))::value == 1);
static_assert(std::is_same_v<dtype_of<decltype(ip::pow(false_c{}, false_c{}))>, std::int8_t> &&
              decltype(ip::pow(false_c{}, false_c{}))::value == 1);
static_assert(std::is_same_v<dtype_of<decltype(ip::pow(false_c{}, true_c{}))>, std::int8_t> &&
              decltype(ip::pow(false_c{}, true_c{}))::value == 0);
static_assert(std::is_same_v<dtype_of<decltype(true_c{} + true_c{})>, bool>);
// the kernels' own types, as the rule calls them
static_assert(std::is_same_v<ip::detail::elementwise_dtype_t<ip::ops::square, bool>, std::int8_t>);
static_assert(std::is_same_v<ip::detail::elementwise_dtype_t<ip::ops::pow, bool, bool>, std::int8_t>);
static_assert(std::is_same_v<ip::detail::elementwise_dtype_t<ip::ops::mul, bool, bool>, bool>);

using bools = ip::tensor<bool, ip::extents<4>>;
using int8s = ip::tensor<std::int8_t, ip::extents<4>>;
// a = [F F T T], c = [F T F T]; NumPy: np.power(a, c) = [1 0 1 1], np.square(a) = [0 0 1 1],
// a + c = [F T T T], a * c = [F F F T]
constexpr std::array<int, 4> want_pow{1, 0, 1, 1}, want_square{0, 0, 1, 1};
constexpr std::array<bool, 4> want_or{false, true, true, true}, want_and{false, false, false, true};

template <class V, class W>
bool same_values(const V& got, const W& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) return false;
  return true;
}
}  // namespace

TEST_CASE("bool operands of pow and square compute in int8, as NumPy's", "[dtype][run]") {
  const bools a{false, false, true, true}, d{false, true, false, true};
  // tensors
  auto tp = ip::pow(a, d);
  auto ts = ip::square(a);
  static_assert(std::is_same_v<value_t<decltype(tp)>, std::int8_t> && std::is_same_v<value_t<decltype(ts)>, std::int8_t>);
  static_assert(std::is_same_v<value_t<decltype(a * d)>, bool>);
  CHECK(same_values(int8s(tp), want_pow));
  CHECK(same_values(int8s(ts), want_square));
  CHECK(same_values(bools(a + d), want_or));
  CHECK(same_values(bools(a * d), want_and));
  const ip::tensor<std::int64_t, ip::extents<>> prod = ip::reduce_prod(a), sum = ip::reduce_sum(a);
  CHECK(prod() == 0);
  CHECK(sum() == 2);

  // graphs: borrowed, donated, debug mode
  constexpr auto f = ip::function(ip::inputs(b, c), ip::outputs(ip::pow(b, c), ip::square(b), b + c, b * c,
                                                                ip::reduce_prod(b + c), ip::reduce_sum(b)));
  const auto check = [&](const auto& r) {
    const auto& [p, s, o, n, pr, su] = r;
    CHECK(same_values(p, want_pow));
    CHECK(same_values(s, want_square));
    CHECK(same_values(o, want_or));
    CHECK(same_values(n, want_and));
    CHECK(pr() == 0);  // np.prod([F T T T]) is 0
    CHECK(su() == 2);
  };
  check(f(a, d));
  check(f(bools(a), bools(d)));
  check(f.debug(a, d));
  // a fused chain of int8: pow(b, c) + square(c) * 3_c -> [1 3 1 4]
  constexpr auto g = ip::function(ip::inputs(b, c), ip::outputs(ip::pow(b, c) + ip::square(c) * 3_c));
  constexpr std::array<int, 4> want_chain{1, 3, 1, 4};
  CHECK(same_values(g(a, d), want_chain));
  CHECK(same_values(g(bools(a), bools(d)), want_chain));
  CHECK(same_values(g.debug(a, d), want_chain));
}

// --- float to integer -----------------------------------------------------------------
namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
constexpr std::size_t n = 18;
constexpr std::array<double, n> xs{nan,   inf,   -inf,  1e300,     -1e300,     2.9,  -2.9, 127.5, -128.7,
                                   300.0, 0x1p63, -0x1p63, 0x1p64, -0.5, 255.9, 65535.0, 0.0,  -0.0};
// JAX's x.astype(T) (XLA: NaN 0, saturating, truncating); NumPy's where it is defined
template <class T>
struct want;
template <>
struct want<std::int8_t> {
  static constexpr std::array<int, n> v{0, 127, -128, 127, -128, 2, -2, 127, -128, 127, 127, -128, 127, 0, 127, 127, 0, 0};
};
template <>
struct want<std::uint8_t> {
  static constexpr std::array<int, n> v{0, 255, 0, 255, 0, 2, 0, 127, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0};
};
template <>
struct want<std::int32_t> {
  static constexpr std::int32_t max = 2147483647, min = -max - 1;
  static constexpr std::array<std::int32_t, n> v{0,   max, min, max, min, 2,     -2,  127, -128,
                                                 300, max, min, max, 0,   255, 65535, 0,   0};
};
template <>
struct want<std::int64_t> {
  static constexpr std::int64_t max = 9223372036854775807, min = -max - 1;
  static constexpr std::array<std::int64_t, n> v{0,   max, min, max, min, 2,     -2,  127, -128,
                                                 300, max, min, max, 0,   255, 65535, 0,   0};
};
template <>
struct want<std::uint64_t> {
  static constexpr std::uint64_t max = 18446744073709551615u;
  static constexpr std::array<std::uint64_t, n> v{0,   max, 0, max, 0,   2,     0,   127, 0,
                                                  300, 9223372036854775808u, 0, max, 0, 255, 65535, 0, 0};
};
template <>
struct want<bool> {  // np.array(xs).astype(bool): != 0, NaN true
  static constexpr std::array<bool, n> v{true, true, true, true, true, true, true, true, true,
                                         true, true, true, true, true, true, true, false, false};
};

using doubles = ip::tensor<double, ip::extents<n>>;
doubles input() {
  doubles t;
  for (std::size_t i = 0; i < n; ++i) t[i] = xs[i];
  return t;
}

template <class T>
void check_cast_tensors() {
  const doubles x = input();
  using out = ip::tensor<T, ip::extents<n>>;
  CHECK(same_values(out(ip::cast<T>(x)), want<T>::v));
  // a floating expression stored into an integer tensor converts the same way
  out stored;
  stored = x * 1.0;
  CHECK(same_values(stored, want<T>::v));
  stored = x + 0.0;
  CHECK(same_values(stored, want<T>::v));
  // a number assigned to every element
  stored = 1e300;
  CHECK(stored[3] == want<T>::v[3]);
  stored = nan;
  CHECK(stored[0] == want<T>::v[0]);
  stored = -inf;
  CHECK(stored[2] == want<T>::v[2]);
}
}  // namespace

TEST_CASE("ip::cast of NaN, infinities and values beyond the range: JAX's values, on tensors", "[dtype][run]") {
  SECTION("int8") { check_cast_tensors<std::int8_t>(); }
  SECTION("uint8") { check_cast_tensors<std::uint8_t>(); }
  SECTION("int32") { check_cast_tensors<std::int32_t>(); }
  SECTION("int64") { check_cast_tensors<std::int64_t>(); }
  SECTION("uint64") { check_cast_tensors<std::uint64_t>(); }
  SECTION("bool") { check_cast_tensors<bool>(); }
  SECTION("float to int32 at the edge") {
    // the largest float below 2^31 is in range; 2^31 is not
    const ip::tensor<float, ip::extents<4>> f{2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f};
    const ip::tensor<std::int32_t, ip::extents<4>> r = ip::cast<std::int32_t>(f);
    CHECK(r[0] == 2147483520);
    CHECK(r[1] == 2147483647);
    CHECK(r[2] == -2147483647 - 1);
    CHECK(r[3] == -2147483647 - 1);
  }
}

TEST_CASE("ip::cast of NaN, infinities and values beyond the range: JAX's values, in graphs", "[dtype][run]") {
  constexpr auto x = ip::input<"x", double, ip::extents<n>>;
  // each cast alone, and one fused behind arithmetic (x * 1.0_c + 0.0_c: the same values)
  constexpr auto f = ip::function(
      ip::inputs(x), ip::outputs(ip::cast<std::int8_t>(x), ip::cast<std::uint8_t>(x), ip::cast<std::int32_t>(x),
                                 ip::cast<std::int64_t>(x * 1.0_c + 0.0_c), ip::cast<std::uint64_t>(x), ip::cast<bool>(x)));
  const auto check = [](const auto& r) {
    const auto& [a, bb, cc, d, e, g] = r;
    CHECK(same_values(a, want<std::int8_t>::v));
    CHECK(same_values(bb, want<std::uint8_t>::v));
    CHECK(same_values(cc, want<std::int32_t>::v));
    CHECK(same_values(d, want<std::int64_t>::v));
    CHECK(same_values(e, want<std::uint64_t>::v));
    CHECK(same_values(g, want<bool>::v));
  };
  const doubles t = input();
  check(f(t));
  check(f(doubles(t)));
  check(f.debug(t));
  // a cast in a chain of integers: cast<int8>(x) + cast<int8>(-x) is 0 or -1 (from -128 + 127)
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::cast<std::int8_t>(x) + ip::cast<std::int8_t>(-x)));
  const auto r = g(t);
  const auto rd = g.debug(t);
  for (std::size_t i = 0; i < n; ++i) {
    const int want_sum = int(ip::ops::add{}(std::int8_t(want<std::int8_t>::v[i]), ip::ops::cast<std::int8_t>{}(-xs[i])));
    CHECK(int(r[i]) == want_sum);
    CHECK(int(rd[i]) == want_sum);
  }
}

// Folded constants: the same values at compile time (an infinite or NaN
// constant from exp, log or sqrt; out of range literals).
namespace {
template <class C>
constexpr long double value_of = C::value;
using big = decltype(ip::exp(1000.0_c));  // inf, weak float
static_assert(ip::detail::constant_operand<decltype(ip::cast<int>(big{}))>);
static_assert(std::is_same_v<dtype_of<decltype(ip::cast<int>(big{}))>, int>);
static_assert(value_of<decltype(ip::cast<int>(ip::exp(1000.0_c)))> == 2147483647);
static_assert(value_of<decltype(ip::cast<int>(-ip::exp(1000.0_c)))> == -2147483648.0L);
static_assert(value_of<decltype(ip::cast<std::int64_t>(ip::log(0.0_c)))> == -0x1p63L);
static_assert(value_of<decltype(ip::cast<std::int64_t>(ip::sqrt(-1.0_c)))> == 0);                         // NaN
static_assert(value_of<decltype(ip::cast<std::uint64_t>(ip::exp(1000.0_c)))> == 18446744073709551615.0L);
static_assert(value_of<decltype(ip::cast<std::uint64_t>(1e30_c))> == 18446744073709551615.0L);
static_assert(value_of<decltype(ip::cast<std::uint8_t>(-1.5_c))> == 0);
static_assert(value_of<decltype(ip::cast<std::uint8_t>(-2.9_c))> == 0);
static_assert(value_of<decltype(ip::cast<std::int8_t>(300.0_c))> == 127);
static_assert(value_of<decltype(ip::cast<std::int8_t>(-2.9_c))> == -2);
static_assert(value_of<decltype(ip::cast<std::int32_t>(2.9_c))> == 2);
static_assert(value_of<decltype(ip::cast<bool>(ip::sqrt(-1.0_c)))> == 1);  // NaN is true
static_assert(value_of<decltype(ip::cast<bool>(0.0_c))> == 0);
// a float constant: cast<float>(1e10_c) is float 1e10, beyond int32
static_assert(value_of<decltype(ip::cast<std::int32_t>(ip::cast<float>(1e10_c)))> == 2147483647);
// the ops' kernels are constant expressions on plain numbers too
static_assert(ip::ops::cast<std::int16_t>{}(1e9) == 32767 && ip::ops::cast<std::int16_t>{}(-1e9) == -32768);
static_assert(ip::ops::cast<std::uint32_t>{}(-1.0f) == 0 && ip::ops::cast<std::uint32_t>{}(4294967295.0) == 4294967295u);
static_assert(ip::ops::cast<std::int32_t>{}(-7) == -7 && ip::ops::cast<std::uint8_t>{}(-1) == 255);  // integers wrap
static_assert(ip::ops::cast<float>{}(1e300) == std::numeric_limits<float>::infinity());
}  // namespace

TEST_CASE("folded casts beside inputs give the run-time values", "[dtype][run]") {
  constexpr auto i = ip::input<"i", std::int32_t, ip::extents<2>>;
  constexpr auto f = ip::function(
      ip::inputs(i), ip::outputs(i * 0_c + ip::cast<std::int32_t>(ip::exp(1000.0_c)),
                                 i * 0_c + ip::cast<std::int32_t>(ip::sqrt(-1.0_c)), ip::max(i, ip::cast<std::int32_t>(-1e20_c)),
                                 // ip::full converts a weak float as ip::cast does (an integer modulo 2^n)
                                 i + ip::full<std::int32_t, 2>(1e30_c), ip::full<std::uint8_t, 2>(-2.9_c),
                                 ip::full<std::uint8_t, 2>(-1_c)));
  const ip::tensor<std::int32_t, ip::extents<2>> t{5, -7};
  const auto check = [](const auto& r) {
    const auto& [hi, zero, mx, full_hi, full_neg, full_wrap] = r;
    CHECK(hi[0] == 2147483647);
    CHECK(zero[1] == 0);
    CHECK(mx[0] == 5);
    CHECK(mx[1] == -7);
    CHECK(full_hi[0] == ip::ops::add{}(5, 2147483647));  // wraps, as int32 arithmetic
    CHECK(full_hi[1] == 2147483647 - 7);
    CHECK(int(full_neg[0]) == 0);
    CHECK(int(full_wrap[1]) == 255);
  };
  check(f(t));
  check(f.debug(t));
}

// A user's elementwise op of several outputs whose kernel gives a floating
// value while it declares integer outputs: each result is stored
// as a cast (the loop of several outputs converted with a plain static_cast,
// undefined beyond the range).
namespace {
struct scaled_pair {
  static constexpr std::string_view name = "scaled_pair";
  static constexpr bool elementwise = true;
  static constexpr std::size_t num_outputs = 2;
  template <std::size_t, class...>
  using output_dtype = std::int32_t;  // integer outputs, whatever the kernel computes in
  constexpr auto operator()(auto a) const { return std::tuple{a * 1e10, a / 0.0}; }
};
}  // namespace

TEST_CASE("a user op of several outputs stores floating results into integer outputs as a cast", "[dtype][run]") {
  constexpr auto i = ip::input<"i", std::int32_t, ip::extents<4>>;
  constexpr auto pair = ip::apply(scaled_pair{}, i);
  constexpr auto f = ip::function(ip::inputs(i), ip::outputs(boost::hana::at_c<0>(pair), boost::hana::at_c<1>(pair)));
  static_assert(std::is_same_v<dtype_of<std::remove_cvref_t<decltype(boost::hana::at_c<0>(pair))>>, std::int32_t>);
  const ip::tensor<std::int32_t, ip::extents<4>> t{-3, 0, 1, 7};
  // JAX's astype: -3e10 -> min, 0 -> 0, 1e10 and 7e10 -> max; -inf, NaN (0 / 0), +inf
  const std::array<std::int32_t, 4> want_big{-2147483647 - 1, 0, 2147483647, 2147483647};
  const std::array<std::int32_t, 4> want_div{-2147483647 - 1, 0, 2147483647, 2147483647};
  const auto check = [&](const auto& r) {
    for (std::size_t k = 0; k < 4; ++k) {
      CHECK(std::get<0>(r)[k] == want_big[k]);
      CHECK(std::get<1>(r)[k] == want_div[k]);
    }
  };
  check(f(t));
  check(f.debug(t));
}

// The same for a user op of one output (its store is the dtype rule's
// run_kernel, in graphs and in ip::apply on tensors).
namespace {
struct scaled_one {
  static constexpr std::string_view name = "scaled_one";
  static constexpr bool elementwise = true;
  template <std::size_t, class...>
  using output_dtype = std::int32_t;
  constexpr auto operator()(auto a) const { return a * 1e10; }
};
}  // namespace

TEST_CASE("a user op of one output stores a floating result into its integer output as a cast", "[dtype][run]") {
  constexpr auto i = ip::input<"i", std::int32_t, ip::extents<4>>;
  constexpr auto f = ip::function(ip::inputs(i), ip::outputs(ip::apply(scaled_one{}, i)));
  const ip::tensor<std::int32_t, ip::extents<4>> t{-3, 0, 1, 7};
  const std::array<std::int32_t, 4> want{-2147483647 - 1, 0, 2147483647, 2147483647};
  const auto r = f(t);
  const auto rd = f.debug(t);
  const ip::tensor<std::int32_t, ip::extents<4>> rt = ip::apply(scaled_one{}, t);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(r[k] == want[k]);
    CHECK(rd[k] == want[k]);
    CHECK(rt[k] == want[k]);
  }
}

// ip::full of a weak float converts it as NumPy's np.full and ip::cast do: the
// literal as a double first (9223372036854775295.0 is 2^63 - 1024 there).
namespace {
static_assert(value_of<ip::detail::typed_constant<std::int64_t, decltype(9223372036854775295.0_c)>> ==
              9223372036854774784.0L);
static_assert(value_of<ip::detail::typed_constant<std::uint64_t, decltype(18446744073709551000.0_c)>> ==
              18446744073709551615.0L);
}  // namespace
