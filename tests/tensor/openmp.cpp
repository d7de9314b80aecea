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

// The opaque kernels (parallel.hpp): dot splits the rows (or columns) of its
// result, softmax and the row or column sums split rows or columns, each
// computed as the serial kernel computes it: equal to the one-thread result,
// bit for bit. A sum over every axis adds one run per thread: within the bound
// of docs/tensors.md of a long double reference.
namespace {
template <class T, auto R>
bool same(const ip::tensor<T, R>& a, const ip::tensor<T, R>& b) {
  if (a.extents() != b.extents()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a.data()[i] == b.data()[i])) return false;
  return true;
}
template <class F>
auto one_thread(F f) {
  omp_set_num_threads(1);
  auto r = f();
  return r;
}
}  // namespace

TEST_CASE("parallel opaque kernels give the serial results", "[expr][openmp]") {
  namespace tx = ip::detail::texpr;
  // Sizes over every threshold, with remainders past the tile and block steps.
  const std::size_t m = 301, k = 157, n = 97;  // m k n > the dot threshold
  static_assert(301 * 157 * 97 >= tx::parallel_dot_threshold);
  ip::tensor<float, 2> A(m, k), B(k, n), At(k, m);
  naive::fill(A, -1, 1, 11);
  naive::fill(B, -1, 1, 12);
  naive::fill(At, -1, 1, 13);
  // Matrix-vector products over the threshold: rows of A2 (gemv_rows) and
  // columns of A2 (gemv_cols) split over threads.
  ip::tensor<float, 2> A2(1031, 517);
  naive::fill(A2, -1, 1, 18);
  static_assert(1031 * 517 >= tx::parallel_dot_threshold);
  ip::tensor<float> v(517), w(1031);
  naive::fill(v, -1, 1, 14);
  naive::fill(w, -1, 1, 15);
  ip::tensor<double, 2> S(700, 301);  // > the softmax and reduce thresholds
  naive::fill(S, -5, 5, 16);
  const std::size_t big = 3 * tx::parallel_reduce_threshold + 37;
  ip::tensor<float> x(big);
  naive::fill(x, -1, 1, 17);

  const auto AB = one_thread([&] { return ip::dot(A, B); });
  const auto AtB = one_thread([&] { return ip::dot(ip::transpose(At), B); });
  const auto Av = one_thread([&] { return ip::dot(A2, v); });
  const auto wA = one_thread([&] { return ip::dot(w, A2); });
  const auto soft = one_thread([&] { return ip::softmax(S); });
  const auto rows = one_thread([&] { return ip::reduce_sum<1>(S); });
  const auto cols = one_thread([&] { return ip::reduce_sum<0>(S); });
  long double want = 0, mag = 0;
  for (std::size_t i = 0; i < big; ++i) want += x[i], mag += std::abs(static_cast<long double>(x[i]));

  for (int threads : {2, 3, 4, 7}) {
    omp_set_num_threads(threads);
    INFO(threads << " threads");
    CHECK(same(ip::dot(A, B), AB));
    CHECK(same(ip::dot(ip::transpose(At), B), AtB));
    CHECK(same(ip::dot(A2, v), Av));
    CHECK(same(ip::dot(w, A2), wA));
    CHECK(same(ip::softmax(S), soft));
    ip::tensor<double, 2> T = S;
    ip::softmax_inplace(T);
    CHECK(same(T, soft));
    CHECK(same(ip::reduce_sum<1>(S), rows));
    CHECK(same(ip::reduce_sum<0>(S), cols));
    const long double got = ip::reduce_sum(x)();
    const long double u = std::ldexp(1.0L, -24);
    CHECK(std::abs(got - want) <= u * std::abs(want) + 23 * u * mag);
  }
}

TEST_CASE("a batch of small products is split by its elements", "[expr][openmp]") {
  // each (8, 8) @ (8, 8) product is far below the dot threshold; the batch is not
  ip::tensor<float, 3> a(1024, 8, 8), b(1024, 8, 8);
  naive::fill(a, -1, 1, 31);
  naive::fill(b, -1, 1, 32);
  const auto bt = ip::swap_axes<1, 2>(b);  // and strided operands: a product per element
  omp_set_num_threads(1);
  const ip::tensor<float, 3> want = ip::matmul(a, bt);
  for (int threads : {2, 3, 4}) {
    omp_set_num_threads(threads);
    INFO(threads << " threads");
    const auto got = ip::matmul(a, bt);
    bool same = true;
    for (std::size_t i = 0; i < got.size(); ++i) same = same && got[i] == want[i];
    CHECK(same);
  }
  omp_set_num_threads(1);
  for (std::size_t t : {std::size_t{0}, std::size_t{517}, std::size_t{1023}}) {  // and the values themselves
    ip::tensor<float, 2> at(8, 8), btt(8, 8);
    for (std::size_t i = 0; i < 64; ++i) at[i] = a[t * 64 + i], btt[i] = b[t * 64 + (i % 8) * 8 + i / 8];
    const auto p = ip::dot(at, btt);
    for (std::size_t i = 0; i < 64; ++i) CHECK(naive::close(want[t * 64 + i], p[i]));
  }
}
