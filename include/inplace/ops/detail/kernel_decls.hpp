#pragma once
// The tensor kernels that the library's opaque op classes call from their
// `kernel` members (ops/opaque.hpp, ops/reductions.hpp, ops/update.hpp),
// declared here so that the op headers stay light: the bodies are in tensor/
// (tensor_opaque.hpp, tensor_reductions.hpp, detail/kernel_update.hpp), which
// the tensor functions and a running graph (tensor/detail/op_kernels.hpp)
// include. A kernel member is a template: it is compiled only where it runs,
// and there the body is in view. Each declaration repeats its definition's
// signature exactly (another would declare an overload with no body: a link error).

#include <cstddef>

namespace inplace::detail {

struct reduction_axes;  // ops/reductions.hpp

namespace texpr {
// out (contiguous, the result's extents) = va . vb, NumPy's dot of ranks 1 and 2.
template <class V, class VA, class VB>
void dot_into(V* out, const VA& va, const VB& vb);
// out (contiguous) = va @ vb, NumPy's matmul.
template <class V, class VA, class VB>
void matmul_into(V* out, const VA& va, const VB& vb);
// out (contiguous) = the sum of v over axis X (X == rank: every axis).
template <std::size_t X, class T, class VA>
void reduce_sum_into(T* out, const VA& v);
// out = the reduction of v by Reducer over the axes r marks.
template <class Reducer, class O, class V>
void reduction_into(const O& out, const V& v, const reduction_axes& r);
// out = softmax of a over its last axis (out may be a's own storage).
template <class O, class A>
void softmax_into(const O& out, const A& a);
}  // namespace texpr

// out = x with the region Views (mp_list<View...>) combined with v by
// Combine; out may be x's own storage (the in-place form).
template <class Combine, class Views, class O, class X, class V, class... S>
void update_into(Views, const O& out, const X& x, const V& v, const S&... start);

}  // namespace inplace::detail
