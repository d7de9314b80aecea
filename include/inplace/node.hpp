#pragma once
// Op nodes and their outputs. node<Op, Args...> is one application of an op;
// out<Node, I> is its output I, a value that further ops take as an argument.
// Everything the analysis needs of a node (maps, dtypes, shapes, index steps,
// the local dtype/shape checks) is computed here, once, where it is declared.

#include "inplace/detail/entries.hpp"
#include "inplace/detail/index_pattern.hpp"
#include "inplace/detail/op_info.hpp"
#include "inplace/shape.hpp"
#include "inplace/symbols.hpp"

#include <boost/hana/tuple.hpp>
#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace inplace::detail {

// A weak constant takes the dtype of the first argument that has one (double if none).
template <class... Args>
struct dtype_resolver {
  using dtypes = mp_list<typename Args::dtype..., double>;
  template <class T>
  using is_strong = std::bool_constant<!std::is_same_v<T, weak_number>>;
  using strong = boost::mp11::mp_at<dtypes, boost::mp11::mp_find_if<dtypes, is_strong>>;
  template <class T>
  using resolve = std::conditional_t<std::is_same_v<T, weak_number>, strong, T>;
};

inline constexpr shape invalid_shape{dynamic};

template <class Op, class... Args>
struct node {
  static_assert(sizeof...(Args) <= max_args, "inplace: an op takes at most 32 inputs");
  static_assert(std::is_empty_v<Op> && std::is_default_constructible_v<Op>,
                "inplace: an op class must be empty and default-constructible: a graph holds no run-time state");

  using entries = boost::mp11::mp_push_back<merged_entries<typename Args::entries...>, node>;
  using entry = node;
  using op = Op;
  using args = mp_list<Args...>;
  static constexpr entry_kind kind = entry_kind::op;
  static constexpr std::size_t num_args = sizeof...(Args);
  static constexpr op_info info = read_op<Op>(num_args);
  static constexpr std::array<shape, num_args> in_shapes{Args::value_shape...};
  using in_dtypes = mp_list<typename dtype_resolver<Args...>::template resolve<typename Args::dtype>...>;

  // R... are the inputs' dtypes with weak constants resolved (in_dtypes).
  template <std::size_t I, class... R>
  static constexpr auto dtype_of_output(mp_list<R...>) {
    if constexpr (requires { typename Op::template output_dtype<I, R...>; })
      return std::type_identity<typename Op::template output_dtype<I, R...>>{};
    else if constexpr (info.view_of[I] >= 0)
      return std::type_identity<boost::mp11::mp_at_c<in_dtypes, static_cast<std::size_t>(info.view_of[I])>>{};
    else if constexpr (info.elementwise && num_args > 0)
      return std::type_identity<std::remove_cvref_t<decltype(std::declval<const Op&>()(std::declval<R>()...))>>{};
    else if constexpr (num_args > 0)
      return std::type_identity<boost::mp11::mp_front<in_dtypes>>{};
    else
      return std::type_identity<double>{};
  }

  static constexpr shape shape_of_output(std::size_t i) {
    if constexpr (requires { Op::output_shape(i, in_shapes); }) {
      return Op::output_shape(i, in_shapes);
    } else if constexpr (requires { Op::template output_shape_of<boost::mp11::mp_front<in_dtypes>>(in_shapes[0]); }) {
      return Op::template output_shape_of<boost::mp11::mp_front<in_dtypes>>(in_shapes[0]);
    } else {
      if (info.elementwise) {
        shape r{};
        for (const shape& s : in_shapes) {
          const auto b = broadcast(r, s);
          if (!b.ok) return invalid_shape;
          r = b.result;
        }
        return r;
      }
      if (info.view_of[i] >= 0) return in_shapes[static_cast<std::size_t>(info.view_of[i])];
      return num_args > 0 ? in_shapes[0] : shape{};
    }
  }

  static constexpr step_code step_of_output(std::size_t i) {
    if (info.view_of[i] < 0) return make_step(step_kind::identity);
    if constexpr (requires { Op::index_step(in_shapes); }) {
      return Op::index_step(in_shapes);
    } else if constexpr (requires { Op::template index_step_of<boost::mp11::mp_front<in_dtypes>>(in_shapes[0]); }) {
      return Op::template index_step_of<boost::mp11::mp_front<in_dtypes>>(in_shapes[0]);
    } else {
      return make_step(step_kind::unknown);  // a user view op: its mapping is not declared
    }
  }

  // An output computed in input s's storage must have input s's dtype
  // (a weak constant has none; destroying it is destroys_protected anyway).
  template <std::size_t I>
  static constexpr bool dtype_fits() {
    constexpr int s = info.storage[I];
    if constexpr (s < 0) {
      return true;
    } else {
      using D = boost::mp11::mp_at_c<mp_list<typename Args::dtype...>, static_cast<std::size_t>(s)>;
      return std::is_same_v<D, weak_number> || std::is_same_v<out_dtype<I>, D>;
    }
  }
  template <std::size_t... I>
  static constexpr bool dtypes_fit(std::index_sequence<I...>) {
    return (dtype_fits<I>() && ...);
  }

  template <std::size_t I>
  using out_dtype = typename decltype(dtype_of_output<I>(in_dtypes{}))::type;

  static constexpr std::array<shape, max_outputs> out_shapes = [] {
    std::array<shape, max_outputs> r{};
    for (std::size_t i = 0; i < info.num_outputs; ++i) r[i] = shape_of_output(i);
    return r;
  }();
  static constexpr std::array<step_code, max_outputs> out_steps = [] {
    std::array<step_code, max_outputs> r{};
    for (std::size_t i = 0; i < info.num_outputs; ++i) r[i] = step_of_output(i);
    return r;
  }();
  static constexpr bool dtype_ok = !info.maps_ok || dtypes_fit(std::make_index_sequence<info.num_outputs>{});
  static constexpr bool shape_ok = [] {
    for (std::size_t i = 0; i < info.num_outputs; ++i) {
      if (out_shapes[i] == invalid_shape) return false;
      const int s = info.storage[i];
      if (s >= 0 && info.maps_ok && !fits_in_place(in_shapes[static_cast<std::size_t>(s)], out_shapes[i])) return false;
    }
    return true;
  }();
};

// Output I of a node: a value.
template <class Node, std::size_t I>
struct out : symbolic_base {
  using entry = Node;
  using entries = typename Node::entries;
  using dtype = typename Node::template out_dtype<I>;
  static constexpr std::size_t out_index = I;
  static constexpr shape value_shape = Node::out_shapes[I] == invalid_shape ? shape{} : Node::out_shapes[I];
};

template <class V>
inline constexpr std::size_t out_index_of = [] {
  if constexpr (requires { V::out_index; }) return V::out_index;
  else return std::size_t{0};
}();

template <class V>
using entry_of = typename V::entry;

}  // namespace inplace::detail
