// io_alias at run time: must_alias returns the output in the donated input's
// storage; may_alias uses a donated input's storage and copy-protects a borrowed one.
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto p = ip::input<"p", float>;
constexpr auto g = ip::input<"g", float>;
constexpr auto W = ip::input<"W", float, 2>;

}  // namespace

TEST_CASE("must_alias: XLA's increment in the parameter's storage", "[io_alias]") {
  constexpr auto inc = ip::function(ip::inputs(p), ip::outputs(p + 1.0_c), ip::io_alias<0, 0>(ip::must_alias));
  STATIC_REQUIRE(ip::plan(inc, ip::donated) == ip::plan_result{0, 0, 1, 1, 0});
  ip::tensor<float> param{1, 2, 3};
  const float* old = param.data();
  auto out = inc(std::move(param));
  CHECK(out.data() == old);
  CHECK(values(out) == std::vector<float>{2, 3, 4});
  CHECK(param.size() == 0);
}

TEST_CASE("must_alias: a training step updates parameters in place", "[io_alias]") {
  // p - 0.1 * g in p's storage, and the squared gradient norm beside it
  constexpr auto step = ip::function(ip::inputs(p, g), ip::outputs(p - 0.1_c * g, ip::reduce_sum(g * g)),
                                     ip::io_alias<0, 0>(ip::must_alias));
  ip::tensor<float> param{1, 2, 3}, grad{10, 0, -10};
  const float* old = param.data();
  auto [next, norm2] = step(std::move(param), grad);
  CHECK(next.data() == old);
  CHECK(values(next) == std::vector<float>{0, 2, 4});
  CHECK(static_cast<float>(norm2) == 200);
  CHECK(values(grad) == std::vector<float>{10, 0, -10});
}

TEST_CASE("must_alias: an opaque result in an input nobody else reads", "[io_alias]") {
  constexpr auto f = ip::function(ip::inputs(W, ip::input<"M", float, 2>), ip::outputs(ip::dot(W, W)),
                                  ip::io_alias<0, 1>(ip::must_alias));
  ip::tensor<float, 2> w{{1, 2}, {3, 4}}, m(2, 2);
  const float* old = m.data();
  auto r = f(w, std::move(m));
  CHECK(r.data() == old);
  CHECK(values(r) == std::vector<float>{7, 10, 15, 22});
}

TEST_CASE("may_alias: donated uses the storage, borrowed is copy-protected", "[io_alias]") {
  constexpr auto f = ip::function(ip::inputs(p, g), ip::outputs(p * g), ip::io_alias<0, 0>(ip::may_alias));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed) == ip::plan_result{0, 0, 1, 1, 0});
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::borrowed) == ip::plan_result{1, 1, 1, 1, ip::dynamic});
  ip::tensor<float> a{1, 2}, b{3, 4};
  auto borrowed = f(a, b);
  CHECK(borrowed.data() != a.data());
  CHECK(values(borrowed) == std::vector<float>{3, 8});
  CHECK(values(a) == std::vector<float>{1, 2});
  const float* old = a.data();
  auto donated = f(std::move(a), b);
  CHECK(donated.data() == old);
  CHECK(values(donated) == std::vector<float>{3, 8});
}

TEST_CASE("an aliased input read by other nodes: they run first", "[io_alias]") {
  constexpr auto f = ip::function(ip::inputs(p, g), ip::outputs(p * 2.0_c, g + p), ip::io_alias<0, 0>(ip::must_alias),
                                  ip::io_alias<1, 1>(ip::may_alias));
  ip::tensor<float> a{1, 2}, b{10, 20};
  const float* pa = a.data();
  const float* pb = b.data();
  auto [twice, sum] = f(std::move(a), std::move(b));
  CHECK(twice.data() == pa);
  CHECK(sum.data() == pb);
  CHECK(values(twice) == std::vector<float>{2, 4});
  CHECK(values(sum) == std::vector<float>{11, 22});
}
