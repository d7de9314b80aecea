// Comparisons of integer (and bool) values with weak constants compare the
// values, as NumPy's: uint8 > -1_c is true everywhere, int8 == 1000_c false,
// int64 < 2^63 true, on tensors (a C++ integer beside a tensor), in graphs in
// a fused loop and in debug mode's reference (every node alone), and where the
// constants fold. Weak floats follow NumPy 2's rule (float64 beside integers,
// float32 beside float32). Values from scripts/gen_comparison_constant_cases.py.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {

// The six comparisons as one code per element: bit j is comparison j (< <= > >= == !=).
template <class X, class C>
constexpr auto codes(X x, C c) {
  return (x < c) * 1_c + (x <= c) * 2_c + (x > c) * 4_c + (x >= c) * 8_c + (x == c) * 16_c + (x != c) * 32_c;
}
template <class T, class V>
std::vector<long long> tensor_codes(const ip::tensor<T>& t, V v) {
  const ip::tensor<bool> r[] = {t < v, t <= v, t > v, t >= v, t == v, t != v};
  std::vector<long long> out(t.size());
  for (std::size_t j = 0; j < 6; ++j)
    for (std::size_t k = 0; k < t.size(); ++k) out[k] |= static_cast<long long>(r[j][k]) << j;
  return out;
}
template <class R>
std::vector<long long> as_vector(const R& r) {
  std::vector<long long> out;
  for (std::size_t k = 0; k < r.size(); ++k) out.push_back(static_cast<long long>(r[k]));
  return out;
}

// A C++ vector's elements as a tensor.
template <class T>
ip::tensor<T> tensor_of(const std::vector<T>& values) {
  ip::tensor<T> a(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) a[k] = values[k];
  return a;
}

// Tensor answers for one dtype and one constant v (a C++ number beside the tensor).
template <class T, class V>
void check(const std::vector<T>& values, V v, const std::vector<long long>& expected) {
  CHECK(tensor_codes(tensor_of(values), v) == expected);
}

// Comparison Op (0 to 5: < <= > >= == !=) of x with the constant C, times the constant W.
template <int Op, class C, class W>
struct row {};
template <int Op, class X, class C, class W>
constexpr auto term(X x, row<Op, C, W>) {
  constexpr C c{};
  if constexpr (Op == 0) return (x < c) * W{};
  else if constexpr (Op == 1) return (x <= c) * W{};
  else if constexpr (Op == 2) return (x > c) * W{};
  else if constexpr (Op == 3) return (x >= c) * W{};
  else if constexpr (Op == 4) return (x == c) * W{};
  else return (x != c) * W{};
}
// One graph summing its rows' terms: one fused loop; in debug mode also every node alone.
template <class T, bool Debug, class... Rows>
void check_graph(const std::vector<T>& values, const std::vector<long long>& expected, Rows... r) {
  constexpr auto x = ip::input<"x", T>;
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::sum(term(x, r)...)));
  const ip::tensor<T> a = tensor_of(values);
  CHECK(as_vector(f(a)) == expected);
  if constexpr (Debug) CHECK(as_vector(f.debug(a)) == expected);
}

}  // namespace

#define ip_unpack(...) __VA_ARGS__
#define ROW(OP, C, W) row<OP, decltype(C), decltype(W)>{}
#define CASE(T, VALUES, CONSTANT, VALUE, CODES) \
  SECTION(#T " vs " #CONSTANT) { check<T>(std::vector<T>{ip_unpack VALUES}, VALUE, {ip_unpack CODES}); }
#define FLOAT_CASE CASE
#define GRAPH(T, VALUES, ROWS, CODES) \
  SECTION("graph: " #T " vs " #ROWS) { check_graph<T, false>(std::vector<T>{ip_unpack VALUES}, {ip_unpack CODES}, ip_unpack ROWS); }
#define DEBUG_GRAPH(T, VALUES, ROWS, CODES) \
  SECTION("graph: " #T " vs " #ROWS) { check_graph<T, true>(std::vector<T>{ip_unpack VALUES}, {ip_unpack CODES}, ip_unpack ROWS); }

TEST_CASE("integers compare with weak constants by value, as NumPy", "[comparisons][constants]") {
#include "comparison_constants_cases.inc"
}

TEST_CASE("NaN beside integers, and int64 beside uint64, compare as NumPy 2's", "[comparisons][constants]") {
  const ip::tensor<std::uint8_t> u{0, 255};
  CHECK(tensor_codes(u, NAN) == std::vector<long long>{32, 32});  // only != is true (a double NaN)
  // int64 beside uint64: exact (NumPy 1.x compares them in float64, where
  // 2^63 - 1 < 2^63 is false; NumPy 2's object-exact answer is kept)
  const ip::tensor<std::int64_t> i{9223372036854775807LL, -1};
  const ip::tensor<std::uint64_t> j{9223372036854775808ULL, 18446744073709551615ULL};
  const ip::tensor<bool> lt = i < j, eq = i == j;
  CHECK(as_vector(lt) == std::vector<long long>{1, 1});
  CHECK(as_vector(eq) == std::vector<long long>{0, 0});
  constexpr auto x = ip::input<"x", std::int64_t>;
  constexpr auto y = ip::input<"y", std::uint64_t>;
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x < y, ip::logical_and(x, 256_c)));
  auto [l, a] = f(i, j);
  CHECK(as_vector(l) == std::vector<long long>{1, 1});
  CHECK(as_vector(a) == std::vector<long long>{1, 1});
  // logical_and of uint8 with 256_c reads 256 (true), not uint8's 0
  constexpr auto v = ip::input<"v", std::uint8_t>;
  constexpr auto g = ip::function(ip::inputs(v), ip::outputs(ip::logical_and(v, 256_c), ip::logical_or(v, 256_c)));
  auto [la, lo] = g(u);
  CHECK(as_vector(la) == std::vector<long long>{0, 1});
  CHECK(as_vector(lo) == std::vector<long long>{1, 1});
  const ip::tensor<bool> lt2 = ip::logical_and(u, 256);
  CHECK(as_vector(lt2) == std::vector<long long>{0, 1});
  // folded: a uint8 constant beside -1_c
  static_assert(decltype(ip::cast<std::uint8_t>(3_c) > -1_c)::value == 1);
  static_assert(decltype(ip::cast<std::uint8_t>(3_c) == 259_c)::value == 0);
}
