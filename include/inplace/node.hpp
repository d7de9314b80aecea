#pragma once
// Op nodes and their outputs. node<Op, Arg...> is one application of an op;
// out<Node, I> is its output I, a value that further ops take as an argument.
// Everything the analysis needs of a node (maps, dtypes, shapes, index steps,
// the local dtype/shape checks) is computed here, once, where it is declared.

#include "inplace/detail/entry_desc.hpp"
#include "inplace/detail/index_pattern.hpp"
#include "inplace/detail/op_info.hpp"
#include "inplace/shape.hpp"
#include "inplace/symbols.hpp"

#include <boost/hana/tuple.hpp>
#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
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

template <class V>
inline constexpr std::size_t out_index_of = [] {
  if constexpr (requires { V::out_index; }) return V::out_index;
  else return std::size_t{0};
}();

template <class V>
using entry_of = typename V::entry;

// An argument of a node, passed as a member alias template (arg_handle<V>::type,
// with arg_handle<V>::type<> == V) rather than as the type V itself: argument-
// dependent lookup walks the template TYPE arguments of a call's argument types,
// recursively, and clang does not remember what it visited, so with type
// arguments every operator call on a shared graph costs time exponential in its
// depth. Alias templates take no part in that lookup, and unlike values
// (non-type parameters), which g++ compares slowly, they cost nothing to compare.
template <class V>
struct arg_handle {
  template <class = void>
  using type = V;
};

template <class Op, template <class = void> class... Arg>
struct node {
  static_assert(sizeof...(Arg) <= max_args, "inplace: an op takes at most 32 inputs");
  static_assert(std::is_empty_v<Op> && std::is_default_constructible_v<Op>,
                "inplace: an op class must be empty and default-constructible: a graph holds no run-time state");

  using entry = node;
  using op = Op;
  using args = mp_list<Arg<>...>;
  static constexpr entry_kind kind = entry_kind::op;
  static constexpr std::size_t num_args = sizeof...(Arg);
  static constexpr op_info info = read_op<Op>(num_args);
  static constexpr std::array<shape, num_args> in_shapes{Arg<>::value_shape...};
  using in_dtypes =
      mp_list<typename dtype_resolver<Arg<>...>::template resolve<typename Arg<>::dtype>...>;

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
      using D = boost::mp11::mp_at_c<mp_list<typename Arg<>::dtype...>, static_cast<std::size_t>(s)>;
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

  // The descriptor (entry_desc.hpp), built here so that a graph of any depth
  // is walked, not instantiated recursively, when a function is checked.
  static constexpr const entry_desc* arg_entries[num_args + 1] = {desc_of<entry_of<Arg<>>>()..., nullptr};
  static constexpr std::size_t arg_outs[num_args + 1] = {out_index_of<Arg<>>..., 0};
  static constexpr entry_desc desc = [] {
    entry_desc d;
    d.record.info = info;
    d.record.dtype_ok = dtype_ok;
    d.record.shape_ok = shape_ok;
    d.record.num_args = num_args;
    d.arg_entries = arg_entries;
    d.arg_outs = arg_outs;
    for (std::size_t i = 0; i < max_outputs; ++i) d.out_shapes[i] = out_shapes[i] == invalid_shape ? shape{} : out_shapes[i];
    d.out_steps = out_steps;
    d.hash = hash_text(mix(0, static_cast<std::uint64_t>(entry_kind::op)), info.name);
    for (std::size_t j = 0; j < num_args; ++j) d.hash = mix(mix(d.hash, arg_entries[j]->hash), arg_outs[j]);
    return d;
  }();
};

// Output I of a node: a value.
template <class Node, std::size_t I>
struct out : symbolic_base {
  using entry = Node;
  // Evaluates the node's descriptor now, where it is declared, not at its first use.
  static_assert(Node::desc.record.num_args == Node::num_args);
  using dtype = typename Node::template out_dtype<I>;
  static constexpr std::size_t out_index = I;
  static constexpr shape value_shape = Node::out_shapes[I] == invalid_shape ? shape{} : Node::out_shapes[I];
};

}  // namespace inplace::detail
