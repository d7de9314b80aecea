// Constant folding: every elementwise op on compile-time constants only is a
// constant, not a node (graph/detail/constant_fold.hpp), with the value and
// dtype of NumPy's (NEP 50: weak Python scalars stay weak through arithmetic;
// a comparison is bool; astype(T) is T; a fixed dtype wins over a weak one).
#include <inplace/graph.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <limits>
#include <type_traits>

namespace ip = inplace;
using namespace ip::literals;
using ip::detail::weak_float;
using ip::detail::weak_int;

namespace {
template <class C>
concept folded = ip::detail::is_constant_leaf<C>;
// value and dtype of a folded constant
template <class C, class D>
constexpr bool is(C, D, long double want) {
  return folded<C> && std::is_same_v<typename C::dtype, D> && C::value == want;
}
// within a relative 4e-16 of NumPy's double (transcendental kernels)
template <class C, class D>
constexpr bool near(C, D, long double want) {
  const long double d = C::value - want;
  return folded<C> && std::is_same_v<typename C::dtype, D> && (d < 0 ? -d : d) <= 4e-16L * (want < 0 ? -want : want);
}
// a folded -0.0
template <class C>
constexpr bool negative_zero(C) {
  return folded<C> && C::value == 0 && std::bit_cast<std::uint64_t>(static_cast<double>(C::value)) >> 63 == 1;
}
constexpr weak_int wi{};
constexpr weak_float wf{};
constexpr bool bo{};
constexpr long double inf = std::numeric_limits<long double>::infinity();
}  // namespace

TEST_CASE("arithmetic on constants folds as before: weak ints in int64, else double", "[constant_fold]") {
  STATIC_REQUIRE(is(1_c + 2_c, wi, 3));
  STATIC_REQUIRE(is(7_c / 2_c, wi, 3));  // as 7 / 2 on int tensors
  STATIC_REQUIRE(is(1.0_c / 64_c, wf, 1.0L / 64));
  STATIC_REQUIRE(is(-1.5_c, wf, -1.5));
  STATIC_REQUIRE(is(ip::max(1_c, 2.5_c), wf, 2.5));
  STATIC_REQUIRE(is(ip::min(1_c, 2_c), wi, 1));
  STATIC_REQUIRE(is(ip::sum(1_c, 2_c, 3.5_c), wf, 6.5));
}

TEST_CASE("comparisons and logical ops fold to bool (NumPy: 1 < 2 is a bool)", "[constant_fold]") {
  STATIC_REQUIRE(is(1_c < 2_c, bo, 1));
  STATIC_REQUIRE(is(2_c <= 1_c, bo, 0));
  STATIC_REQUIRE(is(2.5_c > 2_c, bo, 1));
  STATIC_REQUIRE(is(2_c >= 2.0_c, bo, 1));
  STATIC_REQUIRE(is(ip::equal(3_c, 3.0_c), bo, 1));
  STATIC_REQUIRE(is(ip::not_equal(3_c, 3_c), bo, 0));
  STATIC_REQUIRE(is(ip::logical_and(1_c, 0_c), bo, 0));
  STATIC_REQUIRE(is(ip::logical_or(0_c, 0.5_c), bo, 1));
  STATIC_REQUIRE(is(ip::logical_not(0_c), bo, 1));
  STATIC_REQUIRE(is(ip::isnan(1.0_c), bo, 0));
  STATIC_REQUIRE(is(ip::isfinite(1.0_c / 3_c), bo, 1));
  // a bool beside an int8 input keeps int8 (np.int8 array + True: int8)
  constexpr auto i8 = ip::input<"i8", std::int8_t>;
  STATIC_REQUIRE(std::is_same_v<decltype(i8 + (1_c < 2_c))::dtype, std::int8_t>);
  // where's condition folded too, the branches decide the dtype
  STATIC_REQUIRE(is(ip::where(1_c < 2_c, 3_c, 4.5_c), wf, 3));
  STATIC_REQUIRE(is(ip::where(0_c, 3_c, 4_c), wi, 4));
}

