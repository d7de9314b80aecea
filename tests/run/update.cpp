// ip::set, ip::inc and ip::update<Op>: x with a region replaced (added to,
// combined), as values (x untouched when borrowed: the call copies it once),
// in place when x is donated (no allocation, the caller's storage returned),
// equal to the tensor statements x(...) = v and x(...) += v, and in debug mode.
// ip::dynamic_slice: a run-time start, checked before anything runs.
#include "../tensor/naive.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace ip = inplace;
using naive::iota;
using namespace ip::literals;

namespace {
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 1>;
constexpr auto M = ip::input<"M", double, ip::extents<4, 6>>;
constexpr auto N = ip::input<"N", double, ip::extents<4, 3>>;

template <class T>
bool same_values(const T& a, const T& b) {
  if (a.extents() != b.extents()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a.data()[i] != b.data()[i]) return false;
  return true;
}
}  // namespace

TEST_CASE("set(row<1>(A), B): borrowed copies A once, donated writes the row in place", "[update][run]") {
  constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(ip::set(ip::row<1>(A), B)));
  constexpr auto borrowed = ip::plan(f, ip::borrowed, ip::borrowed);
  static_assert(borrowed.copies == 1 && borrowed.allocations == 1 && borrowed.in_place == 0);
  constexpr auto donated = ip::plan(f, ip::donated, ip::borrowed);
  static_assert(donated.copies == 0 && donated.allocations == 0 && donated.in_place == 1);

  const auto a = iota(3, 4);
  ip::tensor<float, 1> b(4);
  for (std::size_t j = 0; j < 4; ++j) b[j] = -1.0f - static_cast<float>(j);
  auto expect = a;
  ip::row<1>(expect) = b;  // NumPy's a[1] = b, as a tensor statement

  const auto r = f(a, b);
  CHECK(same_values(r, expect));
  CHECK(a(1, 0) == 4.0f);  // borrowed: intact
  CHECK(same_values(f.debug(a, b), expect));

  auto d = a;
  const float* p = d.data();
  const auto rd = f(std::move(d), b);
  CHECK(rd.data() == p);
  CHECK(same_values(rd, expect));
}

TEST_CASE("inc and update<Op> on strided regions, v broadcast, equal to the tensor statements", "[update][run]") {
  ip::tensor<double, ip::extents<4, 6>> m;
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<double>(i % 7) - 2.5;
  ip::tensor<double, ip::extents<4, 3>> n;
  for (std::size_t i = 0; i < n.size(); ++i) n[i] = static_cast<double>(i % 5) * 0.5 - 1.0;

  SECTION("m[:, ::2] += n") {
    constexpr auto f = ip::function(ip::inputs(M, N), ip::outputs(ip::inc(ip::view(M, ip::all, ip::range<0, ip::end, 2>), N)));
    auto expect = m;
    ip::view(expect, ip::all, ip::range<0, ip::end, 2>) += n;
    CHECK(same_values(f(m, n), expect));
    auto d = m;
    const double* p = d.data();
    const auto r = f(std::move(d), n);
    CHECK(r.data() == p);
    CHECK(same_values(r, expect));
  }
  SECTION("m[1:3, 1::2] *= n[0] (a row broadcast over the region)") {
    constexpr auto f = ip::function(ip::inputs(M, N), ip::outputs(ip::update<ip::ops::mul>(
                                                         ip::view(M, ip::range<1, 3>, ip::range<1, ip::end, 2>), ip::row<0>(N))));
    auto expect = m;
    ip::view(expect, ip::range<1, 3>, ip::range<1, ip::end, 2>) *= ip::row<0>(n);
    CHECK(same_values(f(m, n), expect));
    CHECK(same_values(f.debug(m, n), expect));
  }
  SECTION("max and min with a constant: x.at[r].max(0), x.at[r].min(1)") {
    constexpr auto f = ip::function(ip::inputs(M), ip::outputs(ip::update<ip::ops::max>(ip::col<2>(M), 0.0_c),
                                                              ip::update<ip::ops::min>(ip::diagonal(M), 1.0_c)));
    const auto [hi, lo] = f(m);
    auto e1 = m, e2 = m;
    for (std::size_t i = 0; i < 4; ++i) {
      e1(i, 2) = e1(i, 2) > 0.0 ? e1(i, 2) : 0.0;
      e2(i, i) = e2(i, i) < 1.0 ? e2(i, i) : 1.0;
    }
    CHECK(same_values(hi, e1));
    CHECK(same_values(lo, e2));
  }
  SECTION("set of the transposed diagonal block") {
    constexpr auto f = ip::function(ip::inputs(M, N), ip::outputs(ip::set(ip::transpose(ip::block<0, 0, 3, 4>(M)), ip::view(N, ip::range<0, 4>))));
    auto expect = m;
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 4; ++j) expect(i, j) = n(j, i);
    CHECK(same_values(f(m, n), expect));
  }
}

