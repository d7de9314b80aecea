// ip::scalar<Name, T> takes an arithmetic dtype.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype" in the first lines).
// where: g++ names no line for the use of a variable template such as ip::scalar<...>
// expect: ip::scalar<Name, T>: the dtype T must be
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
struct rgb {
  float r, g, b;
};

#ifdef INPLACE_SHOULD_FAIL
constexpr auto s = ip::scalar<"s", rgb>;
#else
constexpr auto s = ip::scalar<"s", float>;
#endif

int main() {}
