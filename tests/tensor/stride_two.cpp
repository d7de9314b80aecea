// Rows whose every stride is 2 (NumPy's x[::2], x[1::2]; a red-black sweep)
// run a loop of their own with the stride a constant (texpr_kernel.hpp,
// run_strided): its values are the run-time-stride loop's, at every length
// (vector bodies and tails), into a contiguous destination and a strided one,
// in rows of a matrix; rows with another stride somewhere (1, 0 for a
// broadcast, 4) still take the general loop.
#include "naive.hpp"

#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

namespace ip = inplace;

namespace {
ip::runtime_range every_other(std::size_t from, std::size_t count) {
  const auto b = static_cast<std::ptrdiff_t>(from);
  return {b, b + 2 * static_cast<std::ptrdiff_t>(count), 2};
}
}  // namespace

TEMPLATE_TEST_CASE("stride-2 rows: contiguous and strided destinations, every length", "[tensor][strided]", float, double) {
  for (std::size_t n = 0; n < 40; ++n) {
    ip::tensor<TestType> x(2 * n + 3), z(n);
    naive::fill(x, -1, 1, static_cast<unsigned>(n));
    naive::fill(z, -1, 1, static_cast<unsigned>(n + 100));
    const std::vector<TestType> x0(x.begin(), x.end());
    const auto ev = ip::view(x, every_other(0, n)), od = ip::view(x, every_other(1, n));

    // into a contiguous tensor, every operand of stride 2
    ip::tensor<TestType> y(n);
    y = ev * TestType(2) + od;
    for (std::size_t i = 0; i < n; ++i) CHECK(y[i] == x0[2 * i] * TestType(2) + x0[2 * i + 1]);

    // in place over the even elements, reading the odd ones: x[::2] += (x[1::2] - x[::2]) * 0.25
    auto ev_w = ip::view(x, every_other(0, n));
    ev_w += (od - ev) * TestType(0.25);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(x[2 * i] == x0[2 * i] + (x0[2 * i + 1] - x0[2 * i]) * TestType(0.25));
      CHECK(x[2 * i + 1] == x0[2 * i + 1]);
    }
    CHECK(x[2 * n] == x0[2 * n]);

    // one operand contiguous: the general loop, the same values
    auto od_w = ip::view(x, every_other(1, n));
    od_w = od + z;
    for (std::size_t i = 0; i < n; ++i) CHECK(x[2 * i + 1] == x0[2 * i + 1] + z[i]);
  }
}

TEST_CASE("stride-2 columns of a matrix, a broadcast operand, stride 4, an overlapping shift", "[tensor][strided]") {
  for (std::size_t cols = 2; cols <= 34; cols += 4) {
    ip::tensor<double, 2> a(5, cols);
    naive::fill(a, -2, 2, static_cast<unsigned>(cols));
    const ip::tensor<double, 2> a0 = a;
    const std::size_t half = cols / 2;
    // a[:, ::2] += a[:, 1::2]: rows of stride 2, the outer stride cols
    auto even = ip::view(a, ip::all, ip::range<0, ip::end, 2>);
    even += ip::view(a, ip::all, ip::range<1, ip::end, 2>);
    for (std::size_t i = 0; i < 5; ++i)
      for (std::size_t j = 0; j < half; ++j) {
        CHECK(a(i, 2 * j) == a0(i, 2 * j) + a0(i, 2 * j + 1));
        CHECK(a(i, 2 * j + 1) == a0(i, 2 * j + 1));
      }
    // a broadcast row (stride 0 along the row): the general loop
    ip::tensor<double> r(half);
    naive::fill(r, -1, 1, 7);
    auto odd = ip::view(a, ip::all, ip::range<1, ip::end, 2>);
    odd = ip::view(a, ip::all, ip::range<0, ip::end, 2>) * ip::view(r, ip::new_axis, ip::all);
    for (std::size_t i = 0; i < 5; ++i)
      for (std::size_t j = 0; j < half; ++j) CHECK(a(i, 2 * j + 1) == a(i, 2 * j) * r[j]);
  }
  // stride 4 and a shift that overlaps its source (x[2::2] = x[:-2:2] + 1, NumPy: from a copy)
  ip::tensor<float> x(42);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto every4 = ip::view(x, ip::range<0, ip::end, 4>);
  every4 = ip::view(x, ip::range<1, ip::end, 4>) * 2.0f;
  for (std::size_t i = 0; i < 42; i += 4) CHECK(x[i] == static_cast<float>(i + 1) * 2.0f);
  const std::vector<float> x0(x.begin(), x.end());
  auto shifted = ip::view(x, ip::range<2, ip::end, 2>);
  shifted = ip::view(x, ip::range<0, -2, 2>) + 1.0f;
  for (std::size_t i = 2; i < 42; i += 2) CHECK(x[i] == x0[i - 2] + 1.0f);
}
