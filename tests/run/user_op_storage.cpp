// User ops whose destroy_map puts outputs over several inputs, called with
// borrowed arguments: what scripts/gen_user_op_graphs.py found (two storage
// bugs, fixed), and more of the same classes. A destroy_map lists inputs the
// kernel may overwrite: each one borrowed is copied first (one copy each,
// counted by ip::plan), and a copy never lands in storage the node still reads.
// Every graph runs under every donation pattern, with ip::no_rewrite and in
// debug mode (uo::run: values against the formulas, borrowed arguments
// unchanged), and its calls allocate and copy what ip::plan says.
#include "../tensor/allocations.hpp"
#include "user_op_graphs.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <utility>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;

namespace user_op_storage {
// out = a + b in a's storage; b is listed too, so the kernel may overwrite it
// (it zeroes it): a borrowed b must be copied first, as a is.
struct add_consuming_both {
  static constexpr std::string_view name = "add_consuming_both";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0, 1>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 2>& in) { return in[0]; }
  template <class O, class A, class B>
  void kernel(const O& out, const A& a, const B& b) const {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = a[i] + b[i];
    for (std::size_t i = 0; i < b.size(); ++i) const_cast<float&>(b[i]) = 0;
  }
};
// Three outputs, each over its own input: out0 = a + b over a; out1 (= b) over
// b and out2 (= c) over c, left in place.
struct three {
  static constexpr std::string_view name = "three";
  static constexpr std::size_t num_outputs = 3;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>),
                                                     hana::make_pair(hana::int_c<1>, hana::tuple_c<int, 1>),
                                                     hana::make_pair(hana::int_c<2>, hana::tuple_c<int, 2>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 3>& in) { return in[0]; }
  template <class O0, class O1, class O2, class A, class B, class C>
  void kernel(const O0& o0, const O1&, const O2&, const A& a, const B& b, const C&) const {
    for (std::size_t i = 0; i < a.size(); ++i) o0[i] = a[i] + b[i];
  }
};
// out = a * b + c in b's storage ({0: [1, 2]}); c is overwritten with junk
// after, a only read. The kernel reads every input before writing.
struct mid {
  static constexpr std::string_view name = "mid";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 1, 2>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 3>& in) { return in[1]; }
  template <class O, class A, class B, class C>
  void kernel(const O& out, const A& a, const B& b, const C& c) const {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = a[i] * b[i] + c[i];
    uo::scribble(c);
  }
};
// Two outputs: out0 = a - b over b, out1 = a + b fresh; a is listed after b
// ({0: [1, 0]}): destroyed too, with junk.
struct two_over_one {
  static constexpr std::string_view name = "two_over_one";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 1, 0>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 2>& in) { return in[0]; }
  template <class O0, class O1, class A, class B>
  void kernel(const O0& o0, const O1& o1, const A& a, const B& b) const {
    for (std::size_t i = 0; i < o0.size(); ++i) {
      const float x = a[i], y = b[i];
      o0[i] = x - y;
      o1[i] = x + y;
    }
    uo::scribble(a);
  }
};
}  // namespace user_op_storage

namespace {
// Every donation pattern of f on `in`: the call allocates and copies what
// ip::plan says (INPLACE_COUNT_ALLOCATIONS counts, ../tensor/allocations.hpp).
template <bool Donated>
constexpr auto marker() {
  if constexpr (Donated) return ip::donated;
  else return ip::borrowed;
}
template <std::uint64_t M, class F, class... T, std::size_t... K>
void counts_of(F f, const std::tuple<T...>& in, std::index_sequence<K...>) {
  constexpr ip::plan_result p = ip::plan(f, marker<((M >> K) & 1u) != 0>()...);
  std::tuple<T...> args = in;
  const int before = allocations::aligned();
  {
    const auto r = f(rg::pass<M, K>(std::get<K>(args))...);
    INFO("donation mask " << M);
    CHECK(allocations::aligned() - before == static_cast<int>(p.allocations));
    CHECK(ip::detail::run::last_call_counts.allocations == p.allocations);
    CHECK(ip::detail::run::last_call_counts.copies == p.copies);
  }
}
template <class F, class... T, std::uint64_t... M>
void check_counts(F f, const std::tuple<T...>& in, std::integer_sequence<std::uint64_t, M...>) {
  (counts_of<M>(f, in, std::index_sequence_for<T...>{}), ...);
}
template <class F, class... T>
void check_counts(F f, T... in) {
  check_counts(f, std::tuple<T...>(std::move(in)...), std::make_integer_sequence<std::uint64_t, (1u << sizeof...(T))>{});
}

std::vector<double> each(std::initializer_list<float> a, double (*fn)(double)) {
  std::vector<double> r;
  for (float v : a) r.push_back(fn(v));
  return r;
}
}  // namespace

