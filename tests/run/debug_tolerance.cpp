// Debug mode never rejects a correct call: a contraction (a * b + c as one
// FMA), a value kept unrounded in a fused loop, a sum in another order differ
// from the pure reference by rounding errors of the terms, which cancellation
// makes large against the result. Debug mode judges them against the
// reference rounded upward and downward, and still catches wrong values of
// the same size as those rounding errors would be only if nothing cancelled.
#include "debug_message.hpp"
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;
using Catch::Matchers::Contains;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto xd = ip::input<"xd", double>;
constexpr auto yd = ip::input<"yd", double>;


template <class T>
ip::tensor<T> random_tensor(std::size_t n, T lo, T hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<T> d(lo, hi);
  ip::tensor<T> t(n);
  for (std::size_t i = 0; i < n; ++i) t(i) = d(gen);
  return t;
}
}  // namespace

namespace tolerance_ops {
// 3 v + 3 rounded twice, and its in-place variant contracted into one FMA (what
// -march=native makes of a fused loop's x * 3 + 3): exact where the op is not.
struct affine {
  static constexpr std::string_view name = "affine";
  static constexpr bool elementwise = true;
  template <class T>
  T operator()(T v) const {
    volatile T p = v * T(3);  // (volatile: rounded, whatever the compiler contracts)
    return p + T(3);
  }
};
struct affine_fma {
  static constexpr std::string_view name = "affine_fma";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
  template <class T>
  T operator()(T v) const {
    return std::fma(v, T(3), T(3));
  }
};
// The same op with a lying variant: off by 1e-4 where the result is about 1e-4.
struct affine2 {
  static constexpr std::string_view name = "affine2";
  static constexpr bool elementwise = true;
  template <class T>
  T operator()(T v) const {
    volatile T p = v * T(3);
    return p + T(3);
  }
};
struct affine2_wrong {
  static constexpr std::string_view name = "affine2_wrong";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
  template <class T>
  T operator()(T v) const {
    return v * T(3) + T(3.0001);
  }
};

constexpr ip::shape same_shape(const std::array<ip::shape, 1>& in) { return in[0]; }
// Running sums, one term after the other; its variant sums in the input's
// storage with compensation (Kahan): another association of the same terms.
struct running_sum {
  static constexpr std::string_view name = "running_sum";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return same_shape(in); }
  template <class Out, class In>
  void kernel(const Out& out, const In& in) const {
    typename Out::value_type s = 0;
    for (std::size_t i = 0; i < in.extent(0); ++i) out(i) = s = s + in(i);
  }
};
struct running_sum_kahan {
  static constexpr std::string_view name = "running_sum_kahan";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return same_shape(in); }
  template <class Out, class In>
  void kernel(const Out& out, const In&) const {
    using T = typename Out::value_type;
    volatile T s = 0, c = 0;  // (volatile: no reassociation of the compensation away)
    for (std::size_t i = 0; i < out.extent(0); ++i) {
      const T t = out(i) - c;
      const T u = s + t;
      c = (u - s) - t;
      s = u;
      out(i) = s;
    }
  }
};
}  // namespace tolerance_ops
using namespace tolerance_ops;

template <>
struct ip::inplace_variant_traits<affine, 0> {
  using type = affine_fma;
};
template <>
struct ip::inplace_variant_traits<affine2, 0> {
  using type = affine2_wrong;
};
template <>
struct ip::inplace_variant_traits<running_sum, 0> {
  using type = running_sum_kahan;
};

TEST_CASE("a contracted x * 3 + 3 is the reference up to rounding", "[run][debug]") {
  // the call (x donated) runs the FMA variant; the reference rounds the product
  // first: 8.69035721e-05 against 8.67843628e-05 at x = -0.99997103
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(affine{}, x)));
  static_assert(ip::plan(f, ip::donated).in_place == 1);
  ip::tensor<float> a(33);
  for (std::size_t i = 0; i < a.size(); ++i) a(i) = -0.99997103f + static_cast<float>(i) * 1e-7f;
  const auto want = f(a);                      // borrowed: the op, rounded twice
  const auto got = f.debug(ip::tensor<float>(a.view()));  // donated: the FMA
  CHECK(got(0) != want(0));
  CHECK(got(0) == std::fma(a(0), 3.0f, 3.0f));
  CHECK(values(f.debug(a)) == values(want));  // the variant is checked against the op: no alarm either

  // the same numbers through the library's own fused loop, in double and float
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(x * 3.0_c + 3.0_c));
  CHECK(values(g.debug(a)) == values(g(a)));
  constexpr auto gd = ip::function(ip::inputs(xd), ip::outputs(xd * 3.0_c + 3.0_c - xd * 3.0_c));
  ip::tensor<double> b(33);
  for (std::size_t i = 0; i < b.size(); ++i) b(i) = -0.99997103 + static_cast<double>(i) * 1e-9;
  CHECK(values(gd.debug(std::move(b))).size() == 33);
}

