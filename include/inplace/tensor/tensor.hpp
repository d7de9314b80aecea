#pragma once
// ip::tensor<T, R = 1, Alloc = ip::aligned_allocator<T>>: an owning, contiguous,
// row-major tensor. R is a rank or ip::extents<...>. Elements are
// value-initialised (zero). Copies are deep; a moved-from tensor is empty
// (size() == 0, data() == nullptr). Assigning an expression writes into the
// existing storage (extents must match: ip::shape_error otherwise); copy
// assignment from a tensor of the same type is a value copy and may resize.

#include "inplace/tensor/aligned_allocator.hpp"
#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/tensor_init.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/tensor/detail/texpr_node.hpp"
#include "inplace/extents.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <array>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace detail {
// Allocators whose every block is new memory, which no other object's elements
// can lie in (a user's allocator may hand out memory it does not own).
template <class A>
inline constexpr bool new_blocks = false;
template <class U, std::size_t N>
inline constexpr bool new_blocks<aligned_allocator<U, N>> = true;
template <class U>
inline constexpr bool new_blocks<std::allocator<U>> = true;

// A moved tensor's element count, copied without letting the compiler merge it
// with the extents beside it into one vector move. A tensor returned by a
// graph call is written field by field, and clang 14 read the count and the
// first extent back with one 16-byte load, which the CPU cannot forward from
// two 8-byte stores: a stall that made `x = f(std::move(x), y)` on 16 floats
// cost 1.9x the immediate expression instead of 1.1x. (g++ writes both with
// one 16-byte store, which forwards, and ran 5% slower with the split.)
inline std::size_t unmerged(std::size_t n) noexcept {
#if INPLACE_CLANG
  asm("" : "+r"(n));
#endif
  return n;
}
}  // namespace detail

template <class T, auto R, class Alloc>
class tensor {
  static_assert(detail::shape_spec<R>, "inplace: tensor_type: tensor<T, R>: R must be a rank (0 to 8) or "
                "ip::extents<...>; fix: write tensor<float, 2> or tensor<float, ip::extents<4, 4>>.");
  static_assert(std::is_trivially_copyable_v<T> && !std::is_const_v<T> && !std::is_volatile_v<T>,
                "inplace: tensor_type: tensor<T>: T must be a trivially copyable, non-const element type; "
                "fix: use an arithmetic type (const belongs on a view: tensor_view<const T, R>).");
  static_assert(std::is_same_v<typename Alloc::value_type, T>, "inplace: tensor_type: tensor<T, R, Alloc>: Alloc must allocate T; "
                "fix: pass an allocator of T, e.g. ip::aligned_allocator<T>.");
  using traits = std::allocator_traits<Alloc>;

 public:
  static constexpr std::size_t rank = detail::rank_of<R>();
  using value_type = T;
  using allocator_type = Alloc;
  using size_type = std::size_t;
  using extents_type = detail::tx_extents<rank>;
  using strides_type = detail::tx_strides<rank>;
  using iterator = T*;
  using const_iterator = const T*;
  using view_type = tensor_view<T, R>;
  using const_view_type = tensor_view<const T, R>;

  // Empty, unless every extent is static: then allocated and zero.
  tensor() : tensor(Alloc()) {}
  // Partly static extents: the static ones kept, the dynamic ones 0 (no storage).
  explicit tensor(const Alloc& a) : alloc_(a) {
    constexpr auto fixed = detail::static_extents_of<R>();
    bool all_static = true;
    for (std::size_t i = 0; i < rank; ++i) {
      all_static = all_static && fixed[i] != dynamic;
      e_[i] = fixed[i] == dynamic ? 0 : fixed[i];
    }
    if (all_static) allocate_zero();
  }
  // tensor<float, 2> A(rows, cols): zero elements.
  template <std::integral... I>
    requires(sizeof...(I) == rank && rank > 0)
  explicit tensor(I... e) : tensor(extents_type{static_cast<std::size_t>(e)...}) {}
  explicit tensor(const extents_type& e, const Alloc& a = Alloc()) : alloc_(a), e_(e) {
    detail::tx_check_static_extents<R>(e);
    allocate_zero();
  }
  // tensor<float, 2> A({2, 3}): the extents as a braced list. (Rank 1 keeps
  // tensor<float> x({5}) as the value [5], an initializer list.) Without it g++
  // finds {2, 3} ambiguous between this and copying a tensor made by (2, 3).
  explicit tensor(const std::size_t (&e)[rank > 1 ? rank : 1], const Alloc& a = Alloc())
    requires(rank > 1)
      : tensor(std::to_array(e), a) {}
  // tensor<float> x{1, 2, 3}; tensor<float, 2> A{{1, 2}, {3, 4}} (ragged: ip::shape_error).
  tensor(detail::tx_nested_list<T, rank> init, const Alloc& a = Alloc())
    requires(rank > 0)
      : alloc_(a), e_(detail::tx_nested_extents<T, rank>(init)) {
    detail::tx_check_static_extents<R>(e_);
    allocate_zero();
    T* p = p_;
    detail::tx_nested_copy<T, rank>(init, p);
  }
  // A tensor holding the value of an expression (or a copy of another tensor type or a view).
  template <class E>
    requires(detail::texpr::operand<E> && !std::is_same_v<std::remove_cvref_t<E>, tensor> &&
             detail::texpr::rank_v<E> == rank)
  explicit(!detail::texpr::node_like<E>) tensor(E&& e, const Alloc& a = Alloc())
      : tensor(detail::tx_uninitialized, detail::texpr::shape_of(e), a) {
    // writes every element (no zeroing first) into storage no operand can reach,
    // unless a user's allocator hands out memory it does not own
    detail::assign(view(), std::forward<E>(e),
                   detail::new_blocks<Alloc> ? detail::assign_mode::fresh : detail::assign_mode::checked);
  }
  // Storage whose elements the caller writes at once (internal: nothing is zeroed).
  tensor(detail::tx_uninitialized_t, const extents_type& e, const Alloc& a = Alloc()) : alloc_(a), e_(e) {
    detail::tx_check_static_extents<R>(e);
    allocate(detail::tx_checked_count(e_, sizeof(T)));
  }

