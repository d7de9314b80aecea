#pragma once
// Op nodes and their outputs. node<Op, Arg...> is one application of an op;
// out<Node, I> is its output I, a value that further ops take as an argument.
// Everything the analysis needs of a node (maps, dtypes, shapes, index steps,
// the local dtype/shape checks) is computed here, once, where it is declared.

#include "inplace/graph/detail/entry_desc.hpp"
#include "inplace/ops/detail/index_pattern.hpp"
#include "inplace/ops/detail/op_info.hpp"
#include "inplace/shape.hpp"
#include "inplace/graph/symbols.hpp"

#include <boost/hana/tuple.hpp>
#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace inplace::detail {

// The dtypes a node's arguments are evaluated in: a weak constant takes the
// common dtype of the op's value arguments (the one rule, dtype_rule.hpp: an
// int graph input with 0.5_c is double, a float one with 2_c float); a weak
// argument outside them (where's condition) its default.
template <class Op, class... D>
struct dtype_resolver {
  using common = typename value_common<Op, D...>::type;
  template <std::size_t J, class T = boost::mp11::mp_at_c<mp_list<D...>, J>>
  using resolve = std::conditional_t<!is_weak<T>, T, std::conditional_t<(J >= value_common<Op, D...>::from), common, concrete_dtype_t<T>>>;
  template <std::size_t... J>
  static auto resolve_all(std::index_sequence<J...>) -> mp_list<resolve<J>...>;
  using type = decltype(resolve_all(std::index_sequence_for<D...>{}));
};

inline constexpr shape invalid_shape{dynamic};

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

template <class Node, std::size_t I>
struct out;

// Which output of its node a value is (0 for a leaf).
template <class V>
struct out_index_of_t : std::integral_constant<std::size_t, 0> {};
template <class Node, std::size_t I>
struct out_index_of_t<out<Node, I>> : std::integral_constant<std::size_t, I> {};

// Value V's place in the graph: its entry's descriptor and output index.
template <class V>
constexpr value_ref ref_of() {
  if constexpr (std::is_void_v<V>) return {nullptr, 0, true};
  else return {&entry_of<V>::desc, out_index_of_t<V>::value};
}

template <class Op, std::size_t NumArgs>
inline constexpr op_info op_info_of = read_op<Op>(NumArgs);

// An output computed in the storage of an input of dtype In must have dtype In
// (a weak constant has none; destroying it is destroys_protected anyway).
template <class In, class Out>
inline constexpr bool fits_storage = is_weak<In> || std::is_same_v<In, Out>;

// The shape of output i of an op applied to arguments of shapes `in`: the op's
// rule, else broadcasting (elementwise), else its viewed or first input's;
// invalid_shape when the arguments do not fit. The analysis calls it with the
// static extents, a running graph with the arguments' extents.
template <class Op, class FirstDtype, std::size_t N>
constexpr shape out_shape_rule(const op_info& inf, std::size_t i, const std::array<shape, N>& in) {
  shape s = N > 0 ? in[0] : shape{};
  if constexpr (requires { Op::output_shape(i, in); }) {
    s = Op::output_shape(i, in);
  } else if constexpr (N > 0 && requires { Op::template output_shape_of<FirstDtype>(in[0]); }) {
    s = Op::template output_shape_of<FirstDtype>(in[0]);
  } else if (inf.elementwise) {
    s = shape{};
    for (const shape& a : in) {
      const auto b = broadcast(s, a);
      if (!b.ok) return invalid_shape;
      s = b.result;
    }
  } else if (inf.view_of[i] >= 0) {
    s = in[static_cast<std::size_t>(inf.view_of[i])];
  }
  return s;
}

