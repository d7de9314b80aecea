// Elementwise user ops of several outputs: operator() returns a tuple (std::tuple,
// std::pair, std::array), output I being element I. Such a node runs as a loop of
// its own, broadcasting NumPy-style, with registered in-place variants over any
// input. Every graph runs under every donation pattern and with ip::no_rewrite,
// against a naive reference, with borrowed arguments checked unchanged,
// allocations checked against ip::plan, and in debug mode (no alarm).
#include "../tensor/allocations.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;

namespace user_ew {
template <int O, int... J>
constexpr auto entry = hana::make_pair(hana::int_c<O>, hana::tuple_c<int, J...>);

struct sum_diff {  // (a + b, a - b), as a std::tuple
  static constexpr std::string_view name = "sum_diff";
  static constexpr bool elementwise = true;
  static constexpr std::size_t num_outputs = 2;
  constexpr auto operator()(auto a, auto b) const { return std::tuple{a + b, a - b}; }
};
// Its variant over input 1: output 1 (a - b) in b's storage.
struct sum_diff_in_b : sum_diff {
  static constexpr std::string_view name = "sum_diff_in_b";
  static constexpr auto destroy_map = hana::make_map(entry<1, 1>);
};

struct divmod {  // (floor(a / b), a - b floor(a / b)), as a std::pair
  static constexpr std::string_view name = "divmod";
  static constexpr bool elementwise = true;
  static constexpr std::size_t num_outputs = 2;
  template <class T>
  constexpr std::pair<T, T> operator()(T a, T b) const {
    const T q = std::floor(a / b);
    return {q, a - b * q};
  }
};

struct three {  // (a * b, a + c, b - c), as a std::array
  static constexpr std::string_view name = "three";
  static constexpr bool elementwise = true;
  static constexpr std::size_t num_outputs = 3;
  template <class T>
  constexpr std::array<T, 3> operator()(T a, T b, T c) const {
    return {a * b, a + c, b - c};
  }
};
struct three_in_b : three {  // output 2 (b - c) in b's storage
  static constexpr std::string_view name = "three_in_b";
  static constexpr auto destroy_map = hana::make_map(entry<2, 1>);
};
}  // namespace user_ew
using namespace user_ew;

template <>
struct ip::inplace_variant_traits<sum_diff, 0> {
  using type = ip::ops::inplace_op<sum_diff, 0>;  // output 0 in a's storage
};
template <>
struct ip::inplace_variant_traits<sum_diff, 1> {
  using type = sum_diff_in_b;
};
template <>
struct ip::inplace_variant_traits<three, 0> {
  using type = ip::ops::inplace_op<three, 0>;
};
template <>
struct ip::inplace_variant_traits<three, 1> {
  using type = three_in_b;
};