  tensor(const tensor& o) : alloc_(traits::select_on_container_copy_construction(o.alloc_)), e_(o.e_) {
    allocate(o.n_);
    if (n_) std::memcpy(p_, o.p_, n_ * sizeof(T));
  }
  // From a tensor of the same element type, rank and allocator with another
  // shape spec (ip::extents<...> <-> a rank): takes over its storage, as a move
  // does (the static extents of this type are checked first: ip::shape_error,
  // o unchanged). So `ip::tensor<float, 2> r = f(s);` works when f returns a
  // tensor of static extents. (Assigning one evaluates into this tensor's
  // storage, as for any expression: `S = ip::dot(S, S)` keeps S's storage.)
  template <auto Q>
    requires(!std::is_same_v<tensor<T, Q, Alloc>, tensor> && detail::rank_of<Q>() == rank)
  tensor(tensor<T, Q, Alloc>&& o) : alloc_(o.get_allocator()) {
    detail::tx_check_static_extents<R>(o.extents());
    steal(o);
  }
  tensor(tensor&& o) noexcept
      : alloc_(std::move(o.alloc_)), p_(std::exchange(o.p_, nullptr)), n_(detail::unmerged(std::exchange(o.n_, 0))),
        e_(std::exchange(o.e_, extents_type{})) {}
  tensor& operator=(const tensor& o) {
    if (this == &o) return *this;
    if (n_ != o.n_) {  // the new block first: if allocating throws, *this is unchanged
      T* p = o.n_ ? traits::allocate(alloc_, o.n_) : nullptr;
      release();
      p_ = p;
      n_ = o.n_;
    }
    e_ = o.e_;
    if (n_) std::memcpy(p_, o.p_, n_ * sizeof(T));
    return *this;
  }
  tensor& operator=(tensor&& o) noexcept(traits::propagate_on_container_move_assignment::value ||
                                         traits::is_always_equal::value) {
    if (this == &o) return *this;
    if constexpr (!traits::propagate_on_container_move_assignment::value && !traits::is_always_equal::value) {
      if (!(alloc_ == o.alloc_)) {  // o's block cannot change allocators: copy it, then empty o
        *this = static_cast<const tensor&>(o);
        o.release();
        o.e_ = extents_type{};
        return *this;
      }
    }
    release();
    if constexpr (traits::propagate_on_container_move_assignment::value) alloc_ = std::move(o.alloc_);
    p_ = std::exchange(o.p_, nullptr);
    n_ = detail::unmerged(std::exchange(o.n_, 0));
    e_ = std::exchange(o.e_, extents_type{});
    return *this;
  }
  // Evaluates an expression, a view, another tensor type or a scalar into this
  // tensor's storage, in one loop; extents must broadcast to this tensor's. A
  // tensor without storage (default-constructed, moved from, zero-size) first
  // takes the extents of an operand of its rank, as Eigen's dynamic arrays do;
  // `x = std::move(x) + 1` then computes in the donated storage and takes it back.
  template <class E>
    requires(detail::texpr::operand_or_scalar<E> && !std::is_same_v<std::remove_cvref_t<E>, tensor>)
  tensor& operator=(E&& e) {
    if (p_ == nullptr) {
      if constexpr (detail::texpr::operand<E>) {
        if constexpr (detail::texpr::rank_v<E> == rank) {
          if constexpr (detail::texpr::node_like<E> && !std::is_lvalue_reference_v<E>)
            if (tensor* t = owned_like(e, detail::texpr::shape_of(e))) {
              detail::assign(t->view(), e);  // in the storage e owns: t is read with its own pattern
              return *this = std::move(*t);
            }
          return *this = tensor(std::forward<E>(e), alloc_);
        }
      } else if constexpr (rank == 0) {
        allocate_zero();  // a rank-0 tensor without storage gets its one element back
      }
    }
    detail::assign(view(), std::forward<E>(e));
    return *this;
  }
  ~tensor() { release(); }

