// The tutorial's tensor sections (docs/tutorial.md, sections 9-13): tensors and
// views, fused expressions, aliasing, in-place ops and compound assignment,
// buffer aliases. Its output is checked against tutorial_tensors.expected.
#include <cstdint>
#include <cstdio>
#include <utility>

// [doc:includes]
#include <inplace/tensors.hpp>  // tensors, views, expressions (no graphs)

namespace ip = inplace;
// [/doc]

template <class V>
void print(const char* name, const V& v) {
  std::printf("%s:", name);
  for (std::size_t i = 0; i < v.size(); ++i) std::printf(" %g", static_cast<double>(v[i]));
  std::printf("\n");
}

int main() {
  {
    // [doc:tensors]
    ip::tensor<float, 2> A{{1, 2, 3}, {4, 5, 6}};  // owning, row-major, 64-byte aligned
    ip::tensor<float> x(4);                          // rank 1, four zeros
    ip::tensor<float, ip::extents<2, 2>> S;          // static extents: allocated, zero
    auto At = ip::transpose(A);                      // a view: A's storage, strides (1, 3)
    auto row = ip::slice<1>(A);                      // A[1:], a view of the second row
    At(2, 0) = 30;                                   // writes A(0, 2)
    // [/doc]
    std::printf("A(0, 2) = %g, At extents (%zu, %zu), row(0, 0) = %g, x.size() = %zu, S.size() = %zu\n", A(0, 2),
                At.extent(0), At.extent(1), row(0, 0), x.size(), S.size());
  }
  {
    // [doc:axis_views]
    ip::tensor<float, 2> M{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}};
    auto part = ip::view(M, ip::range<1, 3>, ip::range<0, ip::end, 2>);  // M[1:3, ::2]
    auto last = ip::view(M, ip::all, -1);                                // M[:, -1], run-time index
    ip::row<0>(M) = ip::row<2>(M);                  // two rows of one matrix: no temporary
    ip::tensor<float, 2> T(4, 3);
    T = ip::transpose(M + 1.0f);                    // a view of an expression: lazy, one loop
    auto b = ip::broadcast_to<2, 4>(ip::row<1>(M)); // read-only, stride 0
    // [/doc]
    std::printf("part(1, 1) = %g, last(1) = %g, M(0, 3) = %g, T(3, 2) = %g, b(1, 3) = %g\n", part(1, 1), last(1),
                M(0, 3), T(3, 2), b(1, 3));
  }
  {
    // [doc:expressions]
    ip::tensor<float> x{1, 2, 3, 4}, y{10, 20, 30, 40};
    x = 2.0f * x + y;                      // one loop, straight into x: no temporary
    x = ip::exp(x * 0.0f) + ip::max(x, 25.0f);  // any elementwise op, run-time scalars
    ip::tensor<float, 2> M{{1, 2, 3, 4}, {5, 6, 7, 8}};
    M = M * x;                             // NumPy broadcasting: x times every row of M
    // [/doc]
    print("x", x);
    print("M", M);
  }
  {
    // [doc:aliasing]
    ip::tensor<float> x{0, 1, 2, 3, 4};
    ip::slice<1>(x) = ip::slice<0, -1>(x);  // shifted overlap: one temporary, NumPy's result
    ip::tensor<float, 2> A{{1, 2}, {3, 4}}, B(2, 2);
    A = A + ip::transpose(A);               // transposed overlap: one temporary
    ip::noalias(B) = A + ip::transpose(A);  // B is another tensor: no check needed, none made
    try {
      ip::noalias(A) = A + ip::transpose(A);  // overlap under noalias: an error, A untouched
    } catch (const ip::aliasing_error& e) {
      std::printf("%.60s...\n", e.what());
    }
    // [/doc]
    print("x", x);
    print("A", A);
    print("B", B);
  }
  {
    // [doc:inplace]
    ip::tensor<float> x{1, 2, 3}, y{3, 7, 13};
    ip::add_inplace(x, y);                       // x = x + y, now, in x's storage: 4 9 16
    auto v = ip::sqrt_inplace(ip::slice<1>(x));  // on the view x[1:], returned as v: x is 4 3 4
    x += y;                                      // x = x + y; also -=, *=, /=: 7 10 17
    ip::tensor<float> t{0, 1};
    ip::tensor<float> u = ip::relu_inplace(std::move(t));  // donated: u holds t's storage
    try {
      ip::add_inplace(x, ip::reverse(x));  // would need a copy: an in-place op never copies
    } catch (const ip::aliasing_error& e) {
      std::printf("%.45s...\n", e.what());
    }
    // [/doc]
    std::printf("v(0) = %g, u.size() = %zu, t.size() = %zu\n", v(0), u.size(), t.size());
    print("x", x);
  }
  {
    // [doc:alias]
    ip::tensor<float> x(8);
    auto bytes = ip::alias<std::uint8_t>(x, 4, 8);           // tensor_view<uint8_t, 2> over x's 32 bytes
    auto pairs = ip::alias<double, ip::extents<4>>(x);       // static extents: size checked at compile time
    pairs = 0.5;
    try {
      auto too_big = ip::alias<double>(x, 5);  // 40 bytes of 32: ip::alias_error, nothing aliased
      (void)too_big;
    } catch (const ip::alias_error& e) {
      std::printf("%s\n", e.what());
    }
    // [/doc]
    std::printf("bytes (%zu, %zu), pairs(3) = %g\n", bytes.extent(0), bytes.extent(1), pairs(3));
  }
}
