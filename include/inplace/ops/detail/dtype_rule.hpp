#pragma once
// The one element-type rule, for graphs and tensor expressions alike: NumPy 2's
// promotion (NEP 50). Graph nodes (graph/node.hpp), tensor expression nodes
// (tensor/detail/texpr_node.hpp) and the fused loops of a graph all ask
// common_dtype_t and elementwise_dtype below, nothing else.
//
//   same dtype              stays (uint16 + uint16 is uint16, as NumPy and Eigen)
//   mixed dtypes            NumPy's table: int8 + uint8 -> int16, int32 + float -> double, ...
//   weak int (2_c, a C++ int beside a tensor)        the other operand's dtype (bool: int64)
//   weak float (2.0_c, a C++ double beside a tensor) a floating dtype stays, else double
//   an elementwise op       converts its operands to their common dtype, runs its kernel
//                           there, and an integer result of an integer common dtype is
//                           that dtype (C++ would promote small integers to int); a bool
//                           result (comparisons) is bool; an op's output_dtype overrides
//   bool operands only      bool, but int8 for an op without NumPy's bool loop
//                           (Op::int8_for_bool: pow, square)

#include "inplace/ops/detail/integer.hpp"
#include "inplace/ops/detail/convert.hpp"

#include <boost/mp11/algorithm.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace inplace::detail {

// The dtypes of Python-like scalars: constants (2_c, 2.0_c) and run-time C++
// numbers beside tensors. They take the dtype of the other operands.
struct weak_int {};
struct weak_float {};

template <class T>
inline constexpr bool is_weak = std::is_same_v<T, weak_int> || std::is_same_v<T, weak_float>;

// A dtype as a point in NumPy's promotion lattice.
enum class dtype_kind : unsigned char { boolean, sint, uint, floating, weak_int, weak_float };
struct dtype_code {
  dtype_kind kind;
  std::size_t size;  // bytes (0 for weak)
  constexpr bool operator==(const dtype_code&) const = default;
};

template <class T>
constexpr dtype_code code_of() {
  if constexpr (std::is_same_v<T, weak_int>) return {dtype_kind::weak_int, 0};
  else if constexpr (std::is_same_v<T, weak_float>) return {dtype_kind::weak_float, 0};
  else if constexpr (std::is_same_v<T, bool>) return {dtype_kind::boolean, 1};
  else if constexpr (std::is_floating_point_v<T>) return {dtype_kind::floating, sizeof(T)};
  else if constexpr (std::is_signed_v<T>) return {dtype_kind::sint, sizeof(T)};
  else return {dtype_kind::uint, sizeof(T)};
}

constexpr std::size_t max_size(std::size_t a, std::size_t b) { return a > b ? a : b; }

// NumPy 2's result_type of two dtypes (NEP 50 for the weak ones).
constexpr dtype_code promote(dtype_code a, dtype_code b) {
  using k = dtype_kind;
  if (a == b) return a;
  if (a.kind == k::weak_int || a.kind == k::weak_float) std::swap(a, b);  // a weak one, if any, is b
  if (a.kind == k::weak_int) return b;                                    // weak int + weak float
  if (a.kind == k::weak_float) return a;
  if (b.kind == k::weak_int) return a.kind == k::boolean ? dtype_code{k::sint, 8} : a;
  if (b.kind == k::weak_float) return a.kind == k::floating ? a : dtype_code{k::floating, 8};
  if (a.kind == k::boolean) return b;
  if (b.kind == k::boolean) return a;
  if (a.kind == k::floating || b.kind == k::floating) {
    if (a.kind != k::floating) std::swap(a, b);  // a floating
    if (b.kind == k::floating) return {k::floating, max_size(a.size, b.size)};
    // an integer beside a float: the smallest float that holds it (float16 is double here)
    return {k::floating, b.size <= 2 && a.size >= 4 ? a.size : max_size(a.size, 8)};
  }
  if (a.kind == b.kind) return {a.kind, max_size(a.size, b.size)};
  if (a.kind == k::uint) std::swap(a, b);  // a signed, b unsigned
  if (a.size > b.size) return a;
  if (b.size < 8) return {k::sint, 2 * b.size};
  return {k::floating, 8};  // int64 + uint64: NumPy's float64
}

template <dtype_code C>
constexpr auto type_of_code() {
  using k = dtype_kind;
  if constexpr (C.kind == k::weak_int) return std::type_identity<weak_int>{};
  else if constexpr (C.kind == k::weak_float) return std::type_identity<weak_float>{};
  else if constexpr (C.kind == k::boolean) return std::type_identity<bool>{};
  else if constexpr (C.kind == k::floating)
    return std::type_identity<std::conditional_t<C.size == 4, float, std::conditional_t<C.size == 8, double, long double>>>{};
  else if constexpr (C.kind == k::sint)
    return std::type_identity<std::conditional_t<
        C.size == 1, std::int8_t,
        std::conditional_t<C.size == 2, std::int16_t, std::conditional_t<C.size == 4, std::int32_t, std::int64_t>>>>{};
  else
    return std::type_identity<std::conditional_t<
        C.size == 1, std::uint8_t,
        std::conditional_t<C.size == 2, std::uint16_t, std::conditional_t<C.size == 4, std::uint32_t, std::uint64_t>>>>{};
}