// Whether value v's static layout proves that its elements are not dense in
// row-major order in the storage they lie in: a chain of views from a root of
// static extents whose index pattern is not dense (a transpose, a strided or
// partial slice of an inner axis, a diagonal, a broadcast, ...). An in-place
// result on the way lies where its destroyed input does when the call runs it
// in place, and in a fresh row-major buffer of its own shape when it stays pure
// (a borrowed input, debug mode): the layout is proven not dense if it is in
// either case, so that every call of the graph reads the same copy. False when
// a run-time extent, a dynamic_slice's start or a user view op leaves it open.
// A loop over descriptors, no template: ip::apply asks it for every reshape.
constexpr bool proven_not_dense(value_ref v) {
  std::array<value_ref, 64> chain{};  // from v back towards its root
  std::size_t n = 0;
  while (v.entry->record.kind == entry_kind::op) {
    const op_info& inf = v.entry->record.info;
    const int from = inf.view_of[v.out] >= 0 ? inf.view_of[v.out] : inf.storage[v.out];
    if (from < 0) break;
    if (n == chain.size()) return false;
    chain[n++] = v;
    v = v.entry->args[static_cast<std::size_t>(from)];
  }
  const auto is_view = [](const value_ref& w) { return w.entry->record.info.view_of[w.out] >= 0; };
  const auto shape_of = [](const value_ref& w) -> const shape& { return w.entry->out_shapes[w.out]; };
  // The views among chain[m - 1] ... chain[0] applied to `base`, laid out row-major: not dense?
  const auto views_not_dense = [&](const shape& base, std::size_t m) {
    bool any_view = false;
    for (std::size_t k = 0; k < m; ++k) any_view = any_view || is_view(chain[k]);
    if (!any_view) return false;  // base itself (a copy's too): dense
    const shape& top = shape_of(chain[0]);
    std::size_t size = 1;
    for (std::size_t k = 0; k < top.rank; ++k) {
      if (top.extent[k] == dynamic) return false;
      size *= top.extent[k];
    }
    if (base.rank == 0) return size > 1;  // one element, broadcast to more (or reshaped: dense)
    for (std::size_t k = 0; k < base.rank; ++k)
      if (base.extent[k] == dynamic) return false;
    index_pattern p = index_pattern::of_root(base, dynamic);
    for (std::size_t k = m; k-- > 0;)
      if (is_view(chain[k])) p.append(chain[k].entry->out_steps[chain[k].out], shape_of(chain[k]), dynamic);
    return !p.unknown && !p.superset && !p.row_major();  // (superset: a dynamic_slice's whole axis)
  };
  if (views_not_dense(v.entry->out_shapes[v.out], n)) return true;  // everything in place: on the root
  for (std::size_t j = 0; j < n; ++j)  // in-place result j stayed pure: a root of its own
    if (!is_view(chain[j]) && views_not_dense(shape_of(chain[j]), j)) return true;
  return false;
}

// Output I's dtype of an elementwise kernel returning R: R itself, or element I
// when it returns a tuple (std::tuple, std::pair, std::array) for several outputs.
// (A result of another size is op_kernel where the graph runs.)
template <std::size_t I, class R>
constexpr auto elementwise_result_dtype() {
  if constexpr (requires { std::tuple_size<R>::value; }) {
    if constexpr (I < std::tuple_size<R>::value) return std::type_identity<std::remove_cvref_t<std::tuple_element_t<I, R>>>{};
    else return std::type_identity<double>{};
  } else {
    return std::type_identity<R>{};
  }
}

// Few static members and functions per node, and none elsewhere that take a node
// type as template argument: see entry_desc.hpp for why.
template <class Op, template <class = void> class... Arg>
struct node {
  static_assert(sizeof...(Arg) <= max_args, "inplace: op_arity: an op takes at most 32 inputs; fix: split it into ops of fewer "
                "inputs (ip::sum of sums).");
  static_assert(std::is_empty_v<Op> && std::is_default_constructible_v<Op>,
                "inplace: op_state: an op class must be empty and default-constructible: a graph holds no run-time "
                "state; fix: move the op's parameters into its type (template arguments) or into ip::scalar inputs.");

  using entry = node;
  using op = Op;
  using args = mp_list<Arg<>...>;
  using arg_dtypes = mp_list<typename Arg<>::dtype...>;
  using in_dtypes = typename dtype_resolver<Op, typename Arg<>::dtype...>::type;

  // R... are the inputs' dtypes with weak constants resolved (in_dtypes).
  template <std::size_t I, class... R>
  static constexpr auto dtype_of_output(mp_list<R...>) {
    constexpr op_info inf = op_info_of<Op, sizeof...(Arg)>;
    if constexpr (requires { typename Op::template output_dtype<I, R...>; })
      return std::type_identity<typename Op::template output_dtype<I, R...>>{};
    else if constexpr (inf.view_of[I] >= 0)
      return std::type_identity<boost::mp11::mp_at_c<in_dtypes, static_cast<std::size_t>(inf.view_of[I])>>{};
    else if constexpr (inf.elementwise && sizeof...(Arg) > 0)
      // several outputs: the kernel returns a tuple, output I is element I
      return elementwise_result_dtype<I, elementwise_dtype_t<Op, R...>>();
    else if constexpr (sizeof...(Arg) > 0)  // an opaque op: its inputs' common dtype (dot(float, double) is double)
      return std::type_identity<common_dtype_t<R...>>{};
    else
      return std::type_identity<double>{};
  }
  template <std::size_t I>
  using out_dtype = typename decltype(dtype_of_output<I>(in_dtypes{}))::type;

