// A dynamic slice's start must be known before anything runs (the call checks
// it then): a scalar input, not a value the graph computes.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dynamic_start" in the first lines).
// expect: takes its start from an integer scalar input
#include <inplace/graph.hpp>

#include <cstdint>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto cache = ip::input<"cache", float, ip::extents<8, 4>>;
constexpr auto t = ip::scalar<"t", std::int64_t>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto row = ip::dynamic_slice<0, 1>(cache, t + 1_c);
#else
constexpr auto row = ip::dynamic_slice<0, 1>(cache, t);
#endif

int main() {}
