#pragma once
// The symbolic face of the standard ops: ip::apply for any op class, and the
// functions and operators that build graph nodes from symbols.
// All take only symbols: a plain run-time number is a compile error that says
// to use a `_c` constant or an ip::scalar input.

#include "inplace/graph/node.hpp"
#include "inplace/ops/elementwise.hpp"
#include "inplace/ops/inplace_op.hpp"
#include "inplace/ops/opaque.hpp"
#include "inplace/ops/views.hpp"

#include <boost/hana/tuple.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace inplace {
namespace detail {

template <class... A>
concept any_symbolic = (symbolic<A> || ...);

// An operand as a graph symbol; a run-time number (an error, reported once by
// ip::apply) becomes the constant 0_c, so that the rest of the graph still
// builds and the user sees one error, not a cascade.
template <class A>
using symbol_or_zero = std::conditional_t<symbolic<A>, std::remove_cvref_t<A>, constant_leaf<'0'>>;

template <class Node, std::size_t... I>
constexpr auto outputs_of(std::index_sequence<I...>) {
  return boost::hana::make_tuple(out<Node, I>{}...);
}

// The library's elementwise ops: constant folding runs their kernels on
// const_float operands (detail/constant_fold.hpp).
#define INPLACE_LIBRARY_OP(NAME) \
  template <>                    \
  inline constexpr bool library_op<ops::NAME> = true;
INPLACE_ELEMENTWISE_OPS(INPLACE_LIBRARY_OP)
#undef INPLACE_LIBRARY_OP
template <class T>
inline constexpr bool library_op<ops::cast<T>> = true;

// Whether T is a node's output (constant folding asks this first, see apply).
template <class T>
inline constexpr bool is_node_output = false;
template <class N, std::size_t I>
inline constexpr bool is_node_output<out<N, I>> = true;

// A view op that needs its operand's elements in row-major order (reshape,
// flatten, needs_row_major_input): ip::apply gives it a copy of an operand
// whose static layout proves they are not (node.hpp's proven_not_dense), for
// its view would throw ip::shape_error at every call.
template <class Op>
inline constexpr bool reads_row_major = requires { requires Op::needs_row_major_input; };
template <class Op, class... S>
constexpr bool reads_a_copy() {
  if constexpr (reads_row_major<Op> && sizeof...(S) == 1) return proven_not_dense(ref_of<S>()...);
  else return false;
}
}  // namespace detail

// A node applying `op` to symbols; multi-output ops give a hana::tuple of outputs.
// (With no symbol among the arguments, ip::apply is the tensor-expression one.)
template <class Op, class... A>
  requires detail::any_symbolic<A...>
constexpr auto apply(Op, A...) {
  constexpr bool only_symbols = (detail::symbolic<A> && ...);
  static_assert(only_symbols,
                "inplace: runtime_number_in_graph: a graph holds no run-time values (a number or a tensor "
                "among a graph's operands); fix: write a compile-time constant such as 2.0_c (using namespace "
                "inplace::literals), or declare an ip::scalar<\"name\", T> or ip::input and pass the value when "
                "calling the function.");
  // Nodes' outputs first, by a plain specialisation: checking the concept
  // with graph nodes among the operands cost clang minutes on a 400-node graph.
  constexpr bool fold = [] {
    if constexpr (only_symbols && !(detail::is_node_output<detail::symbol_or_zero<A>> || ...))
      return detail::foldable<Op, detail::symbol_or_zero<A>...>;
    else
      return false;
  }();
  if constexpr (fold) {
    return detail::folded_constant<Op, detail::symbol_or_zero<A>...>{};  // constants only: a constant
  } else if constexpr (detail::reads_a_copy<Op, detail::symbol_or_zero<A>...>()) {
    // NumPy's S.T.reshape(-1) copies too. (No template over the operands'
    // types here: the test is a loop over their descriptors.)
    return ::inplace::apply(Op{}, ::inplace::apply(ops::reshape_copy{}, detail::symbol_or_zero<A>{}...));
  } else {
    using N = detail::node<Op, detail::arg_handle<detail::symbol_or_zero<A>>::template type...>;
    if constexpr (N::desc.record.info.num_outputs == 1) return detail::out<N, 0>{};
    else return detail::outputs_of<N>(std::make_index_sequence<N::desc.record.info.num_outputs>{});
  }
}

