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
