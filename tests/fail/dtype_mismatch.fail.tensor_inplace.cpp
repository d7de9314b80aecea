// On tensors: add_inplace(i, x) would store a floating-point result in an int tensor.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype_mismatch" in the first lines).
// expect: the result of an in-place op has another dtype
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<int> i{1, 2};
  ip::tensor<double> x{1, 2};  // int32 with float is double (NumPy): x double takes the result
#ifdef INPLACE_SHOULD_FAIL
  ip::add_inplace(i, x);
#else
  ip::add_inplace(x, i);
#endif
}
