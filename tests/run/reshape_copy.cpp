// Reshapes of views whose elements are not in row-major order: NumPy's
// S.T.reshape(-1) copies, and so does a graph whose static extents prove the
// view is not dense (ip::apply makes the reshape read a `copy` node: one loop
// into a buffer ip::plan counts). A dense view is still reshaped where it lies;
// dynamic extents leave the run-time check (ip::shape_error) as it was.
// Expected values: NumPy 2 on S = np.arange(24.).reshape(4, 6).
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
constexpr auto T = ip::input<"T", float, ip::extents<2, 3, 4>>;
constexpr auto R = ip::input<"R", float, ip::extents<1, 6>>;
constexpr auto A = ip::input<"A", float, 2>;

using mat = ip::tensor<float, ip::extents<4, 6>>;
mat arange() {
  mat s;
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<float>(i);
  return s;
}
template <class V>
std::vector<float> values(const V& v) {
  std::vector<float> r;
  for (std::size_t i = 0; i < v.size(); ++i) r.push_back(v.data()[i]);  // (results are dense)
  return r;
}
std::vector<float> plus(std::vector<float> v, float k) {
  for (float& x : v) x += k;
  return v;
}
// S.T.reshape(-1), by index arithmetic: element (j, i) of S.T is S[i, j].
std::vector<float> transposed(const mat& s) {
  std::vector<float> r;
  for (std::size_t j = 0; j < 6; ++j)
    for (std::size_t i = 0; i < 4; ++i) r.push_back(s(i, j));
  return r;
}
// NumPy's values (np.arange(24.).reshape(4, 6) as S).
const std::vector<float> np_T = {0, 6, 12, 18, 1, 7, 13, 19, 2, 8, 14, 20, 3, 9, 15, 21, 4, 10, 16, 22, 5, 11, 17, 23};
const std::vector<float> np_step2 = {0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17};      // S[::2].reshape(2, 6)
const std::vector<float> np_cols = {1, 2, 3, 7, 8, 9, 13, 14, 15, 19, 20, 21};       // S[:, 1:4].reshape(-1)
const std::vector<float> np_diag = {0, 7, 14, 21};                                    // np.diagonal(S).reshape(-1)
const std::vector<float> np_rev = {18, 19, 20, 21, 22, 23, 12, 13, 14, 15, 16, 17,
                                   6,  7,  8,  9,  10, 11, 0,  1,  2,  3,  4,  5};    // S[::-1].reshape(-1)
const std::vector<float> np_bcast = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5};            // np.broadcast_to(S[0], (2, 6)).reshape(-1)
// np.transpose(np.arange(24.).reshape(2, 3, 4), (1, 0, 2)).reshape(6, 4)
const std::vector<float> np_perm = {0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23};
}  // namespace

TEST_CASE("a reshape of a view static extents prove strided reads a copy", "[run][views][reshape_copy]") {
  constexpr auto f = ip::function(
      ip::inputs(S), ip::outputs(ip::flatten(ip::transpose(S)),                           // S.T.reshape(-1)
                                 ip::reshape<2, 6>(ip::view(S, ip::range<0, ip::end, 2>)),  // S[::2].reshape(2, 6)
                                 ip::flatten(ip::view(S, ip::all, ip::range<1, 4>)),        // S[:, 1:4]
                                 ip::flatten(ip::diagonal(S)),                              // np.diagonal(S)
                                 ip::flatten(ip::reverse(S)),                               // S[::-1]
                                 ip::flatten(ip::broadcast_to<2, 6>(ip::row<0>(S)))));
  const mat s = arange();
  auto [t, a, c, d, r, b] = f(s);
  CHECK(values(t) == np_T);
  CHECK(values(t) == transposed(s));
  CHECK(a.extent(0) == 2);
  CHECK(a.extent(1) == 6);
  CHECK(values(a) == np_step2);
  CHECK(values(c) == np_cols);
  CHECK(values(d) == np_diag);
  CHECK(values(r) == np_rev);
  CHECK(values(b) == np_bcast);
  CHECK(values(s) == values(arange()));  // borrowed: read only
  // one copy per reshape, each one loop into a fresh buffer
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).allocations == 6);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).copies == 0);  // (no copy of an argument)
  const std::string text = ip::explain(f, ip::borrowed);
  CHECK_THAT(text, Catch::Contains("reshape_copy(#0)"));
  CHECK_THAT(text, Catch::Contains("flatten(#1)"));
  std::size_t copies = 0;
  for (std::size_t at = text.find("reshape_copy("); at != std::string::npos; at = text.find("reshape_copy(", at + 1)) ++copies;
  CHECK(copies == 6);
  // donated: the same values; the copies read S before anything is freed
  auto [t2, a2, c2, d2, r2, b2] = f(arange());
  CHECK(values(t2) == np_T);
  CHECK(values(a2) == np_step2);
  CHECK(values(c2) == np_cols);
  CHECK(values(r2) == np_rev);
  CHECK(values(b2) == np_bcast);
}

