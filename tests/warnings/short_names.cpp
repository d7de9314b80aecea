// Compiled (not run) by CTest with -Wall -Wextra -Wpedantic -Wshadow -Wconversion
// -Wsign-conversion -Werror, with g++ and clang++: the headers must stay
// warning-free in a user file whose globals have the short names the library's
// own parameters use (a, b, e, f, i, n, r, s, v, x, ...), through graphs,
// calls, plans, tensor expressions, views, aliases and the opaque kernels.
#include <inplace.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

int a = 0, b = 0, c = 0, d = 0, e = 0, g = 0, h = 0, i = 0, j = 0, k = 0, l = 0, m = 0, n = 0, o = 0, p = 0, q = 0,
    s = 0, t = 0, u = 0, w = 0, z = 0;
std::size_t N = 0, I = 0, K = 0, M = 0;

constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto alpha = ip::scalar<"alpha", float>;
constexpr auto v = ip::add_inplace(x, y);
constexpr auto r = ip::mul(v, x);
constexpr auto f = ip::function(ip::inputs(x, y, alpha), ip::outputs(r, ip::exp(ip::slice<1>(y)) * alpha));
constexpr auto F = ip::function(ip::inputs(A, alpha), ip::outputs(ip::softmax(ip::dot(A, ip::transpose(A)) * alpha),
                                                                  ip::reduce_sum<0>(A), ip::reduce_sum(A)));
constexpr auto H = ip::function(ip::inputs(x), ip::outputs(ip::relu(x) + 1.0_c), ip::io_alias<0, 0>(ip::may_alias));
constexpr auto T = ip::function(ip::inputs(A), ip::outputs(ip::transpose(ip::exp(A))));  // returns an ip::kept_view
static_assert(ip::position(f, v) < ip::position(f, r));
static_assert(ip::check(ip::inputs(x, y), ip::outputs(r)).ok);
static_assert(ip::plan(f, ip::donated, ip::borrowed).allocations <= 3);

float run_graphs() {
  ip::tensor<float> xs{1, 2, 3, 4}, ys{5, 6, 7, 8};
  auto [r1, r2] = f(xs, ys, 2.0f);
  auto [s1, s2, s3] = F(ip::tensor<float, 2>{{1, 2}, {3, 4}}, 0.5f);
  auto h1 = H(std::move(xs));
  auto t1 = T(ip::tensor<float, 2>{{1, 2}, {3, 4}});
  return r1(0) + r2(0) + s1(0, 0) + s2(0) + s3() + h1(0) + t1(0, 1);
}

float run_tensors() {
  ip::tensor<float> xs{1, 2, 3, 4}, ys{5, 6, 7, 8};
  ip::tensor<int> is{1, 2, 3, 4};
  ip::tensor<double, 2> B{{1, 2}, {3, 4}};
  xs = 2.0f * xs + ys;
  xs += ip::exp(ys) - ip::sqrt(ys) / ip::tanh(ys);
  is = is * 2 + is;
  ip::slice<1>(xs) = ip::slice<0, -1>(xs);
  ip::noalias(ys) = ys + ip::reverse(xs);
  ip::add_inplace(xs, ys);
  ip::relu_inplace(xs);
  B = B + ip::transpose(B);
  auto sm = ip::softmax(B);
  auto dt = ip::dot(B, B);
  auto rs = ip::reduce_sum<1>(B);
  auto fl = ip::flatten(B);
  auto rv = ip::reinterpret<std::int32_t>(xs);
  auto al = ip::alias<float>(ys, 2, 2);
  auto rh = ip::reshape(xs, 2, 2);
  ip::tensor<std::int16_t, 2> I16{{1, 2}, {3, 4}};  // integer sums: strided, by rows, every element, int64
  const std::int64_t isum = ip::reduce_sum(I16)() + ip::reduce_sum<0>(I16)(1) + ip::reduce_sum<1>(ip::transpose(I16))(0) +
                            ip::reduce_prod<0>(I16)(0) + ip::reduce_sum(is)();
  float total = static_cast<float>(isum);
  for (float value : xs) total += value;
  return total + static_cast<float>(sm(0, 0) + dt(0, 0) + rs(0) + fl(0)) + static_cast<float>(rv(0)) + al(0, 0) +
         rh(1, 1) + static_cast<float>(is(0));
}