TEST_CASE("a destroy_map listing a second input copies that input when it is borrowed", "[run][user_ops]") {
  constexpr auto x = ip::input<"x", float>;
  constexpr auto y = ip::input<"y", float>;
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(user_op_storage::add_consuming_both{}, x, y)));
  ip::tensor<float> a{1, 2, 3}, b{10, 20, 30};
  const auto r = f(a, b);
  CHECK(r[2] == 33);
  CHECK(a[2] == 3);
  CHECK(b[2] == 30);  // was 0: y was not copied (explain: "copies 1", of x only)
  // one copy (and buffer) per borrowed input the kernel may overwrite
  constexpr auto bb = ip::plan(f, ip::borrowed, ip::borrowed);
  static_assert(bb.copies == 2);
  static_assert(bb.allocations == 2);
  constexpr auto db = ip::plan(f, ip::donated, ip::borrowed);
  static_assert(db.copies == 1);
  static_assert(db.allocations == 1);
  constexpr auto bd = ip::plan(f, ip::borrowed, ip::donated);
  static_assert(bd.copies == 1);
  static_assert(bd.allocations == 1);
  constexpr auto dd = ip::plan(f, ip::donated, ip::donated);
  static_assert(dd.copies == 0);
  static_assert(dd.allocations == 0);
  const std::string text = ip::explain(f, ip::borrowed, ip::borrowed);
  INFO(text);
  CHECK(text.find("copies 2") != std::string::npos);
  CHECK(text.find("input 1 (y): copy (copy-protection), buffer 0") != std::string::npos);

  constexpr auto fn = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(user_op_storage::add_consuming_both{}, x, y)),
                                   ip::no_rewrite);
  uo::run("add_consuming_both(x, y)", f, fn, {uo::want({3}, {11, 22, 33})}, uo::vec({1, 2, 3}), uo::vec({10, 20, 30}));
  check_counts(f, uo::vec({1, 2, 3}), uo::vec({10, 20, 30}));
  ip::tensor<float> c{1, 2, 3}, d{10, 20, 30};
  const auto g = f.debug(c, d);
  CHECK(g[0] == 11);
  CHECK(d[0] == 10);
  CHECK(c[0] == 1);
}

TEST_CASE("a borrowed input's copy never lands in the buffer of another input of the same node", "[run][user_ops]") {
  constexpr auto s = ip::input<"s", float>;
  constexpr auto n0 = ip::tanh(s);
  constexpr auto n1 = n0 + 1.5_c;
  constexpr auto n = ip::apply(user_op_storage::three{}, n1, n0, s);
  constexpr auto f = ip::function(ip::inputs(s), ip::outputs(hana::at_c<0>(n)));
  ip::tensor<float> a{0.5f, -1.0f, 0.25f};
  const auto r = f(a);  // the plan copied s into n0's buffer before the kernel read n0
  for (std::size_t i = 0; i < 3; ++i) CHECK(r[i] == Approx(2 * std::tanh(a[i]) + 1.5f));
  const auto d = f(ip::tensor<float>(a));  // donated: right
  for (std::size_t i = 0; i < 3; ++i) CHECK(d[i] == Approx(2 * std::tanh(a[i]) + 1.5f));
  // the copy of s gets a buffer of its own: n0's and n1's are both read by the node
  const std::string text = ip::explain(f, ip::borrowed);
  INFO(text);
  CHECK(text.find("copy of s (copy-protection), buffer 0") == std::string::npos);

  constexpr auto fn = ip::function(ip::inputs(s), ip::outputs(hana::at_c<0>(n)), ip::no_rewrite);
  const auto in = {0.5f, -1.0f, 0.25f};
  uo::run("three(tanh(s) + 1.5, tanh(s), s)", f, fn,
          {uo::want({3}, each(in, [](double v) { return 2 * std::tanh(static_cast<float>(v)) + 1.5; }))}, uo::vec(in));
  check_counts(f, uo::vec(in));
  // every output returned: the in-place ones too
  constexpr auto f3 = ip::function(ip::inputs(s), ip::outputs(hana::at_c<0>(n), hana::at_c<1>(n), hana::at_c<2>(n)));
  constexpr auto f3n = ip::function(ip::inputs(s), ip::outputs(hana::at_c<0>(n), hana::at_c<1>(n), hana::at_c<2>(n)),
                                    ip::no_rewrite);
  uo::run("three(...) all outputs", f3, f3n,
          {uo::want({3}, each(in, [](double v) { return 2 * std::tanh(static_cast<float>(v)) + 1.5; })),
           uo::want({3}, each(in, [](double v) { return std::tanh(static_cast<float>(v)) + 0.0; })),
           uo::want({3}, each(in, [](double v) { return v; }))},
          uo::vec(in));
  check_counts(f3, uo::vec(in));
  // the copy of s (never read after) in a buffer that died earlier (exp(s)'s,
  // destroyed by mid): that buffer stays allocated until the node has run
  constexpr auto w = ip::apply(user_op_storage::mid{}, s, ip::tanh(s), ip::exp(s));
  constexpr auto n2 = ip::apply(user_op_storage::three{}, w + 1.5_c, w, s);
  constexpr auto f4 = ip::function(ip::inputs(s), ip::outputs(hana::at_c<0>(n2)));
  constexpr auto f4n = ip::function(ip::inputs(s), ip::outputs(hana::at_c<0>(n2)), ip::no_rewrite);
  const auto want4 = each(in, [](double v) {
    const float a = static_cast<float>(v), wv = a * std::tanh(a) + std::exp(a);
    return 2.0 * wv + 1.5;
  });
  INFO(ip::explain(f4, ip::borrowed));
  uo::run("three(w + 1.5, w, s), w = mid(s, tanh(s), exp(s))", f4, f4n, {uo::want({3}, want4)}, uo::vec(in));
  check_counts(f4, uo::vec(in));
  static_assert(ip::plan(f4, ip::borrowed).copies == 1);
}

