// np.argmax(m, axis=-3) of a matrix raises (AxisError): its axes are -2 .. 1.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: reduce_axis" in the first lines).
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> m(2, 3);
#ifdef INPLACE_SHOULD_FAIL
  auto r = ip::argmax<-3>(m);
#else
  auto r = ip::argmax<-2>(m);
#endif
  (void)r;
}