TEST_CASE("a permutation of a rank-3 input, reshaped", "[run][views][reshape_copy]") {
  constexpr auto f = ip::function(ip::inputs(T), ip::outputs(ip::reshape<6, 4>(ip::transpose<1, 0, 2>(T)) * 1.0_c,
                                                             ip::apply(ip::ops::flatten{}, ip::swap_axes<0, 2>(T))));
  ip::tensor<float, ip::extents<2, 3, 4>> x;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto [p, q] = f(x);
  CHECK(values(p) == np_perm);
  // np.swapaxes(T, 0, 2).reshape(-1): element (k, j, i) is T[i, j, k]
  std::vector<float> expect;
  for (std::size_t k = 0; k < 4; ++k)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t i = 0; i < 2; ++i) expect.push_back(x(i, j, k));
  CHECK(values(q) == expect);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).allocations == 3);  // two copies, the product
}

TEST_CASE("consumers of the reshaped copy, debug mode", "[run][views][reshape_copy]") {
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::flatten(ip::transpose(S)) * 2.0_c + 1.0_c,
                                                             ip::reduce_sum(ip::flatten(ip::transpose(S)))));
  const mat s = arange();
  auto [y, z] = f(s);
  std::vector<float> expect = np_T;
  for (float& v : expect) v = 2 * v + 1;
  CHECK(values(y) == expect);
  CHECK(z == 276.0f);
  auto [yd, zd] = f.debug(s);
  CHECK(values(yd) == expect);
  CHECK(zd == 276.0f);
  auto [yn, zn] = f.debug(arange());
  CHECK(values(yn) == expect);
}

TEST_CASE("dense views are still reshaped where they lie", "[run][views][reshape_copy]") {
  // whole rows (S[1:3]), a transposed row vector, a reshape of a reshape: no copy
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::flatten(ip::view(S, ip::range<1, 3>)),
                                                             ip::reshape<3, 8>(ip::reshape<6, 4>(S))));
  const mat s = arange();
  auto [v, w] = f(s);
  CHECK(v.data() == s.data() + 6);  // a view into the caller's storage
  CHECK(w.data() == s.data());
  CHECK(values(v) == std::vector<float>{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17});
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).allocations == 0);
  CHECK_THAT(ip::explain(f, ip::borrowed), !Catch::Contains("copy("));

  constexpr auto g = ip::function(ip::inputs(R), ip::outputs(ip::flatten(ip::transpose(R))));
  ip::tensor<float, ip::extents<1, 6>> row;
  for (std::size_t i = 0; i < 6; ++i) row[i] = static_cast<float>(i);
  auto rv = g(row);
  CHECK(rv.data() == row.data());  // (6, 1) is dense: extents of 1 have no stride
  STATIC_REQUIRE(ip::plan(g, ip::borrowed).allocations == 0);

  // one element, a scalar input: dense (nothing to copy)
  constexpr auto k = ip::scalar<"k", float>;
  constexpr auto h = ip::function(ip::inputs(S, k), ip::outputs(ip::reshape<1>(ip::view(S, ip::at<2>, ip::at<1>)), ip::reshape<1, 1>(k)));
  STATIC_REQUIRE(ip::plan(h, ip::borrowed).allocations == 1);  // (k's array)
  auto [e, kk] = h(s, 5.0f);
  CHECK(e.data() == s.data() + 13);
  CHECK(kk(0, 0) == 5.0f);
}

