// Tutorial, sections 14-21: running a checked graph, explaining and checking it.
#include "dot_option.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

// [doc:call]
#include <inplace.hpp>  // the graph half and running it (<inplace/graph.hpp> + <inplace/run.hpp>)

namespace ip = inplace;
using namespace ip::literals;

constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::exp(x * 0.5_c) + y, ip::reduce_sum(y)));
// [/doc]

template <class T>
void print(const char* what, const T& t) {
  std::printf("%s:", what);
  for (std::size_t i = 0; i < t.size(); ++i) std::printf(" %g", static_cast<double>(t[i]));
  std::printf("\n");
}

// [doc:plan]
// Borrowed: two loops (x * 0.5, exp and + fused into one; reduce_sum), two new buffers.
static_assert(ip::plan(f, ip::borrowed, ip::borrowed) == ip::plan_result{2, 0, 2, 0, ip::dynamic});
// x donated: the fused loop writes into x's storage; only reduce_sum's scalar is new.
static_assert(ip::plan(f, ip::donated, ip::borrowed) == ip::plan_result{1, 0, 2, 3, 4});
// [/doc]

// [doc:inplace]
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto step = ip::function(ip::inputs(A), ip::outputs(ip::softmax_inplace(A)));
static_assert(ip::plan(step, ip::borrowed).copies == 1);   // A is copied once, then overwritten
static_assert(ip::plan(step, ip::donated).copies == 0);    // A's storage is used
// [/doc]

// [doc:alias]
constexpr auto p = ip::input<"p", float>;
constexpr auto g = ip::input<"g", float>;
constexpr auto sgd = ip::function(ip::inputs(p, g), ip::outputs(p - 0.5_c * g), ip::io_alias<0, 0>(ip::must_alias));
// [/doc]

// [doc:lying_op]
// An op that says it is pure, but whose kernel also writes its input.
struct scale_and_scribble {
  static constexpr std::string_view name = "scale_and_scribble";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) { return in[0]; }
  template <class Out, class In>
  void kernel(const Out& out, const In& in) const {
    for (std::size_t i = 0; i < in.extent(0); ++i) out(i) = 2 * in(i);
    const_cast<float*>(in.data())[0] = 0;  // the lie: no destroy_map lists input 0
  }
};
constexpr auto lying = ip::function(ip::inputs(x), ip::outputs(ip::apply(scale_and_scribble{}, ip::exp(x))));
// [/doc]

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "tutorial_run");
  dot.write("f", ip::to_dot(f, ip::borrowed, ip::borrowed));
  dot.write("step", ip::to_dot(step, ip::borrowed));
  dot.write("sgd", ip::to_dot(sgd, ip::donated, ip::borrowed));
  {
    // [doc:run]
    ip::tensor<float> a{0, 2, 4}, b{1, 1, 1};
    auto [s, total] = f(a, b);          // borrowed: a and b are read, never written
    print("exp(x/2) + y", s);
    std::printf("reduce_sum(y): %g\n", static_cast<float>(total));

    const float* storage = a.data();
    auto [s2, total2] = f(std::move(a), b);   // a is donated: the result lives in its storage
    std::printf("in a's storage: %s, a is now empty: %s\n", s2.data() == storage ? "yes" : "no",
                a.size() == 0 ? "yes" : "no");
    // [/doc]
    (void)total2;
  }
  {
    // [doc:copy]
    ip::tensor<float, 2> scores{{1, 2}, {3, 3}};
    auto probs = step(scores);         // borrowed: softmax_inplace works on a copy
    print("softmax rows", probs);
    print("scores unchanged", scores);
    // [/doc]
  }
  {
    // [doc:views]
    auto t = ip::function(ip::inputs(A), ip::outputs(ip::transpose(A)));
    ip::tensor<float, 2> m{{1, 2, 3}, {4, 5, 6}};
    ip::tensor_view<float, 2> tv = t(m);                             // a view into m
    ip::kept_view<float, 2> kv = t(ip::tensor<float, 2>{{7, 8}});     // keeps the donated storage alive
    std::printf("t(m)(2, 1) = %g, kept (1, 0) = %g\n", tv(2, 1), kv(1, 0));
    // [/doc]
  }
  {
    // [doc:sgd]
    ip::tensor<float> params{1, 2, 3}, grads{2, 2, 2};
    const float* where = params.data();
    params = sgd(std::move(params), grads);   // updated in its own storage
    print("params", params);
    std::printf("same storage: %s\n", params.data() == where ? "yes" : "no");
    // sgd(params, grads) would not compile: must_alias needs a donated argument
    // [/doc]
  }
  {
    // [doc:explain]
    std::printf("%s", ip::explain(f, ip::donated, ip::borrowed).c_str());
    // [/doc]
    // [doc:to_dot]
    const std::string dot_text = ip::to_dot(f, ip::donated, ip::borrowed);  // for `dot -Tsvg`
    // [/doc]
    std::printf("to_dot: %zu lines\n", static_cast<std::size_t>(std::count(dot_text.begin(), dot_text.end(), '\n')));
  }
  {
    // [doc:debug]
    ip::tensor<float> a{0, 2, 4}, b{1, 1, 1};
    auto [s, total] = f.debug(a, b);   // the same results as f(a, b), checked
    print("debug: exp(x/2) + y", s);
    try {
      (void)lying.debug(a);
    } catch (const ip::debug_error& e) {
      std::printf("%s\n", e.what());
    }
    // [/doc]
    (void)total;
  }
  {
    // [doc:errors]
    ip::tensor<float> a{1, 2, 3}, b{1, 2};
    try {
      (void)f(a, b);
    } catch (const ip::shape_error& e) {
      std::printf("%s\n", e.what());
    }
    // [/doc]
  }
}
