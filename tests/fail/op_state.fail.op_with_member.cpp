// An op class holds no run-time state: a scale factor belongs in the op's type.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: op_state" in the first lines).
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
struct scale {
  float factor = 2.0f;
  static constexpr bool elementwise = true;
  constexpr float operator()(float a) const { return a * factor; }
};
template <int F>
struct scale_by {
  static constexpr bool elementwise = true;
  constexpr float operator()(float a) const { return a * F; }
};

#ifdef INPLACE_SHOULD_FAIL
constexpr auto r = ip::apply(scale{}, x);
#else
constexpr auto r = ip::apply(scale_by<2>{}, x);
#endif

int main() {}
