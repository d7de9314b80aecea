// Every elementwise op on tensors, views and run-time scalars, against a naive
// loop: contiguous (the flat and SIMD path, with a remainder: 37 elements) and
// strided (every other element of a longer tensor).
#include "naive.hpp"

#include <cmath>
#include <functional>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ip = inplace;

namespace {
constexpr int n = 37;

template <class T, class Expr, class Ref>
void check_unary(Expr expr, Ref ref, double lo, double hi) {
  ip::tensor<T> x(n), r(n);
  naive::fill(x, lo, hi, 1);
  r = expr(x);
  for (int i = 0; i < n; ++i) CHECK(naive::close(r(i), ref(x(i))));
  // strided operand and strided destination
  ip::tensor<T> big(2 * n), out(2 * n);
  naive::fill(big, lo, hi, 2);
  auto even = ip::slice<0, ip::end, 2>(big);
  auto odd_out = ip::slice<1, ip::end, 2>(out);
  odd_out = expr(even);
  for (int i = 0; i < n; ++i) {
    CHECK(naive::close(out(2 * i + 1), ref(big(2 * i))));
    CHECK(out(2 * i) == T(0));
  }
}

template <class T, class Expr, class Ref>
void check_binary(Expr expr, Ref ref, double lo, double hi) {
  ip::tensor<T> a(n), b(n), r(n);
  naive::fill(a, lo, hi, 3);
  naive::fill(b, lo, hi, 4);
  r = expr(a, b);
  for (int i = 0; i < n; ++i) CHECK(naive::close(r(i), ref(a(i), b(i))));
  r = expr(a.view(), ip::reverse(b));
  for (int i = 0; i < n; ++i) CHECK(naive::close(r(i), ref(a(i), b(n - 1 - i))));
  r = expr(a, T(0.75));
  for (int i = 0; i < n; ++i) CHECK(naive::close(r(i), ref(a(i), T(0.75))));
  r = expr(T(0.75), b);
  for (int i = 0; i < n; ++i) CHECK(naive::close(r(i), ref(T(0.75), b(i))));
}
}  // namespace

TEMPLATE_TEST_CASE("arithmetic operators", "[expr][ops]", float, double) {
  using T = TestType;
  check_binary<T>([](auto&& a, auto&& b) { return a + b; }, std::plus<>{}, -3, 3);
  check_binary<T>([](auto&& a, auto&& b) { return a - b; }, std::minus<>{}, -3, 3);
  check_binary<T>([](auto&& a, auto&& b) { return a * b; }, std::multiplies<>{}, -3, 3);
  check_binary<T>([](auto&& a, auto&& b) { return a / b; }, std::divides<>{}, 0.5, 3);
  check_unary<T>([](auto&& a) { return -a; }, std::negate<>{}, -3, 3);
  check_unary<T>([](auto&& a) { return ip::neg(a); }, std::negate<>{}, -3, 3);
}

TEMPLATE_TEST_CASE("transcendental and activation ops", "[expr][ops]", float, double) {
  using T = TestType;
  check_unary<T>([](auto&& a) { return ip::exp(a); }, [](T v) { return std::exp(v); }, -5, 5);
  check_unary<T>([](auto&& a) { return ip::log(a); }, [](T v) { return std::log(v); }, 0.01, 50);
  check_unary<T>([](auto&& a) { return ip::sqrt(a); }, [](T v) { return std::sqrt(v); }, 0, 50);
  check_unary<T>([](auto&& a) { return ip::abs(a); }, [](T v) { return std::abs(v); }, -5, 5);
  check_unary<T>([](auto&& a) { return ip::tanh(a); }, [](T v) { return std::tanh(v); }, -4, 4);
  check_unary<T>([](auto&& a) { return ip::sigmoid(a); }, [](T v) { return T(1) / (T(1) + std::exp(-v)); }, -6, 6);
  check_unary<T>([](auto&& a) { return ip::relu(a); }, [](T v) { return v > 0 ? v : T(0); }, -3, 3);
  check_unary<T>([](auto&& a) { return ip::gelu(a); },
                 [](T v) { return T(0.5) * v * (T(1) + std::erf(v / std::sqrt(T(2)))); }, -4, 4);
}

