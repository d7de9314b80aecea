// The SIMD evaluator asks the op class (simd_op reads `simd`): every standard op
// that ran on batches before the flag moved into the classes still does, with
// its *_inplace form; ops whose kernels do not take batches do not; and the
// in-place registry reads `has_inplace` from the same classes.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

namespace ip = inplace;
using ip::detail::texpr::simd_op;

template <class... Op>
constexpr bool all_simd = (simd_op<Op>::value && ...) && (simd_op<ip::ops::inplace_op<Op, 0>>::value && ...);
template <class... Op>
constexpr bool none_simd = (!simd_op<Op>::value && ...);

namespace o = ip::ops;
static_assert(all_simd<o::add, o::sub, o::mul, o::div, o::neg, o::exp, o::log, o::sqrt, o::abs, o::tanh, o::sigmoid,
                       o::gelu, o::sum>);
static_assert(all_simd<o::square, o::log1p, o::sin, o::cos, o::round>);
static_assert(none_simd<o::relu, o::min, o::max, o::where, o::pow, o::expm1, o::floor, o::ceil, o::clip, o::sign, o::isnan, o::isfinite, o::less,
                        o::equal, o::logical_and, o::logical_not, o::cast<float>>);

// A user's op: the flag alone decides.
struct twice {
  static constexpr bool elementwise = true;
  static constexpr bool simd = true;
  static constexpr bool has_inplace = true;
  template <class A>
  constexpr auto operator()(A a) const { return a + a; }
};
static_assert(simd_op<twice>::value && simd_op<ip::ops::inplace_op<twice, 1>>::value);
static_assert(std::is_same_v<ip::inplace_variant<twice, 1>, ip::ops::inplace_op<twice, 1>>);
// The variant itself registers nothing further.
static_assert(!ip::has_inplace_variant<ip::ops::inplace_op<twice, 0>, 0>);

// Registered exactly where the class says so; the aliases follow.
static_assert(ip::has_inplace_variant<o::pow, 1> && ip::has_inplace_variant<o::clip, 2> &&
              ip::has_inplace_variant<o::sign, 0>);
static_assert(!ip::has_inplace_variant<o::less, 0> && !ip::has_inplace_variant<o::isnan, 0> &&
              !ip::has_inplace_variant<o::cast<int>, 0>);
static_assert(std::is_same_v<o::sin_inplace, o::inplace_op<o::sin, 0>>);
static_assert(std::is_same_v<o::less_inplace, o::no_inplace_form<o::less>>);

TEST_CASE("simd and has_inplace are read from the op classes", "[ops][simd]") {
  CHECK(o::sin_inplace::name == "sin_inplace");
  CHECK(o::cast<int>{}(-2.7) == -2);
  CHECK(o::round{}(2.5) == 2.0);
  CHECK(o::round{}(-0.5) == 0.0);
}
