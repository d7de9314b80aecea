// NumPy broadcasting and strided loops, against naive loops; shape errors.
#include "naive.hpp"

#include <vector>

namespace ip = inplace;

TEST_CASE("broadcasting: row, column, outer, rank 3", "[expr][broadcast]") {
  ip::tensor<double, 2> A(3, 4), R(3, 4);
  ip::tensor<double> v(4);
  ip::tensor<double, 2> col(3, 1), row(1, 4);
  naive::fill(A, -1, 1, 1);
  naive::fill(v, -1, 1, 2);
  naive::fill(col, -1, 1, 3);
  naive::fill(row, -1, 1, 4);

  R = A + v;  // (3, 4) + (4)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(R(i, j) == A(i, j) + v(j));
  R = A * col;  // (3, 4) * (3, 1)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(R(i, j) == A(i, j) * col(i, 0));
  R = col - row;  // (3, 1) - (1, 4): an outer difference
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(R(i, j) == col(i, 0) - row(0, j));
  R = v;  // the destination takes a broadcast of v
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(R(i, j) == v(j));
  R = 2.5;
  for (double x : R) CHECK(x == 2.5);

  ip::tensor<float, 3> B(2, 3, 4), S(2, 3, 4);
  ip::tensor<float, 2> c31(3, 1);
  naive::fill(B, -1, 1, 5);
  naive::fill(c31, -1, 1, 6);
  S = B / (c31 + 2.0f) + ip::transpose(ip::transpose(B));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) CHECK(naive::close(S(i, j, k), B(i, j, k) / (c31(j, 0) + 2.0f) + B(i, j, k)));
}

TEST_CASE("strided destinations and operands", "[expr][strided]") {
  ip::tensor<float, 2> A(5, 6), B(6, 5), out(5, 6);
  naive::fill(A, -1, 1, 7);
  naive::fill(B, -1, 1, 8);
  out = A + ip::transpose(B);  // strided operand
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j) CHECK(out(i, j) == A(i, j) + B(j, i));
  ip::tensor<float, 2> C(6, 5);
  ip::transpose(C) = A * 2.0f;  // strided destination: the loop runs along C's rows
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j) CHECK(C(j, i) == A(i, j) * 2.0f);
  // A block: rows 1..3 of A, every other row of out.
  ip::slice<0, ip::end, 2>(out) = ip::slice<1, 4>(A) - 1.0f;
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 6; ++j) CHECK(out(2 * r, j) == A(r + 1, j) - 1.0f);
  ip::reverse(out) = A;  // negative stride
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j) CHECK(out(4 - i, j) == A(i, j));
}

TEST_CASE("rank 0 and empty tensors", "[expr]") {
  ip::tensor<double, 0> s;
  CHECK(s.size() == 1);
  ip::tensor<double> x{1, 2, 3}, r(3);
  s() = 4;
  r = x * s;  // a rank-0 tensor broadcasts like a scalar
  CHECK(std::vector<double>(r.begin(), r.end()) == std::vector<double>{4, 8, 12});
  ip::tensor<double> e0(0), e1(0);
  e0 = e1 + 1.0;
  CHECK(e0.size() == 0);
}

TEST_CASE("operands that do not broadcast throw shape_error with both shapes", "[expr][error]") {
  ip::tensor<float, 2> A(2, 3);
  ip::tensor<float> v(4);
  CHECK_THROWS_MATCHES(A + v, ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: add: operands with extents (2, 3) and (4) do not broadcast"));
  CHECK_THROWS_MATCHES(ip::where(A, v, 1.0f), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: where: operands with extents (2, 3), (4) and () do not broadcast"));
}

TEST_CASE("a destination of the wrong extents throws before anything is written", "[expr][error]") {
  ip::tensor<float, 2> D(2, 4);
  D = 7.0f;
  ip::tensor<float> v{1, 2, 3};
  CHECK_THROWS_MATCHES(D = v * 2.0f, ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: cannot assign extents (3) to a destination of extents (2, 4)"));
  ip::tensor<float, 2> big(3, 4);  // (D = big would be a value copy: a tensor is a regular type)
  CHECK_THROWS_MATCHES(D = big.view(), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: cannot assign extents (3, 4) to a destination of extents (2, 4)"));
  ip::tensor<float> d1(4);
  d1 = 7.0f;
  ip::tensor<float, 2> wide(2, 4);
  CHECK_THROWS_MATCHES(d1 = wide + 1.0f, ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: cannot assign extents (2, 4) to a destination of extents (4)"));
  for (float x : D) CHECK(x == 7.0f);
  for (float x : d1) CHECK(x == 7.0f);
}
