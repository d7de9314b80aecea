#pragma once
// The kernel each opaque op runs when a graph runs it (run/detail/executor.hpp):
// opaque_kernel<Op>::run(outputs..., inputs...), outputs first, all
// ip::tensor_views. The library's opaque ops run the kernels the tensor
// functions run (kernel_dot.hpp, kernel_reduce.hpp, kernel_softmax.hpp).
// Adding an opaque op to the library: its op class (ops/opaque.hpp), its
// tensor function (tensor_opaque.hpp) and its row here.

#include "inplace/ops/opaque.hpp"
#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/tensor_opaque.hpp"

#include <cstddef>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

// A user's opaque op provides `void kernel(outputs..., inputs...) const` taking
// ip::tensor_views; for an output in its destroy_map, the view is the storage
// to overwrite (it holds the destroyed input's elements).
template <class Op>
struct opaque_kernel {
  template <class... X>
  static void run(const X&... x) {
    static_assert(requires { Op{}.kernel(x...); },
                  "inplace: op_kernel: an opaque op run in a graph needs a kernel; fix: give it void "
                  "kernel(outputs..., inputs...) const, taking ip::tensor_view arguments (outputs first).");
    if constexpr (requires { Op{}.kernel(x...); }) Op{}.kernel(x...);
  }
};
template <>
struct opaque_kernel<ops::dot> {
  template <class O, class A, class B>
  static void run(const O& out, const A& a, const B& b) {
    texpr::dot_into(out.data(), a, b);
  }
};
template <int Axis>
struct opaque_kernel<ops::reduce_sum<Axis>> {
  template <class O, class A>
  static void run(const O& out, const A& a) {
    texpr::reduce_sum_into<static_cast<std::size_t>(texpr::reduce_axis<Axis, A::rank>)>(out.data(), a);
  }
};
template <>
struct opaque_kernel<ops::softmax_inplace> {
  template <class O, class A>
  static void run(const O& out, const A&) {
    using T = typename O::value_type;
    texpr::for_each_row_parallel(out.data(), out.extents(), out.strides(), texpr::parallel_softmax_threshold,
                                 [](T* p, std::size_t n, std::ptrdiff_t s) { texpr::softmax_row(p, n, s); });
  }
};
template <>
struct opaque_kernel<ops::softmax> {
  template <class O, class A>
  static void run(const O& out, const A& a) {
    detail::assign(out, a, assign_mode::noalias);
    opaque_kernel<ops::softmax_inplace>::run(out, a);
  }
};

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
