#pragma once
// How an opaque op runs: its class declares
//   void kernel(outputs..., inputs...) const
// over ip::tensor_views, the outputs first. A user's op and the library's
// (dot, matmul, the reductions, softmax, the updates) are declared alike, and
// a running graph calls every one of them through this one form
// (tensor/detail/op_kernels.hpp).

namespace inplace::detail {

// Op's class has a kernel taking the views x... (outputs, then inputs).
template <class Op, class... X>
concept has_kernel = requires(const X&... x) { Op{}.kernel(x...); };

}  // namespace inplace::detail