  template <std::size_t... I>
  static constexpr bool dtypes_fit(std::index_sequence<I...>) {
    constexpr op_info inf = op_info_of<Op, sizeof...(Arg)>;
    using padded = boost::mp11::mp_push_back<arg_dtypes, weak_int>;  // storage < 0: nothing to fit
    return (fits_storage<boost::mp11::mp_at_c<padded, inf.storage[I] < 0 ? sizeof...(Arg) : static_cast<std::size_t>(inf.storage[I])>,
                         out_dtype<I>> &&
            ...);
  }

  static constexpr entry_desc make_desc() {
    constexpr op_info inf = op_info_of<Op, sizeof...(Arg)>;
    using first_dtype = boost::mp11::mp_front<boost::mp11::mp_push_back<in_dtypes, double>>;
    entry_desc d;
    d.record.info = inf;
    d.record.num_args = sizeof...(Arg);
    if constexpr (inf.maps_ok) d.record.dtype_ok = dtypes_fit(std::make_index_sequence<inf.num_outputs>{});
    d.args = {value_ref{&Arg<>::entry::desc, out_index_of_t<Arg<>>::value}...};
    std::array<shape, sizeof...(Arg)> in{};  // the arguments' shapes
    for (std::size_t j = 0; j < sizeof...(Arg); ++j) in[j] = d.args[j].entry->out_shapes[d.args[j].out];
    d.hash.add(static_cast<std::uint64_t>(entry_kind::op));
    d.hash.add(pretty_type_name<Op>());
    for (std::size_t j = 0; j < sizeof...(Arg); ++j) {
      d.hash.add(d.args[j].entry->hash.a);
      d.hash.add(d.args[j].entry->hash.b);
      d.hash.add(d.args[j].out);
    }
    for (std::size_t i = 0; i < inf.num_outputs; ++i) {
      shape s = out_shape_rule<Op, first_dtype>(inf, i, in);
      const int st = inf.storage[i];
      if (s == invalid_shape || (st >= 0 && inf.maps_ok && !may_fit_in_place(in[static_cast<std::size_t>(st)], s)))
        d.record.shape_ok = false;
      else if (st >= 0 && inf.maps_ok)  // a result that runs has its storage's extents
        for (std::size_t k = 0; k < s.rank; ++k)
          if (s.extent[k] == dynamic) s.extent[k] = in[static_cast<std::size_t>(st)].extent[k];
      // a view that needs its input dense (a reinterpret to another size) of one proven not to be
      if constexpr (requires { Op::template needs_dense_input<first_dtype>(); })
        if (Op::template needs_dense_input<first_dtype>() && proven_not_dense(d.args[0])) d.record.shape_ok = false;
      d.out_shapes[i] = s == invalid_shape ? shape{} : s;
      // a view's index step relative to its input
      if (inf.view_of[i] < 0) d.out_steps[i] = make_step(step_kind::identity);
      else if constexpr (requires { Op::index_step(in); }) d.out_steps[i] = Op::index_step(in);
      else if constexpr (requires { Op::template index_step_of<first_dtype>(in[0]); })
        d.out_steps[i] = Op::template index_step_of<first_dtype>(in[0]);
      else d.out_steps[i] = make_step(step_kind::unknown);  // a user view op: its mapping is not declared
    }
    return d;
  }
  // Everything the analysis needs of this node, computed once, where it is declared.
  // (An op of too many inputs has reported op_arity; its empty descriptor stops there.)
  static constexpr entry_desc desc = [] {
    if constexpr (sizeof...(Arg) <= max_args) return make_desc();
    else return entry_desc{};
  }();
};

// Output I of a node: a value.
template <class Node, std::size_t I>
struct out : symbolic_base {
  using entry = Node;
  // Evaluates the node's descriptor now, where it is declared, not at its first use.
  static_assert(Node::desc.record.kind == entry_kind::op);
  using dtype = typename Node::template out_dtype<I>;
  static constexpr shape value_shape = Node::desc.out_shapes[I];
  // The value itself: a value a variable template names (ip::zeros<float, 2, 3>)
  // may also be written as NumPy's call, ip::zeros<float, 2, 3>().
  constexpr out operator()() const { return *this; }
};

}  // namespace inplace::detail
