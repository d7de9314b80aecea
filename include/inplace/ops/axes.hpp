#pragma once
// The two markers a reduction's axis list may hold besides axes, beside each
// other so that every reduction reads them alike:
//   ip::ops::all_axes  reduce_sum's "every axis" (its default). Not -1: axes
//                      count from the end when negative, as in NumPy
//                      (reduce_sum<-1> sums over the last axis).
//   ip::keepdims       keep the reduced axes, with extent 1 (NumPy's
//                      keepdims=True): reduce_sum<ip::keepdims>(x) is every
//                      axis kept, reduce_mean<1, ip::keepdims>(x) one.

#include <limits>

namespace inplace {
namespace ops {
inline constexpr int all_axes = std::numeric_limits<int>::min();
}
inline constexpr int keepdims = std::numeric_limits<int>::min() + 1;
}  // namespace inplace
