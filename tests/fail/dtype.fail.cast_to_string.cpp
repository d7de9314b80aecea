// ip::cast<T> converts to a number type only.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype" in the first lines).
// expect: ip::cast<T>: T must be an arithmetic type
#include <inplace/graph.hpp>

#include <string>

namespace ip = inplace;

constexpr auto x = ip::input<"x", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto c = ip::cast<std::string>(x);
#else
constexpr auto c = ip::cast<int>(x);
#endif

int main() { (void)c; }
