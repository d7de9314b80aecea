// Debug mode: f.debug(args...) and ip::function(..., ip::debug) run the pure
// reference beside the call, check every op against its maps and every
// in-place variant against its op. One deliberately lying op per kind of lie.
#include "debug_message.hpp"
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;
using Catch::Matchers::Contains;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;

std::vector<float> list(std::initializer_list<float> l) { return l; }
}  // namespace

// The ops live in a named namespace: clang warns about unused members (maps read
// only by the library) of classes in an anonymous one.
namespace debug_ops {
constexpr ip::shape same_shape(const std::array<ip::shape, 1>& in) { return in[0]; }

// ---- honest user ops -----------------------------------------------------------------
struct twice {  // opaque, pure: out = 2 in
  static constexpr std::string_view name = "twice";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return same_shape(in); }
  template <class Out, class In>
  void kernel(const Out& out, const In& in) const {
    for (std::size_t i = 0; i < in.extent(0); ++i) out(i) = 2 * in(i);
  }
};
struct twice_inplace {  // opaque, destroys input 0: x = 2 x
  static constexpr std::string_view name = "twice_inplace";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return same_shape(in); }
  template <class Out, class In>
  void kernel(const Out& out, const In&) const {
    for (std::size_t i = 0; i < out.extent(0); ++i) out(i) *= 2;
  }
};
struct tail_view {  // a view: x[1:]
  static constexpr std::string_view name = "tail_view";
  static constexpr auto view_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) {
    ip::shape s = in[0];
    if (s.extent[0] != ip::dynamic) s.extent[0] -= 1;
    return s;
  }
  template <class V>
  static auto view(const V& v) {
    return ip::slice<1>(v);
  }
};
struct doubled {  // a pure op whose kernel returns its result
  static constexpr std::string_view name = "doubled";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return same_shape(in); }
  template <class In>
  auto kernel(const In& in) const {
    ip::tensor<float> r(in.extent(0));
    for (std::size_t i = 0; i < in.extent(0); ++i) r(i) = 2 * in(i);
    return r;
  }
};

// ---- lying user ops, one per lie ------------------------------------------------------
struct scribbler {  // writes its input, which no destroy_map lists
  static constexpr std::string_view name = "scribbler";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return same_shape(in); }
  template <class Out, class In>
  void kernel(const Out& out, const In& in) const {
    for (std::size_t i = 0; i < in.extent(0); ++i) out(i) = in(i) + 1;
    const_cast<float*>(in.data())[0] = -7;
  }
};
struct fake_view {  // declares a view but returns memory of its own
  static constexpr std::string_view name = "fake_view";
  static constexpr auto view_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return same_shape(in); }
  template <class V>
  static auto view(const V& v) {
    static std::vector<float> own;
    own.assign(v.begin(), v.end());
    return ip::tensor_view<float>(own.data(), {v.extent(0)});
  }
};
struct secret_view {  // a pure op whose kernel returns its input itself
  static constexpr std::string_view name = "secret_view";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return same_shape(in); }
  template <class In>
  auto kernel(const In& in) const {
    return in;
  }
};
struct half_inplace_wrong {  // registered as half's in-place variant, but computes x / 3
  static constexpr std::string_view name = "half_inplace_wrong";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto v) const { return v / 3; }
};
struct half {
  static constexpr std::string_view name = "half";
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto v) const { return v / 2; }
};
inline int flaky_calls = 0;
struct flaky {  // an opaque op whose result changes from one run to the next
  static constexpr std::string_view name = "flaky";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return same_shape(in); }
  template <class Out, class In>
  void kernel(const Out& out, const In& in) const {
    for (std::size_t i = 0; i < in.extent(0); ++i) out(i) = in(i) + static_cast<float>(flaky_calls);
    ++flaky_calls;
  }
};
// A registered variant that lies on small values only, and one that returns +inf.
struct tiny_half_wrong {
  static constexpr std::string_view name = "tiny_half_wrong";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto v) const { return v / 3; }
};
struct tiny_half {
  static constexpr std::string_view name = "tiny_half";
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto v) const { return v / 2; }
};
struct to_inf_inplace {
  static constexpr std::string_view name = "to_inf_inplace";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto v) const { return v / 0.0f; }
};
struct negate {
  static constexpr std::string_view name = "negate";
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto v) const { return -v; }
};
// An opaque op with two outputs (x + 1, 2x) and a variant writing output 0 over x.
struct split2 {
  static constexpr std::string_view name = "split2";
  static constexpr std::size_t num_outputs = 2;
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return in[0]; }
  template <class O0, class O1, class In>
  void kernel(const O0& a, const O1& b, const In& in) const {
    for (std::size_t i = 0; i < in.extent(0); ++i) b(i) = 2 * in(i), a(i) = in(i) + 1;
  }
};
struct split2_inplace_wrong {
  static constexpr std::string_view name = "split2_inplace_wrong";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return in[0]; }
  template <class O0, class O1, class In>
  void kernel(const O0& a, const O1& b, const In&) const {
    for (std::size_t i = 0; i < a.extent(0); ++i) b(i) = 2 * a(i), a(i) = a(i) + 5;
  }
};
// A pure op whose registered variant returns its result (the kernel form without outputs).
struct plus_one {
  static constexpr std::string_view name = "plus_one";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return in[0]; }
  template <class Out, class In>
  void kernel(const Out& out, const In& in) const {
    for (std::size_t i = 0; i < in.extent(0); ++i) out(i) = in(i) + 1;
  }
};
struct plus_one_returning {
  static constexpr std::string_view name = "plus_one_returning";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return in[0]; }
  template <class In>
  auto kernel(const In& in) const {
    ip::tensor<float> r(in.extent(0));
    for (std::size_t i = 0; i < in.extent(0); ++i) r(i) = in(i) + 1;
    return r;
  }
};
struct ident {
  static constexpr std::string_view name = "ident";
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto v) const { return v; }
};
struct ident_inplace_off {  // off by one part in 1e10
  static constexpr std::string_view name = "ident_inplace_off";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto v) const { return v * (1 + 1e-10); }
};
}  // namespace debug_ops
using namespace debug_ops;

