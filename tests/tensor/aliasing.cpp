// Every aliasing pattern of SPEC 7, with the result NumPy gives for the same
// statement (NumPy copies overlapping operands first), reasoned out by hand in
// each case, and the number of temporaries the assignment made.
#include "allocations.hpp"

#include <inplace/tensors.hpp>

#include <catch2/catch.hpp>

#include <vector>

namespace ip = inplace;

namespace {
std::vector<float> elements(const ip::tensor<float>& x) { return {x.begin(), x.end()}; }
std::vector<float> elements(const ip::tensor<float, 2>& x) { return {x.begin(), x.end()}; }
}  // namespace
using allocations::temporaries;

TEST_CASE("identity pattern: never checked, no temporary", "[alias]") {
  ip::tensor<float> x{1, 2, 3}, y{10, 20, 30};
  CHECK(temporaries([&] { x = 2.0f * x + y; }) == 0);
  CHECK(elements(x) == std::vector<float>{12, 24, 36});
  CHECK(temporaries([&] { x = x * x - x; }) == 0);  // x*x - x of {12, 24, 36}
  CHECK(elements(x) == std::vector<float>{132, 552, 1260});
  CHECK(temporaries([&] { ip::slice<1>(x) = ip::slice<1>(x) + 1.0f; }) == 0);  // the same slice
  CHECK(elements(x) == std::vector<float>{132, 553, 1261});
}

TEST_CASE("transpose of the destination goes through a temporary", "[alias]") {
  ip::tensor<float, 2> A{{1, 2}, {3, 4}};
  // NumPy: A[:] = A + A.T  ->  [[2, 5], [5, 8]]
  CHECK(temporaries([&] { A = A + ip::transpose(A); }) == 1);
  CHECK(elements(A) == std::vector<float>{2, 5, 5, 8});
  // NumPy: A[:] = A.T  ->  [[2, 5], [5, 8]] is symmetric; use a non-symmetric one.
  ip::tensor<float, 2> B{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  B = ip::transpose(B);  // a naive loop would give [[1,4,7],[4,5,8],[7,8,9]]
  CHECK(elements(B) == std::vector<float>{1, 4, 7, 2, 5, 8, 3, 6, 9});
}

TEST_CASE("shifted slices, both directions", "[alias]") {
  ip::tensor<float> x{0, 1, 2, 3, 4};
  // x[1:] = x[:-1]: old x[:-1] is {0, 1, 2, 3}  ->  {0, 0, 1, 2, 3}
  // (a forward loop without the copy would smear x[0] over everything)
  CHECK(temporaries([&] { ip::slice<1>(x) = ip::slice<0, -1>(x); }) == 1);
  CHECK(elements(x) == std::vector<float>{0, 0, 1, 2, 3});
  ip::tensor<float> y{0, 1, 2, 3, 4};
  // y[:-1] = y[1:]  ->  {1, 2, 3, 4, 4}
  ip::slice<0, -1>(y) = ip::slice<1>(y);
  CHECK(elements(y) == std::vector<float>{1, 2, 3, 4, 4});
  ip::tensor<float> z{0, 1, 2, 3, 4};
  // z[1:] = z[:-1] + z[1:]: {0+1, 1+2, 2+3, 3+4}  ->  {0, 1, 3, 5, 7}
  ip::slice<1>(z) = ip::slice<0, -1>(z) + ip::slice<1>(z);
  CHECK(elements(z) == std::vector<float>{0, 1, 3, 5, 7});
  ip::tensor<float> w{0, 1, 2, 3, 4, 5};
  // Disjoint slices of one tensor do not overlap: w[:2] = w[3:5], no temporary.
  CHECK(temporaries([&] { ip::slice<0, 2>(w) = ip::slice<3, 5>(w); }) == 0);
  CHECK(elements(w) == std::vector<float>{3, 4, 2, 3, 4, 5});
}

TEST_CASE("reverse of the destination", "[alias]") {
  ip::tensor<float> x{0, 1, 2, 3, 4};
  // x[:] = x[::-1]  ->  {4, 3, 2, 1, 0} (in place, a naive loop gives {4, 3, 2, 3, 4})
  x = ip::reverse(x);
  CHECK(elements(x) == std::vector<float>{4, 3, 2, 1, 0});
  x = x - ip::reverse(x);  // {4-0, 3-1, 2-2, 1-3, 0-4}
  CHECK(elements(x) == std::vector<float>{4, 2, 0, -2, -4});
}

TEST_CASE("broadcast of the destination's own elements", "[alias]") {
  ip::tensor<float, 2> A{{1, 2}, {3, 4}, {5, 6}};
  // A[:] = A + A[0:1]: every row plus the OLD row 0  ->  [[2, 4], [4, 6], [6, 8]]
  // (without the copy, rows 1 and 2 would add the already doubled row 0)
  CHECK(temporaries([&] { A = A + ip::slice<0, 1>(A); }) == 1);
  CHECK(elements(A) == std::vector<float>{2, 4, 4, 6, 6, 8});
  ip::tensor<float> x{1, 2, 3};
  // x[:] = x * x[0:1]  ->  {1, 2, 3} * 1
  x = x * ip::slice<0, 1>(x) + ip::slice<2, 3>(x);  // + old x[2] = 3  ->  {4, 5, 6}
  CHECK(elements(x) == std::vector<float>{4, 5, 6});
}

TEST_CASE("distinct tensors: no check fires, no temporary", "[alias]") {
  ip::tensor<float, 2> A{{1, 2}, {3, 4}}, B(2, 2);
  CHECK(temporaries([&] { B = A + ip::transpose(A); }) == 0);
  CHECK(elements(B) == std::vector<float>{2, 5, 5, 8});
  CHECK(temporaries([&] { ip::noalias(B) = A + ip::transpose(A) * 2.0f; }) == 0);
  CHECK(elements(B) == std::vector<float>{3, 8, 7, 12});
}

TEST_CASE("the destination's storage read with another element size", "[alias]") {
  ip::tensor<double> t{1.5, 2.5, 3.5, 4.5};
  auto f = ip::alias<float>(t, 4);  // the first 16 bytes of t, as 4 floats
  // Same address and extents, another element size: not the destination's own
  // pattern, so checked, and the overlap goes through a temporary.
  CHECK(temporaries([&] { f = t; }) == 1);
  CHECK(std::vector<float>(f.data(), f.data() + 4) == std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f});
}

