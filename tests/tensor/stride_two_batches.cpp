// Rows whose every stride is 2 run batch by batch with xsimd (texpr_kernel.hpp,
// run_pairs: each batch loads twice its width of contiguous elements and keeps
// the even lanes; into a stride-2 destination its lanes are stored one by one).
// Checked here at every length (batches, and the scalar loop after them), with
// the operands ending at the last element of their storage (a batch must stop
// before it would read past it: ASan sees it), in place over a destination that
// its own expression reads, with the elements between the destination's left
// untouched; and the loops without batches: an op with no SIMD form, integers,
// a user's op that takes only xsimd's default batch, stride 4.
#include "naive.hpp"

#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

namespace ip = inplace;

namespace {
ip::runtime_range every_other(std::size_t from, std::size_t count) {
  const auto b = static_cast<std::ptrdiff_t>(from);
  return {b, b + 2 * static_cast<std::ptrdiff_t>(count), 2};
}
template <class T>
bool near(T got, double want) {
  return naive::close(static_cast<double>(got), want, sizeof(T) == 4 ? 1e-6 : 1e-14);
}

// A user's op whose batch kernel is xsimd's default batch only (as written for
// one machine): the stride-2 loop must not hand it another width.
struct halve {
  static constexpr std::string_view name = "halve";
  static constexpr bool elementwise = true;
  static constexpr bool simd = true;
  constexpr double operator()(double a) const { return a * 0.5; }
#if INPLACE_HAS_XSIMD
  xsimd::batch<double> operator()(const xsimd::batch<double>& a) const { return a * xsimd::batch<double>(0.5); }
#endif
};
}  // namespace

#if INPLACE_HAS_XSIMD && XSIMD_WITH_AVX512F
// Built with -march=native on an AVX-512 machine: the standard ops run on
// 4-lane batches, `halve` on xsimd's default (8 lanes).
namespace tx = ip::detail::texpr;
static_assert(std::is_same_v<tx::pair_batch<double, tx::knode<ip::ops::add, tx::row_cursor<double>, tx::scalar_leaf<double>>>,
                             xsimd::batch<double, xsimd::avx2>>);
static_assert(std::is_same_v<tx::pair_batch<double, tx::knode<halve, tx::row_cursor<double>>>, xsimd::batch<double>>);
#endif

TEMPLATE_TEST_CASE("stride-2 batches: every length, operands ending at their storage's end", "[tensor][strided]", float,
                   double) {
  using T = TestType;
  for (std::size_t n = 1; n < 41; ++n) {
    // Views over std::vectors of exactly 2n - 1 elements (a tensor's storage is
    // rounded up to whole cache lines, where a read past the end goes unseen):
    // a[::2] and b[::2] (n elements) end at the last one.
    std::vector<T> av(2 * n - 1), bv(2 * n - 1);
    ip::tensor_view<T, 1> a(av.data(), {av.size()}), b(bv.data(), {bv.size()});
    naive::fill(a, -1, 1, static_cast<unsigned>(n));
    naive::fill(b, -1, 1, static_cast<unsigned>(n + 50));
    const std::vector<T> a0(av), b0(bv);

    // a contiguous destination (ds 1)
    ip::tensor<T> y(n);
    y = ip::view(a, every_other(0, n)) * ip::view(b, every_other(0, n)) + T(1);
    for (std::size_t i = 0; i < n; ++i) CHECK(near(y[i], double(a0[2 * i]) * double(b0[2 * i]) + 1.0));

    // a stride-2 destination that its expression reads (ds 2, in place): a[::2] = b[::2] * 3 - a[::2] / 2
    auto ev = ip::view(a, every_other(0, n));
    ev = ip::view(b, every_other(0, n)) * T(3) - ip::view(a, every_other(0, n)) / T(2);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(near(av[2 * i], double(b0[2 * i]) * 3.0 - double(a0[2 * i]) / 2.0));
      if (i + 1 < n) CHECK(av[2 * i + 1] == a0[2 * i + 1]);  // the elements between: not written
    }

    // the odd elements, read and written: x[1::2] += exp(x[::2]) * x[1::2], x of 2n elements
    std::vector<T> xv(2 * n);
    ip::tensor_view<T, 1> x(xv.data(), {xv.size()});
    naive::fill(x, -1, 1, static_cast<unsigned>(n + 100));
    const std::vector<T> x0(xv);
    auto od = ip::view(x, every_other(1, n));
    od += ip::exp(ip::view(x, every_other(0, n))) * ip::view(x, every_other(1, n));
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(near(xv[2 * i + 1], double(x0[2 * i + 1]) + std::exp(double(x0[2 * i])) * double(x0[2 * i + 1])));
      CHECK(xv[2 * i] == x0[2 * i]);
    }
  }
}

