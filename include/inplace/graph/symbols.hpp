#pragma once
// The leaves of a graph: tensor inputs, run-time scalar inputs and
// compile-time constants. Every leaf and every op output is an empty object
// whose type is the whole expression, so equal expressions are one node.

#include "inplace/graph/detail/entry_desc.hpp"
#include "inplace/fixed_string.hpp"
#include "inplace/ops/detail/dtype_rule.hpp"
#include "inplace/shape.hpp"
// after the headers above, so that their diagnostics keep their include chain
#include "inplace/graph/detail/constant_fold.hpp"

#include <boost/mp11/list.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {

// Flag for ip::input: the input may never be overwritten (destroys_protected).
struct indestructible_t {};
inline constexpr indestructible_t indestructible{};

namespace detail {

using boost::mp11::mp_list;

// Base of every symbolic value (leaves and op outputs); the operators of
// graph_ops.hpp accept exactly these.
struct symbolic_base {};

template <class T>
concept symbolic = __is_base_of(symbolic_base, std::remove_cvref_t<T>);  // a builtin: no symbol per type

// Constants are weakly typed (NumPy/JAX Python scalars): they take the dtype of
// the other operands. Their dtype is weak_int or weak_float until then
// (ops/detail/dtype_rule.hpp).

// What every leaf is: a symbolic value that is its own entry of the graph.
template <class Self>
struct leaf_base : symbolic_base {
  using entry = Self;
};

template <fixed_string Name, class T, auto Shape, bool Indestructible>
struct input_leaf : leaf_base<input_leaf<Name, T, Shape, Indestructible>> {
  static_assert(std::is_arithmetic_v<T>, "inplace: dtype: ip::input<Name, T>: the dtype T must be an arithmetic type; "
                "fix: use float, double, an integer type or bool.");
  using dtype = T;
  static constexpr entry_kind kind = entry_kind::input;
  static constexpr std::string_view name = Name.view();
  static constexpr bool indestructible = Indestructible;
  static constexpr shape value_shape = shape_of_spec<Shape>();
  static constexpr entry_desc desc =
      leaf_description(kind, indestructible, name, value_shape, pretty_type_name<input_leaf>());
};

template <fixed_string Name, class T>
struct scalar_leaf : leaf_base<scalar_leaf<Name, T>> {
  static_assert(std::is_arithmetic_v<T>, "inplace: dtype: ip::scalar<Name, T>: the dtype T must be an arithmetic type; "
                "fix: use float, double, an integer type or bool.");
  using dtype = T;
  static constexpr entry_kind kind = entry_kind::scalar;
  static constexpr std::string_view name = Name.view();
  static constexpr bool indestructible = false;
  static constexpr shape value_shape{};
  static constexpr entry_desc desc =
      leaf_description(kind, indestructible, name, value_shape, pretty_type_name<scalar_leaf>());
};

// Parses the characters of a numeric literal ("2.5", "1e-3", "0x10", "1'000").
template <char... C>
constexpr long double parse_literal() {
  constexpr char s[] = {C..., '\0'};
  long double v = 0;
  std::size_t i = 0;
  unsigned base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, i = 2;
  else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, i = 2;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (; s[i] != '\0' && s[i] != '.' && !(base == 10 && (s[i] == 'e' || s[i] == 'E')); ++i)
    if (s[i] != '\'') v = v * base + digit(s[i]);
  if (s[i] == '.') {
    long double scale = 1;
    for (++i; s[i] >= '0' && s[i] <= '9'; ++i) v += (s[i] - '0') * (scale /= 10);
  }
  if (s[i] == 'e' || s[i] == 'E') {
    ++i;
    const bool neg = s[i] == '-';
    if (s[i] == '-' || s[i] == '+') ++i;
    int e = 0;
    for (; s[i] >= '0' && s[i] <= '9'; ++i) e = e * 10 + (s[i] - '0');
    for (; e > 0; --e) v = neg ? v / 10 : v * 10;
  }
  return v;
}

// A constant's value as dtype T, the way a C++ number of its kind converts: an
// integer T takes the value truncated toward zero, modulo 2^n (-1 as uint8 is
// 255, 300 as int8 is 44, as NumPy 1's astype); converting the long double
// straight to T would be undefined out of T's range (and not a constant).
template <class T>
constexpr T constant_as(long double v) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return v < 0 ? static_cast<T>(static_cast<long long>(v)) : static_cast<T>(static_cast<unsigned long long>(v));
  else return static_cast<T>(v);
}

