#pragma once
// The in-place capability registry (Paddle's InplaceInferer, Aesara's inplace
// optimizer list): ip::inplace_variant<Op, I> names the op computing what Op
// computes but in the storage of input I; ip::inplace<I>(op) builds one for any
// elementwise op. Users register their own ops by specialising
// ip::inplace_variant_traits<Op, I> with `using type = ...;`.

#include "inplace/ops/detail/type_name.hpp"
#include "inplace/ops/elementwise.hpp"

#include <boost/hana/integral_constant.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/tuple.hpp>

#include <array>
#include <cstddef>
#include <string_view>

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
  using base_op = Op;
};

using add_inplace = inplace_op<add, 0>;
using sub_inplace = inplace_op<sub, 0>;
using mul_inplace = inplace_op<mul, 0>;
using div_inplace = inplace_op<div, 0>;
using neg_inplace = inplace_op<neg, 0>;
using exp_inplace = inplace_op<exp, 0>;
using log_inplace = inplace_op<log, 0>;
using sqrt_inplace = inplace_op<sqrt, 0>;
using abs_inplace = inplace_op<abs, 0>;
using tanh_inplace = inplace_op<tanh, 0>;
using sigmoid_inplace = inplace_op<sigmoid, 0>;
using relu_inplace = inplace_op<relu, 0>;
using gelu_inplace = inplace_op<gelu, 0>;
using sum_inplace = inplace_op<sum, 0>;
}  // namespace ops

// The registry. Empty by default: an op has no in-place variant until registered.
template <class Op, int I>
struct inplace_variant_traits {};

template <class Op, int I>
using inplace_variant = typename inplace_variant_traits<Op, I>::type;

template <class Op, int I>
concept has_inplace_variant = requires { typename inplace_variant_traits<Op, I>::type; };

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

// Standard registrations: every standard op with an *_inplace form, for any input index.
#define INPLACE_REGISTER(OP) \
  template <int I>           \
  struct inplace_variant_traits<ops::OP, I> { using type = ops::inplace_op<ops::OP, I>; };
INPLACE_REGISTER(add)
INPLACE_REGISTER(sub)
INPLACE_REGISTER(mul)
INPLACE_REGISTER(div)
INPLACE_REGISTER(neg)
INPLACE_REGISTER(exp)
INPLACE_REGISTER(log)
INPLACE_REGISTER(sqrt)
INPLACE_REGISTER(abs)
INPLACE_REGISTER(tanh)
INPLACE_REGISTER(sigmoid)
INPLACE_REGISTER(relu)
INPLACE_REGISTER(gelu)
INPLACE_REGISTER(sum)
#undef INPLACE_REGISTER

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
