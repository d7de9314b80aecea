#pragma once
// The in-place capability registry (Paddle's InplaceInferer, Aesara's inplace
// optimizer list): ip::inplace_variant<Op, I> names the op computing what Op
// computes but in the storage of input I; ip::inplace<I>(op) builds one for any
// elementwise op. An op class with `static constexpr bool has_inplace = true;`
// is registered with that variant for every input; users register other
// variants by specialising ip::inplace_variant_traits<Op, I> with `using type = ...;`.

#include "inplace/ops/detail/type_name.hpp"
#include "inplace/ops/elementwise.hpp"

#include <boost/hana/integral_constant.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/tuple.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail {
template <int I>
constexpr std::size_t digits() { return I < 10 ? 1 : 1 + digits<I / 10>(); }

// "<base>_inplace" for input 0, "<base>_inplace<I>" otherwise, as static storage.
template <class Op, int I>
struct inplace_name {
  static constexpr std::string_view base = op_name<Op>();
  static constexpr std::size_t size = base.size() + 8 + (I == 0 ? 0 : digits<I>() + 2);
  static constexpr auto storage = [] {
    std::array<char, size + 1> s{};
    std::size_t n = 0;
    for (char c : base) s[n++] = c;
    for (char c : std::string_view{"_inplace"}) s[n++] = c;
    if (I != 0) {
      s[n++] = '<';
      for (std::size_t d = digits<I>(), v = I; d-- > 0; v /= 10) s[n + d] = static_cast<char>('0' + v % 10);
      n += digits<I>();
      s[n++] = '>';
    }
    return s;
  }();
  static constexpr std::string_view value{storage.data(), size};
};
}  // namespace detail

namespace ops {
// Op computed in the storage of its input I: destroy_map {0: [I]}. Everything
// else (kernel, elementwise flag, shape rule) is Op's.
template <class Op, int I>
struct inplace_op : Op {
  static constexpr auto destroy_map = boost::hana::make_map(
      boost::hana::make_pair(boost::hana::int_c<0>, boost::hana::tuple_c<int, I>));
  static constexpr std::string_view name = detail::inplace_name<Op, I>::value;
  static constexpr bool has_inplace = false;  // it is the variant (Op's simd, kernel, dtype stay)
  using base_op = Op;
};

// An op without an in-place form (has_inplace is not set): ops::less_inplace
// names this incomplete type.
template <class Op>
struct no_inplace_form;
template <class Op>
using inplace_form = std::conditional_t<has_inplace_flag<Op>(), inplace_op<Op, 0>, no_inplace_form<Op>>;

// ops::add_inplace = inplace_op<add, 0>, ... for every standard op with has_inplace.
#define INPLACE_INPLACE_ALIAS(NAME) using NAME##_inplace = inplace_form<NAME>;
INPLACE_ELEMENTWISE_OPS(INPLACE_INPLACE_ALIAS)
#undef INPLACE_INPLACE_ALIAS
}  // namespace ops

// The registry: an op with `static constexpr bool has_inplace = true;` (every
// standard op with an *_inplace form, for any input) has the generic variant
// inplace_op<Op, I>; other ops have none until registered by a specialisation.
template <class Op, int I>
struct inplace_variant_traits {};
template <class Op, int I>
  requires(ops::has_inplace_flag<Op>())
struct inplace_variant_traits<Op, I> {
  using type = ops::inplace_op<Op, I>;
};

template <class Op, int I>
using inplace_variant = typename inplace_variant_traits<Op, I>::type;

template <class Op, int I>
concept has_inplace_variant = requires { typename inplace_variant_traits<Op, I>::type; };

namespace detail {
// Reported where an op without an in-place form is asked for one (ip::less_inplace).
template <class Op, class... A>
constexpr void require_inplace_form() {
  static_assert(ops::has_inplace_flag<Op>(),
                "inplace: no_inplace_form: this op has no in-place form (ip::<op>_inplace): comparisons, logical "
                "ops, isnan, isfinite and casts give another dtype than their operands', and min, max and where "
                "are not registered; fix: compute the op into a value of its own dtype (ip::<op>(...)), or "
                "overwrite an operand of the result's dtype with ip::apply(ip::inplace<I>(op), ...).");
}
}  // namespace detail

// ip::inplace<I>(op): the generic in-place variant of an elementwise op.
template <int I, class Op>
constexpr ops::inplace_op<Op, I> inplace(Op) {
  static_assert(I >= 0, "inplace: inplace_index: ip::inplace<I>(op): I must be a non-negative input index; "
                "fix: pass the index of the input to overwrite (0 for the first).");
  static_assert(requires { requires Op::elementwise; },
                "inplace: inplace_of_opaque: ip::inplace<I>(op) builds in-place variants of elementwise ops only; "
                "fix: register an opaque op's variant by specialising ip::inplace_variant_traits.");
  return {};
}

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