namespace {
using values_t = std::vector<std::vector<double>>;  // each output's (or input's) elements, row-major

template <class T>
std::vector<double> elements(const T& t) {
  std::vector<double> r;
  for (std::size_t i = 0; i < t.size(); ++i) r.push_back(static_cast<double>(t[i]));
  return r;
}
template <class T>
struct is_tuple : std::false_type {};
template <class... T>
struct is_tuple<std::tuple<T...>> : std::true_type {};

template <class R>
values_t outputs_of(const R& r) {
  if constexpr (is_tuple<R>::value) return std::apply([](const auto&... o) { return values_t{elements(o)...}; }, r);
  else return {elements(r)};
}
template <bool Donated, class T>
std::conditional_t<Donated, T&&, T&> pass(T& t) {
  return static_cast<std::conditional_t<Donated, T&&, T&>>(t);
}
template <bool Donated>
constexpr auto marker() {
  if constexpr (Donated) return ip::donated;
  else return ip::borrowed;
}
template <std::uint64_t M, std::size_t K>
constexpr bool bit = ((M >> K) & 1u) != 0;

void compare(const values_t& got, const values_t& want, const char* what) {
  INFO(what);
  REQUIRE(got.size() == want.size());
  for (std::size_t o = 0; o < got.size(); ++o) {
    INFO("output " << o);
    REQUIRE(got[o].size() == want[o].size());
    for (std::size_t i = 0; i < got[o].size(); ++i) CHECK(got[o][i] == Approx(want[o][i]).epsilon(1e-6).margin(1e-6));
  }
}

template <std::uint64_t M, class F, class... T, std::size_t... K>
void run_pattern(F f, const std::tuple<T...>& inputs, const values_t& want, std::index_sequence<K...>) {
  INFO("donation mask " << M);
  constexpr ip::plan_result p = ip::plan(f, marker<bit<M, K>>()...);
  std::tuple<T...> args = inputs;
  const int before = allocations::aligned();
  values_t got;
  {
    auto r = f(pass<bit<M, K>>(std::get<K>(args))...);
    CHECK(allocations::aligned() - before == static_cast<int>(p.allocations));
    CHECK(ip::detail::run::last_call_counts.allocations == p.allocations);
    got = outputs_of(r);
  }
  compare(got, want, "the call");
  ((bit<M, K> ? void() : compare({elements(std::get<K>(args))}, {elements(std::get<K>(inputs))}, "a borrowed argument")),
   ...);
  if constexpr (M == 0 || M + 1 == (std::uint64_t{1} << sizeof...(T))) {  // debug mode: all borrowed, all donated
    std::tuple<T...> dargs = inputs;
    compare(outputs_of(f.debug(pass<bit<M, K>>(std::get<K>(dargs))...)), want, "debug mode");
  }
}
template <class F, class... T, std::uint64_t... M>
void run_all(F f, const std::tuple<T...>& inputs, const values_t& want, std::integer_sequence<std::uint64_t, M...>) {
  (run_pattern<M>(f, inputs, want, std::index_sequence_for<T...>{}), ...);
}
template <class F, class G, class... T>
void check_everywhere(F f, G g, const std::tuple<T...>& inputs, const std::function<values_t(const values_t&)>& ref) {
  const values_t want = ref(std::apply([](const auto&... t) { return values_t{elements(t)...}; }, inputs));
  constexpr auto masks = std::make_integer_sequence<std::uint64_t, (1u << sizeof...(T))>{};
  run_all(f, inputs, want, masks);
  {
    INFO("ip::no_rewrite");
    run_all(g, inputs, want, masks);
  }
}
#define CHECK_EVERYWHERE(IN, OUT, ARGS, ...) \
  check_everywhere(ip::function(IN, OUT), ip::function(IN, OUT, ip::no_rewrite), ARGS, __VA_ARGS__)

// The reference: x is 3x4, y has 4 elements (broadcast over x's rows), z is 4x3
// (its transpose is 3x4). Elementwise maps over 12 elements, row-major.
constexpr std::size_t rows = 3, cols = 4;
std::vector<double> bcast_row(const std::vector<double>& v) {  // (4) -> (3, 4)
  std::vector<double> r(rows * cols);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = v[i % cols];
  return r;
}
std::vector<double> transposed(const std::vector<double>& z) {  // (4, 3) -> (3, 4)
  std::vector<double> r(rows * cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) r[i * cols + j] = z[j * rows + i];
  return r;
}
template <class F>
std::vector<double> zipf(const std::vector<double>& a, const std::vector<double>& b, F op) {
  std::vector<double> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = op(a[i], b[i]);
  return r;
}
template <class F>
std::vector<double> mapf(const std::vector<double>& a, F op) {
  std::vector<double> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = op(a[i]);
  return r;
}
const auto plus = [](double a, double b) { return a + b; };
const auto minus = [](double a, double b) { return a - b; };
const auto times = [](double a, double b) { return a * b; };

constexpr auto x = ip::input<"x", float, 2>;
constexpr auto y = ip::input<"y", float, 1>;
constexpr auto z = ip::input<"z", float, 2>;
constexpr auto w = ip::input<"w", float, 2>;
const ip::tensor<float, 2> vx{{0.5f, -1, 2, 0.25f}, {3, 1.5f, -2, 4}, {-0.75f, 6, 1, -3}};
const ip::tensor<float> vy{1, 2, -0.5f, 4};
const ip::tensor<float, 2> vz{{1, 2, 3}, {-1, 0.5f, 2}, {4, -2, 1}, {0.25f, 8, -4}};
const ip::tensor<float, 2> vw{{2, 1, -1, 0.5f}, {1, 4, 2, -2}, {-3, 0.5f, 1, 2}};
}  // namespace

