// A tensor on std::allocator guarantees operator new's alignment (16 bytes
// here), not the 64 of ip::aligned_allocator: a 64-byte aligned 16-lane
// vector (TVM's float32x16 buffer alias) cannot alias it; a 16-byte one can.
#include <inplace/tensor/alias.hpp>

#include <memory>

struct alignas(16) f32x4 {
  float lane[4];
};
struct alignas(64) f32x16 {
  float lane[16];
};

int main() {
  inplace::tensor<float, 1, std::allocator<float>> A(64);
#ifdef INPLACE_SHOULD_FAIL
  auto v = inplace::alias<f32x16>(A, 4);
#else
  auto v = inplace::alias<f32x4>(A, 16);
#endif
  (void)v;
}
