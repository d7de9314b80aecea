#pragma once
// The loop nest of one assignment (TVM's buffer flattening, xtensor's
// xassign_traits, Eigen's AssignEvaluator, decided at run time on strides):
// axes of extent 1 are dropped, the rest are ordered so that the destination's
// smallest stride is innermost, and neighbouring axes that every operand walks
// with the same step are merged. Contiguous operands of equal extents thus
// become one flat loop; the others a nest of rows. With INPLACE_OPENMP, loops of
// at least parallel_threshold elements are split over OpenMP threads.

#include "inplace/tensor/detail/parallel.hpp"
#include "inplace/tensor/detail/tensor_layout.hpp"
#include "inplace/tensor/detail/texpr_kernel.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::texpr {

template <class T, std::size_t A, class K>
void run_rows(T* d, const std::array<std::size_t, A>& ext, const tx_strides<A>& ds, std::size_t nd,
              const K& k, bool unit, std::size_t r0, std::size_t r1, std::ptrdiff_t i0, std::ptrdiff_t i1) {
  const std::size_t inner = nd - 1 < A ? nd - 1 : A - 1;
  std::array<std::ptrdiff_t, A> idx{};
  for (std::size_t a = inner, r = r0; a-- > 0; r /= ext[a]) idx[a] = static_cast<std::ptrdiff_t>(r % ext[a]);
  for (std::size_t r = r0; r < r1; ++r) {
    std::ptrdiff_t off = 0;
    for (std::size_t a = 0; a < inner; ++a) off += idx[a] * ds[a];
    const auto row = row_of(k, idx.data(), inner, inner);
    if (unit) run_unit(d + off, row, i0, i1);
    else run_strided(d + off, ds[inner], row, i0, i1);
    for (std::size_t a = inner; a-- > 0;) {
      if (++idx[a] < static_cast<std::ptrdiff_t>(ext[a])) break;
      idx[a] = 0;
    }
  }
}

// d (extents e, strides ds) = kernel k, whose cursors hold strides in d's index space.
template <class T, std::size_t N, class K>
void evaluate(T* d, const tx_extents<N>& e, const tx_strides<N>& ds, K k) {
  constexpr std::size_t A = N > 0 ? N : 1;
  constexpr std::size_t C = cursor_count<K>();
  std::array<tx_strides<A>*, C> cs{};
  std::array<tx_strides<A>, C> old{};
  {
    std::size_t c = 0;
    for_each_cursor(k, [&](tx_strides<A>& s) { cs[c] = &s; old[c++] = s; });
  }
  // Axes of extent > 1, outermost first: non-increasing |destination stride|.
  std::array<std::size_t, A> order{};
  std::size_t m = 0;
  for (std::size_t a = 0; a < N; ++a) {
    if (e[a] == 0) return;
    if (e[a] != 1) order[m++] = a;
  }
  auto mag = [](std::ptrdiff_t s) { return s < 0 ? -s : s; };
  for (std::size_t i = 1; i < m; ++i)
    for (std::size_t j = i; j > 0 && mag(ds[order[j - 1]]) < mag(ds[order[j]]); --j) std::swap(order[j - 1], order[j]);

  std::array<std::size_t, A> ext{};
  tx_strides<A> dst{};
  std::size_t nd = 0;
  for (std::size_t j = 0; j < m; ++j) {
    const std::size_t a = order[j];
    const auto n = static_cast<std::ptrdiff_t>(e[a]);
    bool merge = nd > 0 && dst[nd - 1] == ds[a] * n;
    for (std::size_t c = 0; c < C && merge; ++c) merge = (*cs[c])[nd - 1] == old[c][a] * n;
    if (merge) {
      ext[nd - 1] *= e[a];
      dst[nd - 1] = ds[a];
      for (std::size_t c = 0; c < C; ++c) (*cs[c])[nd - 1] = old[c][a];
    } else {
      ext[nd] = e[a];
      dst[nd] = ds[a];
      for (std::size_t c = 0; c < C; ++c) (*cs[c])[nd] = old[c][a];
      ++nd;
    }
  }
  if (nd == 0) {
    nd = 1;
    ext[0] = 1;
    dst[0] = 0;
    for (std::size_t c = 0; c < C; ++c) (*cs[c])[0] = 0;
  }
  const std::size_t inner = nd - 1 < A ? nd - 1 : A - 1;  // (nd <= A: the clamp only informs the compiler)
  bool unit = dst[inner] == 1 || ext[inner] == 1;
  for (std::size_t c = 0; c < C; ++c) unit = unit && ((*cs[c])[inner] == 1 || ext[inner] == 1);
  std::size_t rows = 1;
  for (std::size_t a = 0; a < inner && a < A; ++a) rows *= ext[a];
  const auto len = static_cast<std::ptrdiff_t>(ext[inner]);

  // With INPLACE_OPENMP (parallel.hpp): whole rows per thread, or one long row
  // in chunks of whole cache lines.
  if (const std::size_t parts = parallel_threads(rows * ext[inner], parallel_threshold); parts > 1) {
    if (rows >= parts)
      parallel_ranges(parts, rows, 1, [&](std::size_t, std::size_t r0, std::size_t r1) {
        run_rows(d, ext, dst, nd, k, unit, r0, r1, 0, len);
      });
    else
      parallel_ranges(parts, ext[inner], 16, [&](std::size_t, std::size_t i0, std::size_t i1) {
        run_rows(d, ext, dst, nd, k, unit, 0, rows, static_cast<std::ptrdiff_t>(i0), static_cast<std::ptrdiff_t>(i1));
      });
    return;
  }
  run_rows(d, ext, dst, nd, k, unit, 0, rows, 0, len);
}

}  // namespace inplace::detail::texpr

#include "inplace/detail/shadow_on.hpp"
