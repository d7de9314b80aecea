// reduce_sum's kernels (detail/kernel_reduce.hpp) against a long double
// reference: every length around the SIMD batch and the block, inputs built to
// hurt a running sum (ones past float's 2^24, alternating 1e8 and 1, cancelling
// pairs), all axes and one axis of matrices with contiguous and strided rows,
// and the error bound documented in docs/tensors.md checked on each.
#include "naive.hpp"

#include <inplace/tensor/detail/kernel_reduce.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

namespace ip = inplace;
namespace tx = ip::detail::texpr;

namespace {

template <class T>
constexpr long double unit = std::numeric_limits<T>::epsilon() / 2;  // u: 2^-24 (float), 2^-53 (double)

// The documented bound for a contiguous run of n elements with exact sum S and
// sum of magnitudes A: u|S| + 23 u A, plus 2 ceil(log2 n) roundings in sum_t<T>.
template <class T>
long double run_bound(std::size_t n, long double S, long double A) {
  const long double logn = n > 1 ? std::ceil(std::log2(static_cast<long double>(n))) : 0;
  return unit<T> * std::abs(S) + 23 * unit<T> * A + 2 * logn * unit<tx::sum_t<T>> * A;
}
// Other layouts add at most n / 4 + 2 roundings in sum_t<T> (strided runs, columns).
template <class T>
long double any_bound(std::size_t n, long double S, long double A) {
  return run_bound<T>(n, S, A) + (static_cast<long double>(n) / 4 + 2) * unit<tx::sum_t<T>> * A;
}

struct exact {
  long double s = 0, a = 0;
  void add(long double x) { s += x, a += std::abs(x); }
};

template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(g));
  return v;
}

// Lengths around every step of the kernel: the batch, the 8 accumulators, the block, two blocks.
template <class T>
std::vector<std::size_t> lengths() {
  const std::size_t L = tx::reduce::lanes<T>(), B = tx::reduce::block<T>, W = L / 8;
  std::vector<std::size_t> n;
  for (std::size_t i = 0; i <= 2 * W + 1; ++i) n.push_back(i);
  for (std::size_t c : {L, 2 * L, B, 2 * B, 3 * B})
    for (std::size_t d = c - 1; d <= c + 1; ++d) n.push_back(d);
  n.push_back(5 * B + 3 * L + 2 * W + 1);
  return n;
}

}  // namespace

TEMPLATE_TEST_CASE("reduce_sum of every length around the SIMD and block steps", "[kernels][reduce_sum]", float,
                   double) {
  using T = TestType;
  for (std::size_t n : lengths<T>()) {
    INFO("n = " << n);
    const auto v = random_values<T>(n + 1, static_cast<unsigned>(n));
    exact e;
    for (std::size_t i = 0; i < n; ++i) e.add(v[i + 1]);
    // Contiguous, starting off a batch boundary.
    ip::tensor_view<const T, 1> x(v.data() + 1, {n});
    const T s = ip::reduce_sum(x);
    CHECK(std::abs(s - e.s) <= run_bound<T>(n, e.s, e.a));
    // Reversed (summed in memory order) and the same elements every other one of a longer array.
    CHECK(std::abs(T(ip::reduce_sum(ip::reverse(x))) - e.s) <= run_bound<T>(n, e.s, e.a));
    std::vector<T> spread(2 * n + 1);
    for (std::size_t i = 0; i < n; ++i) spread[2 * i] = v[i + 1];
    ip::tensor_view<const T, 1> strided(spread.data(), {n}, {2});
    CHECK(std::abs(T(ip::reduce_sum(strided)) - e.s) <= any_bound<T>(n, e.s, e.a));
  }
}

TEMPLATE_TEST_CASE("reduce_sum over one axis of a matrix: rows and columns, contiguous and strided",
                   "[kernels][reduce_sum]", float, double) {
  using T = TestType;
  const std::size_t W = tx::reduce::lanes<T>() / 8;
  for (std::size_t r : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{16}, std::size_t{17}, std::size_t{64}, std::size_t{65}, std::size_t{130}})
    for (std::size_t c : {std::size_t{1}, W - 1, W, W + 1, 4 * W - 1, 4 * W, 4 * W + 1, 9 * W + 3, std::size_t{70}}) {
      INFO(r << " x " << c);
      ip::tensor<T, 2> A(r, c);
      naive::fill(A, -1, 1, static_cast<unsigned>(r * 131 + c));
      std::vector<exact> rows(r), cols(c);
      for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < c; ++j) rows[i].add(A(i, j)), cols[j].add(A(i, j));
      auto check = [&](const auto& got, const std::vector<exact>& want, std::size_t len) {
        REQUIRE(got.size() == want.size());
        bool ok = true;
        for (std::size_t i = 0; i < want.size(); ++i)
          ok = ok && std::abs(got(i) - want[i].s) <= any_bound<T>(len, want[i].s, want[i].a);
        CHECK(ok);
      };
      check(ip::reduce_sum<1>(A), rows, c);
      check(ip::reduce_sum<0>(A), cols, r);
      const auto At = ip::transpose(A);  // strides (1, c): the loops swap
      check(ip::reduce_sum<0>(At), rows, c);
      check(ip::reduce_sum<1>(At), cols, r);
      check(ip::reduce_sum<-1>(ip::reverse(A)), std::vector<exact>(rows.rbegin(), rows.rend()), c);
      // Neither axis contiguous: every other column of a wider matrix.
      ip::tensor<T, 2> wide(r, 2 * c);
      for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < c; ++j) wide(i, 2 * j) = A(i, j), wide(i, 2 * j + 1) = T(1e6);
      ip::tensor_view<const T, 2> every_other(wide.data(), {r, c}, {static_cast<std::ptrdiff_t>(2 * c), 2});
      check(ip::reduce_sum<1>(every_other), rows, c);
      check(ip::reduce_sum<0>(every_other), cols, r);
      exact all;
      for (const auto& x : rows) all.add(x.s), all.a += x.a - std::abs(x.s);
      CHECK(std::abs(T(ip::reduce_sum(A)) - all.s) <= run_bound<T>(r * c, all.s, all.a));
      CHECK(std::abs(T(ip::reduce_sum(At)) - all.s) <= run_bound<T>(r * c, all.s, all.a));
      CHECK(std::abs(T(ip::reduce_sum(every_other)) - all.s) <= any_bound<T>(r * c, all.s, all.a));
    }
}

