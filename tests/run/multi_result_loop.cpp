// Several results in one loop over dying inputs: the elementwise readers of a
// root that nothing else reads join one loop, which reads every operand of an
// element before it stores any result, so each result can be computed in a
// different donated (or dead) input. (x + y, x - y) over two donated inputs
// allocates nothing. Values against NumPy (float32, generated with
// numpy.random.default_rng(22)) or by hand; plan counts against what runs.
#include "../tensor/allocations.hpp"  // (first: it makes the library count allocations)
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;
using Catch::Matchers::Contains;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto w = ip::input<"w", float>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 2>;
constexpr auto S = ip::input<"S", float, ip::extents<2, 3>>;
constexpr auto T = ip::input<"T", float, ip::extents<2, 3>>;

std::vector<float> list(std::initializer_list<float> l) { return l; }
// A result's elements (a rank-0 one too), and a call's results as a tuple.
template <class R>
std::vector<float> elements(const R& r) {
  if constexpr (R::rank == 0) return {static_cast<float>(r)};
  else return values(r);
}
template <class R>
auto as_tuple(R&& r) {
  if constexpr (requires { std::tuple_size<std::remove_cvref_t<R>>::value; }) return std::forward<R>(r);
  else return std::tuple<std::remove_cvref_t<R>>{std::forward<R>(r)};
}
std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The loop that value v's node runs in (none: not in one), and the input its node is rewritten into.
template <class F, class V>
constexpr std::size_t loop_of(F, V) {
  using S_ = typename F::spec;
  constexpr std::size_t e = S_::entry_id(&std::remove_cvref_t<V>::entry::desc);
  return ip::detail::run::program<S_>::fused.group[e];
}
template <std::uint64_t Mask, class F, class V>
constexpr int rewritten(F, V) {
  using S_ = typename F::spec;
  constexpr std::size_t e = S_::entry_id(&std::remove_cvref_t<V>::entry::desc);
  return ip::detail::run::plan_for<S_, Mask>::value.rewritten[e];
}

template <bool Donated>
constexpr auto marker() {
  if constexpr (Donated) return ip::donated;
  else return ip::borrowed;
}
template <bool Donated, class T_>
decltype(auto) pass(T_& t) {
  if constexpr (Donated) return std::move(t);
  else return static_cast<const T_&>(t);
}
// f under donation mask M (bit k: input k donated) on fresh copies of `inputs`:
// what it allocates and copies is what ip::plan says (unless the arguments'
// extents make the call fall back: Planned false), and the same values as
// debug mode's reference.
template <std::uint64_t M, bool Planned, class F, class... T_, std::size_t... K>
void check_pattern(F f, const std::tuple<T_...>& inputs, std::index_sequence<K...>) {
  constexpr ip::plan_result p = ip::plan(f, marker<((M >> K) & 1u) != 0>()...);
  INFO("donation mask " << M);
  std::tuple<T_...> args = inputs, again = inputs;
  const auto reference = as_tuple(f.debug(std::get<K>(inputs)...));
  const int before = allocations::aligned();
  const auto result = as_tuple(f(pass<((M >> K) & 1u) != 0>(std::get<K>(args))...));
  if (Planned) {
    CHECK(allocations::aligned() - before == static_cast<int>(p.allocations));
    CHECK(ip::detail::run::last_call_counts.allocations == p.allocations);
    CHECK(ip::detail::run::last_call_counts.copies == p.copies);
  }
  const auto debugged = as_tuple(f.debug(pass<((M >> K) & 1u) != 0>(std::get<K>(again))...));
  [&]<std::size_t... O>(std::index_sequence<O...>) {
    const auto same = [](const auto& got, const auto& want) { CHECK(elements(got) == elements(want)); };
    (same(std::get<O>(result), std::get<O>(reference)), ...);
    (same(std::get<O>(debugged), std::get<O>(reference)), ...);
  }(std::make_index_sequence<std::tuple_size_v<std::remove_cvref_t<decltype(result)>>>{});
  // a borrowed input is left as it was
  const auto unchanged = [](const auto& now, const auto& was) { CHECK(values(now) == values(was)); };
  ((((M >> K) & 1u) == 0 ? unchanged(std::get<K>(args), std::get<K>(inputs)) : void()), ...);
}
template <bool Planned, class F, class... T_, std::uint64_t... M>
void check_all(F f, const std::tuple<T_...>& inputs, std::integer_sequence<std::uint64_t, M...>) {
  (check_pattern<M, Planned>(f, inputs, std::index_sequence_for<T_...>{}), ...);
}
template <bool Planned = true, class F, class... T_>
void check_all(F f, const std::tuple<T_...>& inputs) {
  check_all<Planned>(f, inputs, std::make_integer_sequence<std::uint64_t, (1u << sizeof...(T_))>{});
}

