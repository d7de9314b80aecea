// ip::plan against what calls do: a table of graphs, each called under every
// donation pattern, allocates (ip::aligned_allocator's blocks, counted as
// ../tensor/allocations.hpp says) and copies exactly what its plan says.
#include "../tensor/allocations.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <tuple>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 2>;
constexpr auto S = ip::input<"S", float, ip::extents<4, 4>>;

template <bool Donated, class T>
std::conditional_t<Donated, T&&, T&> pass(T& t) {
  return static_cast<std::conditional_t<Donated, T&&, T&>>(t);
}
template <bool Donated>
constexpr auto marker() {
  if constexpr (Donated) return ip::donated;
  else return ip::borrowed;
}

// Calls f under donation mask M on fresh copies of `inputs`, checking the counts.
template <std::uint64_t M, class F, class... T, std::size_t... K>
void check_pattern(F f, const std::tuple<T...>& inputs, std::index_sequence<K...>) {
  constexpr ip::plan_result p = ip::plan(f, marker<((M >> K) & 1u) != 0>()...);
  std::tuple<T...> args = inputs;  // fresh storage for every call
  const int before = allocations::aligned();
  {
    auto result = f(pass<((M >> K) & 1u) != 0>(std::get<K>(args))...);
    const int made = allocations::aligned() - before;
    INFO("donation mask " << M);
    CHECK(made == static_cast<int>(p.allocations));
    CHECK(ip::detail::run::last_call_counts.allocations == p.allocations);
    CHECK(ip::detail::run::last_call_counts.copies == p.copies);
  }
}
template <class F, class... T, std::uint64_t... M>
void check_all(F f, const std::tuple<T...>& inputs, std::integer_sequence<std::uint64_t, M...>) {
  (check_pattern<M>(f, inputs, std::index_sequence_for<T...>{}), ...);
}
template <class F, class... T>
void check_all(F f, const std::tuple<T...>& inputs) {
  check_all(f, inputs, std::make_integer_sequence<std::uint64_t, (1u << sizeof...(T))>{});
}

const ip::tensor<float> vx{0.5f, -1, 2, 0.25f, 3, -2, 1};
const ip::tensor<float> vy{1, 2, 3, 4, 5, 6, 7};
const ip::tensor<float, 2> mA{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
const ip::tensor<float, 2> mB{{9, 8, 7}, {6, 5, 4}, {3, 2, 1}};
}  // namespace

TEST_CASE("plans of elementwise chains and explicit in-place nodes", "[plan]") {
  check_all(ip::function(ip::inputs(x, y), ip::outputs(ip::exp(x * 2.0_c + y) - y)), std::tuple{vx, vy});
  check_all(ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y) * 2.0_c)), std::tuple{vx, vy});
  check_all(ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::mul(ip::add_inplace(x, y), x))),
            std::tuple{vx, vy});
  check_all(ip::function(ip::inputs(x, y), ip::outputs(x + y, x - y)), std::tuple{vx, vy});
  check_all(ip::function(ip::inputs(x), ip::outputs(ip::exp(x), x * 2.0_c)), std::tuple{vx});
  check_all(ip::function(ip::inputs(x, y), ip::outputs(ip::mul_inplace(ip::add_inplace(x, y), y))), std::tuple{vx, vy});
  // An in-place op on an intermediate that lives only inside its loop (x * 3)
  // protects nothing: one loop into one fresh buffer, no copy, and not in
  // place (no storage held x * 3), in a fused loop as in a row loop; x
  // borrowed or donated.
  constexpr auto on_loop_value = ip::function(ip::inputs(x), ip::outputs(ip::add_inplace(x * 3.0_c, 1.0_c)));
  constexpr auto borrowed = ip::plan(on_loop_value, ip::borrowed);
  STATIC_REQUIRE((borrowed.allocations == 1 && borrowed.copies == 0 && borrowed.loops == 1 && borrowed.in_place == 0));
  constexpr auto row = ip::plan(ip::function(ip::inputs(A), ip::outputs(ip::add_inplace(ip::softmax(A), 1.0_c))), ip::borrowed);
  STATIC_REQUIRE((row.copies == 0 && row.in_place == 0));
  check_all(ip::function(ip::inputs(A), ip::outputs(ip::add_inplace(ip::softmax(A), 1.0_c))), std::tuple{mA});
  constexpr auto donated = ip::plan(on_loop_value, ip::donated);
  STATIC_REQUIRE((donated.allocations == 0 && donated.copies == 0 && donated.loops == 1));
  check_all(on_loop_value, std::tuple{vx});
  const auto r = on_loop_value(vx);
  for (std::size_t i = 0; i < vx.size(); ++i) CHECK(r[i] == vx[i] * 3.0f + 1.0f);
  // the borrowed input itself: one copy-protection copy, as before
  STATIC_REQUIRE(ip::plan(ip::function(ip::inputs(x), ip::outputs(ip::add_inplace(x, 1.0_c))), ip::borrowed).copies == 1);
}

