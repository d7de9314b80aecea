#pragma once
// How a running graph (run/detail/executor.hpp) runs an opaque op:
// opaque_kernel<Op>::run(outputs..., inputs...), outputs first, all
// ip::tensor_views, calls the kernel its class declares
// (ops/detail/opaque_kernel.hpp). The library's ops declare theirs as a
// user's op does (ops/opaque.hpp, ops/reductions.hpp, ops/update.hpp); their
// kernels call the bodies included here (declared in ops/detail/kernel_decls.hpp),
// the ones the tensor functions run.

#include "inplace/ops/detail/opaque_kernel.hpp"
#include "inplace/tensor/detail/kernel_update.hpp"
#include "inplace/tensor/tensor_opaque.hpp"
#include "inplace/tensor/tensor_reductions.hpp"

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

// For an output in its destroy_map, the kernel's view is the storage to
// overwrite (it holds the destroyed input's elements).
template <class Op>
struct opaque_kernel {
  template <class... X>
  static void run(const X&... x) {
    static_assert(has_kernel<Op, X...>,
                  "inplace: op_kernel: an opaque op run in a graph needs a kernel; fix: give it void "
                  "kernel(outputs..., inputs...) const, taking ip::tensor_view arguments (outputs first).");
    if constexpr (has_kernel<Op, X...>) Op{}.kernel(x...);
  }
};

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
