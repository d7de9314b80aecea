#pragma once
// The vocabulary of compile-time errors (mirrored in docs/diagnostics.md).
// ip::function instantiates diagnostic::<rule><names...>, whose static_assert
// carries "inplace: <rule>: <sentence>", and whose template arguments are the
// offending variables and nodes as short labels, so the first lines of the
// compiler's output say which rule and which names. g++ prints a
// fixed_string argument as "x"; clang 14 prints it as character codes, so
// there the names travel as character packs (chars<'x'>).

#include "inplace/detail/analysis.hpp"
#include "inplace/error_kind.hpp"
#include "inplace/fixed_string.hpp"

#include <cstddef>
#include <utility>

namespace inplace {
namespace diagnostic {

template <char... C>
struct chars {};

#if defined(__clang__)
#define INPLACE_NAMES_PARAM class
#else
#define INPLACE_NAMES_PARAM auto
#endif

#define INPLACE_DIAGNOSTIC(RULE, SENTENCE)                                              \
  template <INPLACE_NAMES_PARAM... Names>                                               \
  struct RULE {                                                                         \
    static_assert(sizeof...(Names) == 0 && sizeof...(Names) != 0, "inplace: " #RULE ": " SENTENCE); \
  };
INPLACE_DIAGNOSTIC(undeclared_input, "an output depends on a symbol that inputs(...) does not list (named in diagnostic::<rule><...>)")
INPLACE_DIAGNOSTIC(bad_op_maps, "an op's view_map/destroy_map is malformed: an index out of range, a view of "
                                "several inputs, an empty list, or an output in both maps (the op is named in diagnostic::<rule><...>)")
INPLACE_DIAGNOSTIC(dtype_mismatch, "an in-place output's dtype differs from the dtype of the input it overwrites")
INPLACE_DIAGNOSTIC(shape_mismatch, "static extents do not fit: an in-place output differs from the input it "
                                   "overwrites, or operands do not broadcast")
INPLACE_DIAGNOSTIC(multiple_destroyers, "two nodes destroy the same root (the root, then both destroyers, in diagnostic::<rule><...>)")
INPLACE_DIAGNOSTIC(destroys_protected, "a node destroys an ip::indestructible input or a constant")
INPLACE_DIAGNOSTIC(destroys_output, "a value returned by outputs(...) is (a view of) a destroyed root")
INPLACE_DIAGNOSTIC(aliasing_hazard, "an in-place node reads the root it destroys through another input with "
                                    "another index pattern (or is opaque and reads it at all)")
INPLACE_DIAGNOSTIC(ordering_cycle, "no legal order: a node needs a value both before and after it is destroyed "
                                   "(the nodes of the cycle are named in diagnostic::<rule><...>)")
INPLACE_DIAGNOSTIC(bad_alias_spec, "an io_alias is out of range, aliases one input or output twice, or pairs "
                                   "different dtype/rank/static extents")
INPLACE_DIAGNOSTIC(alias_conflict, "an io_alias output cannot be computed in its input's storage without "
                                   "breaking a rule (the nodes involved and the rule it would break are named in diagnostic::<rule><...>)")
#undef INPLACE_DIAGNOSTIC
#undef INPLACE_NAMES_PARAM

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

#if defined(__clang__)
#define INPLACE_NAME_ARG(I) decltype(name_argument<Rep, I>(std::make_index_sequence<Rep.names[I].size>{}))
#else
#define INPLACE_NAME_ARG(I) name_argument<Rep, I>(std::make_index_sequence<Rep.names[I].size>{})
#endif

template <const report& Rep, std::size_t... I>
constexpr void raise(std::index_sequence<I...>) {
  constexpr auto k = Rep.kind;
#define INPLACE_RAISE(RULE)                                                                        \
  if constexpr (k == error_kind::RULE)                                                             \
    (void)sizeof(diagnostic::RULE<INPLACE_NAME_ARG(I)...>);
  INPLACE_RAISE(undeclared_input)
  INPLACE_RAISE(bad_op_maps)
  INPLACE_RAISE(dtype_mismatch)
  INPLACE_RAISE(shape_mismatch)
  INPLACE_RAISE(multiple_destroyers)
  INPLACE_RAISE(destroys_protected)
  INPLACE_RAISE(destroys_output)
  INPLACE_RAISE(aliasing_hazard)
  INPLACE_RAISE(ordering_cycle)
  INPLACE_RAISE(bad_alias_spec)
  INPLACE_RAISE(alias_conflict)
#undef INPLACE_RAISE
}
#undef INPLACE_NAME_ARG

}  // namespace detail
}  // namespace inplace
