// ip::inplace<0>(op) of a comparison would store bools into float storage.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype_mismatch" in the first lines).
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x{1, 2, 3}, y{2, 2, 2};
#ifdef INPLACE_SHOULD_FAIL
  ip::apply(ip::inplace<0>(ip::ops::less{}), x, y);
#else
  ip::apply(ip::inplace<0>(ip::ops::min{}), x, y);
#endif
}
