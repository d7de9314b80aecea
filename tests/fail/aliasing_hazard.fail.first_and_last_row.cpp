// add_inplace(row<0>(A), row<-1>(A)) with A's rows unknown until the call:
// with one row, the first row is the last, read while it is written. (Row 0
// of A[1:] is never row 0 of A: the _ok variant compiles.)
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: aliasing_hazard" in the first lines).
// names: add_inplace(index(...), index(...)) | A | index(A)
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto A = ip::input<"A", float, 2>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto read = ip::row<-1>(A);
#else
constexpr auto read = ip::row<0>(ip::slice<1, ip::end>(A));
#endif
constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::add_inplace(ip::row<0>(A), read)));

int main() {}
