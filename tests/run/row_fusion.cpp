// Row ops fused with their elementwise producers and consumers: softmax and
// the reductions over the last axis run block of rows by block of rows, the
// producer's loop into the block, the row op on it, the consumer's loop over
// it (run/detail/program.hpp: row chains), so a borrowed call allocates only
// its results. A reduction over every axis of an expression reduces it block
// by block as it is computed (any rank; rows longer than the block in pieces). Values against NumPy (scripts/gen_row_fusion_cases.py), borrowed
// and donated, fused and with ip::no_rewrite and in debug mode; ip::plan's
// counts as static_asserts and against what a call allocates.
#include "../tensor/allocations.hpp"  // (first: it makes the library count allocations)

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;
using Catch::Matchers::Contains;

namespace {
#define VALUES(name, ...) const std::vector<double> name{__VA_ARGS__};
namespace want {
#include "row_fusion_cases.inc"
}
#undef VALUES

template <class T, std::size_t... E>
ip::tensor<T, ip::extents<E...>> x_of() {
  ip::tensor<T, ip::extents<E...>> t;
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<T>((static_cast<double>(i * 7 % 11) - 5) * 0.25);
  return t;
}
template <class T, std::size_t... E>
ip::tensor<T, ip::extents<E...>> y_of() {
  ip::tensor<T, ip::extents<E...>> t;
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<T>((static_cast<double>(i * 5 % 9) - 4) * 0.5);
  return t;
}

template <class R>
void agree(const R& got, const std::vector<double>& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i);
    CHECK(static_cast<double>(got.data()[i]) == Approx(expected[i]).epsilon(1e-5).margin(1e-5));
  }
}
// f(args...) borrowed, then with the first argument donated (a copy), each
// allocating what ip::plan says; the no_rewrite and debug runs agree too.
template <class F, class A, class... B>
void runs(F f, const std::vector<double>& expected, const A& a, const B&... b) {
  agree(f(a, b...), expected);
  CHECK(ip::detail::run::last_call_counts.allocations == ip::plan(f, ip::borrowed, (void(b), ip::borrowed)...).allocations);
  A copy = a;
  agree(f(std::move(copy), b...), expected);
  CHECK(ip::detail::run::last_call_counts.allocations == ip::plan(f, ip::donated, (void(b), ip::borrowed)...).allocations);
  agree(f.debug(a, b...), expected);
}

constexpr auto X = ip::input<"X", float, ip::extents<6, 40>>;
constexpr auto X3 = ip::input<"X", float, ip::extents<4, 3, 5>>;
constexpr auto Y = ip::input<"Y", float, ip::extents<1, 40>>;
constexpr auto S = ip::input<"S", float, ip::extents<7, 7>>;
constexpr auto L = ip::input<"L", float, ip::extents<3, 10000>>;
constexpr auto D = ip::input<"D", float, 2>;

// the issue's graph: one row loop, the result its one allocation, borrowed or donated
constexpr auto issue = ip::function(ip::inputs(X), ip::outputs(ip::reduce_sum<1>(ip::softmax(X * 0.5_c + 1.0_c) * 2.0_c - 1.0_c)));
static_assert(ip::plan(issue, ip::borrowed) == ip::plan_result{1, 0, 1, 0, 6 * sizeof(float)});
static_assert(ip::plan(issue, ip::donated) == ip::plan_result{1, 0, 1, 0, 6 * sizeof(float)});
constexpr auto softmax_of_expr = ip::function(ip::inputs(X), ip::outputs(ip::softmax(X * 0.5_c + 1.0_c)));
static_assert(ip::plan(softmax_of_expr, ip::borrowed) == ip::plan_result{1, 0, 1, 0, 240 * sizeof(float)});
static_assert(ip::plan(softmax_of_expr, ip::donated) == ip::plan_result{0, 0, 1, 1, 0});
constexpr auto expr_of_softmax = ip::function(ip::inputs(X), ip::outputs(ip::softmax(X) * 2.0_c - 1.0_c));
static_assert(ip::plan(expr_of_softmax, ip::borrowed).allocations == 1);
static_assert(ip::plan(expr_of_softmax, ip::donated).allocations == 0);
// reduce_sum(exp(x - m)): the expression is not stored (m is: it is read twice)
constexpr auto logsumexp3 =
    ip::function(ip::inputs(X3), ip::outputs(ip::reduce_sum<-1>(ip::exp(X3 - ip::reduce_max<-1, ip::keepdims>(X3)))));
