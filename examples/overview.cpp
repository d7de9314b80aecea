// The README's example: a legal fused in-place update, and an illegal order
// that ip::check reports (and ip::function refuses to compile).
#include "dot_option.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

// [doc:overview]
#include <inplace.hpp>

namespace ip = inplace;
using namespace ip::literals;

constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto z = ip::input<"z", float>;

// Legal: mul reads x after add_inplace overwrote it, but both are elementwise
// and read x at the same index, so they run as one fused loop in which every
// element of x is loaded before it is stored.
constexpr auto updated = ip::add_inplace(x, z);
constexpr auto product = ip::mul(updated, x);
constexpr auto f = ip::function(ip::inputs(x, z), ip::outputs(product));
static_assert(ip::position(f, updated) < ip::position(f, product));

// Illegal: dot needs all of x before add_inplace overwrites it, and its other
// argument is add_inplace's result. ip::function(...) on this graph is a
// compile error "inplace: ordering_cycle" naming both nodes
// (tests/fail/ordering_cycle.fail.dot_reads_destroyed.cpp).
constexpr auto bad = ip::check(ip::inputs(x, y), ip::outputs(ip::dot(x, ip::add_inplace(x, y))));
static_assert(!bad.ok && bad.error == ip::error_kind::ordering_cycle);
// [/doc]

// The demo (make demo): the plan of f under two donation patterns, the legal
// and the illegal case, and with --time one timing against a hand loop; with
// --dot DIR, f's graph as Graphviz DOT (dot_option.hpp).
double best_ns(auto&& run) {
  double best = 1e300;
  for (int rep = 0; rep < 7; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < 50; ++k) run();
    const std::chrono::duration<double, std::nano> d = std::chrono::steady_clock::now() - t0;
    best = std::min(best, d.count() / 50);
  }
  return best;
}

int main(int argc, char** argv) {
  std::printf("legal: %d nodes, add_inplace at %d, mul at %d\n", int(decltype(f)::num_nodes),
              ip::position(f, updated), ip::position(f, product));
  std::printf("illegal: %s: %s <-> %s\n\n", std::string(ip::to_string(bad.error)).c_str(),
              std::string(bad.name(0)).c_str(), std::string(bad.name(1)).c_str());
  std::printf("%s\n%s", ip::explain(f, ip::donated, ip::borrowed).c_str(),
              ip::explain(f, ip::borrowed, ip::borrowed).c_str());

  dot_option(argc, argv, "overview").write("f", ip::to_dot(f, ip::donated, ip::borrowed));
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (std::find(args.begin(), args.end(), "--time") == args.end()) return 0;

  // (x + z) * x, donated back every call: x stays x0 when z = 1 - x0
  constexpr std::size_t n = 1 << 18;
  ip::tensor<float> xs(n), zs(n);
  for (std::size_t i = 0; i < n; ++i) xs(i) = static_cast<float>(i % 100) / 100, zs(i) = 1 - xs(i);
  std::vector<float> hx(xs.begin(), xs.end()), hz(zs.begin(), zs.end());
  const double graph = best_ns([&] { xs = f(std::move(xs), zs); });
  const double hand = best_ns([&] {
    float* px = hx.data();
    const float* pz = hz.data();
    for (std::size_t i = 0; i < n; ++i) px[i] = (px[i] + pz[i]) * px[i];
  });
  std::printf("\ntiming, %zu floats: f(std::move(x), z) %.1f us, hand loop %.1f us (hand / f = %.2f)\n", n,
              graph / 1000, hand / 1000, hand / graph);
}