TEST_CASE("a region read at the same index or elsewhere in the storage it updates", "[update][run]") {
  // set(row<0>(a), row<0>(a) + 1): PyTorch's a[0] + 1 written back into a
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::set(ip::row<0>(A), ip::row<0>(A) + 1.0_c)));
  // set(row<0>(a), row<1>(a) * 2): reads the other row
  constexpr auto g = ip::function(ip::inputs(A), ip::outputs(ip::set(ip::row<0>(A), ip::row<1>(A) * 2.0_c)));
  static_assert(ip::plan(g, ip::donated).in_place == 2 && ip::plan(g, ip::donated).allocations == 0);  // the product written into row 0
  const auto a = iota(3, 4);
  auto e1 = a, e2 = a;
  for (std::size_t j = 0; j < 4; ++j) e1(0, j) = a(0, j) + 1.0f, e2(0, j) = a(1, j) * 2.0f;
  CHECK(same_values(f(a), e1));
  CHECK(same_values(g(a), e2));
  auto d1 = a, d2 = a;
  const float* p1 = d1.data();
  const float* p2 = d2.data();
  const auto r1 = f(std::move(d1));
  const auto r2 = g(std::move(d2));
  CHECK(same_values(r1, e1));
  CHECK(same_values(r2, e2));
  CHECK(r1.data() == p1);
  CHECK(r2.data() == p2);
}

TEST_CASE("a decode step: one row of a donated cache at a run-time position, no allocation", "[update][run][dynamic_slice]") {
  constexpr auto cache = ip::input<"cache", float, ip::extents<8, 4>>;
  constexpr auto t = ip::scalar<"t", std::int64_t>;
  constexpr auto k = ip::input<"k", float, ip::extents<4>>;
  constexpr auto step = ip::function(ip::inputs(cache, t, k), ip::outputs(ip::set(ip::dynamic_slice<0, 1>(cache, t), ip::expand_dims<0>(k))));
  static_assert(ip::plan(step, ip::donated, ip::borrowed, ip::borrowed).allocations == 0);
  static_assert(ip::plan(step, ip::borrowed, ip::borrowed, ip::borrowed).copies == 1);

  ip::tensor<float, ip::extents<8, 4>> c{};
  ip::tensor<float, ip::extents<4>> kv;
  const float* p = c.data();
  for (std::int64_t s = 0; s < 8; ++s) {
    for (std::size_t j = 0; j < 4; ++j) kv[j] = static_cast<float>(s * 10 + static_cast<std::int64_t>(j));
    c = step(std::move(c), s, kv);
    CHECK(c.data() == p);
  }
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 4; ++j) CHECK(c(i, j) == static_cast<float>(i * 10 + j));

  SECTION("out of range: shape_error before anything runs, nothing written") {
    const auto before = c;
    for (std::int64_t s : {std::int64_t{-1}, std::int64_t{8}, std::int64_t{100}}) {
      CHECK_THROWS_AS(step(c, s, kv), ip::shape_error);
      try {
        step(c, s, kv);
      } catch (const ip::shape_error& e) {
        CHECK_THAT(e.what(), Catch::Contains("dynamic_slice") && Catch::Contains("out of range"));
      }
      auto d = c;
      const float* old = d.data();
      CHECK_THROWS_AS(step(std::move(d), s, kv), ip::shape_error);
      CHECK(same_values(c, before));
      CHECK(d.data() == old);
      CHECK(same_values(d, before));
    }
  }
}

