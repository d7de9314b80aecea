// A decoder's key/value cache, written one row per step in the caller's
// storage. Each step is a graph: the cache with row t replaced by the step's
// key (ip::set through ip::dynamic_slice, t known only when the program
// runs). Called with the caches donated, the call writes the two rows where
// the caches live and returns that storage: no allocation, no copy, the same
// pointers at every step (proved while compiling by ip::plan). Attention over
// the rows written so far then reads the caches through views, with the
// tensor functions. The values are NumPy's (examples/kv_cache.expected,
// written by scripts/kv_cache_reference.py).
#include <inplace.hpp>

#include "dot_option.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <utility>

namespace ip = inplace;

// [doc:kv_cache]
constexpr std::size_t steps = 6, width = 4;
constexpr auto K = ip::input<"K", float, ip::extents<steps, width>>;  // the key cache (donated)
constexpr auto V = ip::input<"V", float, ip::extents<steps, width>>;  // the value cache (donated)
constexpr auto t = ip::scalar<"t", std::int64_t>;                     // the step
constexpr auto k = ip::input<"k", float, ip::extents<width>>;         // this step's key
constexpr auto v = ip::input<"v", float, ip::extents<width>>;         // and value

// K.at[t].set(k), V.at[t].set(v): a start outside 0 .. steps - 1 is an
// ip::shape_error before anything is written.
constexpr auto append = ip::function(ip::inputs(K, V, t, k, v),
                                     ip::outputs(ip::set(ip::dynamic_slice<0, 1>(K, t), ip::expand_dims<0>(k)),
                                                 ip::set(ip::dynamic_slice<0, 1>(V, t), ip::expand_dims<0>(v))));
constexpr auto in_place = ip::plan(append, ip::donated, ip::donated, ip::borrowed, ip::borrowed, ip::borrowed);
static_assert(in_place.allocations == 0 && in_place.copies == 0 && in_place.in_place == 2);
// Borrowed, the call would copy each cache first (JAX without donate_argnums).
static_assert(ip::plan(append, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed, ip::borrowed).copies == 2);
// [/doc]

// This step's query, key and value: small exact numbers, the same in NumPy.
float qkv(int which, std::size_t s, std::size_t j) {
  const auto a = static_cast<int>(s), b = static_cast<int>(j);
  if (which == 0) return static_cast<float>((a + 2 * b) % 5 - 2) * 0.5f;
  if (which == 1) return static_cast<float>((3 * a + 5 * b) % 7 - 3) * 0.25f;
  return static_cast<float>((5 * a + 3 * b) % 11 - 5) * 0.125f;
}

int main(int argc, char** argv) {
  const dot_option dot(argc, argv, "kv_cache");
  dot.write("append", ip::to_dot(append, ip::donated, ip::donated, ip::borrowed, ip::borrowed, ip::borrowed));
  ip::tensor<float, ip::extents<steps, width>> keys{}, values{};
  const float* key_storage = keys.data();
  const float* value_storage = values.data();
  bool kept = true;
  for (std::size_t s = 0; s < steps; ++s) {
    ip::tensor<float, ip::extents<width>> q, ks, vs;
    for (std::size_t j = 0; j < width; ++j) q[j] = qkv(0, s, j), ks[j] = qkv(1, s, j), vs[j] = qkv(2, s, j);
    auto [k2, v2] = append(std::move(keys), std::move(values), static_cast<std::int64_t>(s), ks, vs);
    keys = std::move(k2);
    values = std::move(v2);
    kept = kept && keys.data() == key_storage && values.data() == value_storage;
    // attention over rows 0 .. s: softmax(K[:s+1] q / sqrt(width)) V[:s+1]
    const auto seen = ip::runtime_range{0, static_cast<std::ptrdiff_t>(s) + 1};
    const auto weights = ip::softmax(ip::dot(ip::view(keys, seen), q) * (1.0f / std::sqrt(static_cast<float>(width))));
    const auto out = ip::dot(weights, ip::view(values, seen));
    std::printf("step %zu:", s);
    for (std::size_t j = 0; j < width; ++j) std::printf(" %8.5f", static_cast<double>(out[j]));
    std::printf("\n");
  }
  std::printf("caches kept their storage at every step: %s\n", kept ? "yes" : "no");
  std::printf("per step: %zu allocations, %zu copies, %zu updates in place\n", in_place.allocations, in_place.copies,
              in_place.in_place);
}
