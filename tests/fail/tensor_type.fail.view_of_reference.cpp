// A view has an object element type, not a reference.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: tensor_type" in the first lines).
// cascade: the class template goes on to declare its members with the bad argument
// expect: T must be an object type
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
#ifdef INPLACE_SHOULD_FAIL
  ip::tensor_view<float&, 1> v;
#else
  ip::tensor_view<float, 1> v;
#endif
  (void)v;
}
