#pragma once
// In-place ops on tensors: an op.s destroy_map at run time. An elementwise op
// whose destroy_map lists an input runs now, in the storage of the first input
// listed for its output, and returns that storage:
//
//   ip::add_inplace(x, y)            x = x + y, now; returns a view of x
//   ip::exp_inplace(std::move(t))    computed in t's storage; returns the tensor itself
//   ip::apply(op, operands...)       the same for any elementwise op with a destroy_map
//
// Before anything is written:
//  - the destroyed operand must be a tensor or a view of mutable elements, and the
//    result must have its dtype (else a compile error, dtype_mismatch);
//  - the result must have its extents: an operand that would make it grow by
//    broadcasting is a compile error when every extent involved is static
//    (shape_mismatch), ip::shape_error otherwise;
//  - an in-place op never copies: another operand that overlaps the destroyed one
//    with another index pattern (a transposed, shifted, reversed or broadcast view
//    of it: the graph's aliasing_hazard) throws ip::aliasing_error.
// Reading the destroyed operand with its own pattern (ip::add_inplace(x, x)) is fine.

#include "inplace/tensor/assign.hpp"
#include "inplace/ops/detail/op_info.hpp"
#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/texpr_node.hpp"
#include "inplace/error.hpp"
#include "inplace/extents.hpp"
#include "inplace/ops/elementwise.hpp"
#include "inplace/ops/inplace_op.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail::texpr {

// An op's maps, read once per (op, argument count).
template <class Op, std::size_t NumArgs>
inline constexpr op_info info_of = read_op<Op>(NumArgs);
// Ops that run in place on tensors: a destroy_map for output 0 (or malformed
// maps, which run_inplace reports).
template <class Op, std::size_t NumArgs>
concept destroys_an_input = info_of<Op, NumArgs>.storage[0] >= 0 || !info_of<Op, NumArgs>.maps_ok;

// The destroyed operand of an in-place op (here and softmax_inplace) must be
// storage the op may write; one sentence per broken precondition.
template <class Target>
constexpr bool writable_storage() {
  constexpr bool storage = tensor_like<Target> || view_like<Target>;
  static_assert(storage,
                "inplace: destroyed_operand: an in-place op computes in the storage of its destroyed operand, "
                "which must be a tensor or a view (not a number or an expression); fix: name the operand as a "
                "tensor first, or use the pure op.");
  if constexpr (storage) {
    constexpr bool writable = !std::is_const_v<std::remove_pointer_t<decltype(std::declval<Target&>().data())>>;
    static_assert(writable, "inplace: destroyed_operand: an in-place op writes its destroyed operand: it must not be "
                                "const; fix: pass a non-const tensor, or use the pure op.");
    return writable;
  } else {
    return false;
  }
}

// What an in-place op returns once it has written target: the view itself, a
// view of a tensor lvalue, or a donated tensor (an rvalue) moved back out.
template <class Target>
auto inplace_result(Target&& target) {
  using D = std::remove_cvref_t<Target>;
  if constexpr (view_like<Target>) return D(target);
  else if constexpr (std::is_lvalue_reference_v<Target>) return target.view();
  else return D(std::move(target));
}