TEMPLATE_TEST_CASE("min, max, where, sum", "[expr][ops]", float, double) {
  using T = TestType;
  check_binary<T>([](auto&& a, auto&& b) { return ip::min(a, b); }, [](T a, T b) { return std::fmin(a, b); }, -3, 3);
  check_binary<T>([](auto&& a, auto&& b) { return ip::max(a, b); }, [](T a, T b) { return std::fmax(a, b); }, -3, 3);
  check_binary<T>([](auto&& a, auto&& b) { return ip::sum(a, b, a); }, [](T a, T b) { return a + b + a; }, -3, 3);
  ip::tensor<bool> c(n);
  for (int i = 0; i < n; ++i) c(i) = i % 3 == 0;
  ip::tensor<T> a(n), b(n), r(n);
  naive::fill(a, -1, 1, 5);
  naive::fill(b, -1, 1, 6);
  r = ip::where(c, a, b);
  for (int i = 0; i < n; ++i) CHECK(r(i) == (i % 3 == 0 ? a(i) : b(i)));
  r = ip::where(c, a, T(9));
  for (int i = 0; i < n; ++i) CHECK(r(i) == (i % 3 == 0 ? a(i) : T(9)));
}

TEMPLATE_TEST_CASE("min and max propagate NaN, as NumPy's minimum and maximum", "[expr][ops]", float, double) {
  using T = TestType;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  ip::tensor<T> a{nan, 1, 2, nan}, b{1, nan, 3, nan}, r(4);
  r = ip::min(a, b);
  CHECK((std::isnan(r(0)) && std::isnan(r(1)) && r(2) == 2 && std::isnan(r(3))));
  r = ip::max(a, b);
  CHECK((std::isnan(r(0)) && std::isnan(r(1)) && r(2) == 3 && std::isnan(r(3))));
  r = ip::max(a, T(0));
  CHECK((std::isnan(r(0)) && r(1) == 1 && r(2) == 2));
  ip::tensor<int> i{1, 5}, j{4, 2};
  ip::tensor<int> m = ip::min(i, j);
  CHECK((m(0) == 1 && m(1) == 2));
}

TEST_CASE("named arithmetic ops equal the operators", "[expr][ops]") {
  ip::tensor<float> x{1, 2, 3}, y{4, 5, 6};
  ip::tensor<float> r = ip::add(x, y) * ip::sub(y, x) - ip::div(ip::mul(x, 2.0f), y);
  for (int i = 0; i < 3; ++i) CHECK(r(i) == (x(i) + y(i)) * (y(i) - x(i)) - (x(i) * 2.0f) / y(i));
}

TEST_CASE("a fused chain equals the step-by-step computation", "[expr]") {
  ip::tensor<float> x(1000), y(1000), z(1000);
  naive::fill(x, 0, 1, 7);
  naive::fill(y, 0, 1, 8);
  naive::fill(z, 0, 1, 9);
  ip::tensor<float> want(1000);
  for (int i = 0; i < 1000; ++i) want(i) = (x(i) * y(i) + z(i)) * 0.5f - x(i) / (y(i) + 1.0f);
  x = (x * y + z) * 0.5f - x / (y + 1.0f);
  for (int i = 0; i < 1000; ++i) CHECK(naive::close(x(i), want(i)));
}

namespace {
struct cube {  // a user's op: any class with `elementwise` and a scalar kernel
  static constexpr bool elementwise = true;
  template <class A>
  auto operator()(A a) const { return a * a * a; }
};
struct axpb {  // a user's op that opts in to SIMD batches
  static constexpr bool elementwise = true;
  static constexpr bool simd = true;
  template <class A, class B>
  auto operator()(A a, B b) const { return a * A(2) + b; }
};
}  // namespace

