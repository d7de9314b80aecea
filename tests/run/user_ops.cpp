// User ops at run time, with any view_map and destroy_map: views of any input,
// several outputs, registered in-place variants on any input and output, and
// the rewrite's refusals around them. Every graph runs under every donation
// pattern and with ip::no_rewrite, against a naive reference, with borrowed
// arguments checked unchanged, allocations checked against ip::plan, and once
// in debug mode.
#include "../tensor/allocations.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;
using ip::detail::run::refusal;

namespace {
using values_t = std::vector<std::vector<double>>;  // each output's (or input's) elements, row-major

template <class T>
std::vector<double> elements(const T& t) {
  std::vector<double> r;
  for (std::size_t i = 0; i < t.size(); ++i) r.push_back(static_cast<double>(t[i]));
  return r;
}
}  // namespace

// The ops live in a named namespace: clang warns about unused members (maps read
// only by the library) of classes in an anonymous one.
namespace user_ops {
template <int O, int... J>
constexpr auto entry = hana::make_pair(hana::int_c<O>, hana::tuple_c<int, J...>);

// ---- view ops -------------------------------------------------------------------------
struct pick_second {  // view_map {0: [1]}: output 0 is input 1 (PyTensor's BadAddRef, made honest)
  static constexpr std::string_view name = "pick_second";
  static constexpr auto view_map = hana::make_map(entry<0, 1>);
  template <class V>
  static auto view(const V& v) {
    return v;
  }
};
struct head_and_tail {  // view_map {0: [0], 1: [0]}: r0 = a, r1 = a[1:]
  static constexpr std::string_view name = "head_and_tail";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto view_map = hana::make_map(entry<0, 0>, entry<1, 0>);
  static constexpr ip::shape output_shape(std::size_t o, const std::array<ip::shape, 1>& in) {
    ip::shape s = in[0];
    if (o == 1 && s.extent[0] != ip::dynamic) s.extent[0] -= 1;
    return s;
  }
  template <std::size_t O, class V>
  static auto view(const V& v) {
    if constexpr (O == 0) return v;
    else return ip::slice<1>(v);
  }
};
struct swapped {  // view_map {0: [1], 1: [0]}: (b, a)
  static constexpr std::string_view name = "swapped";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto view_map = hana::make_map(entry<0, 1>, entry<1, 0>);
  template <std::size_t O, class V>
  static auto view(const V& v) {
    return v;
  }
};

// An opaque op with a view output: output 0 is input 1 itself (view_map {0: [1]}),
// output 1 = a * b, computed by its kernel (which takes only the computed outputs).
struct second_and_product {
  static constexpr std::string_view name = "second_and_product";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto view_map = hana::make_map(entry<0, 1>);
  template <std::size_t O, class V>
  static auto view(const V& v) {
    return v;
  }
  template <class O1, class A, class B>
  void kernel(const O1& o1, const A& a, const B& b) const {
    for (std::size_t i = 0; i < a.extent(0); ++i) o1(i) = a(i) * b(i);
  }
};

// ---- several outputs, in-place variants on any input ------------------------------------
// (x + y, x * y); its variants compute output J over input J (PyTensor's
// test_multiple_inplace registers the one of input 1 with destroy_map {1: [1]}).
struct multiple_kernel {
  template <class O0, class O1, class X, class Y>
  void kernel(const O0& o0, const O1& o1, const X& x, const Y& y) const {
    for (std::size_t i = 0; i < x.extent(0); ++i) {
      const auto a = x(i), b = y(i);  // both read before either output is written
      o0(i) = a + b;
      o1(i) = a * b;
    }
  }
};
struct multiple : multiple_kernel {
  static constexpr std::string_view name = "multiple";
  static constexpr std::size_t num_outputs = 2;
};
struct multiple_in_x : multiple_kernel {
  static constexpr std::string_view name = "multiple_in_x";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(entry<0, 0>);
};
struct multiple_in_y : multiple_kernel {
  static constexpr std::string_view name = "multiple_in_y";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(entry<1, 1>);
};

struct multiple_in_both : multiple_kernel {  // written explicitly: {0: [0], 1: [1]}
  static constexpr std::string_view name = "multiple_in_both";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(entry<0, 0>, entry<1, 1>);
};
struct multiple_swapped_in : multiple_kernel {  // written explicitly: {0: [1], 1: [0]}
  static constexpr std::string_view name = "multiple_swapped_in";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(entry<0, 1>, entry<1, 0>);
};

// Three outputs (a - b, a + b, a * b); its variant for input 0 computes output 2 over a.
struct triple_kernel {
  template <class O0, class O1, class O2, class A, class B>
  void kernel(const O0& o0, const O1& o1, const O2& o2, const A& a, const B& b) const {
    for (std::size_t i = 0; i < a.extent(0); ++i) {
      const auto p = a(i), q = b(i);
      o0(i) = p - q;
      o1(i) = p + q;
      o2(i) = p * q;
    }
  }
};
struct triple : triple_kernel {
  static constexpr std::string_view name = "triple";
  static constexpr std::size_t num_outputs = 3;
};
struct triple_in_a : triple_kernel {
  static constexpr std::string_view name = "triple_in_a";
  static constexpr std::size_t num_outputs = 3;
  static constexpr auto destroy_map = hana::make_map(entry<2, 0>);
};

// ---- an opaque op reading its destroyed input twice -------------------------------------
// a * b - c in two passes: the second pass reads c after the first wrote the
// output, so c must not be the storage the output is computed in.
struct two_pass_kernel {
  template <class O, class A, class B, class C>
  void kernel(const O& o, const A& a, const B& b, const C& c) const {
    for (std::size_t i = 0; i < a.extent(0); ++i) o(i) = a(i) * b(i);
    for (std::size_t i = 0; i < a.extent(0); ++i) o(i) -= c(i);
  }
};
struct two_pass : two_pass_kernel {
  static constexpr std::string_view name = "two_pass";
};
struct two_pass_in_a : two_pass_kernel {
  static constexpr std::string_view name = "two_pass_in_a";
  static constexpr auto destroy_map = hana::make_map(entry<0, 0>);
};
// The same as an elementwise op: reading a twice with the output's own pattern is safe.
struct mul_sub {
  static constexpr std::string_view name = "mul_sub";
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto a, auto b, auto c) const { return a * b - c; }
};
}  // namespace user_ops
using namespace user_ops;

