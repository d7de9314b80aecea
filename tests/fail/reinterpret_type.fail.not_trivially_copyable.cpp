// ip::reinterpret<U> reads the bytes as U: U must be trivially copyable.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: reinterpret_type" in the first lines).
// expect: ip::reinterpret<U>: U must be trivially copyable
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
struct handle {
  handle(const handle&) {}
  float v;
};

#ifdef INPLACE_SHOULD_FAIL
constexpr auto r = ip::reinterpret<handle>(x);
#else
constexpr auto r = ip::reinterpret<int>(x);
#endif

int main() {}
