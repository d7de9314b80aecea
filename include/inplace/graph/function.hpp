#pragma once
// ip::function, ip::check, ip::position and the arguments they take:
// ip::inputs, ip::outputs, ip::order, ip::io_alias, ip::no_rewrite, ip::debug.
// A function is an empty object; its analysis is a constexpr member of its type.

#include "inplace/graph/detail/analysis.hpp"
#include "inplace/graph/detail/diagnostics.hpp"
#include "inplace/graph/detail/graph_data.hpp"
#include "inplace/graph/graph_ops.hpp"

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/set.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace inplace {

// ---- the arguments of ip::function -------------------------------------------------
namespace detail {
template <class T>
concept input_symbol = symbolic<T> && requires {
  requires std::remove_cvref_t<T>::kind == entry_kind::input || std::remove_cvref_t<T>::kind == entry_kind::scalar;
};
}  // namespace detail

template <class... I>
struct inputs_t {};
template <class... O>
struct outputs_t {};
template <class... V>
struct order_t {};
enum class alias_kind { must, may };
struct must_alias_t {
  static constexpr alias_kind kind = alias_kind::must;
};
struct may_alias_t {
  static constexpr alias_kind kind = alias_kind::may;
};
inline constexpr must_alias_t must_alias{};
inline constexpr may_alias_t may_alias{};
template <int Output, int Input, alias_kind Kind>
struct io_alias_t {
  static constexpr int output = Output, input = Input;
  static constexpr alias_kind kind = Kind;
};
struct no_rewrite_t {};
struct debug_t {};
inline constexpr no_rewrite_t no_rewrite{};
inline constexpr debug_t debug{};

template <class... I>
constexpr inputs_t<std::remove_cvref_t<I>...> inputs(I...) {
  static_assert((detail::input_symbol<I> && ...),
                "inplace: ip::inputs(...) takes the symbols declared with ip::input or ip::scalar");
  static_assert(boost::mp11::mp_is_set<boost::mp11::mp_list<std::remove_cvref_t<I>...>>::value,
                "inplace: ip::inputs(...) lists a symbol twice");
  return {};
}
template <detail::symbolic... O>
constexpr outputs_t<std::remove_cvref_t<O>...> outputs(O...) {
  return {};
}
// order(a, b, c): a's node runs before b's, b's before c's.
template <detail::symbolic... V>
constexpr order_t<std::remove_cvref_t<V>...> order(V...) {
  static_assert(sizeof...(V) >= 2, "inplace: ip::order(...) takes at least two values");
  return {};
}
// io_alias<O, I>(must_alias | may_alias): output O lives in input I's storage.
template <int Output, int Input, class Kind>
constexpr io_alias_t<Output, Input, Kind::kind> io_alias(Kind) {
  return {};
}

namespace detail {

// Whether T is Tpl<...>: inputs_t, outputs_t, order_t.
template <class T, template <class...> class Tpl>
struct is_instance_of : std::false_type {};
template <class... A, template <class...> class Tpl>
struct is_instance_of<Tpl<A...>, Tpl> : std::true_type {};
template <class T>
using is_inputs = is_instance_of<T, inputs_t>;
template <class T>
using is_outputs = is_instance_of<T, outputs_t>;
template <class T>
using is_order = is_instance_of<T, order_t>;
template <class T>
struct is_io_alias : std::false_type {};
template <int O, int I, alias_kind K>
struct is_io_alias<io_alias_t<O, I, K>> : std::true_type {};
template <class T>
concept function_option = is_order<T>::value || is_io_alias<T>::value || std::is_same_v<T, no_rewrite_t> ||
                          std::is_same_v<T, debug_t>;

template <class L, class V>
inline constexpr bool has_type = boost::mp11::mp_contains<L, V>::value;

template <class T>
struct order_parts;
template <class... V>
struct order_parts<order_t<V...>> {
  using values = mp_list<V..., void>;  // void ends a chain
};
template <class T>
using order_values_of = typename order_parts<T>::values;

// Inputs, outputs and options -> the flat graph of graph_data.hpp, analysed once.
template <class Inputs, class Outputs, class... Options>
struct spec;
template <class... I, class... O, class... Options>
struct spec<inputs_t<I...>, outputs_t<O...>, Options...> {
  using input_list = mp_list<I...>;
  using output_list = mp_list<O...>;
  using orders = boost::mp11::mp_copy_if<mp_list<Options...>, is_order>;
  using aliases = boost::mp11::mp_copy_if<mp_list<Options...>, is_io_alias>;
  static constexpr bool rewrite = !has_type<mp_list<Options...>, no_rewrite_t>;
  static constexpr bool debug = has_type<mp_list<Options...>, debug_t>;
  using order_values = boost::mp11::mp_apply<
      boost::mp11::mp_append, boost::mp11::mp_push_front<boost::mp11::mp_transform<order_values_of, orders>, mp_list<>>>;

  // The graph is what the inputs, the outputs and the ordered values reach, in that order.
  template <class... V>
  static constexpr std::array<value_ref, sizeof...(I) + sizeof...(O) + sizeof...(V)> roots_of(mp_list<V...>) {
    return {ref_of<I>()..., ref_of<O>()..., ref_of<V>()...};
  }
  static constexpr auto roots = roots_of(order_values{});
  static constexpr std::size_t num_entries = count_entries(roots);
  static constexpr std::array<const entry_desc*, num_entries> entry_list = list_entries<num_entries>(roots);
  static constexpr graph_sizes sizes = measure_graph(entry_list);
  using graph_type = graph<num_entries, sizes.values, sizes.args, sizeof...(I), sizeof...(O),
                           boost::mp11::mp_size<order_values>::value, boost::mp11::mp_size<aliases>::value>;

  template <class A>
  static constexpr alias_record alias_of() {
    alias_record r{A::output, A::input, A::kind == alias_kind::must, false};
    if constexpr (A::output >= 0 && A::output < static_cast<int>(sizeof...(O)) && A::input >= 0 &&
                  A::input < static_cast<int>(sizeof...(I))) {
      using OV = boost::mp11::mp_at_c<output_list, static_cast<std::size_t>(A::output)>;
      using IV = boost::mp11::mp_at_c<input_list, static_cast<std::size_t>(A::input)>;
      r.types_agree = std::is_same_v<typename OV::dtype, typename IV::dtype> && OV::value_shape == IV::value_shape;
    }
    return r;
  }
  template <class... A>
  static constexpr std::array<alias_record, (sizeof...(A) > 0 ? sizeof...(A) : 1)> alias_records(mp_list<A...>) {
    return {alias_of<A>()...};
  }

  static constexpr graph_type make_graph() {
    graph_type g{};
    const auto ids = fill_graph(g, entry_list, roots);
    constexpr std::size_t ni = sizeof...(I), no = sizeof...(O);
    for (std::size_t k = 0; k < ni; ++k) g.inputs[k] = g.producer(ids[k]);
    for (std::size_t k = 0; k < no; ++k) g.outputs[k] = ids[ni + k];
    for (std::size_t k = 0; k < graph_type::num_order; ++k) g.order_chain[k] = ids[ni + no + k];
    g.aliases = alias_records(aliases{});
    return g;
  }
  static constexpr graph_type graph_value = make_graph();
  static constexpr analysis_result<graph_type> result = analyze(graph_value);
  static constexpr report rep = result.rep;

  static constexpr std::size_t entry_id(const entry_desc* d) {
    std::size_t i = 0;
    while (i < entry_list.size() && !same_entry(entry_list[i], d)) ++i;
    return i;
  }
  template <class V>
  static constexpr int position_of() {
    constexpr std::size_t e = entry_id(&entry_of<V>::desc);
    static_assert(e < num_entries, "inplace: ip::position: the value is not part of this function's graph");
    return result.position[e];
  }
};

}  // namespace detail

// What ip::check reports: `ok`, the first rule broken (`error`), and the names
// of the offending symbols and nodes.
struct check_result {
  bool ok = true;
  error_kind error = error_kind::none;
  std::array<detail::label, 3> names{};
  std::size_t num_names = 0;
  constexpr std::string_view name(std::size_t i) const { return i < num_names ? names[i].view() : std::string_view{}; }
};

// A checked graph function: an empty object; everything is in its type.
// Calling it runs the graph (include <inplace/run.hpp>, or <inplace.hpp>).
template <class Spec>
struct function_t {
  using spec = Spec;
  static constexpr std::size_t num_nodes = Spec::result.schedule_size;

  // f(args...): arguments bind to inputs(...) in order; rvalue tensors are donated.
  template <class... A>
  auto operator()(A&&... a) const {
    return call_function(*this, std::forward<A>(a)...);  // found by argument-dependent lookup (run/call.hpp)
  }
  // f.debug(args...): the call, checked against a pure reference and every op's maps.
  template <class... A>
  auto debug(A&&... a) const {
    return debug_function(*this, std::forward<A>(a)...);
  }
};

namespace detail {

// The preconditions shared by ip::check and ip::function, one sentence each.
template <class In, class Out, class... Options>
constexpr bool function_arguments_ok() {
  static_assert(is_inputs<In>::value, "inplace: ip::check/ip::function: the first argument must be ip::inputs(...)");
  static_assert(is_outputs<Out>::value,
                "inplace: ip::check/ip::function: the second argument must be ip::outputs(...)");
  static_assert((function_option<Options> && ...),
                "inplace: ip::check/ip::function: after inputs(...) and outputs(...) come only order(...), "
                "io_alias<O, I>(...), ip::no_rewrite and ip::debug");
  return is_inputs<In>::value && is_outputs<Out>::value && (function_option<Options> && ...);
}
}  // namespace detail

template <class In, class Out, class... Options>
constexpr check_result check(In, Out, Options...) {
  if constexpr (detail::function_arguments_ok<In, Out, Options...>()) {
    using S = detail::spec<In, Out, Options...>;
    return {S::rep.ok(), S::rep.kind, S::rep.names, S::rep.num_names};
  } else {
    return {};
  }
}

template <class In, class Out, class... Options>
constexpr auto function(In, Out, Options...) {
  if constexpr (detail::function_arguments_ok<In, Out, Options...>()) {
    using S = detail::spec<In, Out, Options...>;
    if constexpr (!S::rep.ok()) detail::raise<S::rep>(std::make_index_sequence<S::rep.num_names>{});
    return function_t<S>{};
  }
}

// The place of v's node in f's schedule (0 first); -1 for a leaf.
template <class S, detail::symbolic V>
constexpr int position(function_t<S>, V) {
  return S::template position_of<std::remove_cvref_t<V>>();
}

}  // namespace inplace