template <>
struct ip::inplace_variant_traits<multiple, 0> {
  using type = multiple_in_x;
};
template <>
struct ip::inplace_variant_traits<multiple, 1> {
  using type = multiple_in_y;
};
template <>
struct ip::inplace_variant_traits<triple, 0> {
  using type = triple_in_a;
};
template <>
struct ip::inplace_variant_traits<two_pass, 0> {
  using type = two_pass_in_a;
};
template <>
struct ip::inplace_variant_traits<mul_sub, 0> {
  using type = ip::ops::inplace_op<mul_sub, 0>;
};

namespace {
// ---- the harness ------------------------------------------------------------------------
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
    for (std::size_t i = 0; i < got[o].size(); ++i) CHECK(got[o][i] == Approx(want[o][i]).epsilon(1e-6));
  }
}

// One call of f under donation mask M: values, borrowed arguments, allocations.
template <std::uint64_t M, class F, class... T, std::size_t... K>
void run_pattern(F f, const std::tuple<T...>& inputs, const values_t& want, std::index_sequence<K...>) {
  INFO("donation mask " << M);
  constexpr ip::plan_result p = ip::plan(f, marker<bit<M, K>>()...);
  std::tuple<T...> args = inputs;  // fresh storage for every call
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
// f and its ip::no_rewrite twin g, under every donation pattern, against ref(inputs).
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

// Elementwise helpers for the references.
[[maybe_unused]] std::vector<double> zip(const std::vector<double>& a, const std::vector<double>& b, double (*op)(double, double)) {
  std::vector<double> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = op(a[i], b[i]);
  return r;
}
[[maybe_unused]] double plus(double a, double b) { return a + b; }
[[maybe_unused]] double times(double a, double b) { return a * b; }
[[maybe_unused]] double minus(double a, double b) { return a - b; }
[[maybe_unused]] double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}
[[maybe_unused]] std::vector<double> map(const std::vector<double>& a, double (*op)(double)) {
  std::vector<double> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = op(a[i]);
  return r;
}
[[maybe_unused]] double twice(double a) { return 2 * a; }

constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
const ip::tensor<float> vx{0.5f, -1, 2, 0.25f, 3};
const ip::tensor<float> vy{1, 2, 3, 4, 5};
}  // namespace

// ---- 1. a view of an input other than 0 -----------------------------------------------
TEST_CASE("a view op whose view_map names input 1 views input 1", "[run][user_ops]") {
  constexpr auto v = ip::apply(pick_second{}, x, y);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(v * 2.0_c), std::tuple(vx, vy),
                   [](const values_t& in) { return values_t{map(in[1], twice)}; });
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(v, x), std::tuple(vx, vy),
                   [](const values_t& in) { return values_t{in[1], in[0]}; });
  // an in-place op over the view overwrites y, not x
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(ip::mul_inplace(v, 2.0_c), x), std::tuple(vx, vy),
                   [](const values_t& in) { return values_t{map(in[1], twice), in[0]}; });
}

