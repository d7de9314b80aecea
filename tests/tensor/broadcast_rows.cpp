// Contiguous rows with operands broadcast along them (stride 0: x - mean over
// rows, a causal mask from two aranges) run their own loops (texpr_kernel.hpp,
// run_strided): batch by batch with the broadcast operands splat when xsimd
// takes the kernel, else a loop on strides 0 and 1. Their values are the
// element-by-element ones at every length (vector bodies and tails).
#include "naive.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace ip = inplace;

TEMPLATE_TEST_CASE("a column broadcast along contiguous rows, every length", "[tensor][broadcast]", float, double) {
  using T = TestType;
  const std::size_t rows = 3;
  for (std::size_t n = 0; n < 41; ++n) {
    ip::tensor<T, 2> x(rows, n), y(rows, n);
    ip::tensor<T, 2> m(rows, 1), v(rows, 1);
    naive::fill(x, -2, 2, static_cast<unsigned>(n));
    naive::fill(m, -1, 1, static_cast<unsigned>(n + 50));
    naive::fill(v, 0, 1, static_cast<unsigned>(n + 90));

    y = x - m;
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < n; ++j) CHECK(y(i, j) == x(i, j) - m(i, 0));

    // layer norm's last step: a broadcast subexpression
    y = (x - m) / ip::sqrt(v + T(1e-5));
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < n; ++j) CHECK(y(i, j) == (x(i, j) - m(i, 0)) / std::sqrt(v(i, 0) + T(1e-5)));

    // a transcendental op (xsimd's exp against std::exp: close, not equal)
    y = ip::exp(x - m);
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < n; ++j) CHECK(naive::close(y(i, j), std::exp(x(i, j) - m(i, 0))));

    // a row broadcast down the columns too: (rows, 1) against (1, n)
    ip::tensor<T, 2> r(1, n);
    naive::fill(r, -1, 1, static_cast<unsigned>(n + 7));
    y = m * r + x;
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < n; ++j) CHECK(y(i, j) == m(i, 0) * r(0, j) + x(i, j));
  }
}

TEST_CASE("a causal mask from int64 aranges over float rows, every length", "[tensor][broadcast]") {
  for (std::size_t n = 1; n < 41; ++n) {
    ip::tensor<std::int64_t, 2> col(n, 1), row(1, n);
    for (std::size_t i = 0; i < n; ++i) col(i, 0) = row(0, i) = static_cast<std::int64_t>(i);
    ip::tensor<float, 2> s(n, n), out(n, n);
    naive::fill(s, -3, 3, static_cast<unsigned>(n));
    out = ip::where(col >= row, s * 0.5f, -1e30f);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) CHECK(out(i, j) == (i >= j ? s(i, j) * 0.5f : -1e30f));
  }
}