TEST_CASE("destroy_map {0: [1, 2]}: the second listed input is copied when borrowed, in any mix", "[run][user_ops]") {
  constexpr auto x = ip::input<"x", float>;
  constexpr auto y = ip::input<"y", float>;
  constexpr auto z = ip::input<"z", float>;
  constexpr auto m = ip::apply(user_op_storage::mid{}, x, y, z);
  constexpr auto f = ip::function(ip::inputs(x, y, z), ip::outputs(m));
  constexpr auto fn = ip::function(ip::inputs(x, y, z), ip::outputs(m), ip::no_rewrite);
  uo::run("mid(x, y, z)", f, fn, {uo::want({3}, {1 * 4 + 7, 2 * 5 + 8, 3 * 6 + 9})}, uo::vec({1, 2, 3}),
          uo::vec({4, 5, 6}), uo::vec({7, 8, 9}));
  check_counts(f, uo::vec({1, 2, 3}), uo::vec({4, 5, 6}), uo::vec({7, 8, 9}));
  // x is only read: never copied
  static_assert(ip::plan(f, ip::borrowed, ip::borrowed, ip::borrowed).copies == 2);
  static_assert(ip::plan(f, ip::borrowed, ip::donated, ip::borrowed).copies == 1);
  static_assert(ip::plan(f, ip::donated, ip::borrowed, ip::donated).copies == 1);
  static_assert(ip::plan(f, ip::borrowed, ip::donated, ip::donated).copies == 0);
  // the destroyed input a view of a borrowed one: its copy holds the view's elements
  constexpr auto mr = ip::apply(user_op_storage::mid{}, x, y, ip::reverse(z));
  constexpr auto fr = ip::function(ip::inputs(x, y, z), ip::outputs(mr));
  constexpr auto frn = ip::function(ip::inputs(x, y, z), ip::outputs(mr), ip::no_rewrite);
  uo::run("mid(x, y, reverse(z))", fr, frn, {uo::want({3}, {1 * 4 + 9, 2 * 5 + 8, 3 * 6 + 7})}, uo::vec({1, 2, 3}),
          uo::vec({4, 5, 6}), uo::vec({7, 8, 9}));
  check_counts(fr, uo::vec({1, 2, 3}), uo::vec({4, 5, 6}), uo::vec({7, 8, 9}));
  static_assert(ip::plan(fr, ip::borrowed, ip::donated, ip::borrowed).copies == 1);
  ip::tensor<float> a{1, 2, 3}, b{4, 5, 6}, c{7, 8, 9};
  const auto r = f.debug(a, b, c);
  CHECK(r[2] == 27);
  CHECK((a[2] == 3 && b[2] == 6 && c[2] == 9));
}

