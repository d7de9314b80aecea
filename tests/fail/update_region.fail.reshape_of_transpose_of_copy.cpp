// A copy the user made is a value whose regions an update may write (NumPy's
// C = S.T.copy(); C.reshape(-1)[:] = 1 writes C), but the flatten of its
// transpose reads another copy, the one the graph makes for the reshape
// (NumPy's C.T.reshape(-1) copies too): an update through that would not
// write C, and stays refused.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: update_region" in the first lines).
// expect: reshapes a view whose elements are not in row-major order
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
constexpr auto C = ip::copy(ip::transpose(S));
#ifdef INPLACE_SHOULD_FAIL
constexpr auto y = ip::set(ip::flatten(ip::transpose(C)), 1.0_c);
#else
constexpr auto y = ip::set(ip::flatten(C), 1.0_c);
#endif

int main() {}
