// The OpenMP path of the evaluator (CMake option INPLACE_OPENMP): loops of at
// least parallel_threshold elements are split over threads, by whole rows or,
// for one long row, in chunks of whole cache lines. Built with OpenMP and
// INPLACE_OPENMP=1 by tests/CMakeLists.txt; the results must equal the serial
// loop's for every split, in place and through a temporary.
#include "naive.hpp"

#include <omp.h>

#include <cmath>
#include <vector>

namespace ip = inplace;

static_assert(INPLACE_OPENMP == 1, "this test is built with INPLACE_OPENMP");

TEST_CASE("parallel loops give the serial results", "[expr][openmp]") {
  constexpr std::size_t big = ip::detail::texpr::parallel_threshold;
  for (int threads : {1, 2, 3, 4, 7}) {
    omp_set_num_threads(threads);
    INFO(threads << " threads");
    // One long contiguous row (flat path off: split within the row), in place, with a remainder.
    const std::size_t n = 2 * big + 37;
    ip::tensor<float> x(n), y(n);
    naive::fill(x, 0, 1, 1);
    naive::fill(y, 0, 1, 2);
    std::vector<float> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = std::exp(x[i]) * 0.5f + y[i];
    x = ip::exp(x) * 0.5f + y;
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i) ok = ok && naive::close(x[i], want[i]);
    CHECK(ok);
    // Many rows (whole rows per thread), strided: a transposed read of another tensor.
    const std::size_t r = 300, c = 301;  // 90300 elements
    ip::tensor<double, 2> A(r, c), B(c, r);
    naive::fill(A, -1, 1, 3);
    naive::fill(B, -1, 1, 4);
    ip::tensor<double, 2> A0 = A;
    A = A * 2.0 - ip::transpose(B);
    ok = true;
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < c; ++j) ok = ok && A(i, j) == A0(i, j) * 2.0 - B(j, i);
    CHECK(ok);
    // A hazard (the destination's own transpose) goes through a temporary, also in parallel.
    ip::tensor<double, 2> S(r, r);
    naive::fill(S, -1, 1, 5);
    ip::tensor<double, 2> S0 = S;
    S = S + ip::transpose(S);
    ok = true;
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < r; ++j) ok = ok && S(i, j) == S0(i, j) + S0(j, i);
    CHECK(ok);
  }
}

TEST_CASE("small loops stay serial, inside a parallel region too", "[expr][openmp]") {
  omp_set_num_threads(4);
  std::vector<ip::tensor<float>> xs(8, ip::tensor<float>(1000));
#pragma omp parallel for
  for (int k = 0; k < 8; ++k) xs[static_cast<std::size_t>(k)] = xs[static_cast<std::size_t>(k)] + float(k);
  for (int k = 0; k < 8; ++k) CHECK(xs[static_cast<std::size_t>(k)][999] == float(k));
  // A big loop inside a parallel region runs serially on its thread (no nested teams).
  ip::tensor<float> big(ip::detail::texpr::parallel_threshold * 2);
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    big = big + 1.0f;
  }
  CHECK(big[big.size() - 1] == 1.0f);
}