// ---- 2. a view op with several outputs ---------------------------------------------------
TEST_CASE("a view op with two outputs sets both", "[run][user_ops]") {
  constexpr auto ht = ip::apply(head_and_tail{}, x);
  constexpr auto head = hana::at_c<0>(ht);
  constexpr auto tail = hana::at_c<1>(ht);
  const auto ref = [](const values_t& in) {
    return values_t{map(in[0], twice), std::vector<double>(in[0].begin() + 1, in[0].end())};
  };
  CHECK_EVERYWHERE(ip::inputs(x), ip::outputs(head * 2.0_c, tail), std::tuple(vx), ref);
  CHECK_EVERYWHERE(ip::inputs(x), ip::outputs(ip::exp(tail), ip::dot(head, head)), std::tuple(vx),
                   [](const values_t& in) {
                     std::vector<double> e(in[0].begin() + 1, in[0].end());
                     for (double& d : e) d = std::exp(d);
                     return values_t{e, {dot(in[0], in[0])}};
                   });
  constexpr auto sw = ip::apply(swapped{}, x, y);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(hana::at_c<0>(sw) - hana::at_c<1>(sw)), std::tuple(vx, vy),
                   [](const values_t& in) { return values_t{zip(in[1], in[0], minus)}; });
}

TEST_CASE("an opaque op with a view output and a computed one", "[run][user_ops]") {
  constexpr auto sp = ip::apply(second_and_product{}, x, y);
  constexpr auto v = hana::at_c<0>(sp);
  constexpr auto p = hana::at_c<1>(sp);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(p - v, ip::exp(v)), std::tuple(vx, vy), [](const values_t& in) {
    return values_t{zip(zip(in[0], in[1], times), in[1], minus), map(in[1], [](double d) { return std::exp(d); })};
  });
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(v, p), std::tuple(vx, vy),
                   [](const values_t& in) { return values_t{in[1], zip(in[0], in[1], times)}; });
  // an in-place op over the view output overwrites y
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(ip::add_inplace(v, p), x), std::tuple(vx, vy),
                   [](const values_t& in) { return values_t{zip(in[1], zip(in[0], in[1], times), plus), in[0]}; });
}

// ---- 3. variants with several outputs, over any input --------------------------------------
namespace {
// The plan's verdict on node n of f, for a donation mask (bit j: input j donated).
template <std::uint64_t Mask, class F, class V>
constexpr const auto& plan_of(F, V) {
  return ip::detail::run::plan_for<typename F::spec, Mask>::value;
}
template <class F, class V>
constexpr std::size_t entry_of(F, V) {
  return F::spec::entry_id(&std::remove_cvref_t<V>::entry::desc);
}
}  // namespace

TEST_CASE("a variant with two outputs computes the output its destroy_map names in place", "[run][user_ops]") {
  // PyTensor's test_multiple_inplace: m = multiple(x, y), variant of input 1 {1: [1]}
  constexpr auto m = ip::apply(multiple{}, x, y);
  constexpr auto m0 = hana::at_c<0>(m);
  constexpr auto m1 = hana::at_c<1>(m);
  const auto ref = [](const values_t& in) {
    return values_t{{dot(in[1], in[1])}, {dot(zip(in[0], in[1], plus), in[0])}, zip(in[0], in[1], times)};
  };
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(ip::dot(y, y), ip::dot(m0, x), m1), std::tuple(vx, vy), ref);
  // with both donated, output 1 is computed in y (x is read later, by dot(m0, x))
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::dot(y, y), ip::dot(m0, x), m1));
  constexpr std::size_t e = entry_of(f, m0);
  STATIC_REQUIRE(plan_of<3>(f, m0).rewritten[e] == 1);
  STATIC_REQUIRE(plan_of<3>(f, m0).rewritten_output[e] == 1);
  // only x donated: output 0 in x's storage (its variant {0: [0]}), y read later
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(m0 * 2.0_c, m1, ip::dot(y, y)));
  STATIC_REQUIRE(plan_of<1>(g, m0).rewritten[entry_of(g, m0)] == 0);
  STATIC_REQUIRE(plan_of<1>(g, m0).rewritten_output[entry_of(g, m0)] == 0);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(m0 * 2.0_c, m1, ip::dot(y, y)), std::tuple(vx, vy),
                   [](const values_t& in) {
                     return values_t{map(zip(in[0], in[1], plus), twice), zip(in[0], in[1], times),
                                     {dot(in[1], in[1])}};
                   });
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(m1 - m0), std::tuple(vx, vy), [](const values_t& in) {
    return values_t{zip(zip(in[0], in[1], times), zip(in[0], in[1], plus), minus)};
  });
  // an explanation names the output computed in place
  const std::string text = ip::explain(f, ip::donated, ip::donated);
  CHECK_THAT(text, Catch::Matchers::Contains("in place of y (rewrite)"));
}

