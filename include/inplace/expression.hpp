#pragma once
// Tensor expressions (SPEC 7): every elementwise op of SPEC 2 on tensors, views
// and run-time scalars. Nothing is computed here: each call builds a node
// (detail::texpr::elementwise<Op, ...>) that an assignment evaluates in one
// fused loop. Operands broadcast as in NumPy; operands that do not broadcast
// throw ip::shape_error when the node is built.
//
//   ip::apply(op, operands...)  the node of any elementwise op class (a standard
//                               op, ops::inplace_op<Op, I>, or a user's op)
//
// Every function here requires at least one tensor, view or node operand, so
// none of them competes with the symbolic overloads of the graph layer.

#include "inplace/detail/tensor_fwd.hpp"
#include "inplace/detail/texpr_node.hpp"
#include "inplace/ops/elementwise.hpp"
#include "inplace/tensor.hpp"
#include "inplace/tensor_view.hpp"

#include <type_traits>
#include <utility>

namespace inplace {
namespace detail::texpr {
template <class... X>
concept expression_args = (operand_or_scalar<X> && ...) && (operand<X> || ...);
}  // namespace detail::texpr

template <class Op, class... X>
  requires(std::is_class_v<std::remove_cvref_t<Op>> && detail::texpr::expression_args<X...>)
auto apply(Op&& op, X&&... x) {
  static_assert(requires { requires std::remove_cvref_t<Op>::elementwise; },
                "inplace: ip::apply on tensors needs an elementwise op (static constexpr bool elementwise = true)");
  return detail::texpr::make(std::remove_cvref_t<Op>(std::forward<Op>(op)), std::forward<X>(x)...);
}

#define INPLACE_TX_BINARY_OPERATOR(SYM, OP)                                        \
  template <class A, class B>                                                      \
    requires detail::texpr::expression_args<A, B>                                  \
  auto operator SYM(A&& a, B&& b) {                                                \
    return detail::texpr::make(ops::OP{}, std::forward<A>(a), std::forward<B>(b)); \
  }
INPLACE_TX_BINARY_OPERATOR(+, add)
INPLACE_TX_BINARY_OPERATOR(-, sub)
INPLACE_TX_BINARY_OPERATOR(*, mul)
INPLACE_TX_BINARY_OPERATOR(/, div)
#undef INPLACE_TX_BINARY_OPERATOR

template <class A>
  requires detail::texpr::operand<A>
auto operator-(A&& a) {
  return detail::texpr::make(ops::neg{}, std::forward<A>(a));
}

#define INPLACE_TX_UNARY(NAME)                          \
  template <class A>                                    \
    requires detail::texpr::operand<A>                  \
  auto NAME(A&& a) {                                    \
    return detail::texpr::make(ops::NAME{}, std::forward<A>(a)); \
  }
INPLACE_TX_UNARY(neg)
INPLACE_TX_UNARY(exp)
INPLACE_TX_UNARY(log)
INPLACE_TX_UNARY(sqrt)
INPLACE_TX_UNARY(abs)
INPLACE_TX_UNARY(tanh)
INPLACE_TX_UNARY(sigmoid)
INPLACE_TX_UNARY(relu)
INPLACE_TX_UNARY(gelu)
#undef INPLACE_TX_UNARY

// NumPy's minimum / maximum.
template <class A, class B>
  requires detail::texpr::expression_args<A, B>
auto min(A&& a, B&& b) {
  return detail::texpr::make(ops::min{}, std::forward<A>(a), std::forward<B>(b));
}
template <class A, class B>
  requires detail::texpr::expression_args<A, B>
auto max(A&& a, B&& b) {
  return detail::texpr::make(ops::max{}, std::forward<A>(a), std::forward<B>(b));
}
// where(c, a, b): c ? a : b elementwise.
template <class C, class A, class B>
  requires detail::texpr::expression_args<C, A, B>
auto where(C&& c, A&& a, B&& b) {
  return detail::texpr::make(ops::where{}, std::forward<C>(c), std::forward<A>(a), std::forward<B>(b));
}
// sum(a, b, ...): n-ary elementwise add.
template <class... X>
  requires(sizeof...(X) >= 1 && detail::texpr::expression_args<X...>)
auto sum(X&&... x) {
  return detail::texpr::make(ops::sum{}, std::forward<X>(x)...);
}

}  // namespace inplace
