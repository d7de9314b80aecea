#pragma once
// Opaque (non-elementwise) standard ops: their loops cannot be fused with their
// neighbours, so every aliased read by them is a hazard. Each states its output
// shape as a constexpr rule over ip::shape (an invalid result: rank == dynamic)
// and, as a user's opaque op does, its kernel: void kernel(outputs...,
// inputs...) const over ip::tensor_views, which a running graph calls and the
// tensor functions (tensor_opaque.hpp) too. The kernels' bodies are in tensor/,
// declared in ops/detail/kernel_decls.hpp.

#include "inplace/ops/axes.hpp"
#include "inplace/ops/detail/kernel_decls.hpp"
#include "inplace/shape.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

namespace inplace {
namespace detail {
// reduce_sum's axis, counted from the front: 0 to N - 1, or N for every axis;
// -1 when Axis is not an axis of a rank-N operand.
template <int Axis, std::size_t N>
inline constexpr long long reduce_axis =
    Axis == ops::all_axes ? static_cast<long long>(N)
    : Axis < 0            ? (Axis + static_cast<long long>(N) >= 0 ? Axis + static_cast<long long>(N) : -1)
                          : (Axis < static_cast<long long>(N) ? Axis : -1);
}  // namespace detail

namespace ops {

// Matrix product with NumPy's rules for vectors: (m,k)(k,n) -> (m,n),
// (k)(k,n) -> (n), (m,k)(k) -> (m), (k)(k) -> scalar. Never in place.
struct dot {
  static constexpr std::string_view name = "dot";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 2>& in) {
    const shape& a = in[0];
    const shape& b = in[1];
    if (a.rank == 0 || b.rank == 0 || a.rank > 2 || b.rank > 2) return shape{dynamic};
    const std::size_t ka = a.extent[a.rank - 1];
    const std::size_t kb = b.extent[0];
    if (ka != dynamic && kb != dynamic && ka != kb) return shape{dynamic};
    shape r{};
    if (a.rank == 2) r.extent[r.rank++] = a.extent[0];
    if (b.rank == 2) r.extent[r.rank++] = b.extent[1];
    return r;
  }
  template <class O, class A, class B>
  void kernel(const O& out, const A& a, const B& b) const {
    detail::texpr::dot_into(out.data(), a, b);
  }
};

// NumPy's matmul: (..., m, k) (..., k, n) -> (..., m, n), the batch axes (all
// but the last two) broadcast against each other; a vector operand is made a
// matrix (a: (1, k), b: (k, 1)) and the added axis left out of the result.
// Scalars are refused (NumPy's matmul raises; multiply instead). Never in place.
struct matmul {
  static constexpr std::string_view name = "matmul";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 2>& in) {
    const shape& a = in[0];
    const shape& b = in[1];
    if (a.rank == 0 || b.rank == 0 || a.rank > max_rank || b.rank > max_rank) return shape{dynamic};
    const std::size_t ka = a.extent[a.rank - 1];
    const std::size_t kb = b.extent[b.rank == 1 ? 0 : b.rank - 2];
    if (ka != dynamic && kb != dynamic && ka != kb) return shape{dynamic};
    shape ba{}, bb{};  // the batch axes
    for (; ba.rank + 2 < a.rank; ++ba.rank) ba.extent[ba.rank] = a.extent[ba.rank];
    for (; bb.rank + 2 < b.rank; ++bb.rank) bb.extent[bb.rank] = b.extent[bb.rank];
    const auto batch = detail::broadcast(ba, bb);
    if (!batch.ok) return shape{dynamic};
    shape r = batch.result;
    if (a.rank >= 2) r.extent[r.rank++] = a.extent[a.rank - 2];
    if (b.rank >= 2) r.extent[r.rank++] = b.extent[b.rank - 1];
    return r;
  }
  template <class O, class A, class B>
  void kernel(const O& out, const A& a, const B& b) const {
    detail::texpr::matmul_into(out.data(), a, b);
  }
};

// NumPy's dtype for a sum or a product of T elements: bool and the signed
// integers narrower than 64 bits give int64, the unsigned ones uint64
// (np.sum of an int8 array is int64, of a uint8 array uint64, as in PyTensor
// and PyTorch); other dtypes give their own. The reduction functions cast such
// an operand first (a loop that fuses), so the op classes stay one dtype.
template <class T>
using sum_dtype = std::conditional_t<
    std::is_integral_v<T> && sizeof(T) < sizeof(std::int64_t),
    std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>, std::uint64_t, std::int64_t>, T>;

// Sum over all elements (Axis = ip::ops::all_axes, a scalar) or over one axis
// (0 to rank - 1, or -rank to -1 from the end).
template <int Axis = all_axes>
struct reduce_sum {
  static constexpr std::string_view name = "reduce_sum";
  static constexpr int axis = Axis;
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    if (Axis == all_axes) return shape{};
    const auto rank = static_cast<long long>(in[0].rank);
    const long long a = Axis < 0 ? Axis + rank : Axis;
    if (a < 0 || a >= rank) return shape{dynamic};
    shape r{};
    for (std::size_t i = 0; i < in[0].rank; ++i)
      if (static_cast<long long>(i) != a) r.extent[r.rank++] = in[0].extent[i];
    return r;
  }
  template <class O, class A>
  void kernel(const O& out, const A& a) const {
    detail::texpr::reduce_sum_into<static_cast<std::size_t>(detail::reduce_axis<Axis, A::rank>)>(out.data(), a);
  }
};

// softmax over the last axis; same shape. softmax_inplace = inplace_op<softmax, 0>
// has this kernel too: its out is a's own storage, which the kernel then does
// not copy.
struct softmax {
  static constexpr std::string_view name = "softmax";
  static constexpr shape output_shape(std::size_t, const std::array<shape, 1>& in) {
    return in[0].rank == 0 ? shape{dynamic} : in[0];
  }
  template <class O, class A>
  void kernel(const O& out, const A& a) const {
    detail::texpr::softmax_into(out, a);
  }
};

}  // namespace ops
}  // namespace inplace

#include "inplace/ops/inplace_op.hpp"

namespace inplace {
namespace ops {
using softmax_inplace = inplace_op<softmax, 0>;
}
template <>
struct inplace_variant_traits<ops::softmax, 0> {
  using type = ops::softmax_inplace;
};
}  // namespace inplace
