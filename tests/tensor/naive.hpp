#pragma once
// Naive reference loops for the expression tests: element (i, j) of a result is
// computed from the operands' elements by explicit NumPy broadcasting rules.

#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <random>

namespace naive {

// Fills a tensor with reproducible values in [lo, hi).
template <class Tn>
void fill(Tn& t, double lo, double hi, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  for (auto& v : t) v = static_cast<typename Tn::value_type>(d(g));
}

// A rows x cols float matrix holding 0, 1, 2, ... in row-major order (NumPy's
// np.arange(r * c).reshape(r, c)): views of it show which elements they reach.
inline inplace::tensor<float, 2> iota(std::size_t rows, std::size_t cols) {
  inplace::tensor<float, 2> a(rows, cols);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  return a;
}

// Relative comparison, loose enough for SIMD transcendental kernels.
inline bool close(double a, double b, double tol = 2e-6) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::abs(a - b) <= tol * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace naive
