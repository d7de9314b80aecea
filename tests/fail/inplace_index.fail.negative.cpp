// ip::inplace<I>(op) takes the index of an input.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: inplace_index" in the first lines).
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;

#ifdef INPLACE_SHOULD_FAIL
constexpr auto add_into = ip::inplace<-1>(ip::ops::add{});
#else
constexpr auto add_into = ip::inplace<1>(ip::ops::add{});
#endif

int main() {}