TEST_CASE("a wrong result is caught where the result cancels", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(affine2{}, x)));
  ip::tensor<float> a{-0.99997103f, -0.99997f};
  CHECK_THAT(debug_message([&] { (void)f.debug(a); }), Contains("its in-place variant affine2_wrong"));
  // and the output check on its own: the donated call runs the lie
  CHECK_THAT(debug_message([&] { (void)f.debug(ip::tensor<float>(a.view())); }), Contains("affine2_wrong"));
}

TEST_CASE("running sums of many cancelling terms, summed in another order", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(running_sum{}, ip::exp(x) - 1.5_c)));
  // 20000 terms between -0.5 and 1.2: the sums wander around 0 and lose most digits
  const auto a = random_tensor<float>(20000, -1.0f, 0.2f, 7);
  const auto want = f(a);
  CHECK(values(f.debug(a)) == values(want));
  const auto got = f.debug(ip::tensor<float>(a.view()));  // donated: the compensated variant
  CHECK(got.size() == 20000);
  constexpr auto fd = ip::function(ip::inputs(xd), ip::outputs(ip::apply(running_sum{}, ip::exp(xd) - 1.5_c)));
  const auto b = random_tensor<double>(20000, -1.0, 0.2, 8);
  CHECK(fd.debug(b).size() == 20000);
  CHECK(fd.debug(ip::tensor<double>(b.view())).size() == 20000);
}

TEST_CASE("reductions of many terms with cancellation", "[run][debug]") {
  constexpr auto A = ip::input<"A", float, 2>;
  constexpr auto f = ip::function(
      ip::inputs(x, y, A),
      ip::outputs(ip::reduce_sum(x * y - y * x + x * 1e-3_c), ip::reduce_sum<1>(ip::exp(A) - 1.0_c - A),
                  ip::dot(A, x - y) - ip::dot(A, x)));
  const auto a = random_tensor<float>(4096, -1000.0f, 1000.0f, 1);
  const auto b = random_tensor<float>(4096, -1000.0f, 1000.0f, 2);
  ip::tensor<float, 2> m(64, 4096);
  const auto r = random_tensor<float>(64 * 4096, -1e-3f, 1e-3f, 3);
  for (std::size_t i = 0; i < 64; ++i)
    for (std::size_t j = 0; j < 4096; ++j) m(i, j) = r(i * 4096 + j);
  auto [s, t, u] = f.debug(a, b, m);
  double want = 0;  // x * y - y * x is 0: the sum of x / 1000
  for (std::size_t i = 0; i < a.size(); ++i) want += static_cast<double>(a(i)) * static_cast<double>(1e-3f);
  CHECK(static_cast<float>(s) == Approx(want).epsilon(1e-3));
  CHECK(t.size() == 64);
  CHECK(u.size() == 64);
  auto [s2, t2, u2] = f.debug(ip::tensor<float>(a.view()), ip::tensor<float>(b.view()), m);
  CHECK(values(t2) == values(t));
}

TEST_CASE("tanh_inplace and div_inplace followed by exp", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x, yd), ip::outputs(ip::exp(ip::tanh_inplace(x)) * yd - yd,
                                                                   ip::exp(ip::div_inplace(yd, 7.0_c)) - 1.0_c));
  const auto a = random_tensor<float>(1000, -3.0f, 3.0f, 4);
  const auto b = random_tensor<double>(1000, -1e-6, 1e-6, 5);
  auto [p, q] = f.debug(a, b);
  auto [p2, q2] = f.debug(ip::tensor<float>(a.view()), ip::tensor<double>(b.view()));
  for (std::size_t i = 0; i < 1000; ++i) {
    const double e = std::exp(static_cast<double>(std::tanh(a(i)))) * b(i) - b(i);
    CHECK(std::fabs(p(i) - e) <= 1e-6 * std::fabs(b(i)) + 1e-20);
    CHECK(std::fabs(q(i) - std::expm1(b(i) / 7)) <= 4e-16);  // (exp(z) - 1: an ulp of 1)
    CHECK(p2(i) == Approx(p(i)).epsilon(1e-5));
  }
  constexpr auto g = ip::function(ip::inputs(xd, yd), ip::outputs(ip::exp(ip::div_inplace(xd, yd)) - ip::exp(yd)));
  const auto c = random_tensor<double>(1000, -2.0, 2.0, 6);
  const auto d = random_tensor<double>(1000, 0.5, 2.0, 7);
  CHECK(g.debug(c, d).size() == 1000);
  CHECK(g.debug(ip::tensor<double>(c.view()), d).size() == 1000);
}
