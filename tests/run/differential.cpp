// Differential tests: each graph runs three ways, with its plan (donated and
// borrowed), with ip::no_rewrite, and as a naive loop in double; all agree
// within 1e-5 relative (+1e-6 absolute): float rounding of a few operations.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto A = ip::input<"A", float, 2>;

using ref_t = std::vector<double>;

template <class T>
void agree(const T& got, const ref_t& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    CHECK(std::abs(static_cast<double>(got[i]) - want[i]) <= 1e-5 * std::abs(want[i]) + 1e-6);
}
template <class T>
std::vector<float> copy_of(const T& t) {
  return std::vector<float>(t.begin(), t.end());
}

const ip::tensor<float> vx{0.5f, -1.25f, 2, 0.25f, 3, -2, 1, 0.75f, -0.5f};
const ip::tensor<float> vy{1, 2, -3, 0.5f, 0.25f, 6, -1, 2.5f, 1.5f};
const ip::tensor<float, 2> mA{{1, -2, 0.5f}, {0.25f, 3, -1}, {2, 0, 1.5f}};

double sigmoid(double v) { return 1 / (1 + std::exp(-v)); }
ref_t softmax_rows(const ref_t& v, std::size_t cols) {
  ref_t r(v.size());
  for (std::size_t i = 0; i < v.size(); i += cols) {
    double mx = v[i], s = 0;
    for (std::size_t j = 0; j < cols; ++j) mx = std::max(mx, v[i + j]);
    for (std::size_t j = 0; j < cols; ++j) s += r[i + j] = std::exp(v[i + j] - mx);
    for (std::size_t j = 0; j < cols; ++j) r[i + j] /= s;
  }
  return r;
}
ref_t map2(const ip::tensor<float>& a, const ip::tensor<float>& b, std::function<double(double, double)> f) {
  ref_t r;
  for (std::size_t i = 0; i < a.size(); ++i) r.push_back(f(a[i], b[i]));
  return r;
}

// Runs f and f_pure on (a, b) three ways (plan borrowed, plan donated, no_rewrite), checking output 0.
template <class F, class FP, class... T>
void three_ways(F f, FP f_pure, const ref_t& want, const T&... args) {
  agree(f(args...), want);
  agree(f_pure(args...), want);
  agree(f(T(args)...), want);  // every argument donated (fresh copies)
  // borrowed arguments unchanged
  const std::vector<std::vector<float>> before{copy_of(args)...};
  (void)f(args...);
  const std::vector<std::vector<float>> after{copy_of(args)...};
  CHECK(before == after);
}
}  // namespace

TEST_CASE("elementwise chains, in-place nodes and reuse", "[differential]") {
  const ref_t r1 = map2(vx, vy, [](double a, double b) { return std::tanh(std::exp(a * 0.5 + b) - b) * 2; });
  three_ways(ip::function(ip::inputs(x, y), ip::outputs(ip::tanh(ip::exp(x * 0.5_c + y) - y) * 2.0_c)),
             ip::function(ip::inputs(x, y), ip::outputs(ip::tanh(ip::exp(x * 0.5_c + y) - y) * 2.0_c), ip::no_rewrite),
             r1, vx, vy);
  // the fused-loop rule: mul reads the old x
  const ref_t r2 = map2(vx, vy, [](double a, double b) { return (a + b) * a - sigmoid(b); });
  constexpr auto u = ip::add_inplace(x, y);
  three_ways(ip::function(ip::inputs(x, y), ip::outputs(u * x - ip::sigmoid(y))),
             ip::function(ip::inputs(x, y), ip::outputs(u * x - ip::sigmoid(y)), ip::no_rewrite), r2, vx, vy);
  // max/min/where and n-ary sum
  const ref_t r3 = map2(vx, vy, [](double a, double b) { return std::max(a, b) + std::min(a, 0.0) + (a > 0 ? a : b); });
  three_ways(ip::function(ip::inputs(x, y), ip::outputs(ip::sum(ip::max(x, y), ip::min(x, 0.0_c), ip::where(ip::relu(x), x, y)))),
             ip::function(ip::inputs(x, y), ip::outputs(ip::sum(ip::max(x, y), ip::min(x, 0.0_c), ip::where(ip::relu(x), x, y))),
                          ip::no_rewrite),
             r3, vx, vy);
}

TEST_CASE("opaque kernels between loops", "[differential]") {
  // softmax of an elementwise value, then an elementwise use, then reduce
  ref_t t;
  for (std::size_t i = 0; i < 9; ++i) t.push_back(std::tanh(static_cast<double>(mA[i])) + 1);
  const ref_t s = softmax_rows(t, 3);
  ref_t want;
  for (std::size_t i = 0; i < 9; ++i) want.push_back(s[i] * 3 - 1);
  constexpr auto e = ip::softmax(ip::tanh(A) + 1.0_c) * 3.0_c - 1.0_c;
  three_ways(ip::function(ip::inputs(A), ip::outputs(e)), ip::function(ip::inputs(A), ip::outputs(e), ip::no_rewrite), want,
             mA);
  ref_t rows(3, 0.0);
  for (std::size_t i = 0; i < 9; ++i) rows[i / 3] += want[i];
  three_ways(ip::function(ip::inputs(A), ip::outputs(ip::reduce_sum<1>(e))),
             ip::function(ip::inputs(A), ip::outputs(ip::reduce_sum<1>(e)), ip::no_rewrite), rows, mA);
  // gelu(dot(A, A) + row) and a transposed read
  ref_t d(9, 0.0);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 3; ++k) d[i * 3 + j] += static_cast<double>(mA(i, k)) * mA(k, j);
  ref_t g;
  for (std::size_t i = 0; i < 9; ++i) {
    const double v = d[i] + mA(i % 3, i / 3);  // + transpose(A)
    g.push_back(0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
  }
  constexpr auto dense = ip::gelu(ip::dot(A, A) + ip::transpose(A));
  three_ways(ip::function(ip::inputs(A), ip::outputs(dense)), ip::function(ip::inputs(A), ip::outputs(dense), ip::no_rewrite),
             g, mA);
  // softmax_inplace on an input, read before by a reduction
  ref_t sm = softmax_rows(ref_t(mA.begin(), mA.end()), 3);
  constexpr auto si = ip::function(ip::inputs(A), ip::outputs(ip::softmax_inplace(A), ip::reduce_sum(A)));
  auto [p, total] = si(mA);
  agree(p, sm);
  CHECK(static_cast<float>(total) == Approx(5.25f));
}

TEST_CASE("views inside and around loops", "[differential]") {
  // reverse and slices read beside the value they view
  ref_t want;
  for (std::size_t i = 0; i + 1 < 9; ++i) want.push_back(static_cast<double>(vx[i + 1]) * 2 + vx[7 - i]);
  constexpr auto v = ip::slice<1>(x) * 2.0_c + ip::slice<1>(ip::reverse(x));
  three_ways(ip::function(ip::inputs(x), ip::outputs(v)), ip::function(ip::inputs(x), ip::outputs(v), ip::no_rewrite),
             want, vx);
  // an in-place node over a transposed operand of another input
  ref_t w;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) w.push_back(std::exp(static_cast<double>(mA(i, j)) * 0.5 + mA(j, i)));
  constexpr auto B = ip::input<"B", float, 2>;
  constexpr auto ev = ip::exp_inplace(ip::add_inplace(A * 0.5_c, ip::transpose(B)));
  three_ways(ip::function(ip::inputs(A, B), ip::outputs(ev)), ip::function(ip::inputs(A, B), ip::outputs(ev), ip::no_rewrite),
             w, mA, mA);
}