TEST_CASE("the new arithmetic ops fold, NumPy's values", "[constant_fold]") {
  STATIC_REQUIRE(is(ip::pow(2_c, 10_c), wi, 1024));  // integers stay integers
  STATIC_REQUIRE(is(ip::pow(2_c, -1_c), wi, 0));     // truncated 1 / 2
  STATIC_REQUIRE(is(ip::pow(0.0_c, 0_c), wf, 1));
  STATIC_REQUIRE(is(ip::pow(0.0_c, -1_c), wf, inf));
  STATIC_REQUIRE(near(ip::pow(2.0_c, 0.5_c), wf, 1.4142135623730951L));
  // np.power's special values: a negative base to an infinite power or to an
  // integer beyond 2^31 (its parity the sign), an infinite base to a fraction
  // (these folded to NaN)
  constexpr auto i = ip::exp(1e6_c);  // inf
  STATIC_REQUIRE(is(i, wf, inf));
  STATIC_REQUIRE(is(ip::pow(-1.0_c, i), wf, 1));
  STATIC_REQUIRE(is(ip::pow(-1.0_c, -i), wf, 1));
  STATIC_REQUIRE(is(ip::pow(-0.5_c, i), wf, 0));
  STATIC_REQUIRE(is(ip::pow(-2.0_c, i), wf, inf));
  STATIC_REQUIRE(is(ip::pow(-2.0_c, -i), wf, 0));
  STATIC_REQUIRE(is(ip::pow(-i, 0.5_c), wf, inf));
  STATIC_REQUIRE(is(ip::pow(-i, -0.5_c), wf, 0));
  STATIC_REQUIRE(is(ip::pow(-i, 3_c), wf, -inf));
  STATIC_REQUIRE(negative_zero(ip::pow(-i, -3_c)));
  STATIC_REQUIRE(is(ip::pow(-1.0_c, 1099511627776.0_c), wf, 1));  // 2^40: even
  STATIC_REQUIRE(is(ip::pow(-2.0_c, 1099511627776.0_c), wf, inf));
  STATIC_REQUIRE(negative_zero(ip::pow(-0.5_c, 1099511627777.0_c)));
  STATIC_REQUIRE(negative_zero(ip::pow(-0.0_c, 3_c)));
  STATIC_REQUIRE(is(ip::pow(-0.0_c, -1_c), wf, -inf));
  STATIC_REQUIRE(is(ip::pow(-0.0_c, 0.5_c), wf, 0) && !negative_zero(ip::pow(-0.0_c, 0.5_c)));
  STATIC_REQUIRE(is(ip::pow(-0.0_c, -2_c), wf, inf));
  STATIC_REQUIRE(is(ip::pow(0.0_c, -i), wf, inf));
  STATIC_REQUIRE(is(ip::pow(i, -0.5_c), wf, 0));
  STATIC_REQUIRE(is(ip::pow(-8.0_c, -3_c), wf, -0.001953125));
  STATIC_REQUIRE(is(ip::pow(-1.5_c, 2147483649.0_c), wf, -inf));  // 2^31 + 1: odd
  STATIC_REQUIRE(is(ip::square(-3_c), wi, 9));
  STATIC_REQUIRE(is(ip::square(1.5_c), wf, 2.25));
  STATIC_REQUIRE(is(ip::clip(5_c, 0_c, 3_c), wi, 3));
  STATIC_REQUIRE(is(ip::clip(-0.5_c, 0_c, 3_c), wf, 0));
  STATIC_REQUIRE(is(ip::sign(-2.5_c), wf, -1));
  STATIC_REQUIRE(is(ip::sign(0_c), wi, 0));
  STATIC_REQUIRE(is(ip::floor(-2.5_c), wf, -3));
  STATIC_REQUIRE(is(ip::ceil(-2.5_c), wf, -2));
  STATIC_REQUIRE(is(ip::round(2.5_c), wf, 2));  // half to even
  STATIC_REQUIRE(is(ip::round(3.5_c), wf, 4));
  STATIC_REQUIRE(is(ip::round(7_c), wi, 7));
  STATIC_REQUIRE(is(ip::abs(-3_c), wi, 3));
  STATIC_REQUIRE(is(ip::relu(-1.5_c), wf, 0));
  STATIC_REQUIRE(is(ip::neg(2_c), wi, -2));
  // -0.0 keeps its sign where NumPy's does
  STATIC_REQUIRE(ip::detail::cmath::signbit(decltype(ip::round(-0.5_c))::value));
  STATIC_REQUIRE(ip::detail::cmath::signbit(decltype(ip::ceil(-0.5_c))::value));
  STATIC_REQUIRE(!ip::detail::cmath::signbit(decltype(ip::floor(0.5_c))::value));
}

