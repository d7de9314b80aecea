#pragma once
// ip::function, ip::check, ip::position and the arguments they take:
// ip::inputs, ip::outputs, ip::order, ip::io_alias, ip::no_rewrite, ip::debug,
// ip::debug_nans, ip::strict_donation.
// A function is an empty object; its analysis is a constexpr member of its type.

#include "inplace/detail/config.hpp"
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
struct debug_nans_t {};
struct strict_donation_t {};
inline constexpr no_rewrite_t no_rewrite{};
inline constexpr debug_t debug{};
// Every call checks its outputs for NaN and infinities and names the first node producing one.
inline constexpr debug_nans_t debug_nans{};
// Donating an argument whose storage the call's plan never uses is a compile error.
inline constexpr strict_donation_t strict_donation{};

// ip::inputs, ip::check and ip::function take arguments of any type, so that
// they can say what is wrong with them (function_arguments). As function
// templates, argument-dependent lookup would find them for any argument of
// this library, and a user's own unqualified inputs(t) or check(t, u) on
// tensors would call them; so they are objects, which only their name finds.
// (Every other public function is constrained to the arguments it is about.)
namespace detail {
struct inputs_fn {
  template <class... I>
  constexpr inputs_t<std::remove_cvref_t<I>...> operator()(I...) const {
    static_assert((detail::input_symbol<I> && ...),
                  "inplace: function_arguments: ip::inputs(...) takes the symbols declared with ip::input or "
                  "ip::scalar; fix: list only those symbols (not expressions, tensors or numbers).");
    static_assert(boost::mp11::mp_is_set<boost::mp11::mp_list<std::remove_cvref_t<I>...>>::value,
                  "inplace: function_arguments: ip::inputs(...) lists a symbol twice; fix: list each input once.");
    return {};
  }
};
}  // namespace detail
inline constexpr detail::inputs_fn inputs{};
template <detail::symbolic... O>
constexpr outputs_t<std::remove_cvref_t<O>...> outputs(O...) {
  return {};
}
// order(a, b, c): a's node runs before b's, b's before c's.
template <detail::symbolic... V>
constexpr order_t<std::remove_cvref_t<V>...> order(V...) {
  static_assert(sizeof...(V) >= 2, "inplace: function_arguments: ip::order(...) takes at least two values; "
                "fix: write order(a, b) for 'a runs before b'.");
  return {};
}
// io_alias<O, I>(must_alias | may_alias): output O lives in input I's storage.
template <int Output, int Input, class Kind>
  requires std::is_same_v<Kind, must_alias_t> || std::is_same_v<Kind, may_alias_t>
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
                          std::is_same_v<T, debug_t> || std::is_same_v<T, debug_nans_t> ||
                          std::is_same_v<T, strict_donation_t>;

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
  static constexpr bool debug_nans = has_type<mp_list<Options...>, debug_nans_t>;
  static constexpr bool strict_donation = has_type<mp_list<Options...>, strict_donation_t>;
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
  static constexpr std::size_t entry_id_of = entry_id(&entry_of<V>::desc);
};

// The name of a value (its op's or input's name) as a report, for diagnostic::foreign_value.
template <class V>
struct value_report {
  static constexpr report rep = [] {
    const entry_record& e = entry_of<V>::desc.record;
    label l;
    l += e.info.name;
    if (e.kind == entry_kind::op) l += "(...)";
    report r;
    r.add(l);
    return r;
  }();
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

namespace detail {
// call_check<S, A...>::type: void when f(a...) may run, else the diagnostic
// type of the broken rule (argument_count, argument_mismatch, must_alias).
// Defined by run/call.hpp.
template <class S, class... A>
struct call_check;
template <class S, class... A>
using call_check_t = typename call_check<S, A...>::type;
}  // namespace detail

// (On a broken rule, the overloads below return the rule's diagnostic type,
// with INPLACE_DIAGNOSTIC_BODY: detail/config.hpp says why.)
// A checked graph function: an empty object; everything is in its type.
// Calling it runs the graph (include <inplace/run.hpp>, or <inplace.hpp>).
template <class Spec>
struct function_t {
  using spec = Spec;
  static constexpr std::size_t num_nodes = Spec::result.schedule_size;

