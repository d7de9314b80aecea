#pragma once
// ip::aligned_allocator<T, Align = 64>: the default allocator of ip::tensor.
// Every block it returns starts on an Align-byte boundary (a cache line, and the
// widest SIMD register).

#include "inplace/tensor/detail/tensor_fwd.hpp"

#define INPLACE_TENSOR_ALIGNED_ALLOCATOR_INCLUDED 1

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>  // madvise
#endif

namespace inplace {
namespace detail {
#if defined(INPLACE_COUNT_ALLOCATIONS)
// Blocks aligned_malloc returned on this thread (tests define the macro before
// including the library to count the temporaries an expression makes).
inline thread_local std::size_t aligned_allocations = 0;
#endif

// A block of `bytes` starting on an `align` boundary (a power of two): malloc's
// block, aligned by hand, with malloc's pointer kept just before the aligned
// one. glibc's aligned operator new (memalign) cost 2-5x malloc per block, which
// a call on a few thousand floats felt.
//
// A large block (4 MiB and more, NumPy's threshold) starts on a 2 MiB boundary
// and asks Linux for transparent huge pages: the first write to a fresh 64 MiB
// block then faults 32 times instead of 16384 (a borrowed 64 MiB cache copied
// by a call: 47 ms with 4 KiB pages, 9 ms with huge ones).
inline constexpr std::size_t huge_block = std::size_t{4} << 20, huge_page = std::size_t{2} << 20;
[[nodiscard]] inline void* aligned_malloc(std::size_t bytes, std::size_t align) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const bool huge = bytes >= huge_block;
  if (huge && align < huge_page) align = huge_page;
#endif
  const std::size_t pad = align + sizeof(void*);
  if (bytes > std::numeric_limits<std::size_t>::max() - pad) throw std::bad_array_new_length();
  void* raw = std::malloc(bytes + pad);
  if (raw == nullptr) throw std::bad_alloc();
  const auto at = (reinterpret_cast<std::uintptr_t>(raw) + sizeof(void*) + align - 1) & ~(std::uintptr_t{align} - 1);
  void* p = reinterpret_cast<void*>(at);
  static_cast<void**>(p)[-1] = raw;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (huge) (void)::madvise(p, bytes, MADV_HUGEPAGE);  // (a hint: refused where huge pages are off)
#endif
#if defined(INPLACE_COUNT_ALLOCATIONS)
  ++aligned_allocations;
#endif
  return p;
}
inline void aligned_free(void* p) noexcept {
  if (p != nullptr) std::free(static_cast<void**>(p)[-1]);
}
}  // namespace detail

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
    return static_cast<T*>(detail::aligned_malloc(n * sizeof(T), Align));
  }
  void deallocate(T* p, std::size_t) noexcept { detail::aligned_free(p); }

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
