#pragma once
// Tensor expressions: every standard elementwise op on tensors, views
// and run-time scalars. Nothing is computed here: each call builds a node
// (detail::texpr::elementwise<Op, ...>) that an assignment evaluates in one
// fused loop. Operands broadcast as in NumPy; operands that do not broadcast
// throw ip::shape_error when the node is built.
//
//   ip::apply(op, operands...)  the node of any elementwise op class (a standard
//                               op or a user's op); an op with a destroy_map
//                               runs now, in place (tensor_inplace.hpp)
//   x += e, x -= e, x *= e, x /= e   x = x + e ... (one loop, as any assignment)
//
// Every function here requires at least one tensor, view or node operand and no
// symbol, so none of them competes with the symbolic overloads of the graph
// layer (tests/graph/adl.cpp checks both ways).

#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/texpr_node.hpp"
#include "inplace/ops/elementwise.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_inplace.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <type_traits>
#include <utility>

namespace inplace {
namespace detail::texpr {
template <class... X>
concept expression_args = (operand_or_scalar<X> && ...) && (operand<X> || ...);
// What `x op= e` may write: a tensor lvalue or a view (of mutable elements).
template <class D>
concept compound_target = (tensor_like<D> && std::is_lvalue_reference_v<D>) || view_like<D>;
}  // namespace detail::texpr

template <class Op, class... X>
  requires(std::is_class_v<std::remove_cvref_t<Op>> && detail::texpr::expression_args<X...>)
[[gnu::always_inline]] inline auto apply(Op&& op, X&&... x) {
  using O = std::remove_cvref_t<Op>;
  static_assert(requires { requires O::elementwise; },
                "inplace: opaque_on_tensors: ip::apply on tensors needs an elementwise op (static constexpr bool "
                "elementwise = true); fix: call an opaque op's own function (ip::dot, ip::softmax) or run it "
                "in a graph.");
  if constexpr (!requires { requires O::elementwise; }) return;  // reported above: nothing more
  else if constexpr (detail::texpr::destroys_an_input<O, sizeof...(X)>)
    return detail::texpr::run_inplace(O(std::forward<Op>(op)), std::forward<X>(x)...);
  else return detail::texpr::make(O(std::forward<Op>(op)), std::forward<X>(x)...);
}

// a + b and ip::add(a, b), ...; x += e is x = x + e.
#define INPLACE_TX_BINARY_OPERATOR(SYM, OP)                                                      \
  template <class A, class B>                                                                    \
    requires detail::texpr::expression_args<A, B>                                                \
  [[gnu::always_inline]] inline auto operator SYM(A&& a, B&& b) {                                \
    return detail::texpr::make(ops::OP{}, std::forward<A>(a), std::forward<B>(b));               \
  }                                                                                              \
  template <class A, class B>                                                                    \
    requires detail::texpr::expression_args<A, B>                                                \
  [[gnu::always_inline]] inline auto OP(A&& a, B&& b) {                                          \
    return detail::texpr::make(ops::OP{}, std::forward<A>(a), std::forward<B>(b));               \
  }                                                                                              \
  template <class D, class E>                                                                    \
    requires detail::texpr::compound_target<D> && detail::texpr::operand_or_scalar<E>            \
  std::conditional_t<std::is_lvalue_reference_v<D>, D, std::remove_cvref_t<D>> operator SYM##=( \
      D&& d, E&& e) {                                                                            \
    detail::compound_assign(ops::OP{}, detail::tx_view_of(d), std::forward<E>(e));               \
    return std::forward<D>(d);                                                                   \
  }
INPLACE_TX_BINARY_OPERATOR(+, add)
INPLACE_TX_BINARY_OPERATOR(-, sub)
INPLACE_TX_BINARY_OPERATOR(*, mul)
INPLACE_TX_BINARY_OPERATOR(/, div)
#undef INPLACE_TX_BINARY_OPERATOR

template <class A>
  requires detail::texpr::operand<A>
[[gnu::always_inline]] inline auto operator-(A&& a) {
  return detail::texpr::make(ops::neg{}, std::forward<A>(a));
}

#define INPLACE_TX_UNARY(NAME)                          \
  template <class A>                                    \
    requires detail::texpr::operand<A>                  \
  [[gnu::always_inline]] inline auto NAME(A&& a) {      \
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
[[gnu::always_inline]] inline auto min(A&& a, B&& b) {
  return detail::texpr::make(ops::min{}, std::forward<A>(a), std::forward<B>(b));
}
template <class A, class B>
  requires detail::texpr::expression_args<A, B>
[[gnu::always_inline]] inline auto max(A&& a, B&& b) {
  return detail::texpr::make(ops::max{}, std::forward<A>(a), std::forward<B>(b));
}
// where(c, a, b): c ? a : b elementwise.
template <class C, class A, class B>
  requires detail::texpr::expression_args<C, A, B>
[[gnu::always_inline]] inline auto where(C&& c, A&& a, B&& b) {
  return detail::texpr::make(ops::where{}, std::forward<C>(c), std::forward<A>(a), std::forward<B>(b));
}
// sum(a, b, ...): n-ary elementwise add.
template <class... X>
  requires(sizeof...(X) >= 1 && detail::texpr::expression_args<X...>)
[[gnu::always_inline]] inline auto sum(X&&... x) {
  return detail::texpr::make(ops::sum{}, std::forward<X>(x)...);
}

}  // namespace inplace
