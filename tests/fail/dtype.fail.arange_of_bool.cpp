// np.arange(3, dtype=bool) raises: an arange of bool holds at most False, True
// (np.arange(2, dtype=bool)); a mask of the first elements is a comparison.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype" in the first lines).
// expect: ip::arange<bool, ...> of more than two elements
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto r = ip::arange<bool, 3>();
#else
constexpr auto r = ip::arange<int, 3>() > 0_c;
#endif

int main() {}
