// softmax's kernel (detail/kernel_softmax.hpp) against a long double
// reference: every row length around the SIMD batch steps, rows that start off
// a batch boundary, strided rows (the scalar loop) giving the same values, and
// NaN, infinities and large inputs handled as the scalar loop handles them.
#include "naive.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace ip = inplace;
namespace tx = ip::detail::texpr;

namespace {

// exp(x - max) / sum in long double, from x - max rounded to T as the kernel
// computes it (that rounding is the formula's, up to |x - max| u relative).
template <class T>
std::vector<long double> reference(const std::vector<T>& x) {
  T mx = x[0];
  for (auto v : x) mx = std::max(mx, v);
  std::vector<long double> e;
  long double s = 0;
  for (auto v : x) s += e.emplace_back(std::exp(static_cast<long double>(static_cast<T>(v - mx))));
  for (auto& v : e) v /= s;
  return e;
}

// Relative error within a few ulps of T (exp, the reciprocal, one product) and
// the sum's roundings: n / W per lane of the batches, at most.
template <class T>
bool near(long double got, long double want, std::size_t n, std::size_t w) {
  const long double u = std::numeric_limits<T>::epsilon();
  return std::abs(got - want) <= (8 + static_cast<long double>(n) / static_cast<long double>(w)) * u * want +
                                     std::numeric_limits<T>::min();
}

template <class T>
std::size_t batch() {
#if INPLACE_HAS_XSIMD
  return xsimd::batch<T>::size;
#else
  return 4;
#endif
}

}  // namespace

TEMPLATE_TEST_CASE("softmax of every row length around the SIMD steps", "[kernels][softmax]", float, double) {
  using T = TestType;
  const std::size_t W = batch<T>();
  std::vector<std::size_t> lengths;
  for (std::size_t n = 1; n <= 4 * W + 3; ++n) lengths.push_back(n);
  for (std::size_t n : {8 * W - 1, 8 * W + 1, std::size_t{1023}, std::size_t{1024}, std::size_t{1025}}) lengths.push_back(n);
  for (std::size_t n : lengths) {
    INFO("n = " << n);
    // Two rows of n, the second starting one element later than a batch boundary would.
    ip::tensor<T, 2> A(2, n + 1);
    naive::fill(A, -20, 20, static_cast<unsigned>(n));
    std::vector<T> row(n);
    for (std::size_t j = 0; j < n; ++j) row[j] = A(1, j + 1);
    const auto want = reference(row);
    const ip::tensor<T, 2> A0 = A;
    ip::softmax_inplace(ip::tensor_view<T, 2>(A.data() + 1, {2, n}, {static_cast<std::ptrdiff_t>(n + 1), 1}));
    bool ok = true;
    long double total = 0;
    for (std::size_t j = 0; j < n; ++j) ok = ok && near<T>(A(1, j + 1), want[j], n, W), total += A(1, j + 1);
    CHECK(ok);
    CHECK(std::abs(total - 1) <= 4 * n * std::numeric_limits<T>::epsilon());
    CHECK(A(0, 0) == A0(0, 0));  // outside the view: untouched
    // The same rows as columns of a transposed view: the scalar loop, the same values within ulps.
    ip::tensor<T, 2> C(n, 2);
    for (std::size_t j = 0; j < n; ++j) C(j, 0) = A0(0, j + 1), C(j, 1) = A0(1, j + 1);
    ip::softmax_inplace(ip::transpose(C));
    ok = true;
    for (std::size_t j = 0; j < n; ++j) ok = ok && near<T>(C(j, 1), want[j], n, W) && near<T>(C(j, 0), A(0, j + 1), 2 * n, W);
    CHECK(ok);
  }
}

TEMPLATE_TEST_CASE("softmax with NaN, infinities and large inputs, SIMD and strided alike", "[kernels][softmax]", float,
                   double) {
  using T = TestType;
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const std::size_t W = batch<T>();
  // Runs softmax on x as a contiguous row and as a strided one; both results.
  auto both = [](const std::vector<T>& x) {
    const std::size_t n = x.size();
    ip::tensor<T> c(n);
    std::copy(x.begin(), x.end(), c.begin());
    ip::softmax_inplace(c);
    std::vector<T> s(2 * n);
    for (std::size_t j = 0; j < n; ++j) s[2 * j] = x[j];
    ip::softmax_inplace(ip::tensor_view<T, 1>(s.data(), {n}, {2}));
    std::vector<T> strided(n);
    for (std::size_t j = 0; j < n; ++j) strided[j] = s[2 * j];
    return std::pair{std::vector<T>(c.begin(), c.end()), strided};
  };
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, W, W + 1, 2 * W + 3, 5 * W}) {
    INFO("n = " << n);
    for (std::size_t at = 0; at < n; at += (n > 8 ? 3 : 1)) {
      INFO("special at " << at);
      std::vector<T> x(n);
      for (std::size_t j = 0; j < n; ++j) x[j] = T(j % 5);
      // A NaN anywhere: the whole row is NaN.
      auto with = x;
      with[at] = nan;
      for (const auto& r : {both(with).first, both(with).second})
        for (T v : r) CHECK(std::isnan(v));
      // +inf: inf - inf is NaN, so the whole row is NaN, as in the scalar loop.
      with[at] = inf;
      for (const auto& r : {both(with).first, both(with).second})
        for (T v : r) CHECK(std::isnan(v));
      // -inf: that element is 0, the others a softmax of the rest.
      with[at] = -inf;
      if (n > 1) {
        const auto [c, s] = both(with);
        CHECK(c[at] == 0);
        CHECK(s[at] == 0);
        bool ok = true;
        for (std::size_t j = 0; j < n; ++j) ok = ok && naive::close(c[j], s[j], 1e-5);
        CHECK(ok);
      }
    }
    // Large inputs stay finite; all -inf is NaN (-inf - -inf), as in the scalar loop.
    std::vector<T> large(n), ninf(n, -inf);
    for (std::size_t j = 0; j < n; ++j) large[j] = T(1000) + T(j % 3);
    for (const auto& r : {both(large).first, both(large).second})
      for (T v : r) CHECK(std::isfinite(v));
    for (const auto& r : {both(ninf).first, both(ninf).second})
      for (T v : r) CHECK(std::isnan(v));
  }
  // The kernel entry point on a zero-length row does nothing.
  T one = 5;
  tx::softmax_row(&one, 0, 1);
  CHECK(one == 5);
}