template <>
struct ip::inplace_variant_traits<tiny_half, 0> {
  using type = tiny_half_wrong;
};
template <>
struct ip::inplace_variant_traits<negate, 0> {
  using type = to_inf_inplace;
};
template <>
struct ip::inplace_variant_traits<split2, 0> {
  using type = split2_inplace_wrong;
};
template <>
struct ip::inplace_variant_traits<plus_one, 0> {
  using type = plus_one_returning;
};
template <>
struct ip::inplace_variant_traits<ident, 0> {
  using type = ident_inplace_off;
};

template <>
struct ip::inplace_variant_traits<half, 0> {
  using type = half_inplace_wrong;
};
template <>
struct ip::inplace_variant_traits<twice, 0> {
  using type = twice_inplace;
};

TEST_CASE("debug mode returns what the call returns for honest graphs", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::exp(x) * y + 1.0_c, ip::reduce_sum(x)));
  const ip::tensor<float> a{0, 1, 2}, b{1, 2, 3};
  auto [p, s] = f.debug(a, b);
  auto [q, t] = f(a, b);
  CHECK(values(p) == values(q));
  CHECK(static_cast<float>(s) == static_cast<float>(t));

  // in place, donated: the same storage is returned as without debug mode
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(ip::relu(ip::add_inplace(x, y))));
  ip::tensor<float> c{-5, 1, 2};
  const float* old = c.data();
  auto r = g.debug(std::move(c), b);
  CHECK(r.data() == old);
  CHECK(values(r) == list({0, 3, 5}));
}

TEST_CASE("ip::debug makes every call a debug call", "[run][debug]") {
  constexpr auto h = ip::function(ip::inputs(x), ip::outputs(ip::apply(half{}, x)), ip::debug);
  ip::tensor<float> a{2, 4};
  // the lying variant is caught even though a borrowed call never uses it
  CHECK_THAT(debug_message([&] { (void)h(a); }), Contains("half_inplace_wrong"));
  constexpr auto honest = ip::function(ip::inputs(x), ip::outputs(ip::apply(twice{}, x)), ip::debug);
  CHECK(values(honest(a)) == list({4, 8}));
}

TEST_CASE("honest user ops pass: opaque, destroying, view, returning", "[run][debug]") {
  constexpr auto f = ip::function(
      ip::inputs(x), ip::outputs(ip::apply(tail_view{}, ip::apply(twice_inplace{}, ip::apply(doubled{}, x)))));
  ip::tensor<float> a{1, 2, 3};
  CHECK(values(f.debug(a)) == list({8, 12}));
  CHECK(values(a) == list({1, 2, 3}));
  CHECK(values(f.debug(std::move(a))) == list({8, 12}));
  // twice has a registered, honest variant: checked, passes
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::apply(twice{}, ip::exp(x))));
  ip::tensor<float> b{0, 0};
  CHECK(values(g.debug(b)) == list({2, 2}));
}

TEST_CASE("a kernel that writes an input its destroy_map does not list", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(scribbler{}, ip::exp(x))));
  ip::tensor<float> a{0, 0};
  const std::string msg = debug_message([&] { (void)f.debug(a); });
  CHECK_THAT(msg, Contains("inplace: debug_error: scribbler(exp(...))"));
  CHECK_THAT(msg, Contains("changed input 0 (exp(x)), which its destroy_map does not list"));
  // on an input: the reference runs on copies of the arguments, so the lie
  // never reaches the caller's tensor
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::apply(scribbler{}, x)));
  ip::tensor<float> b{1, 2};
  CHECK_THAT(debug_message([&] { (void)g.debug(b); }), Contains("changed input 0 (x)"));
  CHECK(values(b) == list({1, 2}));
}

