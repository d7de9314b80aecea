// Debug mode against cases of PyTensor's tests/compile/test_debugmode.py that
// tests/run/debug.cpp does not already cover: ops that lie about *which* input
// they destroy, ops that declare more than they do (which must NOT be
// rejected: a destroy_map is a permission), an undeclared view of a slice
// (test_badviewmap_slice), two outputs viewing one input, declared
// (test_aliased_outputs_ok) and one of them undeclared (test_aliased_outputs_bad).
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
using Catch::Matchers::Contains;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;

std::vector<float> list(std::initializer_list<float> l) { return l; }

}  // namespace

namespace peer_debug_ops {
template <int O, int... J>
constexpr auto entry = hana::make_pair(hana::int_c<O>, hana::tuple_c<int, J...>);
constexpr ip::shape first_shape(const std::array<ip::shape, 2>& in) { return in[0]; }

// BadDestroyMap, the other input: declares {0: [0]} but also writes input 1.
struct wrong_input_destroyer {
  static constexpr std::string_view name = "wrong_input_destroyer";
  static constexpr auto destroy_map = hana::make_map(entry<0, 0>);
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 2>& in) { return first_shape(in); }
  template <class Out, class A, class B>
  void kernel(const Out& out, const A&, const B& b) const {
    for (std::size_t i = 0; i < out.extent(0); ++i) out(i) += b(i);
    const_cast<float*>(b.data())[0] = -1;
  }
};
// Honest over-declaration: {0: [0, 1]}, and it only writes input 0 (a destroy_map
// permits, it does not oblige: PyTensor's DebugMode accepts such ops).
struct declares_both_writes_one {
  static constexpr std::string_view name = "declares_both_writes_one";
  static constexpr auto destroy_map = hana::make_map(entry<0, 0, 1>);
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 2>& in) { return first_shape(in); }
  template <class Out, class A, class B>
  void kernel(const Out& out, const A&, const B& b) const {
    for (std::size_t i = 0; i < out.extent(0); ++i) out(i) += b(i);
  }
};
// Declares {0: [0, 1]} and scribbles on input 1 (SPEC 2: a destructive op that
// only scribbles on an input declares the same): legal.
struct declares_both_scribbles {
  static constexpr std::string_view name = "declares_both_scribbles";
  static constexpr auto destroy_map = hana::make_map(entry<0, 0, 1>);
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 2>& in) { return first_shape(in); }
  template <class Out, class A, class B>
  void kernel(const Out& out, const A&, const B& b) const {
    for (std::size_t i = 0; i < out.extent(0); ++i) out(i) += b(i);
    for (std::size_t i = 0; i < b.extent(0); ++i) const_cast<float*>(b.data())[i] = 0;
  }
};
// test_badviewmap_slice: a pure op whose kernel returns x[1:], a view it never declares.
struct secret_tail {
  static constexpr std::string_view name = "secret_tail";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) {
    ip::shape s = in[0];
    if (s.extent[0] != ip::dynamic) s.extent[0] -= 1;
    return s;
  }
  template <class In>
  auto kernel(const In& in) const {
    return ip::slice<1>(in);
  }
};
// test_aliased_outputs_ok: both outputs are views of input 0, both declared.
struct front_and_back {  // (x[:-1], x[1:])
  static constexpr std::string_view name = "front_and_back";
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto view_map = hana::make_map(entry<0, 0>, entry<1, 0>);
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) {
    ip::shape s = in[0];
    if (s.extent[0] != ip::dynamic) s.extent[0] -= 1;
    return s;
  }
  template <std::size_t O, class V>
  static auto view(const V& v) {
    if constexpr (O == 0) return ip::slice<0, -1>(v);
    else return ip::slice<1>(v);
  }
};
// An elementwise op with a destroy_map of its own that is honest (its loop
// writes only the output, which the library puts over input 0).
struct axpy_inplace {
  static constexpr std::string_view name = "axpy_inplace";
  static constexpr auto destroy_map = hana::make_map(entry<0, 0>);
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto a, auto b) const { return a + 2 * b; }
};
// A view op whose view function also writes its input (BadDestroyMap through a view).
struct tail_scribble {
  static constexpr std::string_view name = "tail_scribble";
  static constexpr auto view_map = hana::make_map(entry<0, 0>);
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) {
    ip::shape s = in[0];
    if (s.extent[0] != ip::dynamic) s.extent[0] -= 1;
    return s;
  }
  template <class V>
  static auto view(const V& v) {
    const_cast<float*>(v.data())[0] = -7;
    return ip::slice<1>(v);
  }
};
// An elementwise destroyer of input 1 ({0: [1]}): a - b in b's storage.
struct sub_into_1 {
  static constexpr std::string_view name = "sub_into_1";
  static constexpr auto destroy_map = hana::make_map(entry<0, 1>);
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto a, auto b) const { return a - b; }
};
}  // namespace peer_debug_ops
using namespace peer_debug_ops;

