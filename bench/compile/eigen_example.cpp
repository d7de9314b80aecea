// The Eigen program of the same size as example.cpp: softmax(gelu(a + b)) by
// rows, one call, printed (bench/compile/measure.py --goals compiles it with -O2 -c).
#include <Eigen/Dense>

#include <cmath>
#include <cstdio>

using matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

matrix f(const matrix& a, const matrix& b) {
  matrix g = (a + b).unaryExpr([](float v) { return 0.5f * v * (1.0f + std::erf(v * 0.70710678f)); });
  g = (g.colwise() - g.rowwise().maxCoeff()).array().exp().matrix();
  g.array().colwise() /= g.rowwise().sum().array();
  return g;
}

int main() {
  matrix x(64, 1000), y(64, 1000);
  for (Eigen::Index i = 0; i < 64; ++i)
    for (Eigen::Index j = 0; j < 1000; ++j) x(i, j) = static_cast<float>(j % 7) * 0.1f, y(i, j) = 0.01f;
  matrix r = f(x, y);
  std::printf("%g\n", static_cast<double>(r(0, 0)));
}
