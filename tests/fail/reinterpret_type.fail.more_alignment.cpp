// On tensors: ip::reinterpret<U> cannot promise U more alignment than the element has.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: reinterpret_type" in the first lines).
// expect: U needs more alignment than the
#include <inplace/tensors.hpp>

namespace ip = inplace;
struct bytes4 {  // 4 bytes, aligned to 1
  char b[4];
};
struct rgba {  // 4 bytes, aligned to 1
  unsigned char r, g, b, a;
};

int main() {
  ip::tensor<bytes4> b(4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::reinterpret<float>(b);
#else
  auto v = ip::reinterpret<rgba>(b);
#endif
  (void)v;
}
