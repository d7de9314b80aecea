// ip::copy(x) in graphs: NumPy's x.copy(), JAX's jnp.copy, PyTorch's clone: x's
// elements, row-major, in a buffer of their own, never a view of x, so an
// in-place op or an update of the copy leaves x as it was.
// Expected values: NumPy 2 on S = np.arange(24., dtype=np.float32).reshape(4, 6).
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;

using mat = ip::tensor<float, ip::extents<4, 6>>;
mat arange() {
  mat s;
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<float>(i);
  return s;
}
template <class V>
std::vector<float> values(const V& v) {
  std::vector<float> r;
  for (std::size_t i = 0; i < v.size(); ++i) r.push_back(static_cast<float>(v.data()[i]));  // (results are dense)
  return r;
}
const std::vector<float> np_S = values(arange());
// S.T.copy().reshape(-1)
const std::vector<float> np_T = {0, 6, 12, 18, 1, 7, 13, 19, 2, 8, 14, 20, 3, 9, 15, 21, 4, 10, 16, 22, 5, 11, 17, 23};
}  // namespace

TEST_CASE("ip::copy is a new value in a buffer of its own", "[run][copy]") {
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::copy(S)));
  STATIC_REQUIRE(std::is_same_v<decltype(ip::copy(S))::dtype, float>);
  constexpr ip::shape cs = decltype(ip::copy(S))::value_shape;
  STATIC_REQUIRE((cs.rank == 2 && cs.extent[0] == 4 && cs.extent[1] == 6));
  // one loop into one fresh buffer, S borrowed or donated alike
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).allocations == 1);
  STATIC_REQUIRE(ip::plan(f, ip::donated).allocations == 1);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).loops == 1);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).copies == 0);
  CHECK_THAT(ip::explain(f, ip::borrowed), Catch::Contains("copy(S)") && Catch::Contains("fresh buffer"));
  const mat s = arange();
  auto c = f(s);
  CHECK(c.data() != s.data());
  CHECK(values(c) == np_S);
  CHECK(values(f.debug(s)) == np_S);
  mat d = arange();
  const float* p = d.data();
  auto cd = f(std::move(d));
  CHECK(cd.data() != p);
  CHECK(values(cd) == np_S);
}

TEST_CASE("ip::copy of a view is row-major", "[run][copy]") {
  // S.T.copy(), S[::2, 1::2].copy(), and a reshape of the copy: a view of it, no
  // second copy (NumPy's S.T.copy().reshape(-1) is a view too)
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::copy(ip::transpose(S)),
                                                             ip::copy(ip::view(S, ip::range<0, ip::end, 2>, ip::range<1, ip::end, 2>)),
                                                             ip::flatten(ip::copy(ip::transpose(S)))));
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).allocations == 2);  // (the two copies of S.T are one node)
  const std::string text = ip::explain(f, ip::borrowed);
  CHECK_THAT(text, Catch::Contains("copy(#0)") && Catch::Contains("flatten(#1)") && !Catch::Contains("reshape_copy"));
  const mat s = arange();
  const auto check = [&](const auto& r) {
    const auto& [t, st, flat] = r;
    CHECK(t.extent(0) == 6);
    CHECK(t.extent(1) == 4);
    CHECK(values(t) == np_T);
    CHECK(st.extent(0) == 2);
    CHECK(st.extent(1) == 3);
    CHECK(values(st) == std::vector<float>{1, 3, 5, 13, 15, 17});
    CHECK(values(flat) == np_T);
  };
  check(f(s));
  check(f.debug(s));
  check(f(arange()));
}

