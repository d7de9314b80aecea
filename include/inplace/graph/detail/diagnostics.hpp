#pragma once
// The vocabulary of compile-time errors (mirrored in docs/diagnostics.md).
// ip::function instantiates diagnostic::<rule><names...>, whose static_assert
// carries "inplace: <rule>: <sentence>", and whose template arguments are the
// offending variables and nodes as short labels, so the first lines of the
// compiler's output say which rule and which names. g++ prints a
// fixed_string argument as "x"; clang 14 prints it as character codes, so
// there the names travel as character packs (chars<'x'>).

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

template <class... Names>
struct undeclared_input {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: undeclared_input: an output depends on a symbol that inputs(...) does not list (named in diagnostic::<rule><...>)");
};
template <class... Names>
struct bad_op_maps {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: bad_op_maps: an op's view_map/destroy_map is malformed: an index out of range, a view of several inputs, an empty list, or an output in both maps (the op is named in diagnostic::<rule><...>)");
};
template <class... Names>
struct dtype_mismatch {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: dtype_mismatch: an in-place output's dtype differs from the dtype of the input it overwrites");
};
template <class... Names>
struct shape_mismatch {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: shape_mismatch: static extents do not fit: an in-place output differs from the input it overwrites, or operands do not broadcast");
};
template <class... Names>
struct multiple_destroyers {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: multiple_destroyers: two nodes destroy the same root (the root, then both destroyers, in diagnostic::<rule><...>)");
};
template <class... Names>
struct destroys_protected {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: destroys_protected: a node destroys an ip::indestructible input or a constant");
};
template <class... Names>
struct destroys_output {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: destroys_output: a value returned by outputs(...) is (a view of) a destroyed root");
};
template <class... Names>
struct aliasing_hazard {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: aliasing_hazard: an in-place node reads the root it destroys through another input with another index pattern (or is opaque and reads it at all), or writes it through a broadcast view");
};
template <class... Names>
struct ordering_cycle {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: ordering_cycle: no legal order: a node needs a value both before and after it is destroyed (the nodes of the cycle are named in diagnostic::<rule><...>)");
};
template <class... Names>
struct bad_alias_spec {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: bad_alias_spec: an io_alias is out of range, aliases one input or output twice, or pairs different dtype/rank/static extents");
};
template <class... Names>
struct alias_conflict {
  static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0,
                "inplace: alias_conflict: an io_alias output cannot be computed in its input's storage without breaking a rule (the nodes involved and the rule it would break are named in diagnostic::<rule><...>)");
};

}  // namespace diagnostic

namespace detail {

// The I-th name of a report as a template argument.
template <const report& Rep, std::size_t I, std::size_t... C>
constexpr auto name_argument(std::index_sequence<C...>) {
#if defined(__clang__)
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
#if defined(__clang__)
template <const report& Rep, std::size_t I>
using name_type = std::remove_const_t<decltype(name_value<Rep, I>)>;
#else
template <const report& Rep, std::size_t I>
using name_type = diagnostic::name<name_value<Rep, I>>;
#endif

// Instantiates diagnostic::<rule><names...> for the report's rule.
template <const report& Rep, std::size_t... I>
constexpr void raise(std::index_sequence<I...>) {
  constexpr auto k = Rep.kind;
  if constexpr (k == error_kind::undeclared_input)
    (void)sizeof(diagnostic::undeclared_input<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::bad_op_maps)
    (void)sizeof(diagnostic::bad_op_maps<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::dtype_mismatch)
    (void)sizeof(diagnostic::dtype_mismatch<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::shape_mismatch)
    (void)sizeof(diagnostic::shape_mismatch<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::multiple_destroyers)
    (void)sizeof(diagnostic::multiple_destroyers<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::destroys_protected)
    (void)sizeof(diagnostic::destroys_protected<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::destroys_output)
    (void)sizeof(diagnostic::destroys_output<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::aliasing_hazard)
    (void)sizeof(diagnostic::aliasing_hazard<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::ordering_cycle)
    (void)sizeof(diagnostic::ordering_cycle<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::bad_alias_spec)
    (void)sizeof(diagnostic::bad_alias_spec<name_type<Rep, I>...>);
  else if constexpr (k == error_kind::alias_conflict)
    (void)sizeof(diagnostic::alias_conflict<name_type<Rep, I>...>);
}

}  // namespace detail
}  // namespace inplace