const ip::tensor<float> vx{0.5f, -1, 2, 0.25f, 3, -2, 1};
const ip::tensor<float> vy{1, 2, 3, 4, 5, 6, 7};
// numpy.random.default_rng(22).uniform(-4, 4, (2, 3)).round(3), twice, as float32
const ip::tensor<float, ip::extents<2, 3>> vS{{-1.069f, -2.406f, -3.292f}, {1.226f, -0.325f, 3.901f}};
const ip::tensor<float, ip::extents<2, 3>> vT{{2.813f, 2.696f, -3.588f}, {0.443f, 0.86f, -3.599f}};

constexpr auto sum_diff = ip::function(ip::inputs(x, y), ip::outputs(x + y, x - y));
}  // namespace

TEST_CASE("(x + y, x - y) over two donated inputs: one loop, nothing allocated", "[run][multi_result]") {
  // before: two loops, x - y in x's storage, x + y in a fresh buffer
  STATIC_REQUIRE(ip::plan(sum_diff, ip::donated, ip::donated) == ip::plan_result{0, 0, 1, 2, 0});
  STATIC_REQUIRE(ip::plan(sum_diff, ip::donated, ip::borrowed) == ip::plan_result{1, 0, 1, 1, ip::dynamic});
  STATIC_REQUIRE(ip::plan(sum_diff, ip::borrowed, ip::donated) == ip::plan_result{1, 0, 1, 1, ip::dynamic});
  STATIC_REQUIRE(ip::plan(sum_diff, ip::borrowed, ip::borrowed) == ip::plan_result{2, 0, 1, 0, ip::dynamic});
  STATIC_REQUIRE(loop_of(sum_diff, x + y) == loop_of(sum_diff, x - y));
  STATIC_REQUIRE(rewritten<3>(sum_diff, x + y) == 0);  // in x
  STATIC_REQUIRE(rewritten<3>(sum_diff, x - y) == 1);  // in y

  ip::tensor<float> a = vx, b = vy;
  const float *pa = a.data(), *pb = b.data();
  const int before = allocations::aligned();
  auto [s, d] = sum_diff(std::move(a), std::move(b));
  CHECK(allocations::aligned() == before);
  CHECK(ip::detail::run::last_call_counts.allocations == 0);
  CHECK(s.data() == pa);
  CHECK(d.data() == pb);
  CHECK(values(s) == list({1.5f, 1, 5, 4.25f, 8, 4, 8}));
  CHECK(values(d) == list({-0.5f, -3, -1, -3.75f, -2, -8, -6}));

  // one donated: its storage holds one result, the borrowed input is left as it was
  ip::tensor<float> c = vx;
  const float* pc = c.data();
  auto [s2, d2] = sum_diff(std::move(c), vy);
  CHECK(s2.data() == pc);
  CHECK(values(s2) == list({1.5f, 1, 5, 4.25f, 8, 4, 8}));
  CHECK(values(d2) == list({-0.5f, -3, -1, -3.75f, -2, -8, -6}));
  ip::tensor<float> e = vy;
  const float* pe = e.data();
  auto [s3, d3] = sum_diff(vx, std::move(e));
  CHECK(s3.data() == pe);  // x + y in y: x is borrowed
  CHECK(values(d3) == list({-0.5f, -3, -1, -3.75f, -2, -8, -6}));
  CHECK(values(vx) == list({0.5f, -1, 2, 0.25f, 3, -2, 1}));
  CHECK(values(vy) == list({1, 2, 3, 4, 5, 6, 7}));

  check_all(sum_diff, std::tuple{vx, vy});
}

TEST_CASE("the returned results keep the donated storage across calls", "[run][multi_result]") {
  ip::tensor<float> a = vx, b = vy;
  const float *pa = a.data(), *pb = b.data();
  const int before = allocations::aligned();
  for (int i = 0; i < 4; ++i) std::tie(a, b) = sum_diff(std::move(a), std::move(b));  // (a, b) -> (a + b, a - b)
  CHECK(allocations::aligned() == before);
  CHECK(a.data() == pa);
  CHECK(b.data() == pb);
  // twice: (a, b) -> (2a, 2b); four times: (4a, 4b)
  CHECK(values(a) == list({2, -4, 8, 1, 12, -8, 4}));
  CHECK(values(b) == list({4, 8, 12, 16, 20, 24, 28}));
}