  // f(args...): arguments bind to inputs(...) in order; rvalue tensors are donated.
  template <class... A>
    requires std::is_void_v<detail::call_check_t<Spec, A...>>
  auto operator()(A&&... a) const {
    return call_function(*this, std::forward<A>(a)...);  // found by argument-dependent lookup (run/call.hpp)
  }
  template <class... A>
    requires(!std::is_void_v<detail::call_check_t<Spec, A...>>)
  detail::call_check_t<Spec, A...> operator()(A&&...) const INPLACE_DIAGNOSTIC_BODY
  // f.debug(args...): the call, checked against a pure reference and every op's maps.
  template <class... A>
    requires std::is_void_v<detail::call_check_t<Spec, A...>>
  auto debug(A&&... a) const {
    return debug_function(*this, std::forward<A>(a)...);
  }
  template <class... A>
    requires(!std::is_void_v<detail::call_check_t<Spec, A...>>)
  detail::call_check_t<Spec, A...> debug(A&&...) const INPLACE_DIAGNOSTIC_BODY
};

namespace detail {

// Whether ip::inputs(...) took its arguments without error (else it reported them).
template <class In>
inline constexpr bool inputs_ok = false;
template <class... I>
inline constexpr bool inputs_ok<inputs_t<I...>> =
    (input_symbol<I> && ...) && boost::mp11::mp_is_set<boost::mp11::mp_list<I...>>::value;

// What ip::check and ip::function return, as a type: a diagnostic type when the
// arguments or the graph break a rule. The call then instantiates that type,
// and its static_assert fires, at the user's line, so the compiler's backtrace
// holds no function template whose arguments are expression types.

template <class In, class Out, class... Options>
constexpr auto arguments_error() {
  if constexpr (!is_inputs<In>::value) return std::type_identity<diagnostic::first_argument<>>{};
  else if constexpr (!inputs_ok<In>) return std::type_identity<diagnostic::reported>{};
  else if constexpr (!is_outputs<Out>::value) return std::type_identity<diagnostic::second_argument<>>{};
  else if constexpr (!(function_option<Options> && ...)) return std::type_identity<diagnostic::option_argument<>>{};
  else return std::type_identity<void>{};
}
template <class In, class Out, class... Options>
constexpr auto check_type() {
  constexpr auto bad = arguments_error<In, Out, Options...>();
  if constexpr (!std::is_void_v<typename decltype(bad)::type>) return bad;
  else return std::type_identity<check_result>{};
}
template <class In, class Out, class... Options>
constexpr auto function_type() {
  constexpr auto bad = arguments_error<In, Out, Options...>();
  if constexpr (!std::is_void_v<typename decltype(bad)::type>) return bad;
  else {
    using S = spec<In, Out, Options...>;
    if constexpr (!S::rep.ok()) return std::type_identity<error_type<S::rep>>{};
    else return std::type_identity<function_t<S>>{};
  }
}
template <class S, class V>
constexpr auto position_type() {
  // (not a symbol: ip::position is not viable; compilers may substitute into its
  // return type before checking its constraints, so this must still be a type)
  if constexpr (!symbolic<V>) return std::type_identity<void>{};
  else if constexpr (S::template entry_id_of<V> < S::num_entries) return std::type_identity<int>{};
  else return std::type_identity<error_type_named<diagnostic::foreign_value, value_report<V>::rep>>{};
}
template <class In, class Out, class... Options>
using check_type_t = typename decltype(check_type<In, Out, Options...>())::type;
template <class In, class Out, class... Options>
using function_type_t = typename decltype(function_type<In, Out, Options...>())::type;
template <class S, class V>
using position_type_t = typename decltype(position_type<S, V>())::type;
template <class T>
inline constexpr bool is_function_t = false;
template <class S>
inline constexpr bool is_function_t<function_t<S>> = true;
// What ip::check and ip::function return without a diagnostic of their own: a
// result, or diagnostic::reported when ip::inputs(...) has reported the error.
template <class T>
inline constexpr bool returns_normally =
    is_function_t<T> || std::is_same_v<T, check_result> || std::is_same_v<T, diagnostic::reported>;

struct check_fn {
  template <class In, class Out, class... Options>
    requires returns_normally<check_type_t<In, Out, Options...>>
  constexpr check_type_t<In, Out, Options...> operator()(In, Out, Options...) const {
    if constexpr (std::is_same_v<check_type_t<In, Out, Options...>, check_result>) {
      using S = spec<In, Out, Options...>;
      return {S::rep.ok(), S::rep.kind, S::rep.names, S::rep.num_names};
    } else {
      return {};
    }
  }
  template <class In, class Out, class... Options>
    requires(!returns_normally<check_type_t<In, Out, Options...>>)
  constexpr check_type_t<In, Out, Options...> operator()(In, Out, Options...) const INPLACE_DIAGNOSTIC_BODY
};
// A function_t, or (for an illegal graph) the diagnostic type of the rule it breaks.
struct function_fn {
  template <class In, class Out, class... Options>
    requires returns_normally<function_type_t<In, Out, Options...>>
  constexpr function_type_t<In, Out, Options...> operator()(In, Out, Options...) const {
    return {};
  }
  template <class In, class Out, class... Options>
    requires(!returns_normally<function_type_t<In, Out, Options...>>)
  constexpr function_type_t<In, Out, Options...> operator()(In, Out, Options...) const INPLACE_DIAGNOSTIC_BODY
};
}  // namespace detail
inline constexpr detail::check_fn check{};
inline constexpr detail::function_fn function{};

// The place of v's node in f's schedule (0 first); -1 for a leaf.
template <class S, detail::symbolic V>
  requires std::is_same_v<detail::position_type_t<S, std::remove_cvref_t<V>>, int>
constexpr int position(function_t<S>, V) {
  return S::result.position[S::template entry_id_of<std::remove_cvref_t<V>>];
}
template <class S, detail::symbolic V>
  requires(!std::is_same_v<detail::position_type_t<S, std::remove_cvref_t<V>>, int>)
constexpr detail::position_type_t<S, std::remove_cvref_t<V>> position(function_t<S>, V) INPLACE_DIAGNOSTIC_BODY

// After a broken rule, f holds the rule's type: its message is the error.
template <class V>
constexpr int position(const diagnostic::any_use&, V) {
  return -1;
}

}  // namespace inplace
