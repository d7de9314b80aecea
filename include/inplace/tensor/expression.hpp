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
#include "inplace/ops/inplace_op.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_inplace.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace inplace {
namespace detail::texpr {
template <class... X>
concept expression_args = (operand_or_scalar<X> && ...) && (operand<X> || ...);
// What `x op= e` may write: a tensor lvalue or a view (of mutable elements).
// What a comparison operator takes: as an arithmetic one, but not rank-0 tensors
// and views beside numbers only, which compare as the numbers they convert to
// (ip::dot(x, y) == 32 is a bool, as before comparisons were expressions).
template <class X>
concept array_operand = operand<X> && (rank_v<X> > 0 || is_node<std::remove_cvref_t<X>>::value);
template <class A, class B>
concept comparison_args = expression_args<A, B> && (array_operand<A> || array_operand<B>);
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

namespace detail::texpr {
// Whether an op's kernel takes N operands (ip::exp takes one, ip::sum any number).
template <class Op, std::size_t N>
concept kernel_arity = []<std::size_t... J>(std::index_sequence<J...>) {
  return std::is_invocable_v<const Op&, decltype(void(J), 0.0)...>;
}(std::make_index_sequence<N>{});
}  // namespace detail::texpr

// ip::NAME(x...) and ip::NAME_inplace(x...) on tensors, views and expressions, for
// every op of INPLACE_ELEMENTWISE_OPS (ops/elementwise.hpp). An *_inplace runs
// now, in its first operand's storage (tensor_inplace.hpp).
#define INPLACE_TX_FN(NAME)                                                                                   \
  template <class... X>                                                                                       \
    requires(detail::texpr::expression_args<X...> && detail::texpr::kernel_arity<ops::NAME, sizeof...(X)>)   \
  [[gnu::always_inline]] inline auto NAME(X&&... x) {                                                         \
    return detail::texpr::make(ops::NAME{}, std::forward<X>(x)...);                                           \
  }                                                                                                           \
  template <class A, class... B>                                                                              \
    requires(detail::texpr::operand<A> && (detail::texpr::operand_or_scalar<B> && ...) &&                     \
             detail::texpr::kernel_arity<ops::NAME, 1 + sizeof...(B)>)                                        \
  auto NAME##_inplace(A&& a, B&&... b) {                                                                      \
    detail::require_inplace_form<ops::NAME, A>();                                                             \
    if constexpr (ops::has_inplace_flag<ops::NAME>())                                                         \
      return detail::texpr::run_inplace(ops::inplace_op<ops::NAME, 0>{}, std::forward<A>(a), std::forward<B>(b)...); \
    else return detail::texpr::make(ops::NAME{}, std::forward<A>(a), std::forward<B>(b)...); /* reported */ \
  }
INPLACE_ELEMENTWISE_OPS(INPLACE_TX_FN)
#undef INPLACE_TX_FN

// ip::cast<T>(x): NumPy's x.astype(T).
template <class T, class X>
  requires detail::texpr::operand<X>
[[gnu::always_inline]] inline auto cast(X&& x) {
  return detail::texpr::make(ops::cast<T>{}, std::forward<X>(x));
}

// a + b, a < b, ...; x += e is x = x + e.
#define INPLACE_TX_OPERATOR(SYM, OP)                                                             \
  template <class A, class B>                                                                    \
    requires detail::texpr::expression_args<A, B>                                                \
  [[gnu::always_inline]] inline auto operator SYM(A&& a, B&& b) {                                \
    return detail::texpr::make(ops::OP{}, std::forward<A>(a), std::forward<B>(b));               \
  }
#define INPLACE_TX_COMPARISON(SYM, OP)                                                           \
  template <class A, class B>                                                                    \
    requires detail::texpr::comparison_args<A, B>                                                \
  [[gnu::always_inline]] inline auto operator SYM(A&& a, B&& b) {                                \
    return detail::texpr::make(ops::OP{}, std::forward<A>(a), std::forward<B>(b));               \
  }
#define INPLACE_TX_COMPOUND(SYM, OP)                                                             \
  template <class D, class E>                                                                    \
    requires detail::texpr::compound_target<D> && detail::texpr::operand_or_scalar<E>            \
  std::conditional_t<std::is_lvalue_reference_v<D>, D, std::remove_cvref_t<D>> operator SYM##=( \
      D&& d, E&& e) {                                                                            \
    detail::compound_assign(ops::OP{}, detail::tx_view_of(d), std::forward<E>(e));               \
    return std::forward<D>(d);                                                                   \
  }
INPLACE_ARITHMETIC_OPERATORS(INPLACE_TX_OPERATOR)
INPLACE_ARITHMETIC_OPERATORS(INPLACE_TX_COMPOUND)
INPLACE_COMPARISON_OPERATORS(INPLACE_TX_COMPARISON)
#undef INPLACE_TX_OPERATOR
#undef INPLACE_TX_COMPARISON
#undef INPLACE_TX_COMPOUND

template <class A>
  requires detail::texpr::operand<A>
[[gnu::always_inline]] inline auto operator-(A&& a) {
  return detail::texpr::make(ops::neg{}, std::forward<A>(a));
}

}  // namespace inplace