TEST_CASE("debug mode agrees, and returns the donated storage too", "[run][multi_result]") {
  ip::tensor<float> a = vx, b = vy;
  const float *pa = a.data(), *pb = b.data();
  auto [s, d] = sum_diff.debug(std::move(a), std::move(b));
  CHECK(s.data() == pa);
  CHECK(d.data() == pb);
  CHECK(values(s) == list({1.5f, 1, 5, 4.25f, 8, 4, 8}));
  CHECK(values(d) == list({-0.5f, -3, -1, -3.75f, -2, -8, -6}));
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x + y, x - y), ip::debug);
  ip::tensor<float> c = vx, e = vy;
  auto [s2, d2] = f(std::move(c), std::move(e));
  CHECK(values(s2) == values(s));
  CHECK(values(d2) == values(d));
}

TEST_CASE("k results over static extents, and the rewrite's choice of input", "[run][multi_result]") {
  // three results over two inputs: the third needs a buffer
  constexpr auto f = ip::function(ip::inputs(S, T), ip::outputs(S + T, S - T, S * T));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::donated) == ip::plan_result{1, 0, 1, 2, 24});
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::borrowed) == ip::plan_result{3, 0, 1, 0, 72});
  ip::tensor<float, ip::extents<2, 3>> a = vS, b = vT;
  const float *pa = a.data(), *pb = b.data();
  auto [s, d, m] = f(std::move(a), std::move(b));
  CHECK(s.data() == pa);
  CHECK(d.data() == pb);
  CHECK(values(s) == list({1.74399995803833f, 0.29000020027160645f, -6.880000114440918f, 1.6689999103546143f,
                           0.5350000262260437f, 0.3020000457763672f}));
  CHECK(values(d) == list({-3.881999969482422f, -5.1020002365112305f, 0.29600000381469727f, 0.7829999923706055f,
                           -1.184999942779541f, 7.5f}));
  CHECK(values(m) == list({-3.007097005844116f, -6.486576080322266f, 11.81169605255127f, 0.5431179404258728f,
                           -0.27950000762939453f, -14.039698600769043f}));
  check_all(f, std::tuple{vS, vT});

  // (S + T, S * 2): S + T takes T, which S * 2 cannot, and S * 2 takes S
  constexpr auto g = ip::function(ip::inputs(S, T), ip::outputs(S + T, S * 2.0_c));
  STATIC_REQUIRE(ip::plan(g, ip::donated, ip::donated) == ip::plan_result{0, 0, 1, 2, 0});
  STATIC_REQUIRE(rewritten<3>(g, S + T) == 1);
  STATIC_REQUIRE(rewritten<3>(g, S * 2.0_c) == 0);
  ip::tensor<float, ip::extents<2, 3>> c = vS, e = vT;
  const float *pc = c.data(), *pe = e.data();
  auto [s2, twice] = g(std::move(c), std::move(e));
  CHECK(s2.data() == pe);
  CHECK(twice.data() == pc);
  CHECK(values(s2) == values(s));
  CHECK(values(twice) == list({-2.138000011444092f, -4.811999797821045f, -6.584000110626221f, 2.4519999027252197f,
                               -0.6499999761581421f, 7.802000045776367f}));
  check_all(g, std::tuple{vS, vT});
}