TEST_CASE("a variant with three outputs computes output 2 in place", "[run][user_ops]") {
  constexpr auto t = ip::apply(triple{}, ip::exp(x), y);
  const auto ref = [](const values_t& in) {
    const auto ex = map(in[0], [](double d) { return std::exp(d); });
    return values_t{zip(ex, in[1], minus), zip(ex, in[1], plus), zip(ex, in[1], times)};
  };
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(hana::at_c<0>(t), hana::at_c<1>(t), hana::at_c<2>(t)),
                   std::tuple(vx, vy), ref);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(hana::at_c<0>(t), hana::at_c<1>(t), hana::at_c<2>(t)));
  // exp(x) is an intermediate: output 2 reuses its buffer under every pattern
  STATIC_REQUIRE(plan_of<0>(f, hana::at_c<0>(t)).rewritten_output[entry_of(f, hana::at_c<0>(t))] == 2);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::borrowed).allocations == 3);
}

// ---- 4. the rewrite never computes in an input the kernel reads again ------------------------
TEST_CASE("the rewrite refuses an opaque node that reads the candidate twice", "[run][user_ops]") {
  constexpr auto n = ip::apply(two_pass{}, x, y, x);
  const auto ref = [](const values_t& in) {
    return values_t{zip(zip(in[0], in[1], times), in[0], minus)};
  };
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(n), std::tuple(vx, vy), ref);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(n));
  STATIC_REQUIRE(plan_of<1>(f, n).rewritten[entry_of(f, n)] == -1);
  STATIC_REQUIRE(plan_of<1>(f, n).why[entry_of(f, n)] == refusal::aliasing_hazard);
  CHECK_THAT(ip::explain(f, ip::donated, ip::borrowed), Catch::Matchers::Contains("its input is also another of its arguments"));
  // read twice through a view of it
  constexpr auto r = ip::reverse(x);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(ip::apply(two_pass{}, x, y, r)), std::tuple(vx, vy),
                   [](const values_t& in) {
                     std::vector<double> rev(in[0].rbegin(), in[0].rend());
                     return values_t{zip(zip(in[0], in[1], times), rev, minus)};
                   });
  // an elementwise node reading it with the output's own pattern is rewritten
  constexpr auto w = ip::apply(mul_sub{}, x, y, x);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(w), std::tuple(vx, vy), ref);
  constexpr auto h = ip::function(ip::inputs(x, y), ip::outputs(w));
  STATIC_REQUIRE(plan_of<1>(h, w).rewritten[entry_of(h, w)] == 0);
  STATIC_REQUIRE(ip::plan(h, ip::donated, ip::borrowed).allocations == 0);
}

// ---- explicit in-place nodes with several outputs over any inputs --------------------------
TEST_CASE("explicit in-place ops put each output over the input its destroy_map names", "[run][user_ops]") {
  const auto sum_prod = [](const values_t& in) {
    return values_t{zip(in[0], in[1], plus), zip(in[0], in[1], times)};
  };
  constexpr auto a = ip::apply(multiple_in_y{}, ip::exp(x), y);
  const auto ref_a = [](const values_t& in) {
    const auto ex = map(in[0], [](double d) { return std::exp(d); });
    return values_t{zip(ex, in[1], plus), zip(ex, in[1], times)};
  };
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(hana::at_c<0>(a), hana::at_c<1>(a)), std::tuple(vx, vy), ref_a);
  constexpr auto b = ip::apply(multiple_in_both{}, x, y);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(hana::at_c<0>(b), hana::at_c<1>(b)), std::tuple(vx, vy), sum_prod);
  constexpr auto c = ip::apply(multiple_swapped_in{}, x, y);
  CHECK_EVERYWHERE(ip::inputs(x, y), ip::outputs(hana::at_c<1>(c) * 2.0_c, hana::at_c<0>(c)), std::tuple(vx, vy),
                   [](const values_t& in) {
                     return values_t{map(zip(in[0], in[1], times), twice), zip(in[0], in[1], plus)};
                   });
  // donated: no allocation at all
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(hana::at_c<0>(c), hana::at_c<1>(c)));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::donated).allocations == 0);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::borrowed).copies == 2);
}
