// np.arange(0, 5, 0) has no elements to walk to (NumPy raises too).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: slice_step" in the first lines).
// expect: ip::arange<T, Start, Stop, Step>: the step must not be 0
#include <inplace/graph.hpp>

namespace ip = inplace;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto r = ip::arange<int, 0, 5, 0>();
#else
constexpr auto r = ip::arange<int, 0, 5, 2>();
#endif

int main() {}