TEST_CASE("chains and dead intermediates: every result in a dying storage", "[run][multi_result]") {
  // exp(x) + y runs in x's storage, x - y in y's, in one loop that reads x and y once
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::exp(x) + y, x - y));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::donated) == ip::plan_result{0, 0, 1, 3, 0});
  ip::tensor<float> a = vx, b = vy;
  const float *pa = a.data(), *pb = b.data();
  auto [s, d] = f(std::move(a), std::move(b));
  CHECK(s.data() == pa);
  CHECK(d.data() == pb);
  const std::vector<float> numpy{2.648721218109131f, 2.3678793907165527f, 10.389055252075195f, 5.2840256690979f,
                                 25.08553695678711f, 6.135335445404053f, 9.718281745910645f};  // np.exp(x) + y
  for (std::size_t i = 0; i < numpy.size(); ++i) CHECK(s[i] == Approx(numpy[i]).epsilon(1e-6));
  CHECK(values(d) == list({-0.5f, -3, -1, -3.75f, -2, -8, -6}));
  check_all(f, std::tuple{vx, vy});

  // t = x * 2 is read by two loops' nodes: stored (in x), then dead after the loop that writes both results
  constexpr auto t = x * 2.0_c;
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(t + y, t - y));
  STATIC_REQUIRE(ip::plan(g, ip::donated, ip::donated) == ip::plan_result{0, 0, 2, 3, 0});
  STATIC_REQUIRE(ip::plan(g, ip::borrowed, ip::donated) == ip::plan_result{1, 0, 2, 2, ip::dynamic});
  STATIC_REQUIRE(loop_of(g, t + y) == loop_of(g, t - y));
  ip::tensor<float> c = vx, e = vy;
  auto [s2, d2] = g(std::move(c), std::move(e));
  CHECK(values(s2) == list({2, 0, 7, 4.5f, 11, 2, 9}));
  CHECK(values(d2) == list({0, -4, 1, -3.5f, 1, -10, -5}));
  check_all(g, std::tuple{vx, vy});

  // both results read later by one kernel: they are alive together anyway
  constexpr auto h = ip::function(ip::inputs(A, B), ip::outputs(ip::dot(A + B, A - B)));
  STATIC_REQUIRE(ip::plan(h, ip::donated, ip::donated) == ip::plan_result{1, 0, 2, 2, ip::dynamic});  // was 2, 0, 3, 1
  STATIC_REQUIRE(ip::plan(h, ip::borrowed, ip::borrowed).allocations == 3);
  const ip::tensor<float, 2> mA{{1, 2}, {3, 4}}, mB{{5, -1}, {0, 2}};
  ip::tensor<float, 2> ca = mA, cb = mB;
  CHECK(values(h(std::move(ca), std::move(cb))) == list({-21, 20, 6, 21}));  // (A + B) @ (A - B)
  check_all(h, std::tuple{mA, mB});
}

TEST_CASE("not joined: a later reader, a broadcast or transposed read, other extents", "[run][multi_result]") {
  // x is read later by reduce_sum: only y dies in a loop of both results, which could hold
  // one of them as well as two loops do; two loops, as before
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x + y, x - y, ip::reduce_sum(x)));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::donated) == ip::plan_result{2, 0, 3, 1, ip::dynamic});
  STATIC_REQUIRE(loop_of(f, x + y) != loop_of(f, x - y));
  ip::tensor<float> a = vx, b = vy;
  auto [s, d, total] = f(std::move(a), std::move(b));
  CHECK(values(s) == list({1.5f, 1, 5, 4.25f, 8, 4, 8}));
  CHECK(values(d) == list({-0.5f, -3, -1, -3.75f, -2, -8, -6}));
  CHECK(static_cast<float>(total) == 3.75f);
  check_all(f, std::tuple{vx, vy});

  // x is read broadcast (as each row of A): A holds one result, the other needs a buffer
  constexpr auto g = ip::function(ip::inputs(A, x), ip::outputs(A + x, A - x));
  STATIC_REQUIRE(ip::plan(g, ip::donated, ip::donated) == ip::plan_result{1, 0, 2, 1, ip::dynamic});
  STATIC_REQUIRE(loop_of(g, A + x) != loop_of(g, A - x));
  const ip::tensor<float, 2> mA{{1, 2, 3}, {4, 5, 6}};
  const ip::tensor<float> row{10, 20, 30};
  ip::tensor<float, 2> ca = mA;
  ip::tensor<float> cr = row;
  const float* pa = ca.data();
  auto [gs, gd] = g(std::move(ca), std::move(cr));
  CHECK(gd.data() == pa);  // (the last reader of A)
  CHECK(values(gs) == list({11, 22, 33, 14, 25, 36}));
  CHECK(values(gd) == list({-9, -18, -27, -6, -15, -24}));
  check_all(g, std::tuple{mA, row});

  // B is read transposed by one result: B's readers do not join; two loops as before
  constexpr auto h = ip::function(ip::inputs(A, B), ip::outputs(A + B, A - ip::transpose(B)));
  STATIC_REQUIRE(ip::plan(h, ip::donated, ip::donated) == ip::plan_result{1, 0, 2, 1, ip::dynamic});
  STATIC_REQUIRE(loop_of(h, A + B) != loop_of(h, A - ip::transpose(B)));
  const ip::tensor<float, 2> sq{{1, 2}, {3, 4}}, sq2{{10, 20}, {30, 40}};
  check_all(h, std::tuple{sq, sq2});

  // x + y and x - w may have other extents (y or w of extent 1 in some call): two loops
  constexpr auto k = ip::function(ip::inputs(x, y, w), ip::outputs(x + y, x - w));
  STATIC_REQUIRE(ip::plan(k, ip::donated, ip::donated, ip::donated).loops == 2);
  STATIC_REQUIRE(loop_of(k, x + y) != loop_of(k, x - w));
  check_all(k, std::tuple{vx, vy, vy});
  check_all<false>(k, std::tuple{vx, ip::tensor<float>{2}, vy});  // y broadcast: may fall back

  // two opaque reductions (argmax: a kernel of its own) of two loops over x: joined, the loops'
  // buffers would both be alive; not joined, one is reused
  constexpr auto r = ip::function(ip::inputs(x), ip::outputs(ip::argmax(x + 1.0_c), ip::argmax(x * 2.0_c)));
  STATIC_REQUIRE(ip::plan(r, ip::borrowed) == ip::plan_result{3, 0, 4, 0, ip::dynamic});
  STATIC_REQUIRE(loop_of(r, x + 1.0_c) != loop_of(r, x * 2.0_c));
  check_all(r, std::tuple{vx});
  // sums over every axis take their loops into their own row loops: nothing of either stored
  constexpr auto sums = ip::function(ip::inputs(x), ip::outputs(ip::reduce_sum(x + 1.0_c), ip::reduce_sum(x * 2.0_c)));
  STATIC_REQUIRE(ip::plan(sums, ip::borrowed) == ip::plan_result{2, 0, 2, 0, 2 * sizeof(float)});
  check_all(sums, std::tuple{vx});
}

