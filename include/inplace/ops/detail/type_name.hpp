#pragma once
// Short, readable names of op types for diagnostics, explain() and to_dot():
// the op's own `name` when it declares one, else its unqualified type name.

#include "inplace/detail/config.hpp"

#include <string_view>

namespace inplace::detail {

template <class T>
constexpr std::string_view pretty_type_name() {
#if INPLACE_CLANG || INPLACE_GCC
  std::string_view p = __PRETTY_FUNCTION__;
  const auto key = p.find("T = ");
  if (key == std::string_view::npos) return "op";
  p.remove_prefix(key + 4);
  const auto stop = p.find_first_of(";]");
  return p.substr(0, stop);
#else
  return "op";
#endif
}

// "ns::my_op<int>" -> "my_op<int>": drop the namespaces before the template name.
constexpr std::string_view unqualified(std::string_view s) {
  const auto tpl = s.find('<');
  const auto head = s.substr(0, tpl);
  const auto colon = head.rfind("::");
  return colon == std::string_view::npos ? s : s.substr(colon + 2);
}

template <class Op>
constexpr std::string_view op_name() {
  if constexpr (requires { std::string_view{Op::name}; }) return std::string_view{Op::name};
  else return unqualified(pretty_type_name<Op>());
}

}  // namespace inplace::detail