TEST_CASE("math functions fold to within an ulp of NumPy's", "[constant_fold]") {
  // np.exp(0.5) ... as NumPy prints them (a float operand: weak float; sqrt(2_c) a weak float)
  STATIC_REQUIRE(near(ip::exp(0.5_c), wf, 1.6487212707001282L));
  STATIC_REQUIRE(near(ip::log(0.5_c), wf, -0.6931471805599453L));
  STATIC_REQUIRE(near(ip::sqrt(2_c), wf, 1.4142135623730951L));
  STATIC_REQUIRE(near(ip::tanh(0.5_c), wf, 0.46211715726000974L));
  STATIC_REQUIRE(near(ip::sigmoid(0.5_c), wf, 0.6224593312018546L));
  STATIC_REQUIRE(near(ip::gelu(0.5_c), wf, 0.34573123063700656L));
  // the negative tail, as the run-time kernel: x/2 erfc(-x/sqrt 2) (Python's
  // 0.5 * x * math.erfc(-x / sqrt(2)); 1 + erf kept no digit below -6.5). The
  // argument x/sqrt 2 is rounded in double, and erfc(t) scales its relative
  // error by 2t^2: within 1e-16 * x^2, here 1e-13
  constexpr auto tail = [](auto c, long double want) {
    const long double d = decltype(c)::value - want;
    return (d < 0 ? -d : d) <= 1e-13L * (want < 0 ? -want : want);
  };
  STATIC_REQUIRE(near(ip::gelu(-7.0_c), wf, -8.958687807200846e-12L));
  STATIC_REQUIRE(tail(ip::gelu(-10.0_c), -7.619853024160593e-23L));
  STATIC_REQUIRE(tail(ip::gelu(-20.0_c), -5.507248237212663e-88L));
  STATIC_REQUIRE(near(ip::log1p(0.5_c), wf, 0.4054651081081644L));
  STATIC_REQUIRE(near(ip::expm1(0.5_c), wf, 0.6487212707001282L));
  STATIC_REQUIRE(near(ip::sin(0.5_c), wf, 0.47942553860420295L));
  STATIC_REQUIRE(near(ip::cos(0.5_c), wf, 0.8775825618903725L));
  STATIC_REQUIRE(near(ip::sin(100000_c), wf, 0.03574879797201651L));
  STATIC_REQUIRE(is(ip::log(0.0_c), wf, -inf));
  // an argument whose folding would lose accuracy stays a node, computed when called
  STATIC_REQUIRE(!folded<decltype(ip::sin(1e7_c))>);
}