// Not again without xsimd: kernels_scalar.cpp defines INPLACE_KERNELS_NO_BIG.
#ifndef INPLACE_KERNELS_NO_BIG
TEST_CASE("reduce_sum of 16Mi ones, alternating 1e8 and 1, and cancelling pairs", "[kernels][reduce_sum][big]") {
  constexpr std::size_t big = std::size_t{16} << 20;
  ip::tensor<float> x(big);
  // 16Mi ones: exact (2^24), and 2^24 + 3 ones too, where a float running sum stops at 2^24.
  for (float& v : x) v = 1.0f;
  CHECK(float(ip::reduce_sum(x)) == 16777216.0f);
  ip::tensor<float> more(big + 3);
  for (float& v : more) v = 1.0f;
  CHECK(float(ip::reduce_sum(more)) == 16777220.0f);  // the float nearest 2^24 + 3 (ties to even)
  float running = 0;
  for (float v : more) running += v;
  CHECK(running == 16777216.0f);
  ip::tensor<double> more_d(big + 3);
  for (double& v : more_d) v = 1.0;
  CHECK(ip::reduce_sum(more_d)() == 16777219.0);
  // Alternating 1e8 and 1, and 1e8 followed by two ones (the ones in every lane).
  for (std::size_t period : {2, 3}) {
    INFO("period " << period);
    exact e;
    for (std::size_t i = 0; i < big; ++i) e.add(x[i] = i % period == 0 ? 1e8f : 1.0f);
    const float s = ip::reduce_sum(x);
    CHECK(std::abs(s - e.s) <= run_bound<float>(big, e.s, e.a));
    CHECK(std::abs(s - e.s) <= 2 * unit<float> * e.s);  // in fact within an ulp or so
    ip::tensor<double> xd(big);
    std::copy(x.begin(), x.end(), xd.begin());
    const double sd = ip::reduce_sum(xd);
    CHECK(std::abs(sd - e.s) <= run_bound<double>(big, e.s, e.a));
  }
  // Cancelling pairs: +a and -a of random magnitudes up to 1e6 around small values; the exact sum is tiny.
  std::mt19937 g(7);
  std::uniform_real_distribution<double> mag(0, 1e6), small(0, 1);
  exact e;
  for (std::size_t i = 0; i + 1 < big; i += 2) {
    const float a = static_cast<float>(mag(g));
    x[i] = a;
    x[i + 1] = -a + static_cast<float>(small(g));
  }
  for (float v : x) e.add(v);
  CHECK(std::abs(float(ip::reduce_sum(x)) - e.s) <= run_bound<float>(big, e.s, e.a));
  // The same array as a (4096, 4096) matrix, over each axis.
  ip::tensor_view<const float, 2> M(x.data(), {4096, 4096});
  const auto rows = ip::reduce_sum<1>(M);
  const auto cols = ip::reduce_sum<0>(M);
  bool ok = true;
  for (std::size_t i = 0; i < 4096; i += 97) {
    exact er, ec;
    for (std::size_t j = 0; j < 4096; ++j) er.add(M(i, j)), ec.add(M(j, i));
    ok = ok && std::abs(rows(i) - er.s) <= run_bound<float>(4096, er.s, er.a);
    ok = ok && std::abs(cols(i) - ec.s) <= any_bound<float>(4096, ec.s, ec.a);
  }
  CHECK(ok);
}

#endif

TEST_CASE("reduce_sum keeps integer sums exact and long double in its own type", "[kernels][reduce_sum]") {
  ip::tensor<int> n(1000);
  for (std::size_t i = 0; i < n.size(); ++i) n[i] = static_cast<int>(i) - 300;
  CHECK(ip::reduce_sum(n)() == 499500 - 300000);
  ip::tensor<long double> l(300);
  for (auto& v : l) v = 0.25L;
  CHECK(ip::reduce_sum(l)() == 75.0L);
  ip::tensor<int, 2> m(3, 37);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = 1;
  auto c = ip::reduce_sum<0>(m);
  CHECK(std::vector<int>(c.begin(), c.end()) == std::vector<int>(37, 3));
}
