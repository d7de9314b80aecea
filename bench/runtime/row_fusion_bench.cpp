// reduce_sum<1>(softmax(X * 0.5 + 1) * 2 - 1) on a 4096 x 4096 float X, the
// call running every step inside softmax's row loop (run/detail/program.hpp:
// row chains): X donated, X borrowed, a one-pass hand loop (the same softmax
// row kernel over a row buffer) and Eigen (X * 0.5 + 1 into a new array,
// softmax row by row, the rest and the row sums in one expression). Every
// round times each once, in a rotating order, each on a fresh copy of X made
// outside its timing (the donated call consumes it), and keeps the round's ratios, as paired.hpp
// does: on a shared machine the speed drifts between rounds, not within one.
// Prints the median milliseconds of each and the median ratios borrowed /
// donated, donated / hand, Eigen / donated. Usage: row_fusion_bench [rounds]
// (default 9).
#include <inplace.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr std::size_t n = 4096;
constexpr auto X = ip::input<"X", float, ip::extents<n, n>>;
constexpr auto f = ip::function(ip::inputs(X), ip::outputs(ip::reduce_sum<1>(ip::softmax(X * 0.5_c + 1.0_c) * 2.0_c - 1.0_c)));
static_assert(ip::plan(f, ip::borrowed).allocations == 1 && ip::plan(f, ip::donated).allocations == 1);  // the row sums
using matrix = ip::tensor<float, ip::extents<n, n>>;

// (the extent through a volatile: a constant one let g++ 12 warn falsely of an
// overflowing loop inside the inlined softmax kernel, -Waggressive-loop-optimizations)
volatile std::size_t columns = n;
[[gnu::noinline]] void hand(const float* x, float* r) {
  alignas(64) static float row[n];
  const std::size_t c = columns;
  for (std::size_t i = 0; i < n; ++i) {
    const float* xi = x + i * c;
    for (std::size_t j = 0; j < c; ++j) row[j] = xi[j] * 0.5f + 1.0f;
    ip::detail::texpr::softmax_row(row, c, 1);
    float lane[16] = {};  // sixteen sums in flight, added at the end
    for (std::size_t j = 0; j < c; j += 16)
      for (std::size_t l = 0; l < 16; ++l) lane[l] += row[j + l] * 2.0f - 1.0f;
    float s = 0;
    for (float v : lane) s += v;
    r[i] = s;
  }
}
// Eigen: the first step into a new array, softmax row by row in it (as
// kernels_bench.cpp's Eigen softmax), the last steps and the sums in one expression.
using arr = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
[[gnu::noinline]] void eigen(const float* x, float* r) {
  const Eigen::Map<const arr> A(x, n, n);
  arr y = A * 0.5f + 1.0f;
  for (Eigen::Index i = 0; i < y.rows(); ++i) {
    auto row = y.row(i);
    const float mx = row.maxCoeff();
    row = (row - mx).exp();
    row *= 1.0f / row.sum();
  }
  Eigen::Map<Eigen::ArrayXf>(r, n) = (y * 2.0f - 1.0f).rowwise().sum();
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
  matrix x;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 97) * 0.01f;
  std::vector<float> rh(n), re(n);
  // agree before timing
  const auto rb = f(x);
  hand(x.data(), rh.data());
  eigen(x.data(), re.data());
  for (std::size_t i = 0; i < n; ++i)
    if (std::abs(rb[i] - rh[i]) > 1e-2f || std::abs(re[i] - rh[i]) > 1e-2f) {
      std::fprintf(stderr, "row %zu: graph %g hand %g eigen %g\n", i, double(rb[i]), double(rh[i]), double(re[i]));
      return 1;
    }
  std::vector<double> td, tb, th, te;
  float sink = 0;
  for (int k = 0; k < rounds; ++k) {
    for (int which = 0; which < 4; ++which) {
      matrix copy = x;  // each call reads a fresh copy, made outside its timing: the same caches for all four
      switch ((which + k) % 4) {
        case 0: {
          const auto t0 = std::chrono::steady_clock::now();
          const auto r = f(std::move(copy));
          td.push_back(ms_since(t0));
          sink += r[0];
          break;
        }
        case 1: {
          const auto t0 = std::chrono::steady_clock::now();
          const auto r = f(copy);
          tb.push_back(ms_since(t0));
          sink += r[0];
          break;
        }
        case 2: {
          const auto t0 = std::chrono::steady_clock::now();
          hand(copy.data(), rh.data());
          th.push_back(ms_since(t0));
          sink += rh[0];
          break;
        }
        default: {
          const auto t0 = std::chrono::steady_clock::now();
          eigen(copy.data(), re.data());
          te.push_back(ms_since(t0));
          sink += re[0];
        }
      }
    }
  }
  std::vector<double> bd, dh, ed;
  for (std::size_t k = 0; k < td.size(); ++k)
    bd.push_back(tb[k] / td[k]), dh.push_back(td[k] / th[k]), ed.push_back(te[k] / td[k]);
  std::printf("donated %.2f ms, borrowed %.2f ms, hand %.2f ms, eigen %.2f ms; borrowed/donated %.3f, donated/hand %.3f, "
              "eigen/donated %.3f (%g)\n",
              median(td), median(tb), median(th), median(te), median(bd), median(dh), median(ed), static_cast<double>(sink));
}