TEST_CASE("an elementwise op of two outputs broadcasts and feeds built-in ops", "[run][user_ops_elementwise]") {
  constexpr auto sd = ip::apply(sum_diff{}, x, y);  // y broadcast over x's rows
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(hana::at_c<0>(sd), hana::at_c<1>(sd)), std::tuple(vx, vy),
                   [](const values_t& in) {
                     const auto b = bcast_row(in[1]);
                     return values_t{zipf(in[0], b, plus), zipf(in[0], b, minus)};
                   });
  // outputs read by fused built-in ops, a reduction, and a weak constant operand
  constexpr auto sd2 = ip::apply(sum_diff{}, x * 2.0_c, 0.5_c);
  CHECK_EVERYWHERE(ip::inputs(x, y),
                   ip::outputs(hana::at_c<0>(sd2) * hana::at_c<1>(sd2) + y, ip::reduce_sum(ip::exp(hana::at_c<1>(sd2)))),
                   std::tuple(vx, vy), [](const values_t& in) {
                     const auto x2 = mapf(in[0], [](double a) { return 2 * a; });
                     const auto s = mapf(x2, [](double a) { return a + 0.5; }), d = mapf(x2, [](double a) { return a - 0.5; });
                     double r = 0;
                     for (double e : d) r += std::exp(e);
                     return values_t{zipf(zipf(s, d, times), bcast_row(in[1]), plus), {r}};
                   });
  // a view as an input: z's transpose
  constexpr auto st = ip::apply(sum_diff{}, ip::transpose(z), x);
  CHECK_EVERYWHERE(ip::inputs(x, z), ip::outputs(hana::at_c<1>(st), ip::relu(hana::at_c<0>(st))), std::tuple(vx, vz),
                   [](const values_t& in) {
                     const auto t = transposed(in[1]);
                     return values_t{zipf(t, in[0], minus), mapf(zipf(t, in[0], plus), [](double a) { return a > 0 ? a : 0; })};
                   });
}

TEST_CASE("an elementwise op of two outputs as a std::pair", "[run][user_ops_elementwise]") {
  constexpr auto dm = ip::apply(divmod{}, x, y);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(hana::at_c<1>(dm), hana::at_c<0>(dm) + 1.0_c), std::tuple(vx, vy),
                   [](const values_t& in) {
                     const auto b = bcast_row(in[1]);
                     const auto q = zipf(in[0], b, [](double a, double c) { return std::floor(a / c); });
                     return values_t{zipf(in[0], zipf(b, q, times), minus), mapf(q, [](double a) { return a + 1; })};
                   });
}

TEST_CASE("the rewrite computes an output of an elementwise op of several outputs in place", "[run][user_ops_elementwise]") {
  // input 0 (x, same extents as the result): output 0 over x; y is broadcast, never
  constexpr auto sd = ip::apply(sum_diff{}, x, y);
  constexpr auto f0 = ip::function(ip::inputs(x, y), ip::outputs(hana::at_c<0>(sd) * 3.0_c, hana::at_c<1>(sd)));
  STATIC_REQUIRE(ip::plan(f0, ip::donated, ip::borrowed).in_place >= 1);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(hana::at_c<0>(sd) * 3.0_c, hana::at_c<1>(sd)), std::tuple(vx, vy),
                   [](const values_t& in) {
                     const auto b = bcast_row(in[1]);
                     return values_t{mapf(zipf(in[0], b, plus), [](double a) { return 3 * a; }), zipf(in[0], b, minus)};
                   });
  // input 1 (w, unbroadcast): output 1 over w, input 0 a view (z's transpose)
  constexpr auto sw = ip::apply(sum_diff{}, ip::transpose(z), w);
  constexpr auto f1 = ip::function(ip::inputs(z, w), ip::outputs(hana::at_c<0>(sw), ip::exp(hana::at_c<1>(sw))));
  STATIC_REQUIRE(ip::plan(f1, ip::borrowed, ip::donated).in_place >= 1);
  CHECK_EVERYWHERE(ip::inputs(z, w), ip::outputs(hana::at_c<0>(sw), ip::exp(hana::at_c<1>(sw))), std::tuple(vz, vw),
                   [](const values_t& in) {
                     const auto t = transposed(in[0]);
                     return values_t{zipf(t, in[1], plus), mapf(zipf(t, in[1], minus), [](double a) { return std::exp(a); })};
                   });
  // the node reads its destroyed input twice, with the output's own index pattern
  constexpr auto sxx = ip::apply(sum_diff{}, w, w);
  CHECK_EVERYWHERE(ip::inputs(w), ip::outputs(hana::at_c<0>(sxx) - hana::at_c<1>(sxx)), std::tuple(vw),
                   [](const values_t& in) { return values_t{mapf(in[0], [](double a) { return 2 * a; })}; });
}