// Static extents known from an operand's type, right-aligned; `dynamic` where unknown.
struct static_shape {
  std::size_t rank = 0;
  std::array<std::size_t, max_rank> e{};  // e[max_rank - rank ...] are the extents
};
template <class X>
constexpr static_shape static_shape_of() {
  static_shape r;
  for (auto& x : r.e) x = dynamic;
  if constexpr (is_node<X>::value) {
    r.rank = X::rank;
    for (std::size_t i = 0; i < max_rank; ++i) r.e[i] = 1;
    auto merge = [&](const static_shape& o) {
      for (std::size_t i = max_rank - o.rank; i < max_rank; ++i) {
        std::size_t& x = r.e[i];
        if (o.e[i] == 1 || o.e[i] == x) continue;
        x = (x == 1 || o.e[i] != dynamic) ? o.e[i] : x;  // a static extent > 1 wins over an unknown one
      }
    };
    [&]<class Op, class... A>(std::type_identity<elementwise<Op, A...>>) {
      (merge(static_shape_of<A>()), ...);
    }(std::type_identity<X>{});
    for (std::size_t i = 0; i < max_rank - r.rank; ++i) r.e[i] = dynamic;
  } else if constexpr (view_like<X> || tensor_like<X>) {
    r.rank = X::rank;
    const auto s = static_extents_of<shape_spec_of<X>::value>();
    for (std::size_t i = 0; i < r.rank; ++i) r.e[max_rank - r.rank + i] = s[i];
  }
  return r;
}
// False when static extents alone show that the result does not fit the
// destroyed operand (an extent differs, or the result has more axes, all static).
constexpr bool may_fit(const static_shape& result, const static_shape& target) {
  bool static_extra = true;
  for (std::size_t i = max_rank - result.rank; i < max_rank - target.rank; ++i) static_extra &= result.e[i] != dynamic;
  if (result.rank != target.rank) return !static_extra;
  for (std::size_t i = max_rank - target.rank; i < max_rank; ++i)
    if (result.e[i] != dynamic && target.e[i] != dynamic && result.e[i] != target.e[i]) return false;
  return true;
}

template <std::size_t M, std::size_t N>
[[noreturn, gnu::cold, gnu::noinline]] void throw_grows(std::string_view op, std::size_t input, const tx_extents<M>& r,
                                                        const tx_extents<N>& t) {
  throw shape_error("inplace: shape_error: " + std::string(op) + ": the result's extents " + tx_shape_string(r) +
                    " differ from those of the destroyed operand (input " + std::to_string(input) + ", extents " +
                    tx_shape_string(t) + "): an in-place op cannot grow its input by broadcasting");
}

// Computes op(x...) in the storage of x's I-th operand (preconditions checked).
template <std::size_t I, class Op, class... X>
auto run_inplace_on(Op op, X&&... x) {
  using Target = std::tuple_element_t<I, std::tuple<X...>>;
  using D = std::remove_cvref_t<Target>;
  auto& target = std::get<I>(std::tie(x...));
  auto node = make(op, x...);  // lvalues: every tensor is read through a view, none is moved
  using R = decltype(node);
  static_assert(std::is_same_v<value_t<R>, value_t<D>>,
                "inplace: dtype_mismatch: the result of an in-place op has another dtype than its destroyed "
                "operand; fix: overwrite an operand of the result's dtype, or use the pure op.");
  static_assert(may_fit(static_shape_of<R>(), static_shape_of<D>()),
                "inplace: shape_mismatch: the static extents of an in-place op's result differ from its destroyed "
                "operand's (the operand would have to grow by broadcasting); fix: overwrite the operand that "
                "has the result's extents, or use the pure op.");
  const auto& te = target.extents();
  bool same = R::rank == D::rank;
  for (std::size_t i = 0; same && i < D::rank; ++i) same = node.shape[i] == te[i];
  if (!same) throw_grows(op_name<Op>(), I, node.shape, te);

  assign(tx_view_of(target), std::move(node), assign_mode::in_place, op_name<Op>());
  return inplace_result(std::forward<Target>(target));
}

// The outer layer: one sentence per broken precondition, and nothing else
// instantiated after it (no cascade of follow-on errors).
template <class Op, class... X>
auto run_inplace(Op op, X&&... x) {
  constexpr op_info info = info_of<Op, sizeof...(X)>;
  static_assert(info.maps_ok, "inplace: bad_op_maps: the op's view_map/destroy_map is malformed; fix: give each "
                "view_map output one input and keep indices within the op's inputs and outputs.");
  static_assert(info.num_outputs == 1, "inplace: tensor_op: an in-place op on tensors must have one output; "
                "fix: run a multi-output op in a graph (ip::function).");
  if constexpr (info.maps_ok && info.num_outputs == 1) {
    constexpr auto I = static_cast<std::size_t>(info.storage[0]);
    if constexpr (writable_storage<std::tuple_element_t<I, std::tuple<X...>>>())
      return run_inplace_on<I>(op, std::forward<X>(x)...);
  }
}

}  // namespace detail::texpr

// The standard in-place ops on tensors and views (ip::exp_inplace, ...) are
// declared with the other functions of each op, in expression.hpp.

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
