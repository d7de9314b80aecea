// ip::transpose(std::move(a) + b): the expression owns the moved tensor, and a
// view of it would outlive it.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_of_temporary" in the first lines).
// expect: a view of an expression that owns a temporary tensor
#include <inplace.hpp>

#include <utility>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> a(3, 4), b(3, 4), c(4, 3);
#ifdef INPLACE_SHOULD_FAIL
  c = ip::transpose(std::move(a) + b);
#else
  c = ip::transpose(a + b);
#endif
  return c.extent(0) == 4 ? 0 : 1;
}
