#pragma once
// Buffers and aliases (TVM's DeclBuffer): a view of another element
// type and other extents over the storage of a tensor or a dense view.
//   ip::alias<U>(t, e...)                 tensor_view<U, sizeof...(e)>
//   ip::alias<U, ip::extents<E...>>(t)    tensor_view<U, ip::extents<E...>>
// Compile errors: U not trivially copyable (alias_not_trivially_copyable); U
// needs more alignment than the storage guarantees (alias_alignment: a tensor's
// allocator guarantees its `alignment`, a view only its element's alignof); the
// alias needs more bytes than the storage has, when both extents are static
// (alias_size). At run time: ip::alias_error for too many bytes, or a source
// view that is not dense (a gap, or internal overlap such as stride 0).

#include "inplace/tensor/aligned_allocator.hpp"
#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/error.hpp"
#include "inplace/extents.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>

namespace inplace {
namespace detail {

template <class X>
struct tx_alias_source;
template <class T, auto R, class A>
struct tx_alias_source<tensor<T, R, A>> {
  using element = T;
  static constexpr std::size_t alignment = guaranteed_alignment<A>() > alignof(T) ? guaranteed_alignment<A>() : alignof(T);
  static constexpr auto spec = R;
};
template <class T, auto R>
struct tx_alias_source<tensor_view<T, R>> {
  using element = T;
  static constexpr std::size_t alignment = alignof(T);
  static constexpr auto spec = R;
};

template <auto R>
constexpr std::size_t tx_static_count() {  // 0 when some extent is dynamic
  constexpr auto e = static_extents_of<R>();
  std::size_t n = 1;
  for (std::size_t i = 0; i < rank_of<R>(); ++i) {
    if (e[i] == dynamic) return 0;
    n *= e[i];
  }
  return n;
}

template <class U, auto Q, class X>
auto tx_alias(X&& x, const tx_extents<rank_of<Q>()>& e) {
  using D = std::remove_cvref_t<X>;
  using src = tx_alias_source<D>;
  using T = std::remove_pointer_t<decltype(x.data())>;
  static_assert(!(texpr::tensor_like<X> && !std::is_lvalue_reference_v<X>),
                "inplace: alias_of_temporary: an alias of a temporary tensor would dangle; fix: name the "
                "tensor first (auto t = ...) and alias t.");
  static_assert(std::is_trivially_copyable_v<U>,
                "inplace: alias_not_trivially_copyable: ip::alias<U>: U must be trivially copyable to alias "
                "bytes; fix: alias as a trivially copyable type.");
  static_assert(alignof(U) <= src::alignment,
                "inplace: alias_alignment: ip::alias<U>: U needs more alignment than the storage guarantees; "
                "fix: alias the owning (64-byte aligned) tensor, or a type of smaller alignment.");
  constexpr std::size_t have = tx_static_count<src::spec>(), want = tx_static_count<Q>();
  static_assert(have == 0 || want == 0 || want * sizeof(U) <= have * sizeof(typename src::element),
                "inplace: alias_size: ip::alias<U, ip::extents<...>>: the alias needs more bytes than the "
                "storage has; fix: ask for no more elements than the storage holds.");
  if (!tx_is_contiguous(x.extents(), x.strides()))
    throw alias_error("inplace: alias_error: cannot alias a view that is not dense (extents " +
                      tx_shape_string(x.extents()) + ", strides " + tx_shape_string(x.strides()) + ")");
  std::size_t count = 0;
  if (!tx_count_fits(e, sizeof(U), count))
    throw alias_error("inplace: alias_error: an alias of extents " + tx_shape_string(e) +
                      " has more bytes than memory can address");
  const std::size_t bytes = x.size() * sizeof(T), need = count * sizeof(U);
  if (need > bytes)
    throw alias_error("inplace: alias_error: an alias of extents " + tx_shape_string(e) + " needs " +
                      std::to_string(need) + " bytes; the storage of extents " + tx_shape_string(x.extents()) +
                      " has " + std::to_string(bytes));
  using R = std::conditional_t<std::is_const_v<T>, const U, U>;
  return tensor_view<R, Q>(reinterpret_cast<R*>(x.data()), e);
}

}  // namespace detail

template <class U, class X, std::integral... I>
  requires(detail::texpr::tensor_like<X> || detail::texpr::view_like<X>)
auto alias(X&& x, I... e) {
  return detail::tx_alias<U, detail::rank_spec<sizeof...(I)>>(std::forward<X>(x), {static_cast<std::size_t>(e)...});
}

template <class U, auto E, class X>
  requires(detail::is_static_extents<std::remove_cv_t<decltype(E)>>::value &&
           (detail::texpr::tensor_like<X> || detail::texpr::view_like<X>))
auto alias(X&& x) {
  static_assert(detail::tx_static_count<E>() != 0, "inplace: alias_extents: ip::alias<U, ip::extents<E...>>: every extent must be "
                "static; fix: pass run-time extents as arguments, ip::alias<U>(t, e...).");
  constexpr auto s = detail::static_extents_of<E>();
  detail::tx_extents<detail::rank_of<E>()> e{};
  for (std::size_t i = 0; i < e.size(); ++i) e[i] = s[i];
  return detail::tx_alias<U, E>(std::forward<X>(x), e);
}

}  // namespace inplace
