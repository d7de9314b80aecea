// What updates allocate and copy when they run, against what ip::plan says:
// borrowed (x copied once into the result), donated (nothing), the value
// written straight into the region, a decode step at several positions.
#include "../tensor/allocations.hpp"
#include "../tensor/naive.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace ip = inplace;
using naive::iota;
using namespace ip::literals;

namespace {
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 1>;

// Runs f once, x borrowed or donated (a copy of x given up), and compares the
// blocks it allocated and the counts it kept with the plan.
template <bool Donate, class F, class X, class... R>
void counts(F f, const X& x, const R&... rest) {
  constexpr auto mode = [] {
    if constexpr (Donate) return ip::donated;
    else return ip::borrowed;
  }();
  constexpr ip::plan_result p = ip::plan(f, mode, (static_cast<void>(sizeof(R)), ip::borrowed)...);
  auto copy = x;
  const int before = allocations::aligned();
  {
    const auto r = [&] {
      if constexpr (Donate) return f(std::move(copy), rest...);
      else return f(copy, rest...);
    }();
    INFO("donated: " << Donate);
    CHECK(allocations::aligned() - before == static_cast<int>(p.allocations));
    CHECK(ip::detail::run::last_call_counts.allocations == p.allocations);
    CHECK(ip::detail::run::last_call_counts.copies == p.copies);
  }
}
}  // namespace

TEST_CASE("updates allocate and copy what their plans say", "[update][run][counts]") {
  const auto a = iota(3, 4);
  ip::tensor<float, 1> b(4);
  for (std::size_t j = 0; j < 4; ++j) b[j] = static_cast<float>(j);

  constexpr auto set_row = ip::function(ip::inputs(A, B), ip::outputs(ip::set(ip::row<1>(A), B)));
  counts<false>(set_row, a, b);
  counts<true>(set_row, a, b);
  constexpr auto inc_cols = ip::function(ip::inputs(A, B), ip::outputs(ip::inc(ip::view(A, ip::all, ip::range<0, ip::end, 2>), ip::slice<0, 2>(B))));
  counts<false>(inc_cols, a, b);
  counts<true>(inc_cols, a, b);
  constexpr auto back = ip::function(ip::inputs(A), ip::outputs(ip::set(ip::row<0>(A), ip::row<0>(A) + 1.0_c)));
  counts<false>(back, a);
  counts<true>(back, a);
  constexpr auto two = ip::function(ip::inputs(A, B), ip::outputs(ip::set(ip::row<0>(A), B * 2.0_c), ip::row<0>(A) + B));
  counts<false>(two, a, b);
  counts<true>(two, a, b);
}

TEST_CASE("a decode step allocates nothing with the cache donated, at every position", "[update][run][counts]") {
  constexpr auto cache = ip::input<"cache", double, ip::extents<16, 8>>;
  constexpr auto t = ip::scalar<"t", std::int64_t>;
  constexpr auto k = ip::input<"k", double, ip::extents<8>>;
  constexpr auto step = ip::function(ip::inputs(cache, t, k), ip::outputs(ip::set(ip::dynamic_slice<0, 1>(cache, t), ip::expand_dims<0>(k))));
  ip::tensor<double, ip::extents<16, 8>> c{};
  ip::tensor<double, ip::extents<8>> kv;
  for (std::size_t j = 0; j < 8; ++j) kv[j] = 0.5 * static_cast<double>(j);
  for (std::int64_t s : {0, 7, 15}) {
    counts<false>(step, c, s, kv);
    counts<true>(step, c, s, kv);
  }
}
