// An alias of a temporary tensor would dangle once the full expression ends.
#include <inplace/tensor/alias.hpp>

#include <utility>

int main() {
  inplace::tensor<float> x(64);
#ifdef INPLACE_SHOULD_FAIL
  auto v = inplace::alias<int>(std::move(x), 8);
#else
  auto v = inplace::alias<int>(x, 8);
#endif
  (void)v;
}