TEST_CASE("a joined loop whose arguments broadcast at run time runs the all-borrowed plan", "[run][multi_result]") {
  // y of extent 1: x - y does not fit y's storage; the call falls back, same values
  ip::tensor<float> a = vx, b{1};
  const int before = allocations::aligned();
  auto [s, d] = sum_diff(std::move(a), std::move(b));
  CHECK(allocations::aligned() - before == 2);  // two fresh results, as all-borrowed
  CHECK(values(s) == list({1.5f, 0, 3, 1.25f, 4, -1, 2}));
  CHECK(values(d) == list({-0.5f, -2, 1, -0.75f, 2, -3, 0}));
  check_all<false>(sum_diff, std::tuple{vx, ip::tensor<float>{1}});
  check_all<false>(sum_diff, std::tuple{ip::tensor<float>{1}, vy});
}

TEST_CASE("explain and to_dot describe the one loop and both storages", "[run][multi_result][explain]") {
  const auto l = lines(ip::explain(sum_diff, ip::donated, ip::donated));
  REQUIRE(l.size() == 5);
  CHECK(l[0] == "plan for (x: donated, y: donated)");
  CHECK(l[1] == "  #0  add(x, y)  loop 0  in x's storage (donated), in place of x (rewrite)");
  CHECK(l[2] == "  #1  sub(x, y)  loop 0  in y's storage (donated), in place of y (rewrite)");
  CHECK(l[3] == "returns #0, #1");
  CHECK(l[4] == "totals: allocations 0, copies 0, loops 1, in_place 2, peak_bytes 0");
  const auto b = lines(ip::explain(sum_diff, ip::borrowed, ip::borrowed));
  CHECK(b[1] == "  #0  add(x, y)  loop 0  fresh buffer 0; stayed pure: its input is borrowed (donate it with std::move)");
  CHECK(b[2] == "  #1  sub(x, y)  loop 0  fresh buffer 1; stayed pure: its input is borrowed (donate it with std::move)");
  const std::string dot = ip::to_dot(sum_diff, ip::donated, ip::donated);
  CHECK_THAT(dot, Contains("subgraph cluster_loop0 {"));
  CHECK_THAT(dot, !Contains("cluster_loop1"));
  CHECK_THAT(dot, Contains("n2 [label=\"#0 add\\nin x's storage (donated), in place of x (rewrite)\"];"));
  CHECK_THAT(dot, Contains("n3 [label=\"#1 sub\\nin y's storage (donated), in place of y (rewrite)\"];"));
  CHECK_THAT(dot, Contains("n0 -> n2 [color=red];"));
  CHECK_THAT(dot, Contains("n1 -> n3 [color=red];"));
}