static_assert(ip::plan(logsumexp3, ip::borrowed).allocations == 2);  // m and the result
constexpr auto mean_keep = ip::function(ip::inputs(X, Y), ip::outputs(ip::reduce_mean<1, ip::keepdims>(X * 2.0_c + Y)));
static_assert(ip::plan(mean_keep, ip::borrowed, ip::borrowed).allocations == 1);
constexpr auto max_rows = ip::function(ip::inputs(X, Y), ip::outputs(ip::reduce_max<-1>(X * Y)));
static_assert(ip::plan(max_rows, ip::borrowed, ip::borrowed).allocations == 1);
// the consumer reads X after the block overwrote... nothing: X is read by a later stage, so nothing is computed in it
constexpr auto consumer_reads_x = ip::function(ip::inputs(X), ip::outputs(ip::softmax(X * 0.5_c) * X));
static_assert(ip::plan(consumer_reads_x, ip::donated).allocations == 1);
constexpr auto transposed = ip::function(ip::inputs(S), ip::outputs(ip::reduce_sum<1>(S + ip::transpose(S))));
static_assert(ip::plan(transposed, ip::borrowed).allocations == 1);
// a row longer than the stack's scratch: one row allocated beside the result
constexpr auto long_rows = ip::function(ip::inputs(L), ip::outputs(ip::reduce_sum<1>(L * 2.0_c - 1.0_c)));
static_assert(ip::plan(long_rows, ip::borrowed) == ip::plan_result{2, 0, 1, 0, 3 * sizeof(float) + 10000 * sizeof(float)});
// a row of dynamic extent: on the stack when it fits (ip::plan cannot know a longer one)
constexpr auto dynamic = ip::function(ip::inputs(D), ip::outputs(ip::reduce_sum<1>(ip::softmax(D * 0.5_c + 1.0_c) * 2.0_c - 1.0_c)));
static_assert(ip::plan(dynamic, ip::borrowed).allocations == 1);
static_assert(ip::plan(dynamic, ip::donated).allocations == 1);
constexpr auto prod_rows = ip::function(ip::inputs(X), ip::outputs(ip::reduce_prod<1>(1.0_c + X * 0.1_c)));
// S + S^T in S's storage would overwrite rows that later blocks read as columns: not in place
constexpr auto softmax_transposed = ip::function(ip::inputs(S), ip::outputs(ip::softmax(S + ip::transpose(S))));
static_assert(ip::plan(softmax_transposed, ip::donated).allocations == 1);
// softmax's consumer feeding another softmax: one row loop, in X's storage when donated
constexpr auto softmax_twice = ip::function(ip::inputs(X), ip::outputs(ip::softmax(ip::softmax(X) * 2.0_c + 1.0_c)));
static_assert(ip::plan(softmax_twice, ip::donated) == ip::plan_result{0, 0, 1, 1, 0});
static_assert(ip::plan(softmax_twice, ip::borrowed) == ip::plan_result{1, 0, 1, 0, 240 * sizeof(float)});
constexpr auto any_rows = ip::function(ip::inputs(X), ip::outputs(ip::reduce_any<1>(X * 4.0_c - 1.0_c)));
static_assert(ip::plan(any_rows, ip::borrowed).allocations == 1);