TEST_CASE("dynamic_slice on tensors: the same view, the same error", "[update][dynamic_slice][tensor]") {
  auto a = iota(5, 3);
  auto v = ip::dynamic_slice<0, 2>(a, 3);
  CHECK(v.extent(0) == 2);
  CHECK(v(0, 1) == a(3, 1));
  CHECK(v(1, 2) == a(4, 2));
  CHECK_THROWS_AS((ip::dynamic_slice<0, 2>(a, 4)), ip::shape_error);
  CHECK_THROWS_AS((ip::dynamic_slice<1, 1>(a, -1)), ip::shape_error);
  ip::dynamic_slice<1, 1>(a, 2) = 0.0f;  // a[:, 2:3] = 0
  for (std::size_t i = 0; i < 5; ++i) CHECK(a(i, 2) == 0.0f);
}

TEST_CASE("the rewrite reaches views: a value written back over the region it reads is one loop there", "[update][run][rewrite]") {
  // set(row<0>(a), row<0>(a) + 1), PyTorch's a[0] + 1 scattered back: no buffer with a donated
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::set(ip::row<0>(A), ip::row<0>(A) + 1.0_c)));
  constexpr auto d = ip::plan(f, ip::donated);
  static_assert(d.allocations == 0 && d.copies == 0 && d.in_place == 2 && d.loops == 1);
  static_assert(ip::plan(f, ip::borrowed).allocations == 2);  // the sum, the copy of a
  // a chain into the region: one loop writing row 0, reading row 0 and row 2
  constexpr auto g = ip::function(ip::inputs(A), ip::outputs(ip::set(ip::row<0>(A), ip::exp(ip::row<0>(A)) * ip::row<2>(A) - 1.0_c)));
  static_assert(ip::plan(g, ip::donated).allocations == 0);
  // inc keeps its buffer: the sum must not overwrite the elements it adds to
  constexpr auto h = ip::function(ip::inputs(A), ip::outputs(ip::inc(ip::row<0>(A), ip::row<0>(A) * 2.0_c)));
  static_assert(ip::plan(h, ip::donated).allocations == 1);
  // a reader of row 0 after the sum (a second output) keeps the region's old elements: a buffer
  constexpr auto k = ip::function(ip::inputs(A, B), ip::outputs(ip::set(ip::row<0>(A), B * 2.0_c), ip::row<0>(A) + B));
  // another pattern of the region in the loop (a column of a square matrix): a buffer
  constexpr auto Q = ip::input<"Q", float, ip::extents<4, 4>>;
  constexpr auto m = ip::function(ip::inputs(Q), ip::outputs(ip::set(ip::row<0>(Q), ip::row<0>(Q) + ip::col<0>(Q))));
  static_assert(ip::plan(m, ip::donated).allocations == 1);

  const auto a = iota(3, 4);
  auto e1 = a, e2 = a, e3 = a;
  for (std::size_t j = 0; j < 4; ++j) {
    e1(0, j) = a(0, j) + 1.0f;
    e2(0, j) = std::exp(a(0, j)) * a(2, j) - 1.0f;
    e3(0, j) = a(0, j) + a(0, j) * 2.0f;
  }
  for (int donate = 0; donate < 2; ++donate) {
    auto a1 = a, a2 = a, a3 = a;
    const float* p = a1.data();
    const auto r1 = donate ? f(std::move(a1)) : f(a1);
    const auto r2 = donate ? g(std::move(a2)) : g(a2);
    const auto r3 = donate ? h(std::move(a3)) : h(a3);
    CHECK(same_values(r1, e1));
    CHECK(same_values(r2, e2));
    CHECK(same_values(r3, e3));
    if (donate) CHECK(r1.data() == p);
  }
  CHECK(same_values(f.debug(a), e1));
  CHECK(same_values(g.debug(a), e2));

  ip::tensor<float, 1> b(4);
  for (std::size_t j = 0; j < 4; ++j) b[j] = 0.5f * static_cast<float>(j);
  auto ak = a;
  const auto [k1, k2] = k(std::move(ak), b);
  for (std::size_t j = 0; j < 4; ++j) {
    CHECK(k1(0, j) == b[j] * 2.0f);
    CHECK(k2[j] == a(0, j) + b[j]);
    CHECK(k1(1, j) == a(1, j));
  }
  ip::tensor<float, ip::extents<4, 4>> q;
  for (std::size_t i = 0; i < 16; ++i) q[i] = static_cast<float>(i);
  const auto qm = m(q);
  for (std::size_t j = 0; j < 4; ++j) CHECK(qm(0, j) == q(0, j) + q(j, 0));
  auto qd = q;
  const auto qm2 = m(std::move(qd));
  for (std::size_t j = 0; j < 4; ++j) CHECK(qm2(0, j) == q(0, j) + q(j, 0));
}