TEST_CASE("a destroyer through a dense reshape writes the root", "[run][views][reshape_copy]") {
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::add_inplace(ip::flatten(ip::view(S, ip::range<1, 3>)), 1.0_c)));
  mat s = arange();
  const float* p = s.data();
  auto r = f(std::move(s));
  CHECK(r.data() == p + 6);  // in the donated storage
  CHECK(values(r) == plus(std::vector<float>{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, 1));
  const mat b = arange();
  auto rb = f(b);  // borrowed: copy-protected
  CHECK(values(rb) == values(r));
  CHECK(values(b) == values(arange()));
}

TEST_CASE("an update through a dense reshape writes x's region", "[run][views][reshape_copy]") {
  // x.at[1:3].reshape(-1).set(v) as a region of S; a strided one is update_region
  // (tests/fail/update_region.fail.reshape_of_transpose.cpp)
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::set(ip::flatten(ip::view(S, ip::range<1, 3>)), -1.0_c)));
  auto r = f(arange());
  std::vector<float> expect = values(arange());
  for (std::size_t i = 6; i < 18; ++i) expect[i] = -1;
  CHECK(r.extent(0) == 4);
  CHECK(values(r) == expect);
}

TEST_CASE("a destroyer through the reshape of a strided view destroys the copy", "[run][views][reshape_copy]") {
  // NumPy: u = S.T.reshape(-1); u += 1 leaves S as it was
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::add_inplace(ip::flatten(ip::transpose(S)), 1.0_c)));
  STATIC_REQUIRE(ip::check(ip::inputs(S), ip::outputs(ip::add_inplace(ip::flatten(ip::transpose(S)), 1.0_c))).ok);
  const mat s = arange();
  auto r = f(s);
  CHECK(values(r) == plus(np_T, 1));
  CHECK(values(s) == values(arange()));
  mat d = arange();
  auto rd = f(std::move(d));
  CHECK(values(rd) == plus(np_T, 1));
  auto rdbg = f.debug(arange());
  CHECK(values(rdbg) == plus(np_T, 1));
  // the copy is the one buffer; the add runs in it
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).allocations == 1);
  STATIC_REQUIRE(ip::plan(f, ip::donated).allocations == 1);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).in_place == 1);
  const std::string text = ip::explain(f, ip::donated);
  CHECK_THAT(text, Catch::Contains("copy(#0)"));
  CHECK_THAT(text, Catch::Contains("in place of #2"));

  // the reshape of an in-place result computed through a transpose: it lies
  // where the transpose does, so it is copied too
  constexpr auto g = ip::function(ip::inputs(S), ip::outputs(ip::flatten(ip::add_inplace(ip::transpose(S), 1.0_c))));
  auto rg = g(s);
  CHECK(values(rg) == plus(np_T, 1));
  CHECK(values(s) == values(arange()));
  auto rgd = g(arange());
  CHECK(values(rgd) == plus(np_T, 1));
  CHECK_THAT(ip::explain(g, ip::donated), Catch::Contains("copy(#1)"));
}