TEST_CASE("BadDestroyMap: an op that writes the input its destroy_map does not name", "[run][debug][peer]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(wrong_input_destroyer{}, x, ip::exp(y))));
  ip::tensor<float> a{1, 2}, b{0, 0};
  const std::string msg = debug_message([&] { (void)f.debug(a, b); });
  CHECK_THAT(msg, Contains("wrong_input_destroyer(x, exp(...))"));
  CHECK_THAT(msg, Contains("changed input 1 (exp(y)), which its destroy_map does not list"));
  CHECK(values(a) == list({1, 2}));
  CHECK(values(b) == list({0, 0}));
}

TEST_CASE("destroy_map as permission: declared and untouched, declared and scribbled on", "[run][debug][peer]") {
  constexpr auto f =
      ip::function(ip::inputs(x, y), ip::outputs(ip::apply(declares_both_writes_one{}, x, ip::exp(y))));
  ip::tensor<float> a{1, 2}, b{0, 0};
  CHECK(values(f.debug(a, b)) == list({2, 3}));
  CHECK(values(a) == list({1, 2}));
  CHECK(values(b) == list({0, 0}));
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(declares_both_scribbles{}, x, ip::exp(y))));
  CHECK(values(g.debug(a, b)) == list({2, 3}));
  CHECK(values(g(a, b)) == list({2, 3}));
  CHECK(values(a) == list({1, 2}));
  CHECK(values(b) == list({0, 0}));
  // donated, and scribbling on a donated input directly
  constexpr auto h = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(declares_both_scribbles{}, x, y)));
  ip::tensor<float> c{5, 6};
  CHECK(values(h.debug(std::move(a), std::move(c))) == list({6, 8}));
  ip::tensor<float> d{5, 6}, e{1, 1};
  CHECK(values(h.debug(e, d)) == list({6, 7}));
  CHECK(values(d) == list({5, 6}));  // borrowed: copy-protected
}

TEST_CASE("test_badviewmap_slice: an undeclared view of a slice", "[run][debug][peer]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(secret_tail{}, x)));
  ip::tensor<float> a{1, 2, 3};
  const std::string msg = debug_message([&] { (void)f.debug(a); });
  CHECK_THAT(msg, Contains("secret_tail(x)"));
  CHECK_THAT(msg, Contains("output 0 shares memory with input 0 (x), which its view_map does not list"));
  CHECK(values(a) == list({1, 2, 3}));
}

TEST_CASE("test_aliased_outputs_ok: two declared views of one input", "[run][debug][peer]") {
  constexpr auto parts = ip::apply(front_and_back{}, x);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(hana::at_c<0>(parts), hana::at_c<1>(parts)));
  ip::tensor<float> a{1, 2, 3};
  auto [p, q] = f.debug(a);
  CHECK(values(p) == list({1, 2}));
  CHECK(values(q) == list({2, 3}));
  // and a reader of both: front + back, NumPy x[:-1] + x[1:]
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(hana::at_c<0>(parts) + hana::at_c<1>(parts)));
  CHECK(values(g.debug(a)) == list({3, 5}));
  CHECK(values(g(std::move(a))) == list({3, 5}));
}

