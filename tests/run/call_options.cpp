// Options of ip::function that check calls: ip::debug_nans (the first node
// producing a NaN or an infinity, also with donated arguments) and
// ip::strict_donation (a donation the plan does not use does not compile:
// tests/fail/unused_donation.fail.*.cpp; here the donations it accepts).
#include "debug_message.hpp"
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;
using Catch::Matchers::Contains;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;

std::vector<float> list(std::initializer_list<float> l) { return l; }

}  // namespace

TEST_CASE("debug_nans: finite calls return as usual", "[run][debug_nans]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::sqrt(ip::exp(x) + y)), ip::debug_nans);
  ip::tensor<float> a{0, 0}, b{3, 8};
  CHECK(values(f(a, b)) == list({2, 3}));
  const float* old = a.data();
  const auto r = f(std::move(a), b);  // donated: still computed in x's storage
  CHECK(r.data() == old);
  CHECK(values(r) == list({2, 3}));
}

TEST_CASE("debug_nans names the first node producing a NaN or an infinity", "[run][debug_nans]") {
  // log(-1) is NaN; exp of it and the sum stay NaN: log is named
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::exp(ip::log(x)) + y), ip::debug_nans);
  ip::tensor<float> a{1, -1, 2}, b{1, 1, 1};
  const std::string msg = debug_message([&] { (void)f(a, b); });
  CHECK_THAT(msg, Contains("inplace: debug_error: log(x): the first node whose result is NaN or infinite "
                           "(debug_nans): output 0 is nan at element 1"));
  CHECK(values(a) == list({1, -1, 2}));  // borrowed: unchanged
  // an infinity: exp overflows (x * 100 is finite)
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::exp(x * 100.0_c) - 1.0_c), ip::debug_nans);
  CHECK_THAT(debug_message([&] { (void)g(ip::tensor<float>{0, 2}); }),
             Contains("exp(mul(...)): the first node whose result is NaN or infinite (debug_nans): output 0 is inf "
                      "at element 1"));
}

TEST_CASE("debug_nans with donated arguments computed over in place", "[run][debug_nans]") {
  // the call runs sub_inplace and sqrt in x's storage: the rerun starts from a
  // copy of x taken before the call
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::sqrt(ip::sub_inplace(x, 1.0_c)) * 2.0_c),
                                  ip::debug_nans);
  static_assert(ip::plan(f, ip::donated).allocations == 0);
  ip::tensor<float> a{5, 0.5f, 2};
  CHECK_THAT(debug_message([&] { (void)f(std::move(a)); }),
             Contains("sqrt(sub_inplace(...)): the first node whose result is NaN or infinite (debug_nans): output 0 "
                      "is "));
  CHECK_THAT(debug_message([&] { (void)f(ip::tensor<float>{5, 0.5f, 2}); }), Contains("nan at element 1"));
  // the output took x's storage and was destroyed by the throw: x is empty
  CHECK(a.size() == 0);
  // a donated argument whose storage no output takes keeps it (unspecified elements)
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::reduce_sum(ip::log(ip::mul_inplace(x, 2.0_c)))),
                                  ip::debug_nans);
  ip::tensor<float> c{1, 0};
  CHECK_THAT(debug_message([&] { (void)g(std::move(c)); }), Contains("log(mul_inplace(...))"));
  CHECK(c.size() == 2);
}

TEST_CASE("debug_nans: an argument that holds a NaN is named", "[run][debug_nans]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x + y), ip::debug_nans);
  ip::tensor<float> a{1, std::numeric_limits<float>::infinity()}, b{1, 1};
  CHECK_THAT(debug_message([&] { (void)f(b, std::move(a)); }),
             Contains("inplace: debug_error: input \"y\": element 1 is inf (debug_nans"));
}

TEST_CASE("debug_nans in debug mode: before the call runs", "[run][debug_nans]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::log(x) * 0.0_c), ip::debug_nans, ip::debug);
  ip::tensor<float> a{1, 0};
  CHECK_THAT(debug_message([&] { (void)f(std::move(a)); }), Contains("log(x): the first node whose result is NaN or "
                                                                    "infinite (debug_nans): output 0 is -inf at element 1"));
  CHECK(a.size() == 2);  // the reference ran on a copy; the call did not run
}

TEST_CASE("strict_donation accepts donations the plan uses", "[run][strict_donation]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::reduce_sum(x), ip::exp(y)), ip::strict_donation);
  ip::tensor<float> a{1, 2, 3}, b{0, 0};
  const float* old = b.data();
  auto [s, e] = f(a, std::move(b));  // y's storage holds exp(y); x is borrowed
  CHECK(static_cast<float>(s) == 6);
  CHECK(e.data() == old);
  // a donated input returned as it is, or viewed by an output, is used too
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(x, ip::reduce_sum(x)), ip::strict_donation);
  auto [t, u] = g(ip::tensor<float>{1, 2});
  CHECK(values(t) == list({1, 2}));
  CHECK(static_cast<float>(u) == 3);
  // every call pattern that donates nothing compiles
  auto [s2, e2] = f(a, e);
  CHECK(static_cast<float>(s2) == 6);
  CHECK(e2.size() == 2);
}