TEST_CASE("reinterpret: the same size reads any view, another size a dense one", "[run][views][reshape_copy]") {
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::flatten(ip::reinterpret<std::int32_t>(ip::transpose(S)))));
  const mat s = arange();
  auto r = f(s);
  REQUIRE(r.size() == 24);
  for (std::size_t i = 0; i < 24; ++i) CHECK(r[i] == std::bit_cast<std::int32_t>(np_T[i]));
  // S.T.view(np.float64) raises in NumPy (the last axis must be contiguous): refused while compiling
  constexpr auto bad = ip::check(ip::inputs(S), ip::outputs(ip::reinterpret<double>(ip::transpose(S))));
  STATIC_REQUIRE(bad.error == ip::error_kind::shape_mismatch);
  STATIC_REQUIRE(bad.name(0) == "reinterpret(transpose(...))");
  // (NumPy reinterprets S[:, :4], whose rows are dense; a call needs the whole
  // view dense, so it would throw at every call: refused too)
  STATIC_REQUIRE(ip::check(ip::inputs(S), ip::outputs(ip::reinterpret<double>(ip::view(S, ip::all, ip::range<0, 4>)))).error ==
                 ip::error_kind::shape_mismatch);
  // whole rows are dense: S[1:3].view(np.float64)
  constexpr auto g = ip::function(ip::inputs(S), ip::outputs(ip::reinterpret<double>(ip::view(S, ip::range<1, 3>))));
  auto dv = g(s);
  CHECK(dv.extent(1) == 3);
  CHECK(static_cast<const void*>(dv.data()) == static_cast<const void*>(s.data() + 6));
}

TEST_CASE("dynamic extents: a view at run time, strided ones still throw", "[run][views][reshape_copy]") {
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::flatten(ip::transpose(A))));
  ip::tensor<float, 2> a(4, 6);
  CHECK_THROWS_WITH(f(a), Catch::Contains("needs a contiguous view"));
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).allocations == 0);
  ip::tensor<float, 2> col(4, 1);  // (1, 4) transposed is dense: a view
  for (std::size_t i = 0; i < 4; ++i) col[i] = static_cast<float>(i);
  auto v = f(col);
  CHECK(v.data() == col.data());
}

// One element broadcast to more: ip::zeros / ip::full (a constant of rank 0
// broadcast) and ip::broadcast_to of a rank-0 input. NumPy:
// np.broadcast_to(np.float32(3), (2, 3)).reshape(-1) is [3 3 3 3 3 3].
TEST_CASE("a reshape of one element broadcast to more reads a copy", "[run][views][reshape_copy]") {
  constexpr auto Z = ip::input<"Z", float, ip::extents<>>;
  constexpr auto V = ip::input<"V", float, ip::extents<6>>;
  constexpr auto f = ip::function(ip::inputs(Z, V),
                                  ip::outputs(ip::flatten(ip::broadcast_to<2, 3>(Z)),
                                              ip::flatten(ip::zeros<float, 2, 3>) + V,
                                              ip::flatten(ip::full<float, 2, 3>(2.0_c)) + V,
                                              ip::reshape<1>(Z)));  // one element: dense, a view
  STATIC_REQUIRE(ip::check(ip::inputs(Z, V), ip::outputs(ip::flatten(ip::broadcast_to<2, 3>(Z)))).ok);
  ip::tensor<float, ip::extents<>> z;
  z() = 3;
  ip::tensor<float, ip::extents<6>> v;
  for (std::size_t i = 0; i < 6; ++i) v[i] = static_cast<float>(i);
  const auto check = [&](const auto& r) {
    const auto& [b, zs, fs, one] = r;
    CHECK(values(b) == std::vector<float>(6, 3.0f));
    CHECK(values(zs) == values(v));
    CHECK(values(fs) == plus(values(v), 2));
    CHECK(values(one) == std::vector<float>{3});
  };
  check(f(z, v));
  check(f.debug(z, v));
}

