// isnan gives bool: on tensors too, it has no in-place form.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: no_inplace_form" in the first lines).
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x{1, 2, 3};
#ifdef INPLACE_SHOULD_FAIL
  ip::isnan_inplace(x);
#else
  ip::tensor<bool> n = ip::isnan(x);
  (void)n;
#endif
}
