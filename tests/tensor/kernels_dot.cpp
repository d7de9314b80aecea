// dot's kernels (detail/kernel_dot.hpp) against a long double reference:
// every extent around the register tile (MR x NR), the k block (KC) and the
// packed blocks (NC); transposed, strided and reversed operands; the three
// matrix-vector forms; the result overwritten, never accumulated into.
#include "naive.hpp"

#include <inplace/tensor/detail/kernel_dot.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace ip = inplace;
namespace tx = ip::detail::texpr;

namespace {

#if INPLACE_HAS_XSIMD
template <class T>
constexpr std::size_t MR = tx::gemm::MR;
template <class T>
constexpr std::size_t MQ = tx::gemm::MQ;
template <class T>
constexpr std::size_t NR = tx::gemm::NR<T>;
template <class T>
constexpr std::size_t KC = tx::gemm::KC;
template <class T>
constexpr std::size_t NC = tx::gemm::NC<T>;
#else
template <class T>
constexpr std::size_t MR = 4;
template <class T>
constexpr std::size_t MQ = 1;
template <class T>
constexpr std::size_t NR = 8;
template <class T>
constexpr std::size_t KC = 64;
template <class T>
constexpr std::size_t NC = 64;
#endif

// Element (i, j) of a matrix view, and (i) of a vector view, as long double.
template <class V>
long double at(const V& v, std::size_t i, std::size_t j) {
  if constexpr (V::rank == 2) return v(i, j);
  else return v(V::rank == 1 ? i + j : 0);
}

// out (rows x cols, row-major, garbage first) = a . b through dot_into; each
// element checked against sum a(i, p) b(p, j) in long double within
// 2 k u sum |a(i, p) b(p, j)| (the standard bound for a dot product of length k).
template <class V, class VA, class VB>
bool check_dot(const VA& a, const VB& b, std::size_t rows, std::size_t k, std::size_t cols) {
  std::vector<V> out(rows * cols + 1, std::numeric_limits<V>::quiet_NaN());
  tx::dot_into(out.data(), a, b);
  const long double u = std::numeric_limits<V>::epsilon() / 2;
  bool ok = std::isnan(out[rows * cols]);  // nothing written past the result
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      long double s = 0, mag = 0;
      for (std::size_t p = 0; p < k; ++p) {
        const long double x = (VA::rank == 2 ? at(a, i, p) : at(a, p, 0)) * (VB::rank == 2 ? at(b, p, j) : at(b, p, 0));
        s += x;
        mag += std::abs(x);
      }
      const long double got = out[i * cols + j];
      if (!(std::abs(got - s) <= 2 * static_cast<long double>(k + 2) * u * mag)) {
        UNSCOPED_INFO("element (" << i << ", " << j << "): " << got << " != " << s);
        ok = false;
      }
    }
  return ok;
}

template <class T>
ip::tensor<T, 2> matrix(std::size_t r, std::size_t c, unsigned seed) {
  ip::tensor<T, 2> m(r, c);
  naive::fill(m, -1, 1, seed);
  return m;
}

}  // namespace

TEMPLATE_TEST_CASE("dot of every extent around the tile and the k block", "[kernels][dot]", float, double) {
  using T = TestType;
  const std::size_t mr = MR<T>, nr = NR<T>, kc = KC<T>;
  for (std::size_t m : {std::size_t{1}, mr - 1, mr, mr + 1, 2 * mr + 1})
    for (std::size_t n : {std::size_t{1}, nr - 1, nr, nr + 1, 2 * nr + 3})
      for (std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{7}, kc - 1, kc, kc + 1}) {
        INFO(m << " x " << k << " x " << n);
        const auto A = matrix<T>(m, k, 1), B = matrix<T>(k, n, 2);
        CHECK(check_dot<T>(A.view(), B.view(), m, k, n));
      }
}

TEMPLATE_TEST_CASE("dot across the packed blocks, with transposed, strided and reversed operands", "[kernels][dot]",
                   float, double) {
  using T = TestType;
  // n past NC (two B blocks, A's panels packed again for the second), k past KC (accumulated k slices),
  // a tall A (many panels, k small).
  {
    const std::size_t m = MR<T> + 3, k = KC<T> + 5, n = NC<T> + NR<T> + 1;
    const auto A = matrix<T>(m, k, 3), B = matrix<T>(k, n, 4);
    CHECK(check_dot<T>(A.view(), B.view(), m, k, n));
  }
  {
    const std::size_t m = 40 * MR<T> + 1, k = 3, n = 5;
    const auto A = matrix<T>(m, k, 5), B = matrix<T>(k, n, 6);
    CHECK(check_dot<T>(A.view(), B.view(), m, k, n));
  }
  const std::size_t m = 2 * MR<T> + 1, k = 37, n = NR<T> + 5;
  const auto At = matrix<T>(k, m, 7), Bt = matrix<T>(n, k, 8);
  const auto A = matrix<T>(m, k, 9), B = matrix<T>(k, n, 10);
  const auto big = matrix<T>(2 * m, 3 * k, 11), bigb = matrix<T>(2 * k + 1, 2 * n, 12);
  CHECK(check_dot<T>(ip::transpose(At), B.view(), m, k, n));                  // A's columns contiguous
  CHECK(check_dot<T>(A.view(), ip::transpose(Bt), m, k, n));                  // B's columns contiguous
  CHECK(check_dot<T>(ip::transpose(At), ip::transpose(Bt), m, k, n));         // both
  const ip::tensor_view<const T, 2> sa(big.data() + 1, {m, k}, {static_cast<std::ptrdiff_t>(6 * k), 3});  // no unit stride
  const ip::tensor_view<const T, 2> sb(bigb.data(), {k, n}, {static_cast<std::ptrdiff_t>(4 * n), 2});
  CHECK(check_dot<T>(sa, sb, m, k, n));
  CHECK(check_dot<T>(ip::reverse(A), ip::reverse(B), m, k, n));               // negative row strides
  // Mixed element types: converted while packing.
  ip::tensor<int, 2> Ai(m, k);
  for (std::size_t i = 0; i < Ai.size(); ++i) Ai[i] = static_cast<int>(i % 7) - 3;
  ip::tensor<int, 2> Bi(k, n);
  for (std::size_t i = 0; i < Bi.size(); ++i) Bi[i] = static_cast<int>(i % 5) - 2;
  CHECK(check_dot<T>(Ai.view(), B.view(), m, k, n));
  CHECK(check_dot<T>(ip::transpose(At), Bi.view(), m, k, n));
}

