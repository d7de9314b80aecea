// ip::noalias(i) += 0.5 follows the same rule as i += 0.5: an int tensor cannot
// take a floating-point result (one compound-assignment mechanism for both).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype_mismatch" in the first lines).
// expect: x op= e would store
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<int> i{1, 2};
#ifdef INPLACE_SHOULD_FAIL
  ip::noalias(i) += 0.5;
#else
  ip::noalias(i) += 2;
#endif
}