// reductions over every axis: the expression never stored, only the result allocated
constexpr auto V = ip::input<"V", float, ip::extents<100003>>;
constexpr auto total_logsumexp = ip::function(ip::inputs(V), ip::outputs(ip::reduce_sum(ip::exp(V - ip::reduce_max(V)))));
static_assert(ip::plan(total_logsumexp, ip::borrowed).allocations == 2);  // m and the result
static_assert(ip::plan(total_logsumexp, ip::donated).allocations == 2);
constexpr auto total_mean_rows = ip::function(ip::inputs(X, Y), ip::outputs(ip::reduce_mean(X * 2.0_c + Y)));
static_assert(ip::plan(total_mean_rows, ip::borrowed, ip::borrowed).allocations == 1);
static_assert(ip::plan(total_mean_rows, ip::borrowed, ip::borrowed).peak_bytes == sizeof(float));
constexpr auto total_max3 = ip::function(ip::inputs(X3), ip::outputs(ip::reduce_max(ip::exp(X3 * 0.5_c))));
static_assert(ip::plan(total_max3, ip::borrowed).allocations == 1);
static_assert(ip::plan(total_max3, ip::donated).allocations == 1);
// rows longer than the block: each row in pieces, still nothing allocated but the result
constexpr auto total_long_rows = ip::function(ip::inputs(L), ip::outputs(ip::reduce_sum(L * 2.0_c - 1.0_c)));
static_assert(ip::plan(total_long_rows, ip::borrowed).allocations == 1);
static_assert(ip::plan(total_long_rows, ip::borrowed).peak_bytes == sizeof(float));
constexpr auto total_min_vector = ip::function(ip::inputs(V), ip::outputs(ip::reduce_min<0>(1.0_c - V * 2.0_c)));
static_assert(ip::plan(total_min_vector, ip::borrowed).allocations == 1);
constexpr auto total_prod = ip::function(ip::inputs(X), ip::outputs(ip::reduce_prod(1.0_c + X * 0.01_c)));
static_assert(ip::plan(total_prod, ip::borrowed).allocations == 1);
constexpr auto total_keep = ip::function(ip::inputs(X), ip::outputs(ip::reduce_sum<ip::keepdims>(X * X)));
static_assert(ip::plan(total_keep, ip::borrowed).allocations == 1);
static_assert(ip::plan(total_keep, ip::donated).allocations == 1);
}  // namespace

TEST_CASE("row ops fused with their producers and consumers, against NumPy", "[row_fusion]") {
  const auto x = x_of<float, 6, 40>();
  runs(issue, want::issue, x);
  runs(softmax_of_expr, want::softmax_of_expr, x);
  runs(expr_of_softmax, want::expr_of_softmax, x);
  runs(logsumexp3, want::logsumexp3, x_of<float, 4, 3, 5>());
  runs(mean_keep, want::mean_keep, x, y_of<float, 1, 40>());
  runs(max_rows, want::max_rows, x, y_of<float, 1, 40>());
  runs(consumer_reads_x, want::consumer_reads_x, x);
  runs(transposed, want::transposed, x_of<float, 7, 7>());
  runs(long_rows, want::long_rows, x_of<float, 3, 10000>());
  runs(prod_rows, want::prod_rows, x);
  runs(softmax_transposed, want::softmax_transposed, x_of<float, 7, 7>());
  runs(softmax_twice, want::softmax_twice, x);
  ip::tensor<float, 2> dx(6, 40);
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] = x[i];
  runs(dynamic, want::dynamic, dx);
  // a dynamic row longer than the stack's scratch: one row allocated, which ip::plan does not count
  ip::tensor<float, 2> wide(2, 10000);
  for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<float>(i % 13) * 0.01f;
  const auto r = dynamic(wide);
  CHECK(ip::detail::run::last_call_counts.allocations == 2);
  CHECK(r[0] == Approx(-9998.0).epsilon(1e-5));
}

TEST_CASE("the same graphs unfused agree (ip::no_rewrite keeps the row loops; a second reader keeps the value)", "[row_fusion]") {
  const auto x = x_of<float, 6, 40>();
  agree(ip::function(ip::inputs(X), ip::outputs(ip::reduce_sum<1>(ip::softmax(X * 0.5_c + 1.0_c) * 2.0_c - 1.0_c)),
                     ip::no_rewrite)(x),
        want::issue);
  // the softmax's operand returned too: stored, not fused
  constexpr auto a = X * 0.5_c + 1.0_c;
  constexpr auto both = ip::function(ip::inputs(X), ip::outputs(ip::softmax(a), a));
  static_assert(ip::plan(both, ip::borrowed).allocations == 2);
  agree(std::get<0>(both(x)), want::softmax_of_expr);
}

