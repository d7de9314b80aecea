#pragma once
// Integers as the dtype rule and the kernels see them. bool is no integer
// dtype here: it is a kind of its own in NumPy's promotion, and std::cmp_less
// and its kin refuse it. widen(x) gives an integer at its value in the widest
// type of its signedness, where the comparisons (ops/elementwise.hpp) and
// constant folding's weak integers (graph/detail/constant_fold.hpp) compare
// values exactly, whatever the dtypes.

#include <type_traits>

namespace inplace::detail {

template <class T>
concept integer_dtype = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class A, class B>
concept integer_pair = integer_dtype<A> && integer_dtype<B>;

template <integer_dtype T>
using widened_t = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
template <integer_dtype T>
constexpr widened_t<T> widen(T x) { return static_cast<widened_t<T>>(x); }

}  // namespace inplace::detail
