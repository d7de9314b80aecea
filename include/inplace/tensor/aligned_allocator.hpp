#pragma once
// ip::aligned_allocator<T, Align = 64>: the default allocator of ip::tensor.
// Every block it returns starts on an Align-byte boundary (a cache line, and the
// widest SIMD register), through the aligned forms of operator new/delete.

#include "inplace/tensor/detail/tensor_fwd.hpp"

#include <cstddef>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>

namespace inplace {

template <class T, std::size_t Align>
class aligned_allocator {
  static_assert(Align != 0 && (Align & (Align - 1)) == 0,
                "inplace: allocator_alignment: aligned_allocator<T, Align>: Align must be a power of two; "
                "fix: use 16, 32, 64, ... (64 is the default).");
  static_assert(Align >= alignof(T),
                "inplace: allocator_alignment: aligned_allocator<T, Align>: Align must be at least "
                "alignof(T); fix: use an Align of at least alignof(T) (64 is the default).");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using propagate_on_container_move_assignment = std::true_type;
  using is_always_equal = std::true_type;
  // The alignment every allocation has; ip::alias relies on it.
  static constexpr std::size_t alignment = Align;

  template <class U>
  struct rebind {
    using other = aligned_allocator<U, (Align > alignof(U) ? Align : alignof(U))>;
  };

  constexpr aligned_allocator() noexcept = default;
  template <class U, std::size_t A>
  constexpr aligned_allocator(const aligned_allocator<U, A>&) noexcept {}

  [[nodiscard]] T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{Align}));
  }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t{Align}); }

  template <class U, std::size_t A>
  friend constexpr bool operator==(const aligned_allocator&, const aligned_allocator<U, A>&) noexcept {
    return true;
  }
};

namespace detail {
// The alignment an allocator guarantees for the blocks it returns: its
// `alignment` member when it declares one, operator new's for std::allocator,
// else only alignof(T).
template <class Alloc>
constexpr std::size_t guaranteed_alignment() {
  using T = typename Alloc::value_type;
  if constexpr (requires { Alloc::alignment; }) return Alloc::alignment;
  else if constexpr (std::is_same_v<Alloc, std::allocator<T>>)
    return alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__ ? alignof(T) : __STDCPP_DEFAULT_NEW_ALIGNMENT__;
  else return alignof(T);
}
}  // namespace detail
}  // namespace inplace
