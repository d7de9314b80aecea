#pragma once
// The vocabulary of compile-time errors (mirrored in docs/diagnostics.md).
// ip::function instantiates diagnostic::<rule><names...>, whose static_assert
// carries "inplace: <rule>: <sentence>", and whose template arguments are the
// offending variables and nodes as short labels, so the first lines of the
// compiler's output say which rule and which names. g++ prints a
// fixed_string argument as "x"; clang 14 prints it as character codes, so
// there the names travel as character packs (chars<'x'>).

#include "inplace/detail/config.hpp"
#include "inplace/graph/detail/analysis.hpp"
#include "inplace/graph/error_kind.hpp"
#include "inplace/fixed_string.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace inplace {
namespace diagnostic {

// A name as a type: g++ prints name<fixed_string<2>{"x"}>; clang 14 prints a
// fixed_string argument as character codes, so there it is chars<'x'>.
template <char... C>
struct chars {};
template <auto S>
struct name {};

// The condition of every rule's static_assert: false, but dependent on the
// names (their number), so that it fails only when the rule is instantiated;
// the compilers print it short ("holds_for_names<3>"), the names once, in the
// rule's type.
template <std::size_t NumNames>
inline constexpr bool holds_for_names = false;

// The base of every rule's type. A rule's type is what ip::function, ip::check
// or a call returns when the rule is broken; the program goes on using that
// value (f(a, b), r(0), r.data(), ip::plan(f, ...)), and each use would be a
// second error (g++ reports them) after the rule's message. So the value takes
// those uses: it can be called, indexed, converted to anything, and asked for
// a tensor's members; the rule's static_assert stays the only error.
struct any_use {
  template <class... X>
  constexpr any_use operator()(X&&...) const noexcept { return {}; }
  template <class X>
  constexpr any_use operator[](X&&) const noexcept { return {}; }
  // Any number (arithmetic with the result stays unambiguous: one conversion
  // to a number, not one per arithmetic type), or any other type.
  constexpr operator long double() const noexcept { return 0; }
  template <class T>
    requires(!std::is_arithmetic_v<T>)
  constexpr operator T() const {
    return T{};
  }
  template <class... X>
  constexpr any_use debug(X&&...) const noexcept { return {}; }
  constexpr any_use data() const noexcept { return {}; }
  constexpr any_use view() const noexcept { return {}; }
  constexpr any_use extents() const noexcept { return {}; }
  constexpr any_use strides() const noexcept { return {}; }
  constexpr any_use extent(std::size_t) const noexcept { return {}; }
  constexpr any_use stride(std::size_t) const noexcept { return {}; }
  constexpr std::size_t size() const noexcept { return 0; }
  constexpr any_use* begin() const noexcept { return nullptr; }
  constexpr any_use* end() const noexcept { return nullptr; }
};

template <class... Names>
struct undeclared_input : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: undeclared_input: an output depends on a symbol that inputs(...) does not list (named in diagnostic::undeclared_input<...>); fix: list the symbol in inputs(...), or compute it from the inputs.");
};
template <class... Names>
struct bad_op_maps : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: bad_op_maps: an op's view_map/destroy_map is malformed: an index out of range, a view of several inputs, an empty list, or an output in both maps (the op is named in diagnostic::bad_op_maps<...>); fix: give each view_map output one input, keep indices within the op's inputs and outputs, and put an output in at most one map.");
};
template <class... Names>
struct dtype_mismatch : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: dtype_mismatch: an in-place output's dtype differs from the dtype of the input it overwrites (both named in diagnostic::dtype_mismatch<...>); fix: overwrite an input of the result's dtype (swap the operands), or use the pure op.");
};
template <class... Names>
struct shape_mismatch : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: shape_mismatch: static extents do not fit: an in-place output differs from the input it overwrites, or operands do not broadcast, or a reinterpret to another size reads a view whose static layout is not dense (named in diagnostic::shape_mismatch<...>); fix: overwrite the operand that already has the result's extents, use the pure op, or reinterpret a dense copy (ip::copy(view)).");
};
template <class... Names>
struct multiple_destroyers : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: multiple_destroyers: two nodes destroy the same root, in regions that may overlap (the root, then both destroyers, in diagnostic::multiple_destroyers<...>); fix: let one node use the pure op, or chain the two (mul_inplace(add_inplace(x, y), y)).");
};
template <class... Names>
struct destroys_protected : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: destroys_protected: a node destroys an ip::indestructible input or a constant (named in diagnostic::destroys_protected<...>); fix: overwrite another operand, use the pure op, or drop ip::indestructible.");
};
template <class... Names>
struct destroys_output : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: destroys_output: a value returned by outputs(...) is (a view of) a destroyed root (named in diagnostic::destroys_output<...>); fix: return the destroyer's result instead of the overwritten value, or use the pure op.");
};
template <class... Names>
struct aliasing_hazard : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: aliasing_hazard: an in-place node reads the root it destroys through another input with another index pattern that may share elements with the ones it writes (or is opaque and may read them), or writes it through a broadcast view (named in diagnostic::aliasing_hazard<...>); fix: use the pure op, or read the root with the destroyer's own index pattern or in a region disjoint from the one written.");
};
template <class... Names>
struct ordering_cycle : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: ordering_cycle: no legal order: a node needs a value both before and after it is destroyed, or a node must run between two nodes that share one fused loop because a reader runs after the in-place node it reads (the nodes are named in diagnostic::ordering_cycle<...>); fix: use the pure op for the destroyer, make every late reader elementwise with the destroyer's index pattern, or correct order(...).");
};
template <class... Names>
struct bad_alias_spec : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: bad_alias_spec: an io_alias is out of range, aliases one input or output twice, or pairs values of different dtype/rank/static extents; fix: alias each output and input at most once, with indices in range, between values of one dtype, rank and static extents.");
};
template <class... Names>
struct alias_conflict : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: alias_conflict: an io_alias(ip::must_alias) output, or any io_alias into an ip::indestructible input, cannot be computed in its input's storage without breaking a rule (the nodes involved and that rule are named in diagnostic::alias_conflict<...>); fix: use ip::may_alias (the call then copies the output into the donated storage when it returns), alias the output to an input that no later node reads and nothing else destroys or returns, or drop the alias.");
};