TEST_CASE("cast<T> folds to a constant of dtype T (NumPy's astype)", "[constant_fold]") {
  STATIC_REQUIRE(is(ip::cast<float>(1.1_c), float{}, static_cast<long double>(1.1f)));
  STATIC_REQUIRE(is(ip::cast<std::int32_t>(-2.7_c), std::int32_t{}, -2));  // toward zero
  STATIC_REQUIRE(is(ip::cast<std::uint8_t>(300_c), std::uint8_t{}, 44));   // wraps
  STATIC_REQUIRE(is(ip::cast<bool>(0.5_c), bo, 1));
  // a fixed dtype beside a weak constant: the fixed one (float32 + 2 stays float32)
  STATIC_REQUIRE(is(ip::cast<float>(1_c) + 0.1_c, float{}, static_cast<long double>(1.0f + 0.1f)));
  STATIC_REQUIRE(is(ip::cast<std::int8_t>(100_c) + 100_c, std::int8_t{}, -56));  // int8 wraps
  // and beside an input, the usual promotion: float32 input + float64 constant is float64
  constexpr auto x = ip::input<"x", float>;
  STATIC_REQUIRE(std::is_same_v<decltype(x + ip::cast<double>(1_c))::dtype, double>);
  STATIC_REQUIRE(std::is_same_v<decltype(x + ip::exp(1_c))::dtype, float>);  // weak float stays weak
}

namespace {
struct twice_plus_one {  // a user's op with a constexpr kernel: folds
  static constexpr std::string_view name = "twice_plus_one";
  static constexpr bool elementwise = true;
  template <class A>
  constexpr auto operator()(A a) const { return a * 2 + 1; }
};
struct qualified_exp {  // a user's kernel calling std::exp qualified: no constant on clang, a node
  static constexpr std::string_view name = "qualified_exp";
  static constexpr bool elementwise = true;
  template <class A>
  auto operator()(A a) const { return std::exp(a); }
};
}  // namespace

TEST_CASE("a user's elementwise op folds where its kernel is a constant expression", "[constant_fold]") {
  STATIC_REQUIRE(is(ip::apply(twice_plus_one{}, 3_c), wi, 7));
  STATIC_REQUIRE(is(ip::apply(twice_plus_one{}, 0.25_c), wf, 1.5));
  STATIC_REQUIRE(!folded<decltype(ip::apply(qualified_exp{}, 1.0_c))>);  // not constexpr: stays a node
}

TEST_CASE("every elementwise op of the table folds", "[constant_fold]") {
  // one call per op of INPLACE_ELEMENTWISE_OPS, by its arity
#define UNARY(NAME) STATIC_REQUIRE(folded<decltype(ip::NAME(0.5_c))>);
#define BINARY(NAME) STATIC_REQUIRE(folded<decltype(ip::NAME(0.5_c, 2_c))>);
  UNARY(neg) UNARY(exp) UNARY(log) UNARY(sqrt) UNARY(abs) UNARY(tanh) UNARY(sigmoid) UNARY(relu) UNARY(gelu)
  UNARY(square) UNARY(log1p) UNARY(expm1) UNARY(sin) UNARY(cos) UNARY(floor) UNARY(ceil) UNARY(round) UNARY(sign)
  UNARY(isnan) UNARY(isfinite) UNARY(logical_not)
  BINARY(add) BINARY(sub) BINARY(mul) BINARY(div) BINARY(min) BINARY(max) BINARY(pow) BINARY(less)
  BINARY(less_equal) BINARY(greater) BINARY(greater_equal) BINARY(equal) BINARY(not_equal) BINARY(logical_and)
  BINARY(logical_or) BINARY(sum)
#undef UNARY
#undef BINARY
  STATIC_REQUIRE(folded<decltype(ip::where(1_c, 0.5_c, 2_c))>);
  STATIC_REQUIRE(folded<decltype(ip::clip(0.5_c, 0_c, 1_c))>);
  STATIC_REQUIRE(folded<decltype(ip::cast<double>(1_c))>);
  // 38 functions above + where, clip: the table's 39 ops and cast
  STATIC_REQUIRE(std::size(ip::ops::elementwise_ops) == 39);
}