TEST_CASE("stride-2 rows without batches: no SIMD form, integers, a user's op of one batch type", "[tensor][strided]") {
  for (std::size_t n = 1; n < 27; ++n) {
    ip::tensor<double> a(2 * n - 1), b(2 * n - 1);
    naive::fill(a, -1, 1, static_cast<unsigned>(n));
    naive::fill(b, -1, 1, static_cast<unsigned>(n + 7));
    const std::vector<double> a0(a.begin(), a.end()), b0(b.begin(), b.end());
    // max has no SIMD form: the scalar stride-2 loop
    auto ev = ip::view(a, every_other(0, n));
    ev = ip::max(ip::view(a, every_other(0, n)), ip::view(b, every_other(0, n))) + 1.0;
    for (std::size_t i = 0; i < n; ++i) CHECK(a[2 * i] == std::max(a0[2 * i], b0[2 * i]) + 1.0);

    // the user's op: batches of xsimd's default width, or the scalar loop
    ip::tensor<double> y(n);
    y = ip::apply(halve{}, ip::view(b, every_other(0, n))) - ip::view(a, every_other(0, n));
    for (std::size_t i = 0; i < n; ++i) CHECK(near(y[i], b0[2 * i] * 0.5 - a[2 * i]));

    // integers
    ip::tensor<int> k(2 * n - 1);
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<int>(i * 3 + 1);
    auto kev = ip::view(k, every_other(0, n));
    kev = ip::view(k, every_other(0, n)) * 2 + 1;
    for (std::size_t i = 0; i < k.size(); ++i) CHECK(k[i] == static_cast<int>(i % 2 == 0 ? (i * 3 + 1) * 2 + 1 : i * 3 + 1));
  }
  // stride 4 takes the general loop
  ip::tensor<float> x(41);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto every4 = ip::view(x, ip::range<0, ip::end, 4>);
  every4 = ip::view(x, ip::range<0, ip::end, 4>) * 2.0f + 1.0f;
  for (std::size_t i = 0; i < 41; ++i) CHECK(x[i] == (i % 4 == 0 ? static_cast<float>(i) * 2.0f + 1.0f : static_cast<float>(i)));
}

TEST_CASE("stride-2 batches in the rows of a matrix: a[:, ::2] = a[:, ::2] * a[:, 1::2]", "[tensor][strided]") {
  for (std::size_t cols = 1; cols <= 37; cols += 3) {
    ip::tensor<double, 2> a(4, cols);
    naive::fill(a, -2, 2, static_cast<unsigned>(cols));
    const ip::tensor<double, 2> a0 = a;
    const std::size_t ne = (cols + 1) / 2, no = cols / 2, m = std::min(ne, no);
    if (m == 0) continue;
    auto even = ip::view(a, ip::all, ip::runtime_range{0, static_cast<std::ptrdiff_t>(2 * m), 2});
    even = ip::view(a, ip::all, ip::runtime_range{0, static_cast<std::ptrdiff_t>(2 * m), 2}) *
           ip::view(a, ip::all, ip::runtime_range{1, static_cast<std::ptrdiff_t>(2 * m), 2});
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        CHECK(a(i, j) == (j % 2 == 0 && j / 2 < m ? a0(i, j) * a0(i, j + 1) : a0(i, j)));
  }
}