TEST_CASE("an elementwise op of three outputs, with variants on input 0 and 1", "[run][user_ops_elementwise]") {
  constexpr auto t3 = ip::apply(three{}, x, w, y);  // (x * w, x + y, w - y), y broadcast
  const auto ref = [](const values_t& in) {
    const auto b = bcast_row(in[2]);
    return values_t{zipf(in[0], in[1], times), zipf(in[0], b, plus), zipf(in[1], b, minus)};
  };
  CHECK_EVERYWHERE(ip::inputs(x, w, y), ip::outputs(hana::at_c<0>(t3), hana::at_c<1>(t3), hana::at_c<2>(t3)),
                   std::tuple(vx, vw, vy), ref);
  // consumed by built-in ops; x and w read again afterwards (no rewrite over them)
  CHECK_EVERYWHERE(ip::inputs(x, w, y),
                   ip::outputs(hana::at_c<0>(t3) + hana::at_c<2>(t3), ip::tanh(hana::at_c<1>(t3)) * x, ip::dot(w, y)),
                   std::tuple(vx, vw, vy), [&](const values_t& in) {
                     const auto r = ref(in);
                     std::vector<double> d(rows);
                     for (std::size_t i = 0; i < rows; ++i)
                       for (std::size_t j = 0; j < cols; ++j) d[i] += in[1][i * cols + j] * in[2][j];
                     return values_t{zipf(r[0], r[2], plus), zipf(mapf(r[1], [](double a) { return std::tanh(a); }), in[0], times), d};
                   });
  constexpr auto f = ip::function(ip::inputs(x, w, y), ip::outputs(hana::at_c<0>(t3), hana::at_c<2>(t3)));
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::donated, ip::borrowed).in_place == 1);
}

TEST_CASE("an explicit in-place elementwise op of several outputs and a reader of what it destroys", "[run][user_ops_elementwise]") {
  // x * 3 reads x, which the in-place node overwrites: it runs before (never in the node's loop)
  constexpr auto s = ip::apply(ip::inplace<0>(sum_diff{}), x, y);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(hana::at_c<0>(s) + x * 3.0_c, hana::at_c<1>(s)), std::tuple(vx, vy),
                   [](const values_t& in) {
                     const auto b = bcast_row(in[1]);
                     return values_t{zipf(zipf(in[0], b, plus), mapf(in[0], [](double a) { return 3 * a; }), plus),
                                     zipf(in[0], b, minus)};
                   });
  // the variant over input 1 written explicitly: w's storage holds output 1
  constexpr auto t = ip::apply(sum_diff_in_b{}, x, w);
  CHECK_EVERYWHERE(ip::inputs(x, w), ip::outputs(hana::at_c<1>(t) * hana::at_c<0>(t)), std::tuple(vx, vw),
                   [](const values_t& in) { return values_t{zipf(zipf(in[0], in[1], minus), zipf(in[0], in[1], plus), times)}; });
}

TEST_CASE("an elementwise op of several outputs is never in a fused loop", "[run][user_ops_elementwise]") {
  // a reader of x after add_inplace(x, y) would share its loop if it were fusable;
  // sum_diff runs alone, so it would have to run both before and after it
  constexpr auto a = ip::add_inplace(x, 1.0_c);
  constexpr auto s = ip::apply(sum_diff{}, a, x);
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(hana::at_c<0>(s))).error == ip::error_kind::ordering_cycle);
  // the same reader as a built-in op joins the loop
  STATIC_REQUIRE(ip::check(ip::inputs(x), ip::outputs(a - x)).ok);
  // explain names it as a kernel step of its own
  constexpr auto sd = ip::apply(sum_diff{}, ip::exp(x), y);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(hana::at_c<0>(sd) + 1.0_c, hana::at_c<1>(sd)));
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::borrowed).loops == 3);
  CHECK_THAT(ip::explain(f, ip::donated, ip::borrowed), Catch::Matchers::Contains("sum_diff"));
}