TEST_CASE("a fused reduction gives the very values of the unfused kernel", "[row_fusion]") {
  // rows of 1000 floats whose sum depends on the order of the additions: the
  // fused block and the stored operand are reduced by one kernel (blocked,
  // pairwise sums for floating sums and means), bit for bit
  constexpr auto W = ip::input<"W", float, ip::extents<3, 1000>>;
  ip::tensor<float, ip::extents<3, 1000>> w;
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = static_cast<float>((i % 3 == 0 ? 1e4 : 1.0) * std::sin(static_cast<double>(i) * 0.37) + 0.1);
  constexpr auto fused = ip::function(ip::inputs(W), ip::outputs(ip::reduce_mean<-1>(W * W), ip::reduce_sum<-1>(W * 3.0_c),
                                                                  ip::reduce_max<-1>(W + 1.0_c)));
  const auto [mean, sum, max] = fused(w);
  const ip::tensor<float, ip::extents<3, 1000>> squared = w * w, tripled = w * 3.0f, shifted = w + 1.0f;
  const auto mean_unfused = ip::reduce_mean<-1>(squared);
  const auto sum_unfused = ip::reduce_sum<-1>(tripled);
  const auto max_unfused = ip::reduce_max<-1>(shifted);
  for (std::size_t r = 0; r < 3; ++r) {
    CHECK(mean(r) == mean_unfused(r));
    CHECK(sum(r) == sum_unfused(r));
    CHECK(max(r) == max_unfused(r));
  }
}

TEST_CASE("reductions over every axis of an expression, against NumPy", "[row_fusion]") {
  const auto x = x_of<float, 6, 40>();
  runs(total_logsumexp, want::total_logsumexp, x_of<float, 100003>());
  runs(total_mean_rows, want::total_mean_rows, x, y_of<float, 1, 40>());
  runs(total_max3, want::total_max3, x_of<float, 4, 3, 5>());
  runs(total_long_rows, want::total_long_rows, x_of<float, 3, 10000>());
  runs(total_min_vector, want::total_min_vector, x_of<float, 100003>());
  runs(total_prod, want::total_prod, x);
  runs(total_keep, want::total_keep, x);
}

namespace {
template <class T>
double value_of(const T& t) {
  return static_cast<double>(*t.data());
}
}  // namespace

TEST_CASE("a fused reduction over every axis gives the very values of the unfused kernel", "[row_fusion]") {
  // sums that depend on the order of the additions: the fused blocks are
  // summed as the stored operand is (blocked, pairwise), bit for bit, whatever
  // the lengths (whole sum blocks or not, rows split between blocks or not)
  const auto fill = [](auto& t) {
    for (std::size_t i = 0; i < t.size(); ++i)
      t[i] = static_cast<float>((i % 3 == 0 ? 1e4 : 1.0) * std::sin(static_cast<double>(i) * 0.37) + 0.1);
  };
  constexpr auto U = ip::input<"U", float, 1>;
  constexpr auto vec = ip::function(ip::inputs(U), ip::outputs(ip::reduce_sum(U * U), ip::reduce_mean(U * 3.0_c),
                                                                ip::reduce_max(U + 1.0_c), ip::reduce_sum<0>(U * 2.0_c)));
  static_assert(ip::plan(vec, ip::borrowed).allocations == 4);
  for (std::size_t n : {1, 7, 63, 64, 65, 1023, 1024, 1025, 8191, 8192, 8193, 20000, 100003}) {
    INFO("n = " << n);
    ip::tensor<float, 1> u(n);
    fill(u);
    const auto [sum, mean, max, sum0] = vec(u);
    CHECK(ip::detail::run::last_call_counts.allocations == 4);
    const ip::tensor<float, 1> squared = u * u, tripled = u * 3.0f, shifted = u + 1.0f, doubled = u * 2.0f;
    CHECK(value_of(sum) == value_of(ip::reduce_sum(squared)));
    CHECK(value_of(mean) == value_of(ip::reduce_mean(tripled)));
    CHECK(value_of(max) == value_of(ip::reduce_max(shifted)));
    CHECK(value_of(sum0) == value_of(ip::reduce_sum<0>(doubled)));
  }
  constexpr auto M = ip::input<"M", float, 3>;
  constexpr auto cube = ip::function(ip::inputs(M), ip::outputs(ip::reduce_sum(M * M), ip::reduce_mean(M * 3.0_c),
                                                                 ip::reduce_min(M - 1.0_c)));
  static_assert(ip::plan(cube, ip::borrowed).allocations == 3);
  for (const auto& e : std::vector<std::array<std::size_t, 3>>{{1, 3, 1000}, {2, 37, 333}, {3, 2, 10000}, {2, 5, 8192}, {1, 1, 1}}) {
    INFO("extents " << e[0] << " " << e[1] << " " << e[2]);
    ip::tensor<float, 3> m(e[0], e[1], e[2]);
    fill(m);
    const auto [sum, mean, min] = cube(m);
    CHECK(ip::detail::run::last_call_counts.allocations == 3);
    const ip::tensor<float, 3> squared = m * m, tripled = m * 3.0f, shifted = m - 1.0f;
    CHECK(value_of(sum) == value_of(ip::reduce_sum(squared)));
    CHECK(value_of(mean) == value_of(ip::reduce_mean(tripled)));
    CHECK(value_of(min) == value_of(ip::reduce_min(shifted)));
    const auto [dsum, dmean, dmin] = cube.debug(m);
    CHECK(value_of(dsum) == value_of(sum));
    CHECK(value_of(dmean) == value_of(mean));
    CHECK(value_of(dmin) == value_of(min));
  }
}

