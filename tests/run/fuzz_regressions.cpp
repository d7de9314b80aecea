// Wrong values found while fuzzing against NumPy (scripts/gen_numpy_fuzz.py
// and probes beside it), each minimised, with NumPy's values written out.
//
// exp near the ends of its range. xsimd 8's exp gave inf for float above 88.376
// (float's largest finite exp is at 88.7228: np.exp(np.float32(88.5)) is
// 2.72e38) and 0 wherever the result is subnormal (np.exp(np.float32(-87.7)) is
// 8.17e-39, np.exp(-745.0) 5e-324), on the lanes of a SIMD loop only: the
// scalar tail of the same loop gave NumPy's values. sigmoid reads the same exp
// (1 / (1 + exp(88.5f)) is 3.67e-39, not 0). 16 floats and 8 doubles fill whole
// batches under SSE, AVX and AVX-512.
//
// log of a subnormal double. xsimd 8's double log gave log(7.4e-309) = -746.2
// (np.log: -709.5) on SIMD lanes; found by the same sweep.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

namespace {

constexpr std::array<float, 16> xs = {88.5f, 88.7f, 88.72f, 88.4f, -87.7f, -100.0f, -103.0f, 1.0f,
                                      88.5f, -87.5f, 0.5f,   -88.0f, 88.0f, 88.3f,   2.0f,    88.6f};
// np.exp(xs.astype(np.float32))
constexpr std::array<float, 16> exp_xs = {
    2.723087715188732e+38f, 3.325977067230781e+38f, 3.3931803975633284e+38f, 2.4639553907864616e+38f,
    8.172882716583347e-39f, 3.783505853677006e-44f, 1.401298464324817e-45f,  2.7182819843292236f,
    2.723087715188732e+38f, 9.982351397596697e-39f, 1.6487212181091309f,     6.054601485195952e-39f,
    1.6516362661361307e+38f, 2.229482622804407e+38f, 7.3890557289123535f,    3.0094729049031413e+38f};
// 1 / (1 + np.exp(xs.astype(np.float32))): sigmoid(-xs)
constexpr std::array<float, 16> sigmoid_neg_xs = {
    3.672301610145117e-39f, 3.006635794144578e-39f, 2.947087615903095e-39f, 4.0585148811961444e-39f,
    1.0f, 1.0f, 1.0f, 0.26894140243530273f,
    3.672301610145117e-39f, 1.0f, 0.3775406777858734f, 1.0f,
    6.054601485195952e-39f, 4.485346189534091e-39f, 0.11920293420553207f, 3.3228415952164014e-39f};

constexpr std::array<double, 8> ys = {-708.9, -720.0, -745.0, 709.5, 1.0, -708.5, 0.25, -740.0};
// np.exp(ys)
constexpr std::array<double, 8> exp_ys = {1.344750699263295e-308, 2.0322308024e-313,      5e-324, 1.3549863193146328e+308,
                                          2.718281828459045,      2.006132305331306e-308, 1.2840254166877414, 4.2e-322};

constexpr std::array<double, 8> zs = {7.41691286169067e-309, 5e-324, 2.1729236899484e-311, 1.5e-323, 1.0, 0.5, 1e-300, 2.0};
// np.log(zs)
constexpr std::array<double, 8> log_zs = {-709.4950308209322, -744.4400719213812, -715.3278903378636, -743.3414596327132,
                                          0.0,                -0.6931471805599453, -690.7755278982137, 0.6931471805599453};

// Within 4 ulps of NumPy's value, or 4 of the smallest subnormal.
template <class T, std::size_t N>
bool near(const T& got, const std::array<typename T::value_type, N>& want) {
  using V = typename T::value_type;
  if (got.size() != N) return false;
  for (std::size_t i = 0; i < N; ++i) {
    const V g = got[i], w = want[i];
    const V tol = 4 * std::numeric_limits<V>::epsilon() * std::abs(w) + 4 * std::numeric_limits<V>::denorm_min();
    if (!(std::abs(g - w) <= tol)) {
      UNSCOPED_INFO("element " << i << ": got " << g << ", NumPy " << w);
      return false;
    }
  }
  return true;
}

template <class V, std::size_t N>
ip::tensor<V> tensor_of(const std::array<V, N>& a) {
  ip::tensor<V> t(N);
  for (std::size_t i = 0; i < N; ++i) t[i] = a[i];
  return t;
}

constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", double>;

}  // namespace

TEST_CASE("exp and sigmoid near the ends of the float and double ranges, on SIMD lanes", "[run][fuzz_regressions]") {
  const ip::tensor<float> tx = tensor_of(xs);
  const ip::tensor<double> ty = tensor_of(ys);
  SECTION("tensors") {
    CHECK(near(ip::tensor<float>(ip::exp(tx)), exp_xs));
    CHECK(near(ip::tensor<double>(ip::exp(ty)), exp_ys));
    CHECK(near(ip::tensor<float>(ip::sigmoid(-tx)), sigmoid_neg_xs));
    ip::tensor<float> e = tx;
    ip::exp_inplace(e);
    CHECK(near(e, exp_xs));
  }
  SECTION("graphs: borrowed, donated, debug mode") {
    constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::exp(x), ip::exp(y), ip::sigmoid(-x)));
    auto check = [](const auto& r) {
      CHECK(near(std::get<0>(r), exp_xs));
      CHECK(near(std::get<1>(r), exp_ys));
      CHECK(near(std::get<2>(r), sigmoid_neg_xs));
    };
    check(f(tx, ty));
    ip::tensor<float> dx = tx;
    ip::tensor<double> dy = ty;
    check(f(std::move(dx), std::move(dy)));
    check(f.debug(tx, ty));
    constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::exp_inplace(x)));
    ip::tensor<float> gx = tx;
    CHECK(near(g(std::move(gx)), exp_xs));
  }
}

TEST_CASE("log of subnormal doubles, on SIMD lanes", "[run][fuzz_regressions]") {
  const ip::tensor<double> tz = tensor_of(zs);
  CHECK(near(ip::tensor<double>(ip::log(tz)), log_zs));
  constexpr auto f = ip::function(ip::inputs(y), ip::outputs(ip::log(y)));
  CHECK(near(f(tz), log_zs));
  CHECK(near(f.debug(tz), log_zs));
  constexpr auto g = ip::function(ip::inputs(y), ip::outputs(ip::log_inplace(y)));
  ip::tensor<double> dz = tz;
  CHECK(near(g(std::move(dz)), log_zs));
}