TEST_CASE("an op that declares a view but returns memory of its own", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(fake_view{}, x)));
  ip::tensor<float> a{1, 2};
  const std::string msg = debug_message([&] { (void)f.debug(a); });
  CHECK_THAT(msg, Contains("fake_view(x)"));
  CHECK_THAT(msg, Contains("output 0 is declared a view of input 0 (x) but lies outside that input's storage"));
}

TEST_CASE("a pure op that returns a view of its input", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(secret_view{}, x)));
  ip::tensor<float> a{1, 2};
  CHECK(values(f(a)) == list({1, 2}));  // without debug mode the result is copied: right by luck
  const std::string msg = debug_message([&] { (void)f.debug(a); });
  CHECK_THAT(msg, Contains("secret_view(x)"));
  CHECK_THAT(msg, Contains("output 0 shares memory with input 0 (x), which its view_map does not list"));
}

TEST_CASE("an in-place variant that computes something else than its op", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(half{}, ip::apply(twice{}, x))));
  static_assert(ip::plan(f, ip::borrowed).in_place == 1);  // half runs in twice's buffer, as its variant
  ip::tensor<float> a{3, 0};
  CHECK(values(f(a)) == list({2, 0}));  // the call uses the variant: wrong numbers, silently
  const std::string msg = debug_message([&] { (void)f.debug(a); });
  CHECK_THAT(msg, Contains("half(twice(...))"));
  CHECK_THAT(msg, Contains("its in-place variant half_inplace_wrong (in the storage of input 0) computes something "
                           "else than the op: element 0 is 2 instead of 3"));
  // with the rewrite off, the call is right; debug mode still reports the variant
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::apply(half{}, ip::apply(twice{}, x))), ip::no_rewrite);
  CHECK(values(g(a)) == list({3, 0}));
  CHECK_THAT(debug_message([&] { (void)g.debug(a); }), Contains("half_inplace_wrong"));
}

TEST_CASE("a result that differs from the pure reference", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(flaky{}, x)));
  ip::tensor<float> a{1, 2};
  flaky_calls = 0;
  const std::string msg = debug_message([&] { (void)f.debug(a); });
  CHECK_THAT(msg, Contains("inplace: debug_error: output 0 (flaky(x)): the call's result differs from the pure "
                           "reference at element 0: 2 instead of 1"));
}

TEST_CASE("debug mode checks extents first and leaves borrowed arguments alone", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y)));
  ip::tensor<float> a{1, 2, 3}, b{1, 2};
  CHECK_THROWS_AS(f.debug(a, b), ip::shape_error);
  ip::tensor<float> c{1, 1, 1};
  CHECK(values(f.debug(a, c)) == list({2, 3, 4}));
  CHECK(values(a) == list({1, 2, 3}));
}

TEST_CASE("the comparison: small values and infinities are not 'close enough'", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(tiny_half{}, ip::apply(twice{}, x))));
  ip::tensor<float> a{1e-6f, 2e-6f};
  CHECK_THAT(debug_message([&] { (void)f.debug(a); }), Contains("its in-place variant tiny_half_wrong"));
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::apply(negate{}, ip::apply(twice{}, x))));
  ip::tensor<float> b{1, 2};
  CHECK_THAT(debug_message([&] { (void)g.debug(b); }), Contains("element 0 is inf instead of -2"));
  // doubles are printed with every digit that matters
  constexpr auto xd = ip::input<"xd", double>;
  constexpr auto h = ip::function(ip::inputs(xd), ip::outputs(ip::apply(ident{}, ip::exp(xd))));
  ip::tensor<double> c{0};
  CHECK_THAT(debug_message([&] { (void)h.debug(c); }), Contains("element 0 is 1.0000000001 instead of 1"));
}

TEST_CASE("variants with several outputs, and variants that return their result, are checked", "[run][debug]") {
  constexpr auto parts = ip::apply(split2{}, ip::exp(x));
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(hana::at_c<0>(parts), hana::at_c<1>(parts)));
  ip::tensor<float> a{0, 0};
  CHECK_THAT(debug_message([&] { (void)f.debug(a); }),
             Contains("split2(exp(...)): its in-place variant split2_inplace_wrong (in the storage of input 0) "
                      "computes something else than the op: element 0 is 6 instead of 2"));
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::apply(plus_one{}, ip::exp(x))));
  static_assert(ip::plan(g, ip::donated).in_place == 2);  // exp in x, plus_one as its returning variant
  CHECK(values(g(ip::tensor<float>{0, 0})) == list({2, 2}));
  CHECK(values(g.debug(a)) == list({2, 2}));
}
