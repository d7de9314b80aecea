// A borrowed strided view passed to an input that the graph reshapes or
// flattens: the call copies it once (as NumPy's reshape does) and computes on
// the copy, counted among the call's copies and allocations; the argument is
// unchanged. Where an output is that input or a view of it, the call cannot
// return a view of the caller's storage, and it throws shape_error instead.
#include "../tensor/allocations.hpp"
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto x = ip::input<"x", float>;

ip::tensor<float, 2> matrix(std::size_t r, std::size_t c) {
  ip::tensor<float, 2> m(r, c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) m(i, j) = static_cast<float>(10 * i + j);
  return m;
}
// NumPy: (a.T).reshape(-1), row-major over the transposed view.
std::vector<float> transposed_rows(const ip::tensor<float, 2>& m, float scale, float shift) {
  std::vector<float> r;
  for (std::size_t j = 0; j < m.extent(1); ++j)
    for (std::size_t i = 0; i < m.extent(0); ++i) r.push_back(m(i, j) * scale + shift);
  return r;
}
}  // namespace

TEST_CASE("a strided argument to a flattened input is copied once", "[run][strided]") {
  constexpr auto f = ip::function(ip::inputs(A, x), ip::outputs(ip::flatten(A) * 2.0_c + x));
  const auto m = matrix(3, 4);
  const auto before = values(m);
  const auto t = ip::transpose(m.view());  // (4, 3), strides (1, 4): not contiguous
  REQUIRE(!t.is_contiguous());
  const ip::tensor<float> zero(12);
  ip::tensor<float> z(12);
  for (std::size_t i = 0; i < 12; ++i) z(i) = 0;
  const auto r = f(t, z);
  CHECK(values(r) == transposed_rows(m, 2, 0));
  CHECK(values(m) == before);
  // counted: one copy and its buffer, beside what ip::plan counts for the call
  constexpr auto p = ip::plan(f, ip::borrowed, ip::borrowed);
  CHECK(ip::detail::run::last_call_counts.copies == p.copies + 1);
  CHECK(ip::detail::run::last_call_counts.allocations == p.allocations + 1);
  // a contiguous view is not copied
  (void)f(m.view(), z);
  CHECK(ip::detail::run::last_call_counts.copies == p.copies);
  // x donated: the copy of A is still made once, the result is in x's storage
  const float* old = z.data();
  const auto s = f(t, std::move(z));
  CHECK(s.data() == old);
  CHECK(values(s) == transposed_rows(m, 2, 0));
  CHECK(ip::detail::run::last_call_counts.copies == ip::plan(f, ip::borrowed, ip::donated).copies + 1);
  // debug mode agrees
  CHECK(values(f.debug(t, zero)) == transposed_rows(m, 2, 0));
}

TEST_CASE("a strided argument to a reshaped input, read by several nodes", "[run][strided]") {
  constexpr auto f = ip::function(
      ip::inputs(A), ip::outputs(ip::reshape<2, 6>(A) + 1.0_c, ip::reduce_sum(ip::flatten(A)), ip::exp(A) * 0.0_c));
  auto m = matrix(4, 6);
  const auto before = values(m);
  const auto sliced = ip::slice<0, ip::end, 2>(m.view());  // rows 0 and 2: (2, 6), row stride 12
  REQUIRE(!sliced.is_contiguous());
  auto [r, s, e] = f(sliced);
  std::vector<float> want;
  float sum = 0;
  for (std::size_t i : {0u, 2u})
    for (std::size_t j = 0; j < 6; ++j) want.push_back(m(i, j) + 1), sum += m(i, j);
  CHECK(values(r) == want);
  CHECK(static_cast<float>(s) == sum);
  CHECK(e.extent(0) == 2);
  CHECK(values(m) == before);
  CHECK(ip::detail::run::last_call_counts.copies == ip::plan(f, ip::borrowed).copies + 1);
}

TEST_CASE("a strided argument whose reshape is returned stays an error", "[run][strided]") {
  // the output would be a view into the caller's storage, which has no such layout
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::flatten(A)));
  const auto m = matrix(2, 3);
  CHECK_THROWS_WITH(f(ip::transpose(m.view())), Catch::Matchers::Contains("flatten needs a contiguous view"));
  CHECK(values(f(m.view())) == values(m));
}
