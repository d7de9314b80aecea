// dot on a BLAS (INPLACE_USE_BLAS, detail/kernel_blas.hpp), built by
// tests/CMakeLists.txt when CMake's FindBLAS finds one (CI: Debian's
// libopenblas-dev): the BLAS result equals the built-in kernel's within
// 2 k u sum |a_ip b_pj| per element (each is within k u of the exact sum), for
// row-major and transposed operands and matrix-vector products; layouts a BLAS
// cannot take (no unit stride, negative strides, mixed types) fall back to the
// built-in kernel with the same results.
#include "naive.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace ip = inplace;
namespace tx = ip::detail::texpr;

static_assert(INPLACE_HAS_BLAS == 1, "this test is built with INPLACE_USE_BLAS");

namespace {

// Element (r, c) of a matrix; of a vector, element `along` (its only index).
template <class X>
long double at(const X& v, std::size_t r, std::size_t c, std::size_t along) {
  if constexpr (X::rank == 2) return v(r, c);
  else return v[along];
}

// The built-in product: the plain loops in long double, as the reference, and
// the tolerance 2 k u sum |a b| for each element.
template <class V, class VA, class VB>
bool equals_builtin(const std::vector<V>& got, const VA& a, const VB& b) {
  const std::size_t m = VA::rank == 2 ? a.extent(0) : 1, k = b.extent(0), n = VB::rank == 2 ? b.extent(1) : 1;
  std::vector<V> builtin(m * n);
  tx::dot_plain(builtin.data(), a, b);
  const long double u = std::numeric_limits<V>::epsilon() / 2;
  bool ok = got.size() == m * n;
  for (std::size_t i = 0; i < m && ok; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      long double mag = 0;
      for (std::size_t p = 0; p < k; ++p) {
        const long double x = at(a, i, p, p), y = at(b, p, j, p);
        mag += std::abs(x * y);
      }
      ok = ok && std::abs(static_cast<long double>(got[i * n + j]) - builtin[i * n + j]) <= 2 * k * u * mag;
    }
  return ok;
}

template <class V, class VA, class VB>
std::vector<V> run(const VA& a, const VB& b, bool expect_blas) {
  const std::size_t m = VA::rank == 2 ? a.extent(0) : 1, n = VB::rank == 2 ? b.extent(1) : 1;
  std::vector<V> out(m * n, std::numeric_limits<V>::quiet_NaN());
  std::vector<V> probe(m * n);
  CHECK(tx::dot_blas(probe.data(), a, b) == expect_blas);
  tx::dot_into(out.data(), a, b);
  return out;
}

}  // namespace

TEMPLATE_TEST_CASE("dot on the BLAS equals the built-in kernel", "[kernels][dot][blas]", float, double) {
  using T = TestType;
  for (std::size_t m : {1, 7, 64, 129})
    for (std::size_t k : {1, 5, 300})
      for (std::size_t n : {1, 33, 100}) {
        INFO(m << " x " << k << " x " << n);
        ip::tensor<T, 2> A(m, k), B(k, n), At(k, m), Bt(n, k);
        naive::fill(A, -1, 1, 1);
        naive::fill(B, -1, 1, 2);
        naive::fill(At, -1, 1, 3);
        naive::fill(Bt, -1, 1, 4);
        CHECK(equals_builtin(run<T>(A.view(), B.view(), true), A.view(), B.view()));
        CHECK(equals_builtin(run<T>(ip::transpose(At), B.view(), true), ip::transpose(At), B.view()));
        CHECK(equals_builtin(run<T>(A.view(), ip::transpose(Bt), true), A.view(), ip::transpose(Bt)));
        CHECK(equals_builtin(run<T>(ip::transpose(At), ip::transpose(Bt), true), ip::transpose(At), ip::transpose(Bt)));
        // A row-major block of a wider matrix (leading dimension 2k).
        ip::tensor<T, 2> wide(m, 2 * k);
        naive::fill(wide, -1, 1, 5);
        const ip::tensor_view<const T, 2> block(wide.data(), {m, k}, {static_cast<std::ptrdiff_t>(2 * k), 1});
        CHECK(equals_builtin(run<T>(block, B.view(), true), block, B.view()));
        // Matrix-vector both ways, unit and positive strides.
        ip::tensor<T> x(2 * k), y(m);
        naive::fill(x, -1, 1, 6);
        naive::fill(y, -1, 1, 7);
        const ip::tensor_view<const T, 1> xk(x.data(), {k}), x2(x.data(), {k}, {2});
        CHECK(equals_builtin(run<T>(A.view(), xk, true), A.view(), xk));
        CHECK(equals_builtin(run<T>(ip::transpose(At), x2, true), ip::transpose(At), x2));
        CHECK(equals_builtin(run<T>(xk, B.view(), true), xk, B.view()));
        CHECK(equals_builtin(run<T>(x2, ip::transpose(Bt), true), x2, ip::transpose(Bt)));
        CHECK(equals_builtin(run<T>(y.view(), A.view(), true), y.view(), A.view()));
        // Not for the BLAS: reversed (negative strides) and every other column, and vector . vector.
        if (m > 1 && k > 1) {
          CHECK(equals_builtin(run<T>(ip::reverse(A), B.view(), false), ip::reverse(A), B.view()));
          CHECK(equals_builtin(run<T>(A.view(), ip::reverse(xk), false), A.view(), ip::reverse(xk)));
          const ip::tensor_view<const T, 2> strided(wide.data(), {m, k}, {static_cast<std::ptrdiff_t>(2 * k), 2});
          CHECK(equals_builtin(run<T>(strided, B.view(), false), strided, B.view()));
        }
        CHECK(equals_builtin(run<T>(xk, xk, false), xk, xk));
      }
  // Empty extents: nothing written, or zeros for k = 0.
  ip::tensor<T, 2> z0(3, 0), z1(0, 4);
  auto r = ip::dot(z0, z1);
  for (T v : r) CHECK(v == 0);
  CHECK(ip::dot(z1, ip::tensor<T, 2>(4, 2)).size() == 0);
}

TEST_CASE("dot with mixed element types does not use the BLAS", "[kernels][dot][blas]") {
  ip::tensor<int, 2> A{{1, 2}, {3, 4}};
  ip::tensor<float, 2> B{{1, 0}, {0, 1}};
  auto r = ip::dot(A, B);
  CHECK(std::vector<float>(r.begin(), r.end()) == std::vector<float>{1, 2, 3, 4});
}

TEST_CASE("matmul on the BLAS: one gemm per batch element, transposed operands by their trans flags", "[kernels][matmul][blas]") {
  ip::tensor<float, 3> a(3, 29, 37);  // read as swap_axes<1, 2>: (3, 37, 29), column-major matrices
  ip::tensor<float, 2> b(29, 11);
  naive::fill(a, -1, 1, 21);
  naive::fill(b, -1, 1, 22);
  const auto at = ip::swap_axes<1, 2>(a);
  CHECK(tx::dot_blas(std::vector<float>(37 * 11).data(), ip::view(at, ip::at<0>), b.view()));  // the BLAS takes them
  const auto r = ip::matmul(at, b);
  for (std::size_t t = 0; t < 3; ++t) {
    INFO("batch element " << t);
    const std::vector<float> got(r.data() + t * 37 * 11, r.data() + (t + 1) * 37 * 11);
    CHECK(equals_builtin(got, ip::view(at, t), b.view()));
  }
}
