#pragma once
// Tensor expression nodes. An expression is a tree whose leaves are
// views (tensor_view<const V, N>), tensors owned by the expression (rvalue
// tensors moved in), and run-time scalars, and whose inner nodes are
// elementwise<Op, Operands...>: any op class with a scalar kernel, so the
// standard ops, ops::inplace_op<Op, I> and users' ops all evaluate the same way.
// A node knows its broadcast extents from construction on; operands that do not
// broadcast throw ip::shape_error there, before anything can be written.

#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/ops/detail/dtype_rule.hpp"
#include "inplace/ops/elementwise.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::texpr {

// A run-time scalar inside an expression, already converted to its operands' type.
template <class S>
struct scalar_leaf {
  S v;
};

template <class Op, class... A>
struct elementwise;
struct known_extents_t {};

// The identity kernel: a fill from a scalar, a copy from a view.
struct copy_op {
  static constexpr std::string_view name = "copy";
  static constexpr bool elementwise = true;
  static constexpr bool simd = true;
  template <class A>
  constexpr A operator()(A a) const { return a; }
};

// The identity kernel over a view that the graph runtime has proved to address
// the same elements, with the same strides, as every other read tagged Id in one
// loop (the same root and index pattern): the loop reads them through one
// pointer, so the compiler loads each element once (share_reads, texpr_kernel.hpp).
template <std::size_t Id>
struct same_read {
  static constexpr std::string_view name = "read";
  static constexpr bool elementwise = true;
  static constexpr bool simd = true;
  template <class A>
  constexpr A operator()(A a) const { return a; }
};

template <class Op, class... A>
struct is_node<elementwise<Op, A...>> : std::true_type {};

// Rank and element type of everything that can stand in an expression.
template <class T>
struct operand_traits;
template <class T, auto R, class A>
struct operand_traits<tensor<T, R, A>> {
  static constexpr std::size_t rank = rank_of<R>();
  using value_type = T;
};
template <class T, auto R>
struct operand_traits<tensor_view<T, R>> {
  static constexpr std::size_t rank = rank_of<R>();
  using value_type = std::remove_const_t<T>;
};
template <class S>
struct operand_traits<scalar_leaf<S>> {
  static constexpr std::size_t rank = 0;
  using value_type = S;
};
template <class Op, class... A>
struct operand_traits<elementwise<Op, A...>> {
  static constexpr std::size_t rank = elementwise<Op, A...>::rank;
  using value_type = typename elementwise<Op, A...>::value_type;
};

template <class T>
inline constexpr std::size_t rank_v = operand_traits<std::remove_cvref_t<T>>::rank;
template <class T>
using value_t = typename operand_traits<std::remove_cvref_t<T>>::value_type;

template <class T>
tx_extents<rank_v<T>> shape_of(const T& x) {
  if constexpr (is_node<T>::value) return x.shape;
  else if constexpr (view_like<T> || tensor_like<T>) return x.extents();
  else return {};
}

template <class Op, class... A>
struct elementwise {
  static constexpr std::size_t rank = std::max({std::size_t{0}, rank_v<A>...});
  using value_type = elementwise_dtype_t<Op, value_t<A>...>;  // the one rule (ops/detail/dtype_rule.hpp)

  [[no_unique_address]] Op op;
  std::tuple<A...> args;
  tx_extents<rank> shape;

  [[gnu::always_inline]] explicit elementwise(Op o, A... a) : op(o), args(std::move(a)...), shape(broadcast_shape()) {}
  // A node whose extents its builder has checked already (the graph runtime).
  [[gnu::always_inline]] elementwise(known_extents_t, const tx_extents<rank>& e, Op o, A... a)
      : op(o), args(std::move(a)...), shape(e) {}

 private:
  [[gnu::always_inline]] tx_extents<rank> broadcast_shape() const {
    tx_extents<rank> r;
    r.fill(1);
    bool ok = true;
    std::apply([&](const auto&... x) { (merge(r, shape_of(x), ok), ...); }, args);
    if (!ok) std::apply([](const auto&... x) { throw_not_broadcast(shape_of(x)...); }, args);
    return r;
  }
  // Static and given extents only: a member function would take the node's
  // address, which keeps the compiler from holding nodes in registers.
  template <std::size_t... M>
  [[noreturn, gnu::cold, gnu::noinline]] static void throw_not_broadcast(const tx_extents<M>&... e) {
    std::string shapes;
    std::size_t k = 0;
    ((shapes += (k++ == 0 ? "" : k == sizeof...(A) ? " and " : ", ") + tx_shape_string(e)), ...);
    throw shape_error("inplace: shape_error: " + std::string(op_label()) + ": operands with extents " + shapes +
                      " do not broadcast");
  }
  template <std::size_t M>
  [[gnu::always_inline]] static void merge(tx_extents<rank>& r, const tx_extents<M>& e, bool& ok) {
    for (std::size_t i = 0; i < M; ++i) {
      std::size_t& x = r[rank - M + i];
      if (e[i] == x || e[i] == 1) continue;
      if (x == 1) x = e[i];
      else ok = false;
    }
  }
  static constexpr const char* op_label() {
    if constexpr (requires { Op::name; }) return Op::name.data();
    else return "elementwise op";
  }
};