TEST_CASE("a value that does not fit the region is a shape_error before anything runs", "[update][run]") {
  constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(ip::set(ip::row<0>(A), B), ip::exp(B)));
  const auto a = iota(3, 4);
  ip::tensor<float, 1> b3(3), b1(1);
  b3[0] = b3[1] = b3[2] = 1.0f;
  b1[0] = 9.0f;
  try {
    (void)f(a, b3);
    FAIL("no shape_error");
  } catch (const ip::shape_error& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("inplace: shape_error: set(A, B, index(...))"));
  }
  auto d = a;
  const float* old = d.data();
  CHECK_THROWS_AS(f(std::move(d), b3), ip::shape_error);
  CHECK(same_values(a, iota(3, 4)));
  CHECK(d.data() == old);  // donated: the storage stays with the argument, nothing written
  CHECK(same_values(d, a));
  // one element broadcasts over the row, as NumPy's a[0] = [9]
  const auto [r, e] = f(a, b1);
  for (std::size_t j = 0; j < 4; ++j) CHECK(r(0, j) == 9.0f);
  CHECK(r(1, 3) == a(1, 3));
}

TEST_CASE("dtypes: the result has x's; set converts as x[r] = v does", "[update][run][dtype]") {
  constexpr auto I = ip::input<"I", std::int32_t, ip::extents<2, 3>>;
  constexpr auto X = ip::input<"X", double, ip::extents<3>>;
  constexpr auto f = ip::function(ip::inputs(I, X), ip::outputs(ip::set(ip::row<0>(I), X), ip::inc(ip::row<1>(I), 2_c),
                                                              ip::update<ip::ops::max>(ip::col<0>(I), 1_c)));
  ip::tensor<std::int32_t, ip::extents<2, 3>> i;
  for (std::size_t k = 0; k < 6; ++k) i[k] = static_cast<std::int32_t>(k) - 3;
  ip::tensor<double, ip::extents<3>> x;
  x[0] = 2.7, x[1] = -2.7, x[2] = 0.5;
  const auto [s, n, m] = f(i, x);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(s)>::value_type, std::int32_t>);
  // NumPy: a = np.arange(6).reshape(2, 3) - 3; a[0] = [2.7, -2.7, 0.5] -> [2, -2, 0] (toward zero)
  auto e = i;
  ip::row<0>(e) = x;
  for (std::size_t j = 0; j < 3; ++j) CHECK(s(0, j) == e(0, j));
  CHECK(s(0, 0) == 2);
  CHECK(s(0, 1) == -2);
  CHECK(s(0, 2) == 0);
  CHECK(s(1, 2) == i(1, 2));
  for (std::size_t j = 0; j < 3; ++j) CHECK(n(1, j) == i(1, j) + 2);
  CHECK(m(0, 0) == 1);  // max(-3, 1)
  CHECK(m(1, 0) == 1);  // max(0, 1)
}

TEST_CASE("an update of an intermediate runs in its buffer; of a value read later, in a copy", "[update][run]") {
  // exp(a) dies at the set: the set writes its row 0 in place, nothing copied
  constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(ip::set(ip::row<0>(ip::exp(A)), B)));
  static_assert(ip::plan(f, ip::borrowed, ip::borrowed).allocations == 1);
  static_assert(ip::plan(f, ip::borrowed, ip::borrowed).copies == 0);
  static_assert(ip::plan(f, ip::donated, ip::borrowed).allocations == 0);
  // exp(a) is also returned: the set copies it
  constexpr auto g = ip::function(ip::inputs(A, B), ip::outputs(ip::set(ip::row<0>(ip::exp(A)), B), ip::exp(A)));
  static_assert(ip::plan(g, ip::donated, ip::borrowed).copies == 1);
  const auto a = iota(2, 3);
  ip::tensor<float, 1> b(3);
  b[0] = 7.0f, b[1] = 8.0f, b[2] = 9.0f;
  const auto r = f(a, b);
  const auto [r2, ea] = g(a, b);
  for (std::size_t j = 0; j < 3; ++j) {
    CHECK(r(0, j) == b[j]);
    CHECK(r(1, j) == std::exp(a(1, j)));
    CHECK(r2(0, j) == b[j]);
    CHECK(ea(0, j) == std::exp(a(0, j)));
  }
}