  T* data() noexcept { return p_; }
  const T* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }
  bool empty() const noexcept { return n_ == 0; }
  const extents_type& extents() const noexcept { return e_; }
  std::size_t extent(std::size_t i) const noexcept { return e_[i]; }
  strides_type strides() const noexcept { return detail::tx_row_major(e_); }
  std::ptrdiff_t stride(std::size_t i) const noexcept { return strides()[i]; }
  allocator_type get_allocator() const { return alloc_; }

  iterator begin() noexcept { return p_; }
  iterator end() noexcept { return p_ + n_; }
  const_iterator begin() const noexcept { return p_; }
  const_iterator end() const noexcept { return p_ + n_; }
  const_iterator cbegin() const noexcept { return p_; }
  const_iterator cend() const noexcept { return p_ + n_; }

  template <std::integral... I>
    requires(sizeof...(I) == rank)
  T& operator()(I... i) noexcept { return p_[offset(i...)]; }
  template <std::integral... I>
    requires(sizeof...(I) == rank)
  const T& operator()(I... i) const noexcept { return p_[offset(i...)]; }
  // The i-th element in row-major order.
  T& operator[](std::size_t i) noexcept { return p_[i]; }
  const T& operator[](std::size_t i) const noexcept { return p_[i]; }

  view_type view() noexcept { return view_type(detail::tx_unchecked, p_, e_, strides()); }
  const_view_type view() const noexcept { return const_view_type(detail::tx_unchecked, p_, e_, strides()); }
  // Converts to any view of its rank and (more const) element type, with a rank
  // or static extents (those are checked: ip::shape_error).
  template <class U, auto Q>
    requires(detail::rank_of<Q>() == rank && std::is_convertible_v<T (*)[], U (*)[]>)
  operator tensor_view<U, Q>() {
    return tensor_view<U, Q>(p_, e_, strides());
  }
  template <class U, auto Q>
    requires(detail::rank_of<Q>() == rank && std::is_convertible_v<const T (*)[], U (*)[]>)
  operator tensor_view<U, Q>() const {
    return tensor_view<U, Q>(p_, e_, strides());
  }
  // A rank-0 tensor reads as its element (float s = ip::reduce_sum(x)). The
  // expression operators still win over the built-in ones: they match exactly.
  operator T() const noexcept
    requires(rank == 0)
  {
    return p_[0];
  }

 private:
  template <class... I>
  std::size_t offset(I... i) const noexcept {
    std::size_t off = 0, a = 0;
    ((off = off * e_[a++] + static_cast<std::size_t>(i)), ...);
    return off;
  }
  void allocate(std::size_t n) {
    p_ = n ? traits::allocate(alloc_, n) : nullptr;
    n_ = n;
  }
  void allocate_zero() {
    allocate(detail::tx_checked_count(e_, sizeof(T)));
    if (n_) std::uninitialized_value_construct_n(p_, n_);
  }
  // A tensor of this very type that expression e owns (moved in) with extents e.
  template <class X>
  static tensor* owned_like(X& x, const extents_type& e) {
    if constexpr (std::is_same_v<X, tensor>) {
      return x.e_ == e && x.p_ ? &x : nullptr;
    } else if constexpr (detail::texpr::node_like<X>) {
      tensor* found = nullptr;
      std::apply([&](auto&... a) { ((found = found ? found : owned_like(a, e)), ...); }, x.args);
      return found;
    } else {
      return nullptr;
    }
  }
  void release() noexcept {
    if (p_) traits::deallocate(alloc_, p_, n_);
    p_ = nullptr;
    n_ = 0;
  }

  friend struct detail::tensor_access;
  template <class, auto, class>
  friend class tensor;
  template <auto Q>
  void steal(tensor<T, Q, Alloc>& o) noexcept {
    e_ = o.e_;
    n_ = std::exchange(o.n_, 0);
    p_ = std::exchange(o.p_, nullptr);
    o.e_ = {};
  }
  // Takes over p (allocated by Alloc for tx_count(e) elements): see detail::tensor_access.
  tensor(detail::tx_adopt_t, T* p, const extents_type& e) noexcept : p_(p), n_(detail::tx_count(e)), e_(e) {}

  [[no_unique_address]] Alloc alloc_;
  T* p_ = nullptr;
  std::size_t n_ = 0;
  extents_type e_{};
};

namespace detail {
// The graph runtime hands storage to and from tensors: it returns a buffer it
// allocated (with the default allocator) as a tensor, and takes over the block
// of a donated tensor. Nothing else may.
struct tensor_access {
  template <class Tensor>
  static Tensor adopt(typename Tensor::value_type* p, const typename Tensor::extents_type& e) noexcept {
    return Tensor(tx_adopt_t{}, p, e);
  }
  template <class T, auto R, class A>
  static T* take(tensor<T, R, A>& t) noexcept {
    t.n_ = 0;
    t.e_ = {};
    return std::exchange(t.p_, nullptr);
  }
};
}  // namespace detail

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
