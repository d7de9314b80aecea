// Compound assignment (x += e, -=, *=, /=) on tensors, views and ip::noalias:
// x op= e is x = x op e, one loop in x's storage; e reading x with another
// pattern goes through a temporary (or throws under ip::noalias), as for `=`.
#include "allocations.hpp"
#include "naive.hpp"

#include <vector>

namespace ip = inplace;

namespace {
template <class T, auto R>
std::vector<T> elements(const ip::tensor<T, R>& x) {
  return {x.begin(), x.end()};
}
}  // namespace
using allocations::temporaries;

TEST_CASE("compound assignment on tensors: one loop, no temporary", "[expr][compound]") {
  ip::tensor<float> x{1, 2, 3}, y{10, 20, 30};
  CHECK(temporaries([&] { x += y; }) == 0);
  CHECK(elements(x) == std::vector<float>{11, 22, 33});
  CHECK(temporaries([&] { x -= 1.0f; }) == 0);
  CHECK(elements(x) == std::vector<float>{10, 21, 32});
  x *= y * 0.5f;  // an expression on the right
  CHECK(elements(x) == std::vector<float>{50, 210, 480});
  x /= 10;  // an int scalar beside floats computes in float
  CHECK(elements(x) == std::vector<float>{5, 21, 48});
  auto& same = (x += x);  // returns the tensor itself
  CHECK(&same == &x);
  CHECK(elements(x) == std::vector<float>{10, 42, 96});
  ip::tensor<int> i{7, 8, 9};
  i /= 2;  // integer division, as C++ (and NumPy's //=)
  CHECK(elements(i) == std::vector<int>{3, 4, 4});
  // Same kind, as NumPy: a double result into floats converts; into ints it is
  // a compile error (tests/fail/dtype_mismatch.fail.compound_float_into_int.cpp).
  ip::tensor<float> f{1, 2};
  f += ip::tensor<double>{0.5, 0.25};
  CHECK(elements(f) == std::vector<float>{1.5f, 2.25f});
  i = i + 0.5;  // the explicit conversion
  CHECK(elements(i) == std::vector<int>{3, 4, 4});
}

TEST_CASE("compound assignment on views and with broadcasting", "[expr][compound]") {
  ip::tensor<double, 2> A{{1, 2, 3}, {4, 5, 6}};
  ip::tensor<double> row{10, 20, 30};
  A += row;  // row broadcast over A's rows
  CHECK(elements(A) == std::vector<double>{11, 22, 33, 14, 25, 36});
  ip::slice<1>(A) -= 4.0;  // the second row only
  CHECK(elements(A) == std::vector<double>{11, 22, 33, 10, 21, 32});
  ip::transpose(A) *= ip::tensor<double, 2>{{1, 0}, {1, 0}, {1, 0}};  // row 1 of A zeroed through its transpose
  CHECK(elements(A) == std::vector<double>{11, 22, 33, 0, 0, 0});
  ip::tensor<double> x{1, 2, 3, 4, 5, 6};
  ip::slice<0, ip::end, 2>(x) += ip::slice<1, ip::end, 2>(x);  // even += odd (disjoint elements)
  CHECK(elements(x) == std::vector<double>{3, 2, 7, 4, 11, 6});
  CHECK_THROWS_AS(row += A, ip::shape_error);  // row would have to grow
  CHECK(elements(row) == std::vector<double>{10, 20, 30});
}

TEST_CASE("compound assignment reading the destination otherwise", "[expr][compound][alias]") {
  ip::tensor<float, 2> A{{1, 2}, {3, 4}};
  // NumPy: A += A.T  ->  [[2, 5], [5, 8]] (NumPy copies the overlapping operand first)
  CHECK(temporaries([&] { A += ip::transpose(A); }) == 1);
  CHECK(elements(A) == std::vector<float>{2, 5, 5, 8});
  ip::tensor<float> x{0, 1, 2, 3, 4};
  ip::slice<1>(x) += ip::slice<0, -1>(x);  // x[1:] += x[:-1]  ->  {0, 1, 3, 5, 7}
  CHECK(elements(x) == std::vector<float>{0, 1, 3, 5, 7});
  ip::noalias(x) *= 2.0f;
  CHECK(elements(x) == std::vector<float>{0, 2, 6, 10, 14});
  CHECK_THROWS_AS(ip::noalias(x) += ip::reverse(x), ip::aliasing_error);
  CHECK_THROWS_AS(ip::noalias(A) -= ip::transpose(A), ip::aliasing_error);
  CHECK(elements(x) == std::vector<float>{0, 2, 6, 10, 14});
  CHECK(elements(A) == std::vector<float>{2, 5, 5, 8});
  ip::tensor<float, 2> B{{1, 1}, {1, 1}};
  ip::noalias(B) /= A + ip::transpose(A);  // another tensor: no temporary, no error
  CHECK(B(0, 1) == 0.1f);
}
