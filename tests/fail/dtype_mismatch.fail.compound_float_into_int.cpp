// On tensors: i += 0.5 would truncate a floating-point result into an int tensor
// (NumPy refuses it too); i = i + 0.5 converts explicitly.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype_mismatch" in the first lines).
// expect: x op= e would store
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<int> i{1, 2};
#ifdef INPLACE_SHOULD_FAIL
  i += 0.5;
#else
  i = i + 0.5;
#endif
}
