#pragma once
// The fused-loop rule, stated once. ip::check (analysis.hpp) decides with it
// which loops a graph needs and rejects the graph when one cannot be formed;
// the runtime (run/detail/fusion.hpp) starts from exactly those loops and
// forms further ones only where the same rule allows.
//
//  - A reader that the destroy handler lets run after the node overwriting what
//    it reads (docs/analysis.md, "the fused-loop exception") shares one loop with
//    that node and with every node on a data path between them (join_paths).
//  - Nodes can share a loop when all are fusable (elementwise, one output) of one rank,
//    no two static extents conflict, and every member reads a root another member
//    overwrites with the writer's own index pattern, unbroadcast, or in a region
//    disjoint from the one written (the loop never writes what such a read sees:
//    a red-black sweep's neighbours; can_share_loop).
//  - A loop stores values of one extents only: the runtime joins a loop to save a
//    pass only when every value the joined loop may store provably has the same
//    extents in every call (extent classes, below).

#include "inplace/graph/detail/graph_data.hpp"
#include "inplace/shape.hpp"

#include <array>
#include <cstddef>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

// Union-find of loops. Union by size without path compression, so the last
// link can be undone (the runtime tries a join and undoes it when refused).
template <std::size_t N>
struct loop_sets {
  std::array<std::size_t, N> parent{}, size{};

  constexpr loop_sets() {
    for (std::size_t e = 0; e < N; ++e) parent[e] = e, size[e] = 1;
  }
  constexpr std::size_t find(std::size_t e) const {
    while (parent[e] != e) e = parent[e];
    return e;
  }
  // Joins the sets of a and b; returns the absorbed representative (or a's if already one).
  constexpr std::size_t unite(std::size_t a, std::size_t b) {
    a = find(a), b = find(b);
    if (a == b) return a;
    if (size[a] > size[b]) std::swap(a, b);
    parent[a] = b;
    size[b] += size[a];
    return a;
  }
  constexpr void undo(std::size_t absorbed) {  // only the last unite
    const std::size_t b = parent[absorbed];
    parent[absorbed] = absorbed;
    size[b] -= size[absorbed];
  }
};

// Joins n, m and every node on a data path n ~> m (entries are in topological order).
template <class G, std::size_t N>
constexpr void join_paths(const G& g, loop_sets<N>& loops, std::size_t n, std::size_t m) {
  std::array<bool, N> from{}, to{};
  from[n] = true;
  for (std::size_t e = n + 1; e <= m; ++e)
    for (std::size_t j = 0; g.is_op(e) && j < g.entries[e].num_args; ++j) from[e] = from[e] || from[g.producer(g.arg(e, j))];
  to[m] = true;
  for (std::size_t e = m + 1; e-- > n;)
    if (to[e])
      for (std::size_t j = 0; g.is_op(e) && j < g.entries[e].num_args; ++j) to[g.producer(g.arg(e, j))] = true;
  for (std::size_t e = n; e <= m; ++e)
    if (from[e] && to[e]) loops.unite(e, n);
}

// Can the nodes marked in `member` share one loop? root and pattern: per value,
// the value owning its storage and the index pattern by which it reads it.
template <class G, class Roots, class Patterns, class Members>
constexpr bool can_share_loop(const G& g, const Roots& root, const Patterns& pattern, const Members& member) {
  std::size_t rank = dynamic;
  shape common{};
  for (std::size_t e = 0; e < G::num_entries; ++e) {
    if (!member[e]) continue;
    if (!g.is_op(e) || !fusable(g.entries[e].info)) return false;
    const shape& s = g.values[g.entries[e].first_value].value_shape;
    if (rank == dynamic) rank = s.rank, common = s;
    if (s.rank != rank) return false;
    for (std::size_t i = 0; i < rank; ++i) {
      if (s.extent[i] != dynamic && common.extent[i] != dynamic && s.extent[i] != common.extent[i]) return false;
      if (common.extent[i] == dynamic) common.extent[i] = s.extent[i];
    }
  }
  // a member that writes a root: every member reads that root with the writer's pattern,
  // unbroadcast, or elements disjoint from the written ones
  for (std::size_t p = 0; p < G::num_entries; ++p) {
    if (!member[p]) continue;
    const auto& info = g.entries[p].info;
    for (std::size_t o = 0; o < info.num_outputs; ++o) {
      if (info.storage[o] < 0) continue;
      const std::size_t darg = g.arg(p, static_cast<std::size_t>(info.storage[o]));
      for (std::size_t m = 0; m < G::num_entries; ++m) {
        if (!member[m]) continue;
        const shape& mout = g.values[g.entries[m].first_value].value_shape;
        for (std::size_t j = 0; j < g.entries[m].num_args; ++j) {
          const std::size_t a = g.arg(m, j);
          if (root[a] == root[darg] && !pattern[a].disjoint_from(pattern[darg]) &&
              (!pattern[a].same_as(pattern[darg]) || is_broadcast_read(g.values[a].value_shape, mout)))
            return false;
        }
      }
    }
  }
  return true;
}

// Extent classes: per value and axis, a number equal for two axes only when
// their extents are equal in every call. A static extent is its own class; a
// dynamic one gets a fresh class, except the output of an elementwise node,
// which takes the class its operands agree on (operands of static extent 1
// aside: they broadcast).
template <class G>
struct extent_classes {
  static constexpr std::size_t NV = G::num_values > 0 ? G::num_values : 1;
  std::array<std::array<std::size_t, max_rank>, NV> of{};

  constexpr explicit extent_classes(const G& g) {
    std::size_t fresh = 0;
    const std::size_t unset = dynamic;
    for (std::size_t v = 0; v < G::num_values; ++v) {
      const shape& s = g.values[v].value_shape;
      const auto& e = g.entries[g.values[v].entry];
      const bool elementwise = e.kind == entry_kind::op && e.info.elementwise && e.info.view_of[g.values[v].out] < 0;
      for (std::size_t i = 0; i < s.rank; ++i) {
        if (s.extent[i] != dynamic) {
          of[v][i] = s.extent[i];
          continue;
        }
        std::size_t c = unset;
        bool agree = elementwise;
        const std::size_t k = s.rank - 1 - i;  // the axis counted from the right (broadcasting aligns there)
        for (std::size_t j = 0; agree && j < e.num_args; ++j) {
          const std::size_t a = g.arg(g.values[v].entry, j);
          const std::size_t ra = g.values[a].value_shape.rank;
          if (k >= ra || of[a][ra - 1 - k] == 1) continue;
          if (c == unset) c = of[a][ra - 1 - k];
          else agree = c == of[a][ra - 1 - k];
        }
        of[v][i] = agree && c != unset ? c : dynamic - 1 - fresh++;  // fresh classes from the top down
      }
    }
  }
  constexpr bool same(const G& g, std::size_t v, std::size_t w) const {
    const std::size_t r = g.values[v].value_shape.rank;
    if (g.values[w].value_shape.rank != r) return false;
    for (std::size_t i = 0; i < r; ++i)
      if (of[v][i] != of[w][i]) return false;
    return true;
  }
};

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