// The element type a run-time number S takes beside operands of type V: S is
// weak, as NumPy's Python scalars (the rule of ops/detail/dtype_rule.hpp, as a
// graph's constants): an integer takes V's dtype (bool's: int64), a floating
// number a floating V's, else double; a bool takes V's. Beside no operand at all
// (where(c, 5, 7)) a number keeps its own type. An op that reads values
// (ByValue: comparisons, logical ops) keeps an integer beside integer (or bool)
// operands as it is: its kernel compares it by value (t_uint8 > -1 is true).
template <class S>
using weak_of = std::conditional_t<std::is_floating_point_v<S>, weak_float, weak_int>;
template <class V, class S, bool ByValue = false>
constexpr auto scalar_type() {
  if constexpr (std::is_void_v<V>) return std::type_identity<S>{};
  else if constexpr (std::is_same_v<S, bool>) return std::type_identity<V>{};
  else if constexpr (ByValue && integer_dtype<S> && std::is_integral_v<V>) return std::type_identity<S>{};
  else return std::type_identity<common_dtype_t<V, weak_of<S>>>{};
}
template <class V, class S, bool ByValue = false>
using scalar_type_t = typename decltype(scalar_type<V, S, ByValue>())::type;

// The common element type of the non-scalar operands (void when there are none).
template <class A>
struct operand_value {
  using type = void;
};
template <class A>
  requires operand<A>
struct operand_value<A> {
  using type = value_t<A>;
};
template <class T, class U>
struct common2 {
  using type = common_dtype_t<T, U>;
};
template <class U>
struct common2<void, U> {
  using type = U;
};
template <class T>
struct common2<T, void> {
  using type = T;
};
template <>
struct common2<void, void> {
  using type = void;
};
template <class... A>
struct common_value {
  using type = void;
};
template <class A, class... B>
struct common_value<A, B...> {
  using type = typename common2<typename operand_value<A>::type, typename common_value<B...>::type>::type;
};

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_no_value() {
  throw shape_error("inplace: shape_error: a rank-0 operand without storage (default-constructed view, or a "
                    "moved-from tensor) has no value to read");
}

// What an operand becomes inside a node: views and tensor lvalues are read
// through const views (with their static extents, if any), tensor rvalues are
// moved in (the node owns them), nodes are kept, scalars are converted.
template <class V, bool ByValue, class X>
auto to_operand(X&& x) {
  using D = std::remove_cvref_t<X>;
  if constexpr (scalar<X>) {
    using S = scalar_type_t<V, D, ByValue>;
    return scalar_leaf<S>{static_cast<S>(x)};
  } else if constexpr (view_like<X> || (tensor_like<X> && std::is_lvalue_reference_v<X>)) {
    if constexpr (rank_v<D> == 0)
      if (x.data() == nullptr) throw_no_value();  // rank 0 has one element by its extents: it must exist
    return tensor_view<const value_t<D>, shape_spec_of<D>::value>(tx_unchecked, x.data(), x.extents(), x.strides());
  } else {
    return D(std::forward<X>(x));
  }
}

// The operands that decide the type of scalars: all but where's condition
// (where(c, 1000, 0) on an int8 c computes 1000 as an int, not as int8).
template <class Op, class... X>
struct value_operands {
  static constexpr std::size_t from = value_args_from<Op>();
  template <std::size_t... J>
  static auto of(std::index_sequence<J...>) -> typename common_value<std::tuple_element_t<from + J, std::tuple<X...>>...>::type;
  using type = decltype(of(std::make_index_sequence<sizeof...(X) - from>{}));
};

// Builds the node op(operands...): the one way expressions are made.
// The graph runtime builds a loop's nodes with make_known: extents checked before
// the call ran, everything inlined, so the nodes stay in registers (built out of
// line, with their broadcasts recomputed, the five nodes of a small graph's loop
// cost more than the loop on 16 floats).
template <std::size_t N, class Op, class... X>
[[gnu::always_inline]] inline auto make_known(const tx_extents<N>& e, Op op, X&&... x) {
  using V = typename value_operands<std::remove_cvref_t<Op>, X...>::type;
  constexpr bool bv = by_value<std::remove_cvref_t<Op>>();
  using node = elementwise<Op, decltype(to_operand<V, bv>(std::forward<X>(x)))...>;
  static_assert(node::rank == N);
  return node(known_extents_t{}, e, op, to_operand<V, bv>(std::forward<X>(x))...);
}

// View x, read as the reads tagged Id (same_read).
template <std::size_t Id, class X>
[[gnu::always_inline]] inline auto read_as(X&& x) {
  return make_known(shape_of(x), same_read<Id>{}, std::forward<X>(x));
}

// make, the node's constructor and every operator that calls it are forced
// inline: g++ weighs an inline candidate by its number of call sites, so once
// a program spells the same subexpression type twice (a * b in two functions)
// it kept make out of line, and each node was built in memory and copied into
// the next (a 16-float in-place expression: 37 ns instead of 11).
template <class Op, class... X>
[[gnu::always_inline]] inline auto make(Op op, X&&... x) {
  using V = typename value_operands<std::remove_cvref_t<Op>, X...>::type;
  constexpr bool bv = by_value<std::remove_cvref_t<Op>>();
  return elementwise<Op, decltype(to_operand<V, bv>(std::forward<X>(x)))...>(op, to_operand<V, bv>(std::forward<X>(x))...);
}

}  // namespace inplace::detail::texpr

#include "inplace/detail/shadow_on.hpp"