TEST_CASE("a strided assignment does not copy a tensor its expression owns", "[alias]") {
  ip::tensor<float, 2> A{{1, 2}, {3, 4}}, B(2, 2);
  auto e = A + ip::tensor<float, 2>{{10, 20}, {30, 40}};  // e owns the second tensor
  CHECK(temporaries([&] { ip::transpose(B) = e; }) == 0);
  CHECK(elements(B) == std::vector<float>{11, 33, 22, 44});
}

TEST_CASE("noalias: an overlapping read throws aliasing_error, nothing written", "[alias][error]") {
  ip::tensor<float, 2> A{{1, 2}, {3, 4}};
  const char* msg =
      "inplace: aliasing_error: ip::noalias destination of extents (2, 2) overlaps an operand read with another index "
      "pattern (transposed, shifted, reversed or broadcast); drop ip::noalias to evaluate through a temporary";
  CHECK_THROWS_MATCHES(ip::noalias(A) = A + ip::transpose(A), ip::aliasing_error, Catch::Matchers::Message(msg));
  CHECK(elements(A) == std::vector<float>{1, 2, 3, 4});
  ip::tensor<float> x{0, 1, 2, 3, 4};
  CHECK_THROWS_AS((ip::noalias(ip::slice<1>(x)) = ip::slice<0, -1>(x)), ip::aliasing_error);
  CHECK_THROWS_AS(ip::noalias(x) = ip::reverse(x), ip::aliasing_error);
  CHECK_THROWS_AS((ip::noalias(x) = x + ip::slice<0, 1>(x)), ip::aliasing_error);
  CHECK(elements(x) == std::vector<float>{0, 1, 2, 3, 4});
  // The destination's own pattern is fine under noalias.
  ip::noalias(x) = x * 2.0f;
  CHECK(elements(x) == std::vector<float>{0, 2, 4, 6, 8});
  // An error is an ip::error.
  CHECK_THROWS_AS(ip::noalias(A) = ip::transpose(A), ip::error);
}

