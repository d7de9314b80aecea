#pragma once
// The automatic in-place rewrite: a pure node whose op has a registered
// in-place variant (ip::inplace_variant<Op, I>) is computed in the storage of
// its input I when that storage may be overwritten. Here: which variants the
// rewrite can use, and the reasons it refuses one, as ONE table in the order
// the planner checks them (storage.hpp, planner::try_rewrite). ip::explain
// prints a reason's meaning ("stayed pure: ..."); docs/running.md lists the
// table, and tests/run/refusals.cpp checks that list against it.

#include "inplace/graph/node.hpp"
#include "inplace/ops/inplace_op.hpp"

#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::run {

// Why a pure node with a registered in-place variant was left pure.
enum class refusal : unsigned char {
  none,        // rewritten, or nothing to say
  no_variant,  // no input has a registered in-place variant the rewrite can use
  no_rewrite,
  view,
  dtype,
  extents,
  protected_input,
  borrowed,
  fused,
  scalar,
  output,
  io_alias,
  aliasing_hazard,
  later_reader,
};

struct refusal_reason {
  refusal kind;
  std::string_view name;     // the enumerator's name
  std::string_view meaning;  // what ip::explain says after "stayed pure: "
};

// The reasons, in the order they are checked: the first that applies to the
// first candidate input is the node's reason. no_rewrite concerns the whole
// function; the others one candidate input (an input with a usable variant).
inline constexpr std::array<refusal_reason, 12> refusal_reasons{{
    {refusal::no_rewrite, "no_rewrite", "the function was built with ip::no_rewrite"},
    {refusal::view, "view", "its input is a view, not a storage"},
    {refusal::dtype, "dtype", "its input has another dtype"},
    {refusal::extents, "extents", "its input has other extents, or would be broadcast"},
    {refusal::protected_input, "protected_input", "its input is indestructible or a constant"},
    {refusal::borrowed, "borrowed", "its input is borrowed (donate it with std::move)"},
    {refusal::fused, "fused", "its input lives only inside the fused loop"},
    {refusal::scalar, "scalar", "its input is a scalar input, passed by value"},
    {refusal::output, "output", "its input is an output of the function"},
    {refusal::io_alias, "io_alias", "its input's storage is reserved for an io_alias output"},
    {refusal::aliasing_hazard, "aliasing_hazard",
     "its input is also another of its arguments (its kernel would read what it overwrites)"},
    {refusal::later_reader, "later_reader", "its input is still needed (read later, or by another in-place node)"},
}};

// What ip::explain says for a reason ("" for none and no_variant).
constexpr std::string_view meaning_of(refusal r) {
  for (const refusal_reason& x : refusal_reasons)
    if (x.kind == r) return x.meaning;
  return {};
}

