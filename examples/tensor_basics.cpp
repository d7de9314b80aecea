// Tensors, views and fused in-place expressions (docs/tensors.md).
#include <inplace/tensors.hpp>

#include <cstdio>

namespace ip = inplace;

template <class V>
void print(const char* name, const V& v) {
  std::printf("%s:", name);
  for (std::size_t i = 0; i < v.size(); ++i) std::printf(" %g", static_cast<double>(v[i]));
  std::printf("\n");
}

int main() {
  ip::tensor<float> x{1, 2, 3, 4}, y{10, 20, 30, 40};
  x = 2.0f * x + y;  // one fused loop, in place, no temporary
  print("x", x);

  ip::tensor<float, 2> A{{1, 2, 3}, {4, 5, 6}};
  ip::tensor<float> row{100, 200, 300};
  A = A + row;  // NumPy broadcasting: row is added to every row of A
  print("A", A);
  print("A.T", ip::transpose(A));
  print("A[1:]", ip::slice<1>(A));
  print("reshape<3, 2>", ip::reshape<3, 2>(A));

  ip::slice<0, ip::end, 2>(x) = ip::exp(ip::slice<0, ip::end, 2>(x) * 0.0f);  // x[::2] = 1
  print("x", x);

  try {
    ip::tensor<float> wrong(3);
    x = wrong + 1.0f;
  } catch (const ip::shape_error& e) {
    std::printf("%s\n", e.what());
  }
}