TEMPLATE_TEST_CASE("dot's short last panels of A and transposed operands across every packing edge", "[kernels][dot]",
                   float, double) {
  using T = TestType;
  const std::size_t mr = MR<T>, mq = MQ<T>, nr = NR<T>, kc = KC<T>;
  // m: the last panel of A whole in a kernel of MQ or 2 MQ rows, or one row
  // short of it (through the edge buffer); k: across the 16-wide transposing
  // chunks and the k slices (accumulated into C); n: whole panels of B and not.
  for (std::size_t m : {mq, mr + mq, mr + mq - 1, mr + 2 * mq, mr + 2 * mq - 1, std::size_t{16}, std::size_t{17}})
    for (std::size_t k : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{33}, kc + 17})
      for (std::size_t n : {std::size_t{1}, nr, nr + 15, 2 * nr + 17}) {
        INFO(m << " x " << k << " x " << n);
        const auto A = matrix<T>(m, k, 21), B = matrix<T>(k, n, 22), At = matrix<T>(k, m, 23), Bt = matrix<T>(n, k, 24);
        CHECK(check_dot<T>(A.view(), B.view(), m, k, n));
        CHECK(check_dot<T>(A.view(), ip::transpose(Bt), m, k, n));  // q k^T: both operands contiguous along k
        CHECK(check_dot<T>(ip::transpose(At), ip::transpose(Bt), m, k, n));
      }
  // Lines of a transposed operand a row stride apart that is not their length
  // (a column block of a wider matrix), and reversed.
  const std::size_t m = mr + 5, k = 3 * 16 + 7, n = nr + 3;
  const auto wide = matrix<T>(n + 2, k + 9, 25), A = matrix<T>(m, k, 26);
  const ip::tensor_view<const T, 2> bt(wide.data() + 3, {n, k}, {static_cast<std::ptrdiff_t>(k + 9), 1});
  CHECK(check_dot<T>(A.view(), ip::transpose(bt), m, k, n));
  CHECK(check_dot<T>(ip::reverse(A), ip::transpose(ip::reverse(bt)), m, k, n));
}

TEMPLATE_TEST_CASE("matrix-vector, vector-matrix and vector-vector products of every layout", "[kernels][dot]", float,
                   double) {
  using T = TestType;
  const std::size_t w = NR<T> / 2;
  for (std::size_t k : {std::size_t{0}, std::size_t{1}, w - 1, w, w + 1, 2 * w - 1, 2 * w, 2 * w + 1, 8 * w + 3})
    for (std::size_t m : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{5}, w + 1, 8 * w, 9 * w + 2}) {
      INFO(m << " x " << k);
      const auto A = matrix<T>(m, k, 13), At = matrix<T>(k, m, 14);
      const auto x2 = matrix<T>(1, 2 * k + 1, 15);
      const ip::tensor_view<const T, 1> x(x2.data(), {k}), xs(x2.data(), {k}, {2});
      // (m, k)(k): rows contiguous, columns contiguous, a strided vector.
      CHECK(check_dot<T>(A.view(), x, m, k, 1));
      CHECK(check_dot<T>(ip::transpose(At), x, m, k, 1));
      CHECK(check_dot<T>(A.view(), xs, m, k, 1));
      CHECK(check_dot<T>(ip::transpose(At), ip::reverse(xs), m, k, 1));
      // (k)(k, m): the same four layouts from the left.
      CHECK(check_dot<T>(x, At.view(), 1, k, m));
      CHECK(check_dot<T>(x, ip::transpose(A), 1, k, m));
      CHECK(check_dot<T>(xs, At.view(), 1, k, m));
      CHECK(check_dot<T>(ip::reverse(xs), ip::transpose(A), 1, k, m));
    }
  for (std::size_t k : {std::size_t{0}, std::size_t{1}, w - 1, w, w + 1, 4 * w + 3, std::size_t{1000}}) {
    INFO("k = " << k);
    const auto x2 = matrix<T>(1, 2 * k + 1, 17), y2 = matrix<T>(1, 2 * k + 1, 18);
    const ip::tensor_view<const T, 1> x(x2.data(), {k}), y(y2.data() + 1, {k}), xs(x2.data(), {k}, {2});
    CHECK(check_dot<T>(x, y, 1, k, 1));
    CHECK(check_dot<T>(xs, ip::reverse(y), 1, k, 1));
  }
}