// The output that the in-place variant registered for input j of an op
// computes over input j, or -1: no variant, or one the rewrite cannot use (its
// maps do not put exactly one output over input j and leave everything else
// alone, or it has another number of outputs than the op).
template <class Op, std::size_t J, std::size_t N>
constexpr int variant_in_place_output() {
  if constexpr (!has_inplace_variant<Op, static_cast<int>(J)>) {
    return -1;
  } else {
    constexpr op_info v = read_op<inplace_variant<Op, static_cast<int>(J)>>(N);
    if (!v.maps_ok || v.num_outputs != num_outputs_of<Op>() || num_views(v) != 0) return -1;
    int o = -1;
    for (std::size_t k = 0; k < v.num_outputs; ++k) {
      if (v.destroys[k] == 0) continue;
      if (o >= 0 || v.destroys[k] != std::uint32_t{1} << J) return -1;
      o = static_cast<int>(k);
    }
    return o;
  }
}
// A registered variant computes the op's dtypes: a variant computing floats for
// a double op would round every value it computes in place. Checked where a
// graph runs (executor.hpp), in a function whose arguments name the op, the
// variant and both dtypes; the plan never uses such a variant, so nothing else fails.
template <class Op, class Variant, class OpDtype, class VariantDtype>
inline void variant_dtype_check() {
  static_assert(std::is_same_v<OpDtype, VariantDtype>,
                "inplace: variant_dtype: a registered in-place variant computes another dtype than its op (this "
                "check's arguments: the op, the variant, the op's dtype, the variant's); fix: make the variant's "
                "output_dtype the op's, or register another variant.");
}
template <class Variant, class E>
struct with_op;  // node E with its op replaced by Variant
template <class Variant, class Op, template <class = void> class... Arg>
struct with_op<Variant, node<Op, Arg...>> {
  using type = node<Variant, Arg...>;
};
// Whether the rewrite could use node E's variant for input J (one is
// registered, with the op's number of outputs, and input J has an output's dtype).
template <class E, std::size_t J, std::size_t... O>
constexpr bool variant_candidate(std::index_sequence<O...>) {
  using Op = typename E::op;
  if constexpr (!has_inplace_variant<Op, static_cast<int>(J)>) {
    return false;
  } else {
    using in = boost::mp11::mp_at_c<typename E::in_dtypes, J>;
    return num_outputs_of<inplace_variant<Op, static_cast<int>(J)>>() == sizeof...(O) &&
           (std::is_same_v<in, typename E::template out_dtype<O>> || ...);
  }
}
template <class E, std::size_t J, std::size_t... O>
constexpr bool variant_dtypes_fit(std::index_sequence<O...> o) {
  if constexpr (!variant_candidate<E, J>(o)) {
    return true;
  } else {
    using V = typename with_op<inplace_variant<typename E::op, static_cast<int>(J)>, E>::type;
    return (std::is_same_v<typename E::template out_dtype<O>, typename V::template out_dtype<O>> && ...);
  }
}
template <class E, std::size_t J, std::size_t... O>
void check_variant_dtypes(std::index_sequence<O...> o) {
  if constexpr (variant_candidate<E, J>(o)) {
    using Variant = inplace_variant<typename E::op, static_cast<int>(J)>;
    using V = typename with_op<Variant, E>::type;
    (variant_dtype_check<typename E::op, Variant, typename E::template out_dtype<O>, typename V::template out_dtype<O>>(),
     ...);
  }
}
// Every variant of node E's op (a no-op at run time).
template <class E, std::size_t... J>
void check_variant_dtypes_of(std::index_sequence<J...>) {
  (check_variant_dtypes<E, J>(std::make_index_sequence<num_outputs_of<typename E::op>()>{}), ...);
}
template <class E, std::size_t... J>
constexpr std::array<int, max_args> variant_outputs_of(std::index_sequence<J...>) {
  std::array<int, max_args> r{};
  for (int& o : r) o = -1;
  constexpr std::size_t NO = num_outputs_of<typename E::op>();
  ((r[J] = variant_dtypes_fit<E, J>(std::make_index_sequence<NO>{}) ? variant_in_place_output<typename E::op, J, sizeof...(J)>() : -1), ...);
  return r;
}
// By entry: variant_outputs_of its op (all -1 for a leaf).
template <class P, std::size_t... E>
constexpr auto variant_outputs(std::index_sequence<E...>) {
  constexpr auto& g = P::spec::graph_value;
  const auto one = []<std::size_t X>(std::integral_constant<std::size_t, X>) {
    if constexpr (g.entries[X].kind == entry_kind::op)
      return variant_outputs_of<typename P::template entry_t<X>>(std::make_index_sequence<g.entries[X].num_args>{});
    else {
      std::array<int, max_args> r{};
      for (int& o : r) o = -1;
      return r;
    }
  };
  return std::array<std::array<int, max_args>, sizeof...(E)>{one(std::integral_constant<std::size_t, E>{})...};
}

}  // namespace inplace::detail::run

#include "inplace/detail/shadow_on.hpp"
