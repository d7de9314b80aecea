#pragma once
// Forward declarations of the tensor types (with their default arguments) and
// the traits that recognise them. Everything that accepts "a tensor, a view or
// a tensor expression" is constrained with the concepts at the end, so that the
// free functions and operators of the tensor layer never compete with the
// symbolic ones of the graph layer.

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace inplace {

template <class T, std::size_t Align = 64>
class aligned_allocator;

template <class T, auto R = 1, class Alloc = aligned_allocator<T>>
class tensor;

template <class T, auto R = 1>
class tensor_view;

namespace detail {
struct tensor_access;
struct tx_adopt_t {};  // tensor_access's tag
// The rank spec of views the library makes: an int, as users write it
// (ip::tensor_view<float, 2>), never a size_t (a different type under `auto R`).
template <std::size_t N>
inline constexpr int rank_spec = static_cast<int>(N);
}  // namespace detail

namespace detail::texpr {

template <class T>
struct is_tensor : std::false_type {};
template <class T, auto R, class A>
struct is_tensor<tensor<T, R, A>> : std::true_type {};

template <class T>
struct is_view : std::false_type {};
template <class T, auto R>
struct is_view<tensor_view<T, R>> : std::true_type {};

// The shape spec R (a rank or ip::extents<...>) of a tensor or view type.
template <class X>
struct shape_spec_of;
template <class T, auto R, class A>
struct shape_spec_of<tensor<T, R, A>> {
  static constexpr auto value = R;
};
template <class T, auto R>
struct shape_spec_of<tensor_view<T, R>> {
  static constexpr auto value = R;
};

// Specialised by expression nodes (detail/texpr_node.hpp).
template <class T>
struct is_node : std::false_type {};

template <class T>
concept tensor_like = is_tensor<std::remove_cvref_t<T>>::value;
template <class T>
concept view_like = is_view<std::remove_cvref_t<T>>::value;
template <class T>
concept node_like = is_node<std::remove_cvref_t<T>>::value;

// Anything with extents that an expression reads: a tensor, a view or a node.
template <class T>
concept operand = tensor_like<T> || view_like<T> || node_like<T>;

// A run-time number beside an operand (weakly typed, as NumPy's Python scalars).
template <class T>
concept scalar = std::is_arithmetic_v<std::remove_cvref_t<T>>;

template <class T>
concept operand_or_scalar = operand<T> || scalar<T>;

// Something a view function may look into without dangling: a view, or a tensor lvalue.
template <class T>
concept viewable = view_like<T> || (tensor_like<T> && std::is_lvalue_reference_v<T>);

}  // namespace detail::texpr
}  // namespace inplace
