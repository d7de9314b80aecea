// The cases of Eigen's aliasing page, evaluated by inplace (docs/aliasing.md).
#include <inplace/tensors.hpp>

#include <cstdio>

namespace ip = inplace;

template <class V>
void print(const char* name, const V& v) {
  std::printf("%-36s", name);
  for (std::size_t i = 0; i < v.size(); ++i) std::printf(" %g", static_cast<double>(v[i]));
  std::printf("\n");
}

int main() {
  // Eigen: mat.bottomRightCorner(2, 2) = mat.topLeftCorner(2, 2) with overlapping blocks.
  ip::tensor<int, 2> mat{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  ip::view(mat, ip::range<-2>, ip::range<-2>) = ip::view(mat, ip::range<0, 2>, ip::range<0, 2>);
  print("shifted block:", mat);

  // The same with Eigen's block(i, j, p, q): mat.block(1, 1, 2, 2) = mat.block(0, 0, 2, 2).
  ip::tensor<int, 2> m2{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  ip::block<1, 1, 2, 2>(m2) = ip::block<0, 0, 2, 2>(m2);
  print("block(1, 1, 2, 2) = ...:", m2);

  // Disjoint parts of one matrix: no temporary (Eigen: mat.row(0) = mat.row(2),
  // mat.col(0) += mat.col(2); NumPy: m[:, ::2] = m[:, 1::2] on an even width).
  ip::row<0>(m2) = ip::row<2>(m2);
  ip::col<0>(m2) += ip::col<2>(m2);
  print("row(0) = row(2); col(0) += col(2):", m2);
  ip::tensor<int, 2> w{{1, 2, 3, 4}, {5, 6, 7, 8}};
  ip::view(w, ip::all, ip::range<0, ip::end, 2>) = ip::view(w, ip::all, ip::range<1, ip::end, 2>);
  print("w[:, ::2] = w[:, 1::2]:", w);

  // Eigen: mat.diagonal() = mat.row(0) overlaps in one element: one temporary.
  ip::tensor<int, 2> d{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  ip::diagonal(d) = ip::row<0>(d);
  print("diagonal() = row(0):", d);

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
