// The flatten of S's transpose (static extents) reads a copy of it, as
// NumPy's S.T.reshape(-1) does: a region through it is not a region of S, so
// an update cannot write S there (NumPy's S.T.reshape(-1)[:] = 1 leaves S as
// it was).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: update_region" in the first lines).
// expect: reshapes a view whose elements are not in row-major order
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto y = ip::set(ip::flatten(ip::transpose(S)), 1.0_c);
#else
constexpr auto y = ip::set(ip::transpose(S), 1.0_c);
#endif

int main() {}
