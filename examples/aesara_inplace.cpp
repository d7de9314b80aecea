// Aesara's "Views and inplace operations" page, as an inplace graph: a reader
// of x that must run before the node that overwrites x, an in-place op chained
// on the overwritten value, and the rewrite that turns pure ops into in-place
// ones only when nothing else needs their input. ip::explain shows each plan.
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cstdio>

namespace ip = inplace;

constexpr auto x = ip::input<"x", double>;
constexpr auto y = ip::input<"y", double>;

// [doc:aesara]
// r1 = log(x); r2 = add_inplace(x, y); r3 = log(x); r4 = log(r2)
// r3 is the same value as r1 (one node): both read x before the addition, so
// the schedule puts log(x) first; r4 reads x after it (log(x + y)).
constexpr auto r1 = ip::log(x);
constexpr auto r2 = ip::add_inplace(x, y);
constexpr auto r3 = ip::log(x);
constexpr auto r4 = ip::log(r2);
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(r1, r3, r4));
static_assert(ip::position(f, r1) == ip::position(f, r3));
static_assert(ip::position(f, r1) < ip::position(f, r2));
// Returning x too would hand back a value that add_inplace destroyed:
static_assert(ip::check(ip::inputs(x, y), ip::outputs(r4, x)).error == ip::error_kind::destroys_output);
// [/doc]

// [doc:aesara_rewrite]
// Graphs are written with pure ops; the rewrite computes them in place where
// that is legal (Aesara's in-place optimizer): log(x + y) in x's storage when
// x is donated, but not when x is also read afterwards, by exp(x).
constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(ip::log(x + y)));
constexpr auto h = ip::function(ip::inputs(x, y), ip::outputs(ip::log(x + y), ip::exp(x)));
static_assert(ip::plan(g, ip::donated, ip::borrowed).allocations == 0);
static_assert(ip::plan(h, ip::donated, ip::borrowed).allocations == 1);
// [/doc]

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "aesara_inplace");
  dot.write("f", ip::to_dot(f, ip::donated, ip::borrowed));
  dot.write("h", ip::to_dot(h, ip::donated, ip::borrowed));
  std::printf("r1 = r3 at position %d, add_inplace at %d, r4 at %d\n", ip::position(f, r1), ip::position(f, r2),
              ip::position(f, r4));
  ip::tensor<double> a{1, 2, 3}, b{1, 1, 1};
  auto [l1, l3, l4] = f(a, b);
  std::printf("log(x)     %.4f %.4f %.4f\n", l1[0], l1[1], l1[2]);
  std::printf("log(x)     %.4f %.4f %.4f (r3, the same)\n", l3[0], l3[1], l3[2]);
  std::printf("log(x + y) %.4f %.4f %.4f\n", l4[0], l4[1], l4[2]);
  std::printf("x after the call (borrowed, untouched): %g %g %g\n\n", a[0], a[1], a[2]);
  std::printf("%s\n", ip::explain(f, ip::donated, ip::borrowed).c_str());
  std::printf("%s\n", ip::explain(g, ip::donated, ip::borrowed).c_str());
  std::printf("%s", ip::explain(h, ip::donated, ip::borrowed).c_str());
}