TEST_CASE("explain and to_dot say which nodes run in a row loop", "[row_fusion]") {
  CHECK_THAT(ip::explain(total_long_rows, ip::borrowed), Contains("its operand reduced as it is computed, block by block on the stack"));
  const std::string s = ip::explain(issue, ip::borrowed);
  CHECK_THAT(s, Contains("row loop #5"));
  CHECK_THAT(s, Contains("not stored: row by row in a block of row loop #5"));
  CHECK_THAT(s, Contains("its rows' blocks on the stack"));
  CHECK_THAT(ip::explain(long_rows, ip::borrowed), Contains("its rows one by one in an allocated row"));
  // to_dot draws the row loop around its loops and row ops
  const std::string d = ip::to_dot(issue, ip::borrowed);
  CHECK_THAT(d, Contains("label=\"row loop #5\""));
  CHECK(d.find("cluster_row") < d.find("cluster_loop0"));
}

TEST_CASE("a consumer that broadcasts softmax's rows (dynamic extents) keeps softmax's result", "[row_fusion]") {
  constexpr auto E = ip::input<"E", float, 2>;
  constexpr auto f = ip::function(ip::inputs(D, E), ip::outputs(ip::softmax(D) * E));
  // softmax's result, the product computed in it: the plan assumes dynamic extents
  // fit; these do not (D is one row), so the call runs the safe plan
  static_assert(ip::plan(f, ip::borrowed, ip::borrowed).allocations == 1);
  static_assert(ip::plan(f, ip::borrowed, ip::borrowed).loops == 2);  // softmax alone, then the product
  ip::tensor<float, 2> d(1, 40), e(6, 40);
  const auto x = x_of<float, 1, 40>();
  const auto y = y_of<float, 6, 40>();
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = x[i];
  for (std::size_t i = 0; i < e.size(); ++i) e[i] = y[i];
  agree(f(d, e), want::broadcast_consumer);
  agree(f.debug(d, e), want::broadcast_consumer);
}

TEST_CASE("a boolean reduction of an expression", "[row_fusion]") {
  const auto r = any_rows(x_of<float, 6, 40>());
  REQUIRE(r.size() == want::any_rows.size());
  for (std::size_t i = 0; i < r.size(); ++i) CHECK(static_cast<double>(r[i]) == want::any_rows[i]);
}

TEST_CASE("a reduction of an empty axis", "[row_fusion]") {
  constexpr auto E = ip::input<"E", float, 2>;
  const auto f = ip::function(ip::inputs(E), ip::outputs(ip::reduce_max<1>(E * 2.0_c)));
  const ip::tensor<float, 2> empty(3, 0);
  CHECK_THROWS_AS(f(empty), ip::shape_error);
  const auto g = ip::function(ip::inputs(E), ip::outputs(ip::reduce_sum<1>(E * 2.0_c)));
  const auto r = g(empty);
  REQUIRE(r.size() == 3);
  CHECK(r[0] == 0.0f);
  // over every axis: an empty expression's sum is 0, its max an error
  for (const auto& z : {ip::tensor<float, 2>(3, 0), ip::tensor<float, 2>(0, 5)}) {
    CHECK(value_of(ip::function(ip::inputs(E), ip::outputs(ip::reduce_sum(E * 2.0_c)))(z)) == 0.0);
    CHECK_THROWS_AS(ip::function(ip::inputs(E), ip::outputs(ip::reduce_max(E * 2.0_c)))(z), ip::shape_error);
  }
}
