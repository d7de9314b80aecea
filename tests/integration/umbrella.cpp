// <inplace.hpp> brings the symbolic ops and the tensor-expression ops under the
// same names; each call must pick its own side, never be ambiguous.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <type_traits>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto A = ip::input<"A", float, 2>;
}  // namespace

TEST_CASE("every overloaded name works on symbols", "[umbrella]") {
  constexpr auto e = ip::sum(ip::exp(x), ip::log(x), ip::sqrt(x), ip::abs(x), ip::tanh(x), ip::sigmoid(x),
                             ip::relu(x), ip::gelu(x), ip::min(x, y), ip::max(x, y), ip::where(x, x, y), -x,
                             ip::neg(x), x + y, x - y, x * y, x / y, ip::apply(ip::ops::exp{}, y));
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(e)).ok);
  constexpr auto v = ip::sum(ip::flatten(ip::transpose(A)), ip::reverse(ip::flatten(A)),
                             ip::slice<1>(ip::flatten(A)), ip::reinterpret<float>(ip::flatten(A)),
                             ip::flatten(ip::reshape<2, 2>(A)));
  STATIC_REQUIRE(ip::check(ip::inputs(A), ip::outputs(v)).ok);
}

TEST_CASE("the opaque ops work on symbols", "[umbrella]") {
  constexpr auto d = ip::dot(ip::softmax(A), ip::dot(A, x));
  constexpr auto s = ip::sum(ip::reduce_sum<0>(A), ip::reduce_sum<1>(A), ip::reduce_sum(x));
  constexpr auto i = ip::softmax_inplace(ip::exp(A));  // destroys an intermediate
  STATIC_REQUIRE(ip::check(ip::inputs(x, A), ip::outputs(d, s, i)).ok);
}

TEST_CASE("every overloaded name works on tensors", "[umbrella]") {
  ip::tensor<float> a{1.0f, 2.0f, 3.0f, 4.0f};
  ip::tensor<float> b{4.0f, 3.0f, 2.0f, 1.0f};
  ip::tensor<float> r(4);
  r = ip::sum(ip::exp(a), ip::log(a), ip::sqrt(a), ip::abs(a), ip::tanh(a), ip::sigmoid(a), ip::relu(a),
              ip::gelu(a), ip::min(a, b), ip::max(a, b), ip::where(a, a, b), -a, ip::neg(a), a + b, a - b, a * b,
              a / b, ip::apply(ip::ops::exp{}, b));
  for (int i = 0; i < 4; ++i) {
    const float p = a[i], q = b[i];
    const float expect = std::exp(p) + std::log(p) + std::sqrt(p) + std::abs(p) + std::tanh(p) +
                         1.0f / (1.0f + std::exp(-p)) + p + 0.5f * p * (1.0f + std::erf(p / std::sqrt(2.0f))) +
                         std::fmin(p, q) + std::fmax(p, q) + p - p - p + (p + q) + (p - q) + p * q + p / q +
                         std::exp(q);
    CHECK(r[i] == Approx(expect).epsilon(1e-5));
  }
  ip::tensor<float, 2> m(2, 2);
  m(0, 0) = 1, m(0, 1) = 2, m(1, 0) = 3, m(1, 1) = 4;
  ip::tensor<float, 2> t(2, 2);
  t = ip::transpose(m);
  CHECK(t(0, 1) == 3);
  ip::tensor<float> s(3);
  s = ip::slice<1>(ip::reverse(a));
  CHECK(s[0] == 3);
  CHECK(ip::flatten(m)[3] == 4);
  CHECK(ip::reshape<4>(m)[2] == 3);
  CHECK(ip::reinterpret<float>(a)[1] == 2);
}

TEST_CASE("the opaque ops work on tensors", "[umbrella]") {
  ip::tensor<float, 2> m{{1, 2}, {3, 4}};
  ip::tensor<float> v{1, 1};
  CHECK(ip::dot(m, v)(1) == 7);
  CHECK(ip::dot(v, v) == 2);  // a rank-0 tensor reads as its element
  CHECK(ip::reduce_sum(m) == 10);
  CHECK(ip::reduce_sum<0>(m)(1) == 6);
  CHECK(ip::softmax(v)(0) == 0.5f);
  ip::softmax_inplace(v);
  CHECK(v(1) == 0.5f);
}
