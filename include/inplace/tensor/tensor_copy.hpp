#pragma once
// ip::copy(x) on tensors: NumPy's np.copy(x), x.copy() (PyTorch's x.clone(),
// JAX's jnp.copy): a new tensor of x's dtype and extents (static ones kept for
// a tensor or view), in storage of its own, row-major whatever x's strides. An
// expression is evaluated into it (one loop). The same as constructing
// ip::tensor<T, R>(x) with x's T and R spelled out; the graph's ip::copy is
// graph/graph_ops.hpp's.

#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/detail/tensor_fwd.hpp"
#include "inplace/tensor/detail/texpr_node.hpp"
#include "inplace/tensor/tensor.hpp"

#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {

template <class X>
  requires detail::texpr::operand<X>
auto copy(X&& x) {
  using namespace detail::texpr;
  constexpr auto R = [] {
    if constexpr (node_like<X>) return detail::rank_spec<rank_v<X>>;
    else return shape_spec_of<std::remove_cvref_t<X>>::value;
  }();
  tensor<value_t<X>, R> out(detail::tx_uninitialized, shape_of(x));
  detail::assign(out.view(), std::forward<X>(x), detail::assign_mode::fresh);  // writes every element
  return out;
}

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
