// TVM's buffer alias (T.decl_buffer([4], "float32x4", data=A.data) over A of
// (16,) float32): four 4-lane vectors fit 16 floats; five need 80 bytes of 64,
// which static extents on both sides show at compile time.
#include <inplace/tensor/alias.hpp>

struct alignas(16) f32x4 {
  float lane[4];
};

int main() {
  inplace::tensor<float, inplace::extents<16>> A;
#ifdef INPLACE_SHOULD_FAIL
  auto v = inplace::alias<f32x4, inplace::extents<5>>(A);
#else
  auto v = inplace::alias<f32x4, inplace::extents<4>>(A);
#endif
  (void)v;
}