TEST_CASE("a larger transposed update matches the reference", "[alias]") {
  const int n = 33;
  ip::tensor<double, 2> A(n, n), want(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = i * 100 + j;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) want(i, j) = A(i, j) * 2.0 - A(j, i);
  A = A * 2.0 - ip::transpose(A);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) CHECK(A(i, j) == want(i, j));
}

TEST_CASE("a strided destination whose elements are distinct is written; one that overlaps itself is not",
          "[alias][overlap]") {
  // NumPy: B[:, ::2] *= 10 on a (2, 3) tensor: the view has extents (2, 2), strides (3, 2) in B.
  ip::tensor<float, 2> B{{1, 2, 3}, {4, 5, 6}};
  ip::slice<0, ip::end, 2>(ip::transpose(B)) *= 10.0f;  // columns 0 and 2 of B, transposed
  CHECK(elements(B) == std::vector<float>{10, 2, 30, 40, 5, 60});
  // Interleaved strides the quick test cannot clear: offsets 3i + 2j for i < 2, j < 3 are
  // {0, 2, 4, 3, 5, 7}, all distinct.
  float buf[8] = {};
  ip::tensor_view<float, 2> inter(buf, {2, 3}, {3, 2});
  inter = ip::tensor<float, 2>{{1, 2, 3}, {4, 5, 6}};
  CHECK(std::vector<float>(buf, buf + 8) == std::vector<float>{1, 0, 2, 4, 3, 5, 0, 6});
  // Offsets 2i + j for i, j < 3 repeat (0 2 4 / 1 3 5 / 2 4 6): internal overlap, nothing written.
  float cells[7] = {1, 1, 1, 1, 1, 1, 1};
  ip::tensor_view<float, 2> rows(cells, {3, 3}, {2, 1});
  CHECK_THROWS_AS(rows = 0.0f, ip::aliasing_error);
  CHECK_THROWS_AS(rows += 1.0f, ip::aliasing_error);
  CHECK(std::vector<float>(cells, cells + 7) == std::vector<float>(7, 1.0f));
  // Negative strides with distinct elements.
  ip::tensor<float, 2> C{{1, 2, 3}, {4, 5, 6}};
  ip::reverse(ip::slice<0, ip::end, 2>(ip::transpose(C))) = ip::tensor<float, 2>{{7, 8}, {9, 10}};
  CHECK(elements(C) == std::vector<float>{9, 2, 7, 10, 5, 8});
}

namespace {
// An allocator that hands out memory it does not own (a caller's buffer): a
// tensor built with it may lie over its own expression's operands.
template <class T>
struct over_buffer {
  using value_type = T;
  T* p;
  explicit over_buffer(T* q) : p(q) {}
  template <class U>
  over_buffer(const over_buffer<U>& o) : p(reinterpret_cast<T*>(o.p)) {}
  T* allocate(std::size_t) { return p; }
  void deallocate(T*, std::size_t) {}
  friend bool operator==(const over_buffer&, const over_buffer&) = default;
};
}  // namespace

TEST_CASE("a new tensor's storage is not checked, unless its allocator may hand out memory it does not own", "[alias]") {
  ip::tensor<float> x{1, 2, 3, 4};
  // the default allocator's block is new: no operand can lie in it, no temporary
  CHECK(temporaries([&] { ip::tensor<float> r(ip::reverse(x) * 2.0f); CHECK(elements(r) == std::vector<float>{8, 6, 4, 2}); }) == 1);
  // over x's own storage: the reversed read overlaps it, so the assignment takes the temporary
  const int made = temporaries([&] {
    ip::tensor<float, 1, over_buffer<float>> r(ip::reverse(x) * 2.0f, over_buffer<float>(x.data()));
    CHECK(r.data() == x.data());
  });
  CHECK(made == 1);  // the temporary (over_buffer allocates nothing)
  CHECK(elements(x) == std::vector<float>{8, 6, 4, 2});  // a naive loop would give {8, 6, 12, 16}
}