// ip::NAME and ip::NAME_inplace on symbols, for every op of INPLACE_ELEMENTWISE_OPS.
#define INPLACE_GRAPH_FN(NAME)                                                   \
  template <class... A>                                                          \
    requires detail::any_symbolic<A...>                                          \
  constexpr auto NAME(A... a) { return ::inplace::apply(ops::NAME{}, a...); }    \
  template <class... A>                                                          \
    requires detail::any_symbolic<A...>                                          \
  constexpr auto NAME##_inplace(A... a) {                                        \
    detail::require_inplace_form<ops::NAME, A...>();                             \
    if constexpr (ops::has_inplace_flag<ops::NAME>())                            \
      return ::inplace::apply(ops::inplace_op<ops::NAME, 0>{}, a...);            \
    else return ::inplace::apply(ops::NAME{}, a...); /* reported: no cascade */  \
  }
INPLACE_ELEMENTWISE_OPS(INPLACE_GRAPH_FN)
#undef INPLACE_GRAPH_FN

// ip::cast<T>(x): NumPy's x.astype(T).
template <class T, detail::symbolic X>
constexpr auto cast(X x) { return ::inplace::apply(ops::cast<T>{}, x); }

// ip::copy(x): NumPy's np.copy(x), x.copy(), JAX's jnp.copy: x's elements in
// a buffer of their own (one loop, which fuses as any elementwise op), never a
// view of x: an in-place op or an update of the copy leaves x as it was.
template <detail::symbolic X>
constexpr auto copy(X x) { return ::inplace::apply(ops::copy{}, x); }

#define INPLACE_GRAPH_FN(NAME, OP)                                      \
  template <class... A>                                                 \
    requires detail::any_symbolic<A...>                                 \
  constexpr auto NAME(A... a) { return ::inplace::apply(OP{}, a...); }
INPLACE_GRAPH_FN(softmax, ops::softmax)
INPLACE_GRAPH_FN(dot, ops::dot)
INPLACE_GRAPH_FN(matmul, ops::matmul)
INPLACE_GRAPH_FN(softmax_inplace, ops::softmax_inplace)
INPLACE_GRAPH_FN(flatten, ops::flatten)
INPLACE_GRAPH_FN(reverse, ops::reverse)
#undef INPLACE_GRAPH_FN

// reduce_sum(a): every element; reduce_sum<axis>(a): one axis. (With
// ip::keepdims, or several axes: graph_reductions.hpp's.) A sum of bool counts
// and narrow integers sum in 64 bits, as NumPy's: the operand is cast to
// ops::sum_dtype first (a loop that fuses).
template <int Axis = ops::all_axes, detail::symbolic A>
  requires(Axis != keepdims)
constexpr auto reduce_sum(A a) {
  using T = typename A::dtype;
  if constexpr (!std::is_same_v<ops::sum_dtype<T>, T>) return ::inplace::apply(ops::reduce_sum<Axis>{}, cast<ops::sum_dtype<T>>(a));
  else return ::inplace::apply(ops::reduce_sum<Axis>{}, a);
}

// slice<B, E, S>(x): x[B:E:S] on the first axis (Python semantics).
template <std::ptrdiff_t B, std::ptrdiff_t E = end, std::ptrdiff_t S = 1, detail::symbolic X>
constexpr auto slice(X x) { return ::inplace::apply(ops::slice<B, E, S>{}, x); }

template <std::size_t... E, detail::symbolic X>
constexpr auto reshape(X x) { return ::inplace::apply(ops::reshape<E...>{}, x); }

namespace detail {
// The operands of a product of two matrices (dot, or matmul of rank 2), if X is one.
template <class X>
struct matrix_product {
  static constexpr bool value = false;
};
template <class Op, template <class = void> class A, template <class = void> class B>
  requires std::is_same_v<Op, ops::dot> || std::is_same_v<Op, ops::matmul>
struct matrix_product<out<node<Op, A, B>, 0>> {
  using op = Op;
  using a = A<>;
  using b = B<>;
  static constexpr bool value = a::value_shape.rank == 2 && b::value_shape.rank == 2;
};
}  // namespace detail

