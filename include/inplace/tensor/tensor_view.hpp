#pragma once
// ip::tensor_view<T, R>: a non-owning strided view (pointer, extents, strides
// in elements). T may be const. R is a rank or ip::extents<...>. Copying a view
// copies the reference; assigning to a view writes its elements (as Eigen's
// Map and Block do), so `ip::slice<1>(x) = ip::slice<0, -1>(x)` works.

#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/error.hpp"
#include "inplace/extents.hpp"

#include <compare>
#include <concepts>
#include <iterator>
#include <cstddef>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {

template <class T, auto R>
class tensor_view {
  static_assert(detail::shape_spec<R>, "inplace: tensor_type: tensor_view<T, R>: R must be a rank (0 to 8) or "
                "ip::extents<...>; fix: write tensor_view<float, 2> or tensor_view<float, ip::extents<4, 4>>.");
  static_assert(!std::is_reference_v<T>, "inplace: tensor_type: tensor_view<T, R>: T must be an object type; "
                "fix: drop the reference (tensor_view<const float, 1>).");

 public:
  static constexpr std::size_t rank = detail::rank_of<R>();
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using extents_type = detail::tx_extents<rank>;
  using strides_type = detail::tx_strides<rank>;

  // An empty view (no elements, null pointer).
  constexpr tensor_view() noexcept = default;
  // A contiguous row-major view (ip::shape_error for extents too large to address).
  tensor_view(T* p, const extents_type& e)
      : tensor_view(p, e, (detail::tx_checked_count(e, sizeof(T)), detail::tx_row_major(e))) {}
  // A strided view. Static extents in R must match e (ip::shape_error otherwise).
  tensor_view(T* p, const extents_type& e, const strides_type& s) : p_(p), e_(e), s_(s) {
    detail::tx_check_static_extents<R>(e);
  }
  tensor_view(detail::tx_unchecked_t, T* p, const extents_type& e, const strides_type& s) noexcept
      : p_(p), e_(e), s_(s) {}
  // A view of mutable elements converts to a view of const elements, and a
  // view with static extents to one with only a rank.
  template <class U, auto Q>
    requires(detail::rank_of<Q>() == rank && std::is_convertible_v<U (*)[], T (*)[]> &&
             (!std::is_same_v<U, T> || !std::is_same_v<decltype(Q), decltype(R)>))
  tensor_view(const tensor_view<U, Q>& o) : tensor_view(o.data(), o.extents(), o.strides()) {}

  tensor_view(const tensor_view&) = default;
  // Writes o's elements into this view's elements (extents must broadcast).
  tensor_view& operator=(const tensor_view& o)
    requires(!std::is_const_v<T>)
  {
    detail::assign(*this, o);
    return *this;
  }
  // Evaluates a tensor expression, a tensor, another view or a scalar into this view.
  template <class E>
    requires(!std::is_const_v<T> && detail::texpr::operand_or_scalar<E> && !std::is_same_v<std::remove_cvref_t<E>, tensor_view>)
  tensor_view& operator=(E&& e) {
    detail::assign(*this, std::forward<E>(e));
    return *this;
  }

  // Row-major iterators (each holds a copy of the view, so none dangles with a
  // temporary view): random access by element index.
  class iterator;
  iterator begin() const noexcept { return iterator(*this, 0); }
  iterator end() const noexcept { return iterator(*this, static_cast<std::ptrdiff_t>(size())); }

  T* data() const noexcept { return p_; }
  const extents_type& extents() const noexcept { return e_; }
  const strides_type& strides() const noexcept { return s_; }
  std::size_t extent(std::size_t i) const noexcept { return e_[i]; }
  std::ptrdiff_t stride(std::size_t i) const noexcept { return s_[i]; }
  std::size_t size() const noexcept { return detail::tx_count(e_); }
  bool empty() const noexcept { return size() == 0; }
  bool is_contiguous() const noexcept { return detail::tx_is_contiguous(e_, s_); }
  tensor_view view() const noexcept { return *this; }
  // A rank-0 view reads as its element, as a rank-0 tensor does.
  operator value_type() const noexcept
    requires(rank == 0)
  {
    return *p_;
  }

  template <std::integral... I>
    requires(sizeof...(I) == rank)
  T& operator()(I... i) const noexcept {
    std::ptrdiff_t off = 0;
    std::size_t a = 0;
    ((off += static_cast<std::ptrdiff_t>(i) * s_[a++]), ...);
    return p_[off];
  }
  // The i-th element in row-major order (for rank 1, element i).
  T& operator[](std::size_t i) const noexcept {
    std::ptrdiff_t off = 0;
    for (std::size_t a = rank; a-- > 0; i /= e_[a]) off += static_cast<std::ptrdiff_t>(i % e_[a]) * s_[a];
    return p_[off];
  }

 private:
  T* p_ = nullptr;
  extents_type e_{};
  strides_type s_{};
};

template <class T, auto R>
class tensor_view<T, R>::iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using iterator_concept = std::random_access_iterator_tag;
  using value_type = std::remove_cv_t<T>;
  using difference_type = std::ptrdiff_t;
  using pointer = T*;
  using reference = T&;

  iterator() = default;
  iterator(const tensor_view& v, difference_type i) noexcept : v_(v), i_(i) {}

  reference operator*() const noexcept { return v_[static_cast<std::size_t>(i_)]; }
  pointer operator->() const noexcept { return &**this; }
  reference operator[](difference_type k) const noexcept { return v_[static_cast<std::size_t>(i_ + k)]; }
  iterator& operator++() noexcept { return ++i_, *this; }
  iterator operator++(int) noexcept { return iterator(v_, i_++); }
  iterator& operator--() noexcept { return --i_, *this; }
  iterator operator--(int) noexcept { return iterator(v_, i_--); }
  iterator& operator+=(difference_type k) noexcept { return i_ += k, *this; }
  iterator& operator-=(difference_type k) noexcept { return i_ -= k, *this; }
  friend iterator operator+(iterator a, difference_type k) noexcept { return a += k; }
  friend iterator operator+(difference_type k, iterator a) noexcept { return a += k; }
  friend iterator operator-(iterator a, difference_type k) noexcept { return a -= k; }
  friend difference_type operator-(const iterator& a, const iterator& b) noexcept { return a.i_ - b.i_; }
  friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.i_ == b.i_; }
  friend auto operator<=>(const iterator& a, const iterator& b) noexcept { return a.i_ <=> b.i_; }

 private:
  tensor_view v_;
  difference_type i_ = 0;
};

namespace detail {
// The view of a tensor lvalue or a view, with its static extents dropped.
template <class X>
auto tx_view_of(X&& x) {
  using D = std::remove_cvref_t<X>;
  using E = std::remove_pointer_t<decltype(x.data())>;
  return tensor_view<E, rank_spec<D::rank>>(tx_unchecked, x.data(), x.extents(), x.strides());
}
}  // namespace detail

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
