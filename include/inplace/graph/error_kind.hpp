#pragma once
// ip::error_kind: the rules of the analysis (docs/analysis.md), in the order ip::check reports them.

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

constexpr std::string_view to_string(error_kind k) {
  switch (k) {
    case error_kind::none: return "none";
    case error_kind::undeclared_input: return "undeclared_input";
    case error_kind::bad_op_maps: return "bad_op_maps";
    case error_kind::dtype_mismatch: return "dtype_mismatch";
    case error_kind::shape_mismatch: return "shape_mismatch";
    case error_kind::multiple_destroyers: return "multiple_destroyers";
    case error_kind::destroys_protected: return "destroys_protected";
    case error_kind::destroys_output: return "destroys_output";
    case error_kind::aliasing_hazard: return "aliasing_hazard";
    case error_kind::ordering_cycle: return "ordering_cycle";
    case error_kind::bad_alias_spec: return "bad_alias_spec";
    case error_kind::alias_conflict: return "alias_conflict";
  }
  return "unknown";
}

}  // namespace inplace
