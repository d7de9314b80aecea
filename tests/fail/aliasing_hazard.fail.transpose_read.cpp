// add_inplace(A, transpose(A)) reads A with another index pattern while writing it.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: aliasing_hazard" in the first lines).
// names: add_inplace(A, transpose(...)) | A | transpose(A)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto A = ip::input<"A", float, 2>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::transpose(A))));
#else
constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::add_inplace(A, A)));
#endif

int main() {}