TEST_CASE("copies made while the node's other operands live never take their buffers", "[run][user_ops]") {
  constexpr auto y = ip::input<"y", float>;
  constexpr auto t = ip::tanh(y);
  constexpr auto e = ip::exp(y * 0.5_c);
  // the copy of borrowed y is made while t and e (intermediates the node reads) live
  constexpr auto m = ip::apply(user_op_storage::mid{}, t, e, y);
  constexpr auto f = ip::function(ip::inputs(y), ip::outputs(m));
  constexpr auto fn = ip::function(ip::inputs(y), ip::outputs(m), ip::no_rewrite);
  const auto in = {0.5f, -1.0f, 0.25f, 2.0f};
  const auto want = each(in, [](double v) {
    const float a = static_cast<float>(v);
    return static_cast<double>(std::tanh(a)) * std::exp(a * 0.5f) + a;
  });
  uo::run("mid(tanh(y), exp(y * 0.5), y)", f, fn, {uo::want({4}, want)}, uo::vec(in));
  check_counts(f, uo::vec(in));
  static_assert(ip::plan(f, ip::borrowed).copies == 1);
  static_assert(ip::plan(f, ip::donated).copies == 0);
  // the destroyed second input an intermediate: overwritten as it is, no copy
  constexpr auto m2 = ip::apply(user_op_storage::mid{}, y, e, ip::tanh(y));
  constexpr auto f2 = ip::function(ip::inputs(y), ip::outputs(m2));
  constexpr auto f2n = ip::function(ip::inputs(y), ip::outputs(m2), ip::no_rewrite);
  const auto want2 = each(in, [](double v) {
    const float a = static_cast<float>(v);
    return a * static_cast<double>(std::exp(a * 0.5f)) + std::tanh(a);
  });
  uo::run("mid(y, exp(y * 0.5), tanh(y))", f2, f2n, {uo::want({4}, want2)}, uo::vec(in));
  check_counts(f2, uo::vec(in));
  static_assert(ip::plan(f2, ip::borrowed).copies == 0);
}

TEST_CASE("an output over one input and another input destroyed: both protected", "[run][user_ops]") {
  constexpr auto x = ip::input<"x", float>;
  constexpr auto y = ip::input<"y", float>;
  constexpr auto n = ip::apply(user_op_storage::two_over_one{}, x, ip::neg(y));
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(hana::at_c<0>(n), hana::at_c<1>(n)));
  constexpr auto fn = ip::function(ip::inputs(x, y), ip::outputs(hana::at_c<0>(n), hana::at_c<1>(n)), ip::no_rewrite);
  const auto xs = {1.0f, 2.0f, 3.0f}, ys = {0.5f, -0.25f, 1.0f};
  std::vector<double> d, s;
  for (std::size_t i = 0; i < 3; ++i) {
    const float a = xs.begin()[i], b = -ys.begin()[i];
    d.push_back(a - b);
    s.push_back(a + b);
  }
  uo::run("two_over_one(x, neg(y))", f, fn, {uo::want({3}, d), uo::want({3}, s)}, uo::vec(xs), uo::vec(ys));
  check_counts(f, uo::vec(xs), uo::vec(ys));
  static_assert(ip::plan(f, ip::borrowed, ip::borrowed).copies == 1);
  static_assert(ip::plan(f, ip::donated, ip::borrowed).copies == 0);
}

namespace user_op_storage {
// add_consuming_both whose second run (in debug mode: the call, after the
// reference) computes something else: the two disagree after the call
// overwrote its copy of b.
inline int flaky_runs = 0;
struct flaky_consuming {
  static constexpr std::string_view name = "flaky_consuming";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0, 1>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 2>& in) { return in[0]; }
  template <class O, class A, class B>
  void kernel(const O& out, const A& a, const B& b) const {
    const float k = flaky_runs++ == 1 ? 1.0f : 0.0f;  // the call: the reference's first run is 0
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = a[i] + b[i] + k;
    uo::scribble(b);
  }
};
}  // namespace user_op_storage

TEST_CASE("a debug call that throws debug_error has not modified a borrowed argument", "[run][user_ops][debug]") {
  constexpr auto x = ip::input<"x", float>;
  constexpr auto y = ip::input<"y", float>;
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(user_op_storage::flaky_consuming{}, x, y)));
  ip::tensor<float> a{1, 2, 3}, b{10, 20, 30};
  user_op_storage::flaky_runs = 0;
  CHECK_THROWS_AS(f.debug(a, b), ip::debug_error);
  CHECK(user_op_storage::flaky_runs >= 2);  // the call itself ran
  CHECK((a[0] == 1 && a[1] == 2 && a[2] == 3));
  CHECK((b[0] == 10 && b[1] == 20 && b[2] == 30));
}
