// Compiled (not run) by CTest with -O2, AVX-512 enabled, -Wall -Wextra -Wpedantic
// -Werror: every SIMD kernel the evaluator instantiates must build warning-free
// for users on AVX-512 machines (g++ 12 warns inside its own intrinsic headers
// unless the library shields them; see detail/texpr_simd.hpp).
#include <inplace/tensors.hpp>

namespace ip = inplace;

void kernels_f(ip::tensor<float>& x, const ip::tensor<float>& y) {
  x = ip::exp(x) * y + ip::sqrt(y);
  x = ip::tanh(x) + ip::gelu(x) + ip::sigmoid(x) - ip::log(ip::abs(x) + 1.0f);
  x = (x * y + 2.0f) / (y + 1.0f) - -x;
  ip::exp_inplace(x);
  x += ip::sum(x, y, y);
}
void kernels_d(ip::tensor<double, 2>& A, const ip::tensor<double, 2>& B) {
  A = ip::exp(A) * B + ip::sqrt(B) - ip::tanh(A) * ip::gelu(B) / ip::sigmoid(A);
  A = ip::log(A) + ip::transpose(B);
}
// The opaque kernels: blocked dot, reductions, softmax (float and double).
float opaque_f(const ip::tensor<float, 2>& A, const ip::tensor<float, 2>& B, ip::tensor<float, 2>& S) {
  const ip::tensor<float, 2> C = ip::dot(A, B);
  const ip::tensor<float> rows = ip::reduce_sum<1>(C), cols = ip::reduce_sum<0>(C);
  ip::softmax_inplace(S);
  const ip::tensor<float, 2> P = ip::softmax(C);
  return static_cast<float>(ip::reduce_sum(P)) + rows(0) + cols(0) + static_cast<float>(ip::dot(rows, cols));
}
double opaque_d(const ip::tensor<double, 2>& A, const ip::tensor<double>& v) {
  const ip::tensor<double> Av = ip::dot(A, v);
  const ip::tensor<double, 2> P = ip::softmax(A);
  return static_cast<double>(ip::reduce_sum(Av)) + ip::reduce_sum<0>(P)(0);
}
