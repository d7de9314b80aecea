#pragma once
// ip::error_kind: the rules of the analysis (docs/analysis.md), in the order
// ip::check reports them, and their table: one row per rule, from which
// ip::to_string and docs/diagnostics.md (scripts/gen_diagnostics_doc.py reads
// the rows) take the rule's name and what it protects against. Each rule's
// compile-time message is its diagnostic type's static_assert
// (graph/detail/diagnostics.hpp): a static_assert takes a string literal only,
// so the message cannot come from this table; the script checks that every row
// has that type and a message naming the rule.

#include <cstddef>
#include <string_view>

namespace inplace {

enum class error_kind {
  none,
  undeclared_input,
  bad_op_maps,
  dtype_mismatch,
  shape_mismatch,
  multiple_destroyers,
  destroys_protected,
  destroys_output,
  aliasing_hazard,
  ordering_cycle,
  bad_alias_spec,
  alias_conflict,
};

namespace detail {

struct rule_row {
  error_kind kind;
  std::string_view name;      // the enumerator's name, as in "inplace: <name>: ..."
  std::string_view protects;  // what the rule protects against (Markdown)
};

// Row k is error_kind k, named as its enumerator (the script checks the names).
inline constexpr rule_row rules[] = {
    {error_kind::none, "none", "No rule is broken."},
    {error_kind::undeclared_input, "undeclared_input",
     "A function whose result depends on a value no argument supplies: every `ip::input` and `ip::scalar` that "
     "the outputs (or `order(...)`) reach must be listed in `inputs(...)`, so that a call passes it."},
    {error_kind::bad_op_maps, "bad_op_maps",
     "An op whose `view_map` or `destroy_map` cannot be trusted (an index outside its inputs or outputs, a view of "
     "several inputs, a destroy of none, an output in both maps, `num_outputs` outside 1..8): every other rule "
     "reasons about storage through these maps."},
    {error_kind::dtype_mismatch, "dtype_mismatch",
     "A result silently converted to the dtype of the storage it is computed in: an in-place op stores its result "
     "in its destroyed input, so a `double` result in an `int` input (`mul_inplace(i, 0.5_c)`) would be truncated; "
     "on tensors, the same for an in-place op or `x op= e`."},
    {error_kind::shape_mismatch, "shape_mismatch",
     "Writing past the storage an in-place op computes in, or combining operands that do not broadcast: an "
     "in-place result must have its destroyed input's extents (it cannot grow into a broadcast), which static "
     "extents decide here and dynamic ones at the call (`ip::shape_error`). Likewise reading bytes that are not "
     "there: `ip::reinterpret` to a type of another size scales the last axis, so it needs a dense view; one that "
     "static extents prove is not dense (a transpose, a strided slice) is refused here, at the call "
     "`ip::shape_error`."},
    {error_kind::multiple_destroyers, "multiple_destroyers",
     "Reading a value that is gone: when two nodes overwrite regions of the same root that may overlap, the one "
     "that runs second reads what the first wrote there instead of the value it was given (regions the index "
     "patterns prove disjoint, such as even and odd columns, may each have their own destroyer)."},
    {error_kind::destroys_protected, "destroys_protected",
     "Overwriting what must stay: an `ip::indestructible` input is the caller's to keep, and a constant is "
     "shared by every call."},
    {error_kind::destroys_output, "destroys_output",
     "Returning a value that a later node has overwritten: a value that `outputs(...)` returns, or a view of it, "
     "must still hold that value when the call returns."},
    {error_kind::aliasing_hazard, "aliasing_hazard",
     "An in-place node reading elements it has already written: it reads the root it overwrites through another "
     "index pattern that may share elements with the ones it writes (`add_inplace(A, transpose(A))`, a shifted "
     "slice, a broadcast), or is opaque and may read them, or writes through a view that repeats elements. A read "
     "of a region the patterns prove disjoint from the written one is legal."},
    {error_kind::ordering_cycle, "ordering_cycle",
     "Running a graph in an order that gives wrong values: a node must read a value before an in-place node "
     "overwrites it, yet run after that node (through data, `order(...)`, or the fused loops the fused-loop "
     "exception of [analysis.md](analysis.md) relies on), so no order is correct."},
    {error_kind::bad_alias_spec, "bad_alias_spec",
     "An `io_alias` that cannot mean one storage shared by one output and one input: indices out of range, an "
     "input or output aliased twice, or values of different dtype, rank or static extents."},
    {error_kind::alias_conflict, "alias_conflict",
     "An `ip::must_alias` that breaks the rules above: computing the output in its input's storage destroys that "
     "input, which must not break `multiple_destroyers`, `destroys_protected`, `destroys_output`, "
     "`aliasing_hazard` or `ordering_cycle` (named in the diagnostic), and the output must be able to live there. "
     "An `ip::may_alias` that would break them is honoured by a copy instead (as XLA's copy insertion does), "
     "except into an `ip::indestructible` input."},
};

inline constexpr std::size_t num_rules = sizeof(rules) / sizeof(rules[0]);

constexpr bool rows_in_enum_order() {
  for (std::size_t k = 0; k < num_rules; ++k)
    if (rules[k].kind != static_cast<error_kind>(k)) return false;
  return rules[num_rules - 1].kind == error_kind::alias_conflict;  // the last enumerator: no rule left out
}
static_assert(rows_in_enum_order(), "error_kind.hpp: one row per error_kind, in the enum's order");

}  // namespace detail

constexpr std::string_view to_string(error_kind k) {
  const auto i = static_cast<std::size_t>(k);
  return i < detail::num_rules ? detail::rules[i].name : "unknown";
}

}  // namespace inplace
