// ip::inplace<I>(op) builds variants of elementwise ops only; dot is opaque.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: inplace_of_opaque" in the first lines).
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;

#ifdef INPLACE_SHOULD_FAIL
constexpr auto dot_into = ip::inplace<0>(ip::ops::dot{});
#else
constexpr auto add_into = ip::inplace<0>(ip::ops::add{});
#endif

int main() {}
