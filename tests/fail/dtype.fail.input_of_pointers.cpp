// ip::input<Name, T> takes an arithmetic dtype.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype" in the first lines).
// where: g++ names no line for the use of a variable template such as ip::input<...>
// expect: ip::input<Name, T>: the dtype T must be
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;

#ifdef INPLACE_SHOULD_FAIL
constexpr auto p = ip::input<"p", float*>;
#else
constexpr auto p = ip::input<"p", float>;
#endif

int main() {}
