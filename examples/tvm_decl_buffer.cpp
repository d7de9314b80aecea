// TVM's DeclBuffer RFC, with inplace's buffers and aliases: a buffer declared
// over another's storage with another shape or dtype (T.decl_buffer(data=A.data)),
// the size checks TVM leaves to the pass writer, the flattening of a 2-d buffer
// into a 1-d alias walked with flat indices, and the symbolic aliases of graphs
// (ip::reinterpret, ip::reshape, ip::flatten), which the analysis treats as
// views of their root.
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

namespace ip = inplace;
using namespace ip::literals;

struct float4 {  // TVM's "float32x4"
  float lane[4];
};

// [doc:tvm_graph]
// In a graph, an alias is a view of its root: overwriting the root through one
// alias while reading it through another (with another index pattern) is
// caught while compiling, as for any view.
constexpr auto A = ip::input<"A", float, ip::extents<16, 16>>;
constexpr auto flat = ip::flatten(A);                // A_flattened: (256,)
constexpr auto bits = ip::reinterpret<std::uint32_t>(A);  // the same bytes as integers
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::exp_inplace(flat))).ok);
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::add_inplace(A, ip::transpose(A)))).error ==
              ip::error_kind::aliasing_hazard);
static_assert(ip::check(ip::inputs(A), ip::outputs(ip::exp_inplace(flat), bits)).error ==
              ip::error_kind::destroys_output);
// [/doc]

int main(int argc, char** argv) {
  // [doc:tvm_alias]
  // A_vector = T.decl_buffer([4], "float32x4", data=A.data)
  ip::tensor<float> a(16);
  for (std::size_t i = 0; i < 16; ++i) a(i) = static_cast<float>(i);
  auto a_vector = ip::alias<float4>(a, 4);  // 4 x float4 over a's 64 bytes
  std::printf("A_vector[1] = (%g, %g, %g, %g)\n", a_vector(1).lane[0], a_vector(1).lane[1], a_vector(1).lane[2],
              a_vector(1).lane[3]);
  // A 5th float4 would need 80 bytes of a 64-byte storage: ip::alias_error, nothing aliased.
  try {
    (void)ip::alias<float4>(a, 5);
  } catch (const ip::alias_error& e) {
    std::printf("alias_error: %s\n", e.what());
  }
  // With static extents on both sides the same mistake does not compile:
  //   ip::alias<float4, ip::extents<5>>(ip::tensor<float, ip::extents<16>>{}) -> inplace: alias_size

  // Flattening: C_flattened[i * 16 + j] = A_flattened[i * 16 + j]
  ip::tensor<float, ip::extents<16, 16>> A2, C;
  for (std::size_t i = 0; i < 16; ++i)
    for (std::size_t j = 0; j < 16; ++j) A2(i, j) = static_cast<float>(i * 16 + j);
  auto a_flat = ip::alias<float, ip::extents<256>>(A2);
  auto c_flat = ip::alias<float, ip::extents<256>>(C);
  for (std::size_t k = 0; k < 256; ++k) c_flat(k) = a_flat(k);
  std::printf("C[3, 5] = %g (flat index %d)\n", C(3, 5), 3 * 16 + 5);
  // [/doc]

  // The graph: exp in place through the flattened alias, on a donated A.
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::exp_inplace(flat)));
  static_assert(ip::plan(f, ip::donated) == ip::plan_result{0, 0, 1, 1, 0});
  dot_option(argc, argv, "tvm_decl_buffer").write("f", ip::to_dot(f, ip::donated));
  ip::tensor<float, ip::extents<16, 16>> m;
  for (std::size_t k = 0; k < 256; ++k) m.data()[k] = 0;
  const float* storage = m.data();
  auto e = f(std::move(m));
  std::printf("exp_inplace(flatten(A)): %zu elements, e[0] = %g, in A's storage: %s\n", e.size(), e(0),
              e.data() == storage ? "yes" : "no");
  std::printf("\n%s", ip::explain(f, ip::donated).c_str());
}