TEST_CASE("in-place ops and updates of ip::copy(x) leave x as it was", "[run][copy]") {
  // NumPy: c = S.copy(); c += 1 and d = S.copy(); d[1] = -1 leave S as it was.
  // (ip::copy(S) written twice is one value, as any expression: two in-place
  // ops of it are multiple_destroyers; the pure ip::set copies it again.)
  constexpr auto f = ip::function(
      ip::inputs(S), ip::outputs(ip::add_inplace(ip::copy(S), 1.0_c), ip::set(ip::row<1>(ip::copy(S)), -1.0_c), S));
  std::vector<float> plus1 = np_S, row = np_S;
  for (float& v : plus1) v += 1;
  for (std::size_t i = 6; i < 12; ++i) row[i] = -1;
  const auto check = [&](const auto& r) {
    const auto& [a, b, s] = r;
    CHECK(values(a) == plus1);
    CHECK(values(b) == row);
    CHECK(values(s) == np_S);
  };
  const mat s = arange();
  check(f(s));
  check(f.debug(s));
  CHECK(values(s) == np_S);
  mat d = arange();
  const float* p = d.data();
  const auto r = f(std::move(d));
  check(r);
  const auto& [ra, rb, rs] = r;
  CHECK(rs.data() == p);  // S itself, donated and returned: never written
  // the copy, the add in place of it; the set reads it before the add, so copies it
  STATIC_REQUIRE(ip::plan(f, ip::donated).allocations == 2);
  // c = S.T.copy(); c.reshape(-1)[::3] *= 10: an update through a reshape of the copy writes the copy
  constexpr auto g = ip::function(
      ip::inputs(S), ip::outputs(ip::update<ip::ops::mul>(ip::view(ip::flatten(ip::copy(ip::transpose(S))), ip::range<0, ip::end, 3>), 10.0_c), S));
  const std::vector<float> np_mul = {0, 6, 12, 180, 1, 7, 130, 19, 2, 80, 14, 20, 30, 9, 15, 210, 4, 10, 160, 22, 5, 110, 17, 23};
  const auto [u, su] = g(s);
  CHECK(values(u) == np_mul);
  CHECK(values(su) == np_S);
  const auto [ud, sd] = g.debug(arange());
  CHECK(values(ud) == np_mul);
  CHECK(values(sd) == np_S);
}

TEST_CASE("ip::copy keeps the dtype and fuses with its consumers", "[run][copy]") {
  // I = np.arange(6, dtype=np.int32).reshape(2, 3); c = I.T.copy(); c += 7
  constexpr auto I = ip::input<"I", std::int32_t, ip::extents<2, 3>>;
  constexpr auto f = ip::function(ip::inputs(I), ip::outputs(ip::add_inplace(ip::copy(ip::transpose(I)), 7_c)));
  STATIC_REQUIRE(std::is_same_v<decltype(ip::copy(I))::dtype, std::int32_t>);
  ip::tensor<std::int32_t, ip::extents<2, 3>> x;
  for (std::size_t i = 0; i < 6; ++i) x[i] = static_cast<std::int32_t>(i);
  auto r = f(x);
  CHECK(values(r) == std::vector<float>{7, 10, 8, 11, 9, 12});
  CHECK(values(x) == std::vector<float>{0, 1, 2, 3, 4, 5});
  // an elementwise consumer reads the copy inside its own loop: one loop, one buffer
  constexpr auto g = ip::function(ip::inputs(S), ip::outputs(ip::copy(S) * 2.0_c));
  STATIC_REQUIRE(ip::plan(g, ip::borrowed).allocations == 1);
  STATIC_REQUIRE(ip::plan(g, ip::borrowed).loops == 1);
  std::vector<float> twice = np_S;
  for (float& v : twice) v *= 2;
  CHECK(values(g(arange())) == twice);
}

TEST_CASE("ip::copy of constants and scalars", "[run][copy]") {
  // np.zeros((4, 6)).copy() is writable: an in-place op of it runs in its buffer
  constexpr auto k = ip::scalar<"k", float>;
  constexpr auto f = ip::function(ip::inputs(S, k), ip::outputs(ip::add_inplace(ip::copy(ip::zeros<float, 4, 6>), S), ip::copy(k),
                                                                ip::copy(S) + ip::copy(2.0_c)));
  std::vector<float> plus2 = np_S;
  for (float& v : plus2) v += 2;
  const mat s = arange();
  const auto check = [&](const auto& r) {
    const auto& [a, b, c] = r;
    CHECK(values(a) == np_S);
    CHECK(b() == 4.0f);
    CHECK(values(c) == plus2);
  };
  check(f(s, 4.0f));
  check(f.debug(s, 4.0f));
  check(f(arange(), 4.0f));
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).allocations == 3);
}
