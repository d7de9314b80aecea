// A view guarantees only its element's alignment: a float view cannot be
// aliased as double. (A tensor's 64-byte aligned storage can.)
#include <inplace/tensor/alias.hpp>
#include <inplace/tensor/view_functions.hpp>

int main() {
  inplace::tensor<float> x(64);
  auto tail = inplace::slice<1>(x);
#ifdef INPLACE_SHOULD_FAIL
  auto v = inplace::alias<double>(tail, 4);
#else
  auto v = inplace::alias<double>(x, 4);
  auto w = inplace::alias<float>(tail, 4);
  (void)w;
#endif
  (void)v;
}
