// Comparisons and bool values on graphs and tensors alike: x > 0_c is a bool
// value that where() selects with, bool inputs and tensors store one byte per
// element, the logical ops combine comparisons, and the rewrite computes an op
// with a registered variant (sin) in a donated argument's storage.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <type_traits>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto m = ip::input<"m", bool>;
constexpr auto i = ip::input<"i", int>;

template <class V>
std::vector<double> values(const V& v) {
  std::vector<double> r;
  for (std::size_t k = 0; k < v.size(); ++k) r.push_back(static_cast<double>(v[k]));
  return r;
}
}  // namespace

TEST_CASE("where(x > 0_c, x, 0_c) is a relu, on graphs and tensors", "[comparisons]") {
  constexpr auto pos = x > 0_c;
  static_assert(std::is_same_v<decltype(pos)::dtype, bool>);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::where(x > 0_c, x, 0_c), pos));
  ip::tensor<float> a{-1.5f, 0.0f, 2.0f, -0.0f, 3.5f};
  auto [r, p] = f(a);
  static_assert(std::is_same_v<decltype(r)::value_type, float>);
  static_assert(std::is_same_v<decltype(p)::value_type, bool>);
  CHECK(values(r) == std::vector<double>{0, 0, 2, 0, 3.5});
  CHECK(values(p) == std::vector<double>{0, 0, 1, 0, 1});
  ip::tensor<float> t = ip::where(a > 0, a, 0);
  CHECK(values(t) == values(r));
  ip::tensor<bool> b = a > 0.0f;
  CHECK(values(b) == values(p));
}

TEST_CASE("bool inputs and the logical ops", "[comparisons]") {
  constexpr auto f = ip::function(ip::inputs(m, x, y),
                                  ip::outputs(ip::where(ip::logical_and(m, x < y), x, y), ip::logical_not(m),
                                              ip::logical_or(x == y, x != x)));
  ip::tensor<bool> mm{true, false, true, true};
  ip::tensor<float> a{1, 2, 5, NAN}, b{3, 2, 4, 0};
  auto [w, n, o] = f(mm, a, b);
  CHECK(values(w)[0] == 1);
  CHECK(values(w)[1] == 2);
  CHECK(values(w)[2] == 4);
  CHECK(values(w)[3] == 0);
  CHECK(values(n) == std::vector<double>{0, 1, 0, 0});
  CHECK(values(o) == std::vector<double>{0, 1, 0, 1});
  ip::tensor<bool> o2 = ip::logical_or(a == b, a != a);
  CHECK(values(o2) == values(o));
}

TEST_CASE("comparisons of integers with weak constants keep the integer dtype's meaning", "[comparisons]") {
  constexpr auto f = ip::function(ip::inputs(i), ip::outputs(i >= 2_c, i < 2.5_c, ip::cast<float>(i) * 0.5_c));
  ip::tensor<int> a{1, 2, 3};
  auto [ge, lt, h] = f(a);
  CHECK(values(ge) == std::vector<double>{0, 1, 1});
  CHECK(values(lt) == std::vector<double>{1, 1, 0});  // compared in double: 2 < 2.5
  static_assert(std::is_same_v<decltype(h)::value_type, float>);
  CHECK(values(h) == std::vector<double>{0.5, 1, 1.5});
}

TEST_CASE("rank-0 tensors beside numbers compare as numbers; with arrays, elementwise", "[comparisons]") {
  ip::tensor<float> a{1, 2, 3}, b{4, 5, 6};
  CHECK(ip::dot(a, b) == 32);  // a bool: the rank-0 tensor converts to its value
  const auto s = ip::reduce_sum(a);
  CHECK(s < 7);
  ip::tensor<bool> m = a < s;  // a vector beside a rank-0 tensor: elementwise, broadcast
  CHECK(values(m) == std::vector<double>{1, 1, 1});
  ip::tensor<bool, 0> big = (s + 1.0f) > 6.0f;  // an expression of rank 0: elementwise too
  CHECK(static_cast<bool>(big));
}

TEST_CASE("an op with has_inplace is computed in a donated argument's storage", "[comparisons][inplace]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::round(ip::sin(x) * 10.0_c)));
  static_assert(ip::plan(f, ip::donated).allocations == 0);
  static_assert(ip::plan(f, ip::borrowed).allocations == 1);
  ip::tensor<float> a{0.5f, 1.0f, -2.0f};
  const float* old = a.data();
  auto r = f(std::move(a));
  CHECK(r.data() == old);
  CHECK(values(r) == std::vector<double>{5, 8, -9});
}