// The result of two dtypes: one of them when it is the answer (so `long long`
// stays `long long`), else the answer's fixed-width type.
template <class A, class B>
constexpr auto promote_types() {
  constexpr dtype_code c = promote(code_of<A>(), code_of<B>());
  if constexpr (c == code_of<A>()) return std::type_identity<A>{};
  else if constexpr (c == code_of<B>()) return std::type_identity<B>{};
  else return type_of_code<c>();
}

template <class... T>
struct common_dtype;
template <class T>
struct common_dtype<T> {
  using type = T;
};
template <class A, class B, class... R>
struct common_dtype<A, B, R...> : common_dtype<typename decltype(promote_types<A, B>())::type, R...> {};

// The common dtype of T... (weak when they all are).
template <class... T>
using common_dtype_t = typename common_dtype<T...>::type;

// A dtype for a value that is weak with nothing to take a dtype from
// (ip::outputs(2_c), where(c, 1_c, 2_c)): NumPy's defaults.
template <class T>
using concrete_dtype_t = std::conditional_t<std::is_same_v<T, weak_int>, std::int64_t,
                                            std::conditional_t<std::is_same_v<T, weak_float>, double, T>>;

// The operands of an elementwise op that decide its dtype: from index
// Op::value_args_from on (where's condition is not one of them).
template <class Op>
constexpr std::size_t value_args_from() {
  if constexpr (requires { Op::value_args_from; }) return Op::value_args_from;
  else return 0;
}

// Whether Op computes bool operands in int8 (Op::int8_for_bool): NumPy's
// power and square have no bool loop, and take int8's (np.square(True) is
// int8 1), where add, mul, min, max and abs keep bool.
template <class Op>
constexpr bool int8_for_bool() { return requires { requires static_cast<bool>(Op::int8_for_bool); }; }

// The common dtype of an op's value operands T[from...] (none: double; all
// weak: their default; all bool: int8 for an op without a bool loop), what
// its operands are converted to.
template <class Op, class... T>
struct value_common {
  static constexpr std::size_t from = value_args_from<Op>() < sizeof...(T) ? value_args_from<Op>() : sizeof...(T);
  template <std::size_t... J>
  static auto common_of(std::index_sequence<J...>)
      -> concrete_dtype_t<common_dtype_t<boost::mp11::mp_at_c<boost::mp11::mp_list<T...>, from + J>...>>;
  static auto common_of(std::index_sequence<>) -> double;
  using values = decltype(common_of(std::make_index_sequence<sizeof...(T) - from>{}));
  using type = std::conditional_t<std::is_same_v<values, bool> && int8_for_bool<Op>(), std::int8_t, values>;
};

// Whether Op's kernel reads its integer operands' values (Op::by_value: the
// comparisons and logical ops): when all its operands are integers, each
// reaches the kernel in its own dtype, not the common one, which may hold
// neither (int64 beside uint64: double) or be narrower than a weak integer's
// value (uint8 > -1_c: -1 stays -1). A bool operand still takes the common dtype.
template <class Op>
constexpr bool by_value() { return requires { requires static_cast<bool>(Op::by_value); }; }
template <class Op, class... T>
struct elementwise_rule {
  static constexpr std::size_t from = value_common<Op, T...>::from;
  using common = typename value_common<Op, T...>::type;
  static constexpr bool integer_values = by_value<Op>() && (std::is_integral_v<concrete_dtype_t<T>> && ...);
  // what operand J is converted to before the kernel runs
  template <std::size_t J, class D = concrete_dtype_t<boost::mp11::mp_at_c<boost::mp11::mp_list<T...>, J>>>
  using operand_t = std::conditional_t<(J < from) || (integer_values && integer_dtype<D>), D, common>;
  template <std::size_t... J>
  static auto kernel_of(std::index_sequence<J...>) -> std::remove_cvref_t<decltype(std::declval<const Op&>()(std::declval<operand_t<J>>()...))>;
  using kernel_result = decltype(kernel_of(std::index_sequence_for<T...>{}));
  // An op's own output_dtype (cast<T>) decides; a bool result (a comparison)
  // stays bool; another integer result of an integer common dtype is that dtype.
  static auto result_of() {
    if constexpr (requires { typename Op::template output_dtype<0, T...>; })
      return std::type_identity<typename Op::template output_dtype<0, T...>>{};
    else if constexpr (std::is_integral_v<common> && std::is_integral_v<kernel_result> &&
                       !std::is_same_v<kernel_result, bool>)
      return std::type_identity<common>{};
    else return std::type_identity<kernel_result>{};
  }
  using result = typename decltype(result_of())::type;
};

// The dtype of an elementwise op's result over operands of dtypes T...
template <class Op, class... T>
using elementwise_dtype_t = typename elementwise_rule<Op, T...>::result;

// Runs an elementwise kernel the way the rule says: operands converted to their
// common dtype, the result to the op's dtype (as a cast: a floating result
// into an integer dtype by detail::convert). Identity conversions for
// operands of one floating dtype, so SIMD batches pass through unchanged.
template <class Op, class... X>
[[gnu::always_inline]] constexpr auto run_kernel(const Op& op, X... x) {
  using rule = elementwise_rule<Op, X...>;
  return [&]<std::size_t... J>(std::index_sequence<J...>) {
    return convert<typename rule::result>(op(static_cast<typename rule::template operand_t<J>>(x)...));
  }(std::index_sequence_for<X...>{});
}

}  // namespace inplace::detail