// The arguments of ip::function / ip::check themselves.
template <class... Names>
struct first_argument : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: function_arguments: the first argument of ip::function/ip::check must be ip::inputs(...); "
                "fix: pass ip::inputs(x, ...) first and ip::outputs(...) second.");
};
template <class... Names>
struct second_argument : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: function_arguments: the second argument of ip::function/ip::check must be ip::outputs(...); "
                "fix: pass ip::inputs(...) first and ip::outputs(r, ...) second.");
};
template <class... Names>
struct option_argument : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: function_arguments: after inputs(...) and outputs(...) come only order(...), "
                "io_alias<O, I>(...), ip::no_rewrite, ip::debug, ip::debug_nans and ip::strict_donation; fix: "
                "remove the other arguments.");
};
// ip::position(f, v) of a value v that is not in f's graph.
template <class... Names>
struct foreign_value {  // (not any_use: it is a number, below)
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: foreign_value: ip::position(f, v): v is not a node of f's graph (named in "
                "diagnostic::foreign_value<...>); fix: ask for a value that f's outputs or order(...) reach.");
  // A position nonetheless, so that the expression around the call reports nothing more.
  constexpr operator int() const { return -1; }
};
// What ip::function returns when ip::inputs(...) has already reported its
// arguments: nothing more to say.
struct reported : any_use {};

}  // namespace diagnostic

namespace detail {

// The I-th name of a report as a template argument.
template <const report& Rep, std::size_t I, std::size_t... C>
constexpr auto name_argument(std::index_sequence<C...>) {
#if INPLACE_CLANG
  return diagnostic::chars<Rep.names[I].text[C]...>{};
#else
  fixed_string<sizeof...(C) + 1> s;
  const char text[] = {Rep.names[I].text[C]..., '\0'};
  for (std::size_t i = 0; i < sizeof...(C); ++i) s.value[i] = text[i];
  return s;
#endif
}

template <const report& Rep, std::size_t I>
inline constexpr auto name_value = name_argument<Rep, I>(std::make_index_sequence<Rep.names[I].size>{});
#if INPLACE_CLANG
template <const report& Rep, std::size_t I>
using name_type = std::remove_const_t<decltype(name_value<Rep, I>)>;
#else
template <const report& Rep, std::size_t I>
using name_type = diagnostic::name<name_value<Rep, I>>;
#endif

// The diagnostic type of each rule, in the order of error_kind: rule k of
// this list is row k + 1 of detail::rules (error_kind.hpp; the script checks
// the names).
template <template <class...> class... Rules>
struct rule_list;
template <template <class...> class First, template <class...> class... Rest>
struct rule_list<First, Rest...> {
  static constexpr std::size_t size = 1 + sizeof...(Rest);
  template <std::size_t K, class... Names>
  static constexpr auto pick() {
    if constexpr (K == 0) return std::type_identity<First<Names...>>{};
    else return rule_list<Rest...>::template pick<K - 1, Names...>();
  }
};
using graph_rules = rule_list<diagnostic::undeclared_input, diagnostic::bad_op_maps, diagnostic::dtype_mismatch,
                              diagnostic::shape_mismatch, diagnostic::multiple_destroyers,
                              diagnostic::destroys_protected, diagnostic::destroys_output,
                              diagnostic::aliasing_hazard, diagnostic::ordering_cycle, diagnostic::bad_alias_spec,
                              diagnostic::alias_conflict>;
static_assert(graph_rules::size + 1 == num_rules, "diagnostics.hpp: one diagnostic type per error_kind");

// diagnostic::<rule><names...> for the report's rule, as a type, not yet
// instantiated. ip::function returns it instead of a function_t, so the
// compiler instantiates it (and fires its static_assert) where the user calls
// ip::function: the backtrace is the user's line alone, with no expression type.
template <const report& Rep, std::size_t... I>
constexpr auto error_type_of(std::index_sequence<I...>) {
  return graph_rules::pick<static_cast<std::size_t>(Rep.kind) - 1, name_type<Rep, I>...>();
}
template <const report& Rep>
using error_type = typename decltype(error_type_of<Rep>(std::make_index_sequence<Rep.num_names>{}))::type;

// Rule<names...> with the names of a report.
template <template <class...> class Rule, const report& Rep, std::size_t... I>
constexpr auto named_rule(std::index_sequence<I...>) {
  return std::type_identity<Rule<name_type<Rep, I>...>>{};
}
template <template <class...> class Rule, const report& Rep>
using error_type_named = typename decltype(named_rule<Rule, Rep>(std::make_index_sequence<Rep.num_names>{}))::type;

}  // namespace detail
}  // namespace inplace
