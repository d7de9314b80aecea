#pragma once
// ip::kept_view<T, R>: what a call returns for an output that is a view of
// storage the caller no longer owns: of a donated argument, or of a buffer the
// call allocated (ip::transpose(ip::exp(A)) returned). It is an
// ip::tensor_view that also keeps that storage alive, shared by every
// kept_view of the same storage (and their copies), so it never dangles. Views
// made from it (ip::slice(kv), kv.view()) are plain views: they are valid
// while a kept_view of the storage lives, as views of a tensor are.

#include "inplace/tensor/tensor_view.hpp"

#include <memory>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {

template <class T, auto R = 1>
class kept_view : public tensor_view<T, R> {
 public:
  kept_view(const tensor_view<T, R>& v, std::shared_ptr<void> owner) : tensor_view<T, R>(v), owner_(std::move(owner)) {}
  kept_view(const kept_view&) = default;
  kept_view(kept_view&&) noexcept = default;
  // Assignment writes elements, as for every view; the storage kept stays the same.
  kept_view& operator=(const kept_view& o)
    requires(!std::is_const_v<T>)
  {
    tensor_view<T, R>::operator=(o);
    return *this;
  }
  using tensor_view<T, R>::operator=;

  // The owner of the storage (shared with the other kept_views of it).
  const std::shared_ptr<void>& owner() const noexcept { return owner_; }

 private:
  std::shared_ptr<void> owner_;
};

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