// An integer literal (2_c, 0x10_c) is a weak int, any other (2.0_c, 1e3_c) a weak float.
template <char... C>
constexpr bool integer_literal() {
  constexpr char s[] = {C..., '\0'};
  const bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  for (char c : s)
    if (c == '.' || (!hex && (c == 'e' || c == 'E'))) return false;
  return true;
}

template <char... C>
struct constant_leaf : leaf_base<constant_leaf<C...>> {
  using dtype = std::conditional_t<integer_literal<C...>(), weak_int, weak_float>;
  static constexpr entry_kind kind = entry_kind::constant;
  static constexpr char text[] = {C..., '\0'};
  static constexpr std::string_view name{text, sizeof...(C)};
  static constexpr bool indestructible = true;
  static constexpr shape value_shape{};
  static constexpr long double value = parse_literal<C...>();
  static constexpr entry_desc desc =
      leaf_description(kind, indestructible, name, value_shape, pretty_type_name<constant_leaf>());
};

// An expression of constants only (-1.0_c, 1.0_c / 64_c, 1_c + 2_c, 1_c < 2_c,
// ip::cast<float>(2_c)), folded where it is built (detail/constant_fold.hpp): a
// constant like the others, not a node. Its value is the op's kernel on the
// arguments' values, computed as a run-time call computes them: weak operands
// in int64 when all are weak ints (so 7_c / 2_c is 3, as 7 / 2 on int tensors),
// else in double, as Python computes 1.0 / 3 (NumPy's weak floats are Python's).
// It stays weak when its operands are and the op gives a number of theirs; a
// comparison is a bool, a cast<T> a T.
template <class Op, class... A>
struct folded_constant : leaf_base<folded_constant<Op, A...>> {
  using dtype = typename decltype(folded_dtype<Op, typename A::dtype...>())::type;
  static constexpr entry_kind kind = entry_kind::constant;
  static constexpr bool indestructible = true;
  static constexpr shape value_shape{};
  static constexpr long double value = static_cast<long double>(fold_value<Op, A...>());
  // its label: op(a, b)
  static constexpr auto text = [] {
    constexpr std::size_t n = Op::name.size() + 2 + (A::name.size() + ...) + 2 * (sizeof...(A) - 1);
    std::array<char, n + 1> t{};
    std::size_t k = 0;
    for (char c : Op::name) t[k++] = c;
    t[k++] = '(';
    std::size_t j = 0;
    auto put = [&](std::string_view a) {
      if (j++ > 0) t[k++] = ',', t[k++] = ' ';
      for (char c : a) t[k++] = c;
    };
    (put(A::name), ...);
    t[k++] = ')';
    return t;
  }();
  static constexpr std::string_view name{text.data(), text.size() - 1};
  static constexpr entry_desc desc =
      leaf_description(kind, indestructible, name, value_shape, pretty_type_name<folded_constant>());
};

// A compile-time constant: a literal, a folded expression, a typed constant (ip::full's).
template <class T>
concept is_constant_leaf = constant_operand<T>;

}  // namespace detail

// A tensor input: ip::input<"x", float>, ip::input<"A", float, 2>,
// ip::input<"S", float, ip::extents<16, 16>>, ip::input<"k", float, 1, ip::indestructible>.
template <fixed_string Name, class T, auto Shape = 1, auto... Flags>
  requires detail::shape_spec<Shape> && (std::is_same_v<std::remove_cv_t<decltype(Flags)>, indestructible_t> && ...)
inline constexpr detail::input_leaf<Name, T, Shape, (sizeof...(Flags) > 0)> input{};

// A run-time scalar input: ip::scalar<"alpha", float>.
template <fixed_string Name, class T>
inline constexpr detail::scalar_leaf<Name, T> scalar{};

namespace literals {
// 2.5_c, 3_c, 1e-3_c: compile-time constants of the graph, weakly typed.
template <char... C>
constexpr detail::constant_leaf<C...> operator""_c() { return {}; }
}  // namespace literals

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