// A value reshaped after an in-place op lies on S when the op runs in place
// (S donated) and in a fresh buffer when it stays pure (S borrowed, debug
// mode): the copy serves both. NumPy: (S.T + 1).T.reshape(-1) is S + 1, and
// np.exp(S.T).T.reshape(-1) is exp(S).
TEST_CASE("a reshape after an in-place op reads a copy in every call", "[run][views][reshape_copy]") {
  constexpr auto f = ip::function(
      ip::inputs(S), ip::outputs(ip::flatten(ip::transpose(ip::add_inplace(ip::transpose(S), 1.0_c)))));
  constexpr auto g = ip::function(
      ip::inputs(S), ip::outputs(ip::flatten(ip::transpose(ip::add_inplace(ip::transpose(S * 1.0_c), 1.0_c)))));
  const mat s = arange();
  const std::vector<float> want = plus(values(s), 1);
  CHECK(values(f(s)) == want);
  CHECK(values(f.debug(s)) == want);
  CHECK(values(f(arange())) == want);
  CHECK(values(g(s)) == want);
  CHECK(values(g.debug(s)) == want);
  CHECK(values(s) == values(arange()));
}

// A copy the user made (ip::apply(ip::ops::copy{}, x), ip::copy(x)) is a value
// of its own: an update through a reshape of it, or of a view of it, writes
// that copy, as NumPy's C = S.T.copy(); C[1:5].reshape(2, 8)[:] = -1 writes C.
// Only the copy a graph inserts for a reshape (ip::ops::reshape_copy) is not a
// region of anything (tests/fail/update_region.fail.*).
TEST_CASE("an update through a reshape of a user's copy writes the copy", "[run][views][reshape_copy][update]") {
  constexpr auto C = ip::apply(ip::ops::copy{}, ip::transpose(S));  // S.T.copy(): (6, 4), dense
  constexpr auto D = ip::apply(ip::ops::copy{}, S);
  constexpr auto f = ip::function(
      ip::inputs(S), ip::outputs(ip::set(ip::reshape<2, 8>(ip::view(C, ip::range<1, 5>)), -1.0_c),  // C[1:5].reshape(2, 8)[:] = -1
                                 ip::inc(ip::view(ip::flatten(C), ip::range<0, ip::end, 2>), 100.0_c),  // C.reshape(-1)[::2] += 100
                                 ip::set(ip::flatten(ip::view(D, ip::range<1, 3>)), -1.0_c)));  // S.copy()[1:3].reshape(-1)[:] = -1
  // NumPy 2, S = np.arange(24.).reshape(4, 6)
  const std::vector<float> np_set = {0, 6, 12, 18, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 5, 11, 17, 23};
  const std::vector<float> np_inc = {100, 6,  112, 18, 101, 7,  113, 19, 102, 8,  114, 20,
                                     103, 9,  115, 21, 104, 10, 116, 22, 105, 11, 117, 23};
  const std::vector<float> np_rows = {0, 1, 2, 3, 4, 5, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 18, 19, 20, 21, 22, 23};
  const auto check = [&](const auto& r) {
    const auto& [a, b, c] = r;
    CHECK(a.extent(0) == 6);
    CHECK(a.extent(1) == 4);
    CHECK(values(a) == np_set);
    CHECK(values(b) == np_inc);
    CHECK(values(c) == np_rows);
  };
  const mat s = arange();
  check(f(s));
  check(f.debug(s));
  check(f(arange()));
  CHECK(values(s) == values(arange()));
  // the in-place forms write the copy, never S
  constexpr auto g = ip::function(ip::inputs(S), ip::outputs(ip::inc_inplace(ip::view(ip::flatten(C), ip::range<0, ip::end, 2>), 100.0_c)));
  CHECK(values(g(s)) == np_inc);
  CHECK(values(g.debug(s)) == np_inc);
  CHECK(values(g(arange())) == np_inc);
  CHECK(values(s) == values(arange()));
  STATIC_REQUIRE(ip::plan(g, ip::borrowed).allocations == 1);  // the copy; the update runs in it
}
