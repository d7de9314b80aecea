// The cases of Eigen's aliasing page, evaluated by inplace (docs/aliasing.md).
#include <inplace/tensors.hpp>

#include <cstdio>

namespace ip = inplace;

template <class V>
void print(const char* name, const V& v) {
  std::printf("%-28s", name);
  for (std::size_t i = 0; i < v.size(); ++i) std::printf(" %g", static_cast<double>(v[i]));
  std::printf("\n");
}

int main() {
  // Eigen: mat.bottomRightCorner(2, 2) = mat.topLeftCorner(2, 2) with overlapping blocks.
  ip::tensor<int, 2> mat{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  auto top_left = ip::transpose(ip::slice<0, 2>(ip::transpose(ip::slice<0, 2>(mat))));
  auto bottom_right = ip::transpose(ip::slice<1, 3>(ip::transpose(ip::slice<1, 3>(mat))));
  bottom_right = top_left;
  print("shifted block:", mat);

  // Eigen: a = a.transpose() (wrong without transposeInPlace()).
  ip::tensor<int, 2> a{{1, 2}, {3, 4}};
  a = ip::transpose(a);
  print("a = transpose(a):", a);

  // Eigen: a = a + a.transpose() (undefined without .eval()).
  a = a + ip::transpose(a);
  print("a = a + transpose(a):", a);

  // Coefficient-wise with the destination's own pattern: no temporary, no check.
  ip::tensor<int> x{1, 2, 3, 4, 5};
  x = x * 2 + x;
  print("x = x * 2 + x:", x);

  // Shifted 1-D slices, both directions: NumPy's answers.
  ip::slice<1>(x) = ip::slice<0, -1>(x);
  print("x[1:] = x[:-1]:", x);
  ip::slice<0, -1>(x) = ip::slice<1>(x);
  print("x[:-1] = x[1:]:", x);

  // noalias: the caller's promise is checked, never trusted.
  try {
    ip::noalias(a) = a + ip::transpose(a);
  } catch (const ip::aliasing_error&) {
    print("noalias(a) threw; a is", a);
  }
}
