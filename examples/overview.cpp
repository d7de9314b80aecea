// The README's example: a legal fused in-place update, and an illegal order
// that ip::check reports (and ip::function refuses to compile).
#include <cstdio>
#include <string>

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

int main() {
  std::printf("legal: %d nodes, add_inplace at %d, mul at %d\n", int(decltype(f)::num_nodes),
              ip::position(f, updated), ip::position(f, product));
  std::printf("illegal: %s: %s <-> %s\n", std::string(ip::to_string(bad.error)).c_str(),
              std::string(bad.name(0)).c_str(), std::string(bad.name(1)).c_str());
}
