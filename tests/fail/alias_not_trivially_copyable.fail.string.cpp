// ip::alias<U> of a type that is not trivially copyable: bytes cannot hold it.
#include <inplace/tensor/alias.hpp>

#include <string>

int main() {
  inplace::tensor<float> x(64);
#ifdef INPLACE_SHOULD_FAIL
  auto v = inplace::alias<std::string>(x, 2);
#else
  auto v = inplace::alias<int>(x, 2);
#endif
  (void)v;
}