// transpose(x): the axes reversed; transpose<P...>(x): output axis k is axis P_k.
// The transpose of a product of matrices is the product of the transposed
// operands, (R S)^T = S^T R^T (PyTensor's canonical form too): the kernel reads
// the transposed views where they are and writes the result in the layout its
// consumers read, so an elementwise consumer can run in the product's buffer.
template <std::size_t... P, detail::symbolic X>
constexpr auto transpose(X x) {
  if constexpr (sizeof...(P) == 0 && detail::matrix_product<X>::value) {
    using M = detail::matrix_product<X>;
    return ::inplace::apply(typename M::op{}, ::inplace::transpose(typename M::b{}),
                            ::inplace::transpose(typename M::a{}));
  } else if constexpr (sizeof...(P) == 0) {
    return ::inplace::apply(ops::transpose{}, x);
  } else {
    return ::inplace::apply(ops::permute<P...>{}, x);
  }
}
template <int A, int B, detail::symbolic X>
constexpr auto swap_axes(X x) { return ::inplace::apply(ops::swap_axes<A, B>{}, x); }
template <int Axis, detail::symbolic X>
constexpr auto expand_dims(X x) { return ::inplace::apply(ops::expand_dims<Axis>{}, x); }
template <int Axis, detail::symbolic X>
constexpr auto squeeze(X x) { return ::inplace::apply(ops::squeeze<Axis>{}, x); }
template <std::ptrdiff_t Offset = 0, detail::symbolic X>
constexpr auto diagonal(X x) { return ::inplace::apply(ops::diagonal<Offset>{}, x); }
template <std::size_t... E, detail::symbolic X>
constexpr auto broadcast_to(X x) { return ::inplace::apply(ops::broadcast_to<E...>{}, x); }

namespace detail {

// One view node per spec that changes something, axis by axis.
template <int Axis, class X>
constexpr auto view_chain(X x) { return x; }
template <int Axis, class X, class S, class... R>
constexpr auto view_chain(X x, S, R... r) {
  if constexpr (std::is_same_v<S, new_axis_t>) {
    return view_chain<Axis + 1>(::inplace::apply(ops::expand_dims<Axis>{}, x), r...);
  } else if constexpr (is_at_spec<S>) {
    return view_chain<Axis>(::inplace::apply(ops::index_axis<Axis, S::index>{}, x), r...);
  } else if constexpr (S::begin == 0 && S::stop == end && S::step == 1) {
    return view_chain<Axis + 1>(x, r...);
  } else {
    return view_chain<Axis + 1>(::inplace::apply(ops::slice_axis<Axis, S::begin, S::stop, S::step>{}, x), r...);
  }
}
}  // namespace detail

// view(x, spec...): NumPy's x[spec, ...] with compile-time specs (ip::range,
// ip::all, ip::at, ip::new_axis), one per leading axis; the other axes are kept.
template <detail::symbolic X, detail::static_view_spec... S>
constexpr auto view(X x, S... s) { return detail::view_chain<0>(x, s...); }

// Eigen's row(i), col(j), block(i, j, p, q) with compile-time arguments.
template <std::ptrdiff_t I, detail::symbolic X>
constexpr auto row(X x) { return ::inplace::view(x, at<I>); }
template <std::ptrdiff_t J, detail::symbolic X>
constexpr auto col(X x) { return ::inplace::view(x, all, at<J>); }
template <std::ptrdiff_t I, std::ptrdiff_t J, std::ptrdiff_t P, std::ptrdiff_t Q, detail::symbolic X>
constexpr auto block(X x) { return ::inplace::view(x, range<I, I + P>, range<J, J + Q>); }

template <class U, detail::symbolic X>
constexpr auto reinterpret(X x) { return ::inplace::apply(ops::reinterpret<U>{}, x); }

namespace detail {
// Operators live beside the symbol types, where argument-dependent lookup finds them.
#define INPLACE_GRAPH_OPERATOR(SYM, OP)                                    \
  template <class A, class B>                                              \
    requires any_symbolic<A, B>                                            \
  constexpr auto operator SYM(A a, B b) { return ::inplace::apply(ops::OP{}, a, b); }
INPLACE_ARITHMETIC_OPERATORS(INPLACE_GRAPH_OPERATOR)
INPLACE_COMPARISON_OPERATORS(INPLACE_GRAPH_OPERATOR)
#undef INPLACE_GRAPH_OPERATOR
template <symbolic A>
constexpr auto operator-(A a) { return ::inplace::apply(ops::neg{}, a); }
}  // namespace detail

}  // namespace inplace