TEST_CASE("plans with opaque kernels, views and reuse", "[plan]") {
  check_all(ip::function(ip::inputs(x), ip::outputs(ip::softmax(ip::exp(x)) * 2.0_c)), std::tuple{vx});
  check_all(ip::function(ip::inputs(x, y), ip::outputs(ip::softmax_inplace(x) + y)), std::tuple{vx, vy});
  check_all(ip::function(ip::inputs(x, y), ip::outputs(ip::reduce_sum(ip::tanh(x) + y))), std::tuple{vx, vy});
  check_all(ip::function(ip::inputs(A, B), ip::outputs(A + ip::transpose(B))), std::tuple{mA, mB});
  check_all(ip::function(ip::inputs(A, B), ip::outputs(ip::exp_inplace(A) - ip::reverse(B))), std::tuple{mA, mB});
  // a dead intermediate's buffer is reused by the next one
  constexpr auto two = ip::function(
      ip::inputs(x, y), ip::outputs(ip::reduce_sum(ip::softmax(x + 1.0_c)), ip::reduce_sum(ip::softmax(y + 1.0_c))));
  STATIC_REQUIRE(ip::plan(two, ip::borrowed, ip::borrowed).allocations == 3);
  check_all(two, std::tuple{vx, vy});
}

TEST_CASE("plans count the results a call allocates when it returns", "[plan]") {
  // a value returned twice: the second is a copy; an input returned twice, donated
  constexpr auto twice = ip::function(ip::inputs(x, y), ip::outputs(ip::exp(x), ip::exp(x), y, y));
  STATIC_REQUIRE(ip::plan(twice, ip::borrowed, ip::borrowed).allocations == 2);  // exp's buffer and its copy
  STATIC_REQUIRE(ip::plan(twice, ip::borrowed, ip::donated).allocations == 3);  // and y returned twice
  check_all(twice, std::tuple{vx, vy});
  // a constant and a scalar input returned: rank-0 tensors
  constexpr auto k = ip::scalar<"k", float>;
  constexpr auto leaves = ip::function(ip::inputs(x, k), ip::outputs(x * k, k, 2.0_c));
  STATIC_REQUIRE(ip::plan(leaves, ip::borrowed).allocations == 3);
  ip::tensor<float, ip::extents<4>> s4{1, 2, 3, 4};
  constexpr auto S4 = ip::input<"S4", float, ip::extents<4>>;
  constexpr auto fixed = ip::function(ip::inputs(S4), ip::outputs(S4 * 2.0_c, S4 * 2.0_c));
  STATIC_REQUIRE(ip::plan(fixed, ip::borrowed) == ip::plan_result{2, 0, 1, 0, 32});
  check_all(fixed, std::tuple{s4});
  const int before = allocations::aligned();
  {
    auto r = leaves(vx, 2.0f);
    CHECK(allocations::aligned() - before == 3);
    CHECK(ip::detail::run::last_call_counts.allocations == 3);
  }
}

TEST_CASE("plans with io_alias", "[plan]") {
  check_all(ip::function(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<0, 0>(ip::may_alias)), std::tuple{vx, vy});
  check_all(ip::function(ip::inputs(x, y), ip::outputs(ip::softmax(y), x * 2.0_c), ip::io_alias<0, 0>(ip::may_alias)),
            std::tuple{vx, vy});
}

TEST_CASE("peak bytes with static extents", "[plan]") {
  // (S * 2 is computed row by row in softmax's result: one loop, run/detail/program.hpp's row chains)
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::softmax(S * 2.0_c)));
  STATIC_REQUIRE(ip::plan(f, ip::borrowed) == ip::plan_result{1, 0, 1, 0, 64});
  STATIC_REQUIRE(ip::plan(f, ip::donated) == ip::plan_result{0, 0, 1, 1, 0});
  // two intermediates alive at once; the sum is reduced as it is computed (a row loop), with the result alive
  constexpr auto g = ip::function(ip::inputs(S), ip::outputs(ip::reduce_sum(ip::softmax(S + 1.0_c) + ip::softmax(S))));
  STATIC_REQUIRE(ip::plan(g, ip::borrowed).peak_bytes == 2 * 64 + sizeof(float));
  ip::tensor<float, ip::extents<4, 4>> s;
  check_all(g, std::tuple{s});
  check_all(f, std::tuple{s});
}