TEST_CASE("ip::apply builds a node from any elementwise op class", "[expr][apply]") {
  ip::tensor<double> x{1, 2, 3}, y{10, 20, 30};
  ip::tensor<double> r(3);
  r = ip::apply(cube{}, x);
  CHECK(std::vector<double>(r.begin(), r.end()) == std::vector<double>{1, 8, 27});
  r = ip::apply(axpb{}, x, y);
  CHECK(std::vector<double>(r.begin(), r.end()) == std::vector<double>{12, 24, 36});
  // An op with a destroy_map runs at once, in the storage of the input it destroys.
  auto v = ip::apply(ip::ops::add_inplace{}, x, ip::apply(ip::ops::exp{}, y - y));
  CHECK(v.data() == x.data());
  CHECK(std::vector<double>(x.begin(), x.end()) == std::vector<double>{2, 3, 4});
  ip::apply(ip::inplace<1>(ip::ops::mul{}), 2.0, x);
  CHECK(std::vector<double>(x.begin(), x.end()) == std::vector<double>{4, 6, 8});
  using node = decltype(ip::apply(cube{}, x));
  STATIC_REQUIRE(std::is_same_v<node, ip::detail::texpr::elementwise<cube, ip::tensor_view<const double, 1>>>);
}

TEST_CASE("scalars are weakly typed, as NumPy's Python scalars", "[expr]") {
  ip::tensor<float> x{1, 2};
  auto e = x * 0.1;  // a double beside floats computes in float
  STATIC_REQUIRE(std::is_same_v<decltype(e)::value_type, float>);
  ip::tensor<int> i{1, 2};
  STATIC_REQUIRE(std::is_same_v<decltype(i * 2)::value_type, int>);
  STATIC_REQUIRE(std::is_same_v<decltype(i * 2.5)::value_type, double>);
  ip::tensor<double> r(2);
  r = i * 2.5;
  CHECK(r(1) == 5.0);
  ip::tensor<double> d{1, 2};
  STATIC_REQUIRE(std::is_same_v<decltype(x + d)::value_type, double>);
}

TEST_CASE("expressions own the tensor temporaries they are given", "[expr]") {
  ip::tensor<float> x{1, 2, 3};
  auto e = x + ip::tensor<float>{10, 20, 30};  // the temporary is moved into the node
  ip::tensor<float> r(3);
  r = e;
  CHECK(std::vector<float>(r.begin(), r.end()) == std::vector<float>{11, 22, 33});
}

TEST_CASE("scalars beside bool operands keep their own type; where's condition does not type them", "[expr][dtype]") {
  ip::tensor<bool> b{true, false};
  ip::tensor<int> r(2);
  r = b + 5;  // NumPy: [6 5]
  CHECK((r(0) == 6 && r(1) == 5));
  r = b * 3;
  CHECK((r(0) == 3 && r(1) == 0));
  r = ip::where(b, 5, 7);
  CHECK((r(0) == 5 && r(1) == 7));
  ip::tensor<std::int8_t> c{1, 0};
  r = ip::where(c, 1000, 0);  // the int8 condition does not make 1000 an int8
  CHECK((r(0) == 1000 && r(1) == 0));
  STATIC_REQUIRE(std::is_same_v<decltype(ip::where(c, 1000, 0))::value_type, int>);
  ip::tensor<float> f{1.5f, 2.5f};
  STATIC_REQUIRE(std::is_same_v<decltype(ip::where(b, f, 2.0))::value_type, float>);  // weak beside f
  STATIC_REQUIRE(std::is_same_v<decltype(b + 2.5)::value_type, double>);
}

TEST_CASE("gelu on integers computes in double", "[expr][dtype]") {
  ip::tensor<int> i{7, -7, 0};
  ip::tensor<double> g = ip::gelu(i);
  CHECK(g(0) == Approx(7.0).epsilon(1e-9));
  CHECK(std::abs(g(1)) < 1e-10);
  CHECK(g(2) == 0);
}