TEST_CASE("an honest elementwise destroyer of a user, in and out of fused loops", "[run][debug][peer]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(axpy_inplace{}, ip::exp(x), y) * y));
  ip::tensor<float> a{0, 0}, b{1, 2};
  CHECK(values(f.debug(a, b)) == list({3, 10}));  // (1 + 2 b) b
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(axpy_inplace{}, x, x)));
  ip::tensor<float> c{1, 2};
  CHECK(values(g.debug(c, b)) == list({3, 6}));
  CHECK(values(c) == list({1, 2}));
}

TEST_CASE("a view op that writes the input it views", "[run][debug][peer]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(tail_scribble{}, ip::exp(x))));
  ip::tensor<float> a{0, 0, 0};
  CHECK_THAT(debug_message([&] { (void)f.debug(a); }),
             Contains("inplace: debug_error: tail_scribble(exp(...)): changed input 0 (exp(x)), which its "
                      "destroy_map does not list"));
  CHECK(values(a) == list({0, 0, 0}));
}

TEST_CASE("an elementwise destroyer of input 1", "[run][debug][peer]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(sub_into_1{}, x, y)));
  ip::tensor<float> a{10, 20}, b{1, 2};
  CHECK(values(f(a, b)) == list({9, 18}));
  CHECK(values(f.debug(a, b)) == list({9, 18}));
  CHECK(values(b) == list({1, 2}));
  const float* old = b.data();
  auto r = f(a, std::move(b));
  CHECK(r.data() == old);
  CHECK(values(r) == list({9, 18}));
  CHECK(values(a) == list({10, 20}));
  // the generic variant of input 1, read again by a fused consumer: (x - y) * x
  constexpr auto g =
      ip::function(ip::inputs(x, y), ip::outputs(ip::apply(ip::inplace<1>(ip::ops::sub{}), x, y) * x));
  CHECK(values(g(a, ip::tensor<float>{1, 2})) == list({90, 360}));
  CHECK(values(g.debug(a, ip::tensor<float>{1, 2})) == list({90, 360}));
}

// Debug mode keeps XLA's aliasing promises: a must_alias output returned in the
// donated input's storage, a may_alias of outputs(y, x) into x honoured by a
// copy, and ip::debug on a graph whose reader of x runs before its destroyer.
TEST_CASE("debug mode with io_alias and donation", "[run][debug][peer]") {
  using namespace ip::literals;
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(x + y * 2.0_c), ip::io_alias<0, 0>(ip::must_alias));
  ip::tensor<float> a{1, 2, 3};
  const ip::tensor<float> b{1, 1, 1};
  const float* old = a.data();
  auto r = g.debug(std::move(a), b);
  CHECK(r.data() == old);
  CHECK(values(r) == list({3, 4, 5}));
  constexpr auto h = ip::function(ip::inputs(x, y), ip::outputs(y, x), ip::io_alias<0, 0>(ip::may_alias));
  ip::tensor<float> c{1, 2, 3}, d{4, 5, 6};
  const float* oc = c.data();
  auto [p, q] = h.debug(std::move(c), d);
  CHECK(p.data() == oc);
  CHECK(values(p) == list({4, 5, 6}));
  CHECK(values(q) == list({1, 2, 3}));
  CHECK(values(d) == list({4, 5, 6}));
  constexpr auto k = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::reduce_sum(x)), ip::debug);
  auto [s, t] = k(ip::tensor<float>{1, 2, 3}, d);
  CHECK(values(s) == list({5, 7, 9}));
  CHECK(static_cast<float>(t) == 6);
}
