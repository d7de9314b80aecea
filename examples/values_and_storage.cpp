// docs/aliasing.md, "Values and storage": the same text is a graph of values on
// symbols and NumPy's eager, in-place order on tensors.
// [doc:values]
#include <inplace.hpp>

#include <cstdio>

namespace ip = inplace;

constexpr auto a = ip::input<"a", float>;
constexpr auto b = ip::input<"b", float>;
// On symbols: a graph of values. `a` is the value a had when the call began,
// wherever add_inplace stores its result: r = (a + b) * a.
constexpr auto f = ip::function(ip::inputs(a, b), ip::outputs(ip::mul(ip::add_inplace(a, b), a)));

int main() {
  ip::tensor<float> xs{1, 2, 3}, ys{10, 20, 30};
  ip::tensor<float> r = f(xs, ys);  // xs is borrowed: the call works on a copy of it
  std::printf("graph:  %g %g %g (xs still %g %g %g)\n", r(0), r(1), r(2), xs(0), xs(1), xs(2));

  // On tensors: statements run now, in order, as in NumPy. add_inplace
  // overwrites xs at once, so the mul reads the new xs: (a + b) * (a + b).
  ip::tensor<float> t = ip::mul(ip::add_inplace(xs, ys), xs);
  std::printf("tensor: %g %g %g (xs now %g %g %g)\n", t(0), t(1), t(2), xs(0), xs(1), xs(2));
}
// [/doc]
