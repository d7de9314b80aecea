#pragma once
// ip::noalias(dst) = expr (and +=, -=, *=, /=): the caller states that expr reads dst only with
// dst's own index pattern. The assignment never makes a temporary; if an
// operand read with another pattern (transposed, shifted, reversed, broadcast)
// overlaps dst, it throws ip::aliasing_error before anything is written. Where
// Eigen's noalias() trusts the caller, this one checks.

#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/ops/elementwise.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace inplace {

template <class T, std::size_t N>
class noalias_assignment {
 public:
  explicit noalias_assignment(tensor_view<T, detail::rank_spec<N>> dst) noexcept : dst_(dst) {}
  noalias_assignment(const noalias_assignment&) = delete;
  noalias_assignment& operator=(const noalias_assignment&) = delete;

  template <class E>
    requires detail::texpr::operand_or_scalar<E>
  noalias_assignment& operator=(E&& e) {
    detail::assign(dst_, std::forward<E>(e), detail::assign_mode::noalias);
    return *this;
  }
  // noalias(x) += e is noalias(x) = x + e.
#define INPLACE_NOALIAS_COMPOUND(SYM, OP)                                                                  \
  template <class E>                                                                                       \
    requires detail::texpr::operand_or_scalar<E>                                                           \
  noalias_assignment& operator SYM(E&& e) {                                                                \
    detail::compound_assign(ops::OP{}, dst_, std::forward<E>(e), detail::assign_mode::noalias);             \
    return *this;                                                                                          \
  }
  INPLACE_NOALIAS_COMPOUND(+=, add)
  INPLACE_NOALIAS_COMPOUND(-=, sub)
  INPLACE_NOALIAS_COMPOUND(*=, mul)
  INPLACE_NOALIAS_COMPOUND(/=, div)
#undef INPLACE_NOALIAS_COMPOUND

 private:
  tensor_view<T, detail::rank_spec<N>> dst_;
};

namespace detail {
// What ip::noalias of a const destination returns once it has reported the error:
// any assignment to it compiles (to nothing), so the user sees one error.
struct reported_assignment {
  template <class E>
  void operator=(E&&) const {}
};
}  // namespace detail

// A tensor lvalue or a view of mutable elements.
template <class X>
  requires((detail::texpr::tensor_like<X> && std::is_lvalue_reference_v<X>) || detail::texpr::view_like<X>)
auto noalias(X&& x) {
  using E = std::remove_pointer_t<decltype(x.data())>;
  static_assert(!std::is_const_v<E>, "inplace: const_destination: ip::noalias needs a destination of mutable elements; "
                "fix: assign to a non-const tensor or view.");
  if constexpr (std::is_const_v<E>) return detail::reported_assignment{};  // reported: nothing more
  else return noalias_assignment<E, std::remove_cvref_t<X>::rank>(detail::tx_view_of(x));
}

}  // namespace inplace
