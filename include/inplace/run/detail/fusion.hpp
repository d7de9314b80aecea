#pragma once
// The fused loops of a function: which elementwise nodes run together in one
// loop, at the place of their last member, in which order the steps (loops and
// other nodes) run, and which values a loop stores. The runtime starts from the
// loops the analysis needs (analysis_result::loop) and joins a value's only
// reader into its loop when that saves a pass, both under the one fused-loop
// rule of graph/detail/fusion_rule.hpp.

#include "inplace/graph/detail/analysis.hpp"
#include "inplace/graph/detail/fusion_rule.hpp"
#include "inplace/graph/detail/graph_index.hpp"

#include <array>
#include <cstddef>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::run {

inline constexpr std::size_t none = static_cast<std::size_t>(-1);

// By value: the op entries reading it, and itself with the views of it
// (view_map chains). Only the fuser walks these (program<S> builds them once).
template <class G>
struct value_lists {
  static constexpr std::size_t NV = graph_index<G>::NV;
  csr<NV, graph_index<G>::NA> readers;
  csr<NV, NV> by_base;

  constexpr explicit value_lists(const G& g) {
    readers.build(graph_index<G>::readers_by(g, [](std::size_t v) { return v; }));
    std::array<std::size_t, NV> base{};  // the first value that is not a view, following view_map back
    for (std::size_t v = 0; v < G::num_values; ++v) base[v] = g.is_view(v) ? base[g.viewed(v)] : v;  // topological
    by_base.build([&](auto add) {
      for (std::size_t v = 0; v < G::num_values; ++v) add(base[v], v);
    });
  }
};

template <std::size_t NE, std::size_t NV>
struct fusion {
  std::array<std::size_t, NE> group{};  // the loop an elementwise node runs in (none: not in one)
  std::array<std::size_t, NE> last{};   // by loop: the member it runs at
  std::array<int, NE> at{};             // the schedule position at which an entry runs (-1: a leaf)
  std::array<std::size_t, NE> order{};  // the op entries by schedule position
  std::array<bool, NV> stored{};        // the value is written to storage (else only inside its loop)
  std::array<std::size_t, NV> peer{};   // a stored value: the first value its loop stores (none: itself, or no loop)
  std::size_t num_groups = 0, num_steps = 0;
  bool ok = true;                        // every loop the analysis relies on can be formed
};

template <class G, class Res>
class fuser {
 public:
  static constexpr std::size_t NE = G::num_entries, NV = graph_index<G>::NV;
  using result = fusion<NE, NV>;

  constexpr fuser(const G& graph, const graph_index<G>& index, const value_lists<G>& lists, const Res& res)
      : g(graph), ix(index), r(res), readers(lists.readers), by_base(lists.by_base) {}

  constexpr result run() {
    result out;
    for (std::size_t e = 0; e < NE; ++e) {
      pos[e] = r.position[e];
      if (pos[e] >= 0) out.order[static_cast<std::size_t>(pos[e])] = e;
    }
    out.num_steps = r.schedule_size;
    index_writers();
    // The loops the analysis relies on (graph/detail/fusion_rule.hpp): ip::check
    // has proved that each can be formed and run as one step.
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e)) loops.unite(e, r.loop[e]);
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e) && find(e) == e && loops.size[e] > 1 && !valid(e)) {
        out.ok = false;
        return out;
      }
    if (!acyclic()) {
      out.ok = false;
      return out;
    }
    // Loops that save a pass: a value read by one node, an elementwise one, joins
    // that node's loop (also when it is returned: the loop then stores it too).
    for (std::size_t p = 0; p < r.schedule_size; ++p) {
      const std::size_t c = out.order[p];
      if (!g.fusable(c)) continue;
      for (std::size_t j = 0; j < g.nargs(c); ++j) {
        const std::size_t a = g.arg(c, j), pr = g.producer(a);
        if (!g.fusable(pr) || !only_reader(a, c)) continue;
        if (find(pr) == find(c)) continue;
        const std::size_t absorbed = loops.unite(pr, c);
        if (!valid(find(c)) || !stores_one_extents(find(c)) || !acyclic()) loops.undo(absorbed);
      }
    }
    // The order the call runs its steps in: a topological order of the graph whose
    // nodes are the loops (each contracted to one step) and the other nodes, with
    // the analysis's edges, earliest analysis position first. A loop's members
    // run together, at the place of the last of them in this order.
    schedule_steps(out);
    std::array<std::size_t, NE> id{};
    for (auto& x : id) x = none;
    for (std::size_t e = 0; e < NE; ++e) out.group[e] = none;
    for (std::size_t p = 0; p < out.num_steps; ++p) {
      const std::size_t e = out.order[p];
      out.at[e] = static_cast<int>(p);
      if (!g.fusable(e)) continue;  // (an elementwise op of several outputs runs alone)
      const std::size_t rep = find(e);
      if (id[rep] == none) id[rep] = out.num_groups++;
      out.group[e] = id[rep];
      out.last[id[rep]] = e;  // positions ascend: the last one seen is the last member
    }
    for (std::size_t e = 0; e < NE; ++e) {
      if (!g.is_op(e)) out.at[e] = -1;
      else if (out.group[e] != none) out.at[e] = out.at[out.last[out.group[e]]];
    }
    // A value is stored unless only its own loop reads it.
    for (std::size_t v = 0; v < G::num_values; ++v) {
      const std::size_t e = g.producer(v);
      if (!g.is_op(e) || g.is_view(v)) continue;
      const std::size_t grp = out.group[e];
      bool outside = grp == none || out.last[grp] == e || ix.is_output[v];
      bool read = false;
      for (std::size_t i = 0; i < by_base.size(v) && !outside; ++i) {
        const std::size_t u = by_base.at(v, i);
        if (u != v) outside = true;  // a view of it is read elsewhere (views are never members)
        for (const std::size_t q : readers.of(u)) read = true, outside = outside || out.group[q] != grp;
      }
      out.stored[v] = outside || !read;
    }
    // The loop writes its stored values in one pass: a call checks that they have
    // one extents (a loop the analysis needs may meet values broadcast against each other).
    std::array<std::size_t, NE> first{};
    for (auto& x : first) x = none;
    for (std::size_t v = 0; v < G::num_values; ++v) {
      const std::size_t e = g.producer(v);
      out.peer[v] = none;
      if (!g.is_op(e) || g.is_view(v) || !out.stored[v] || out.group[e] == none) continue;
      if (first[out.group[e]] == none) first[out.group[e]] = v;
      else out.peer[v] = first[out.group[e]];
    }
    return out;
  }

 private:
  const G& g;
  const graph_index<G>& ix;
  const Res& r;
  const csr<NV, graph_index<G>::NA>& readers;
  const csr<NV, NV>& by_base;
  std::array<int, NE> pos{};
  loop_sets<NE> loops;
  extent_classes<G> classes{g};

  constexpr std::size_t find(std::size_t e) const { return loops.find(e); }
  // ---- the graph of steps (loops contracted) ------------------------------------------
  std::array<std::size_t, NV> writer{}, alias_writer{};  // by root: the node computing into it
  // Nodes computing into disjoint regions of one root: writer[rt], then next_writer[...].
  // apart[v] bit i: value v shares no element with what the i-th of them writes
  // (computed once: the walks below ask for every edge many times).
  std::array<std::size_t, NE> next_writer{};
  std::array<std::uint32_t, NV> apart{};
  std::array<std::size_t, NE> order_next{};              // ip::order: the node that must follow

  constexpr void index_writers() {
    for (auto& w : writer) w = none;
    for (auto& w : next_writer) w = none;
    for (auto& w : alias_writer) w = none;
    for (auto& o : order_next) o = none;
    for (std::size_t n = 0; n < NE; ++n)
      for (std::size_t o = 0; g.is_op(n) && o < g.entries[n].info.num_outputs; ++o) {
        if (const std::size_t rt = destroyed_root(g, ix, n, o); rt != none && writer[rt] != n)
          next_writer[n] = writer[rt], writer[rt] = n;
        // A view output (the input itself, io_alias's same-pattern case) writes nothing:
        // its node is no writer, and other readers of the input or the view need not precede it.
        const std::size_t al = alias_input_value(g, g.out_value(n, o));
        if (al != none && !g.is_view(g.out_value(n, o))) alias_writer[al] = n;
      }
    for (std::size_t k = 0; k + 1 < G::num_order; ++k) {
      const std::size_t a = g.order_chain[k], b = g.order_chain[k + 1];
      if (a == G::npos || b == G::npos) continue;
      const std::size_t ea = g.producer(a), eb = g.producer(b);
      if (g.is_op(ea) && g.is_op(eb)) order_next[ea] = eb;  // (a chain: one successor each)
    }
    for (std::size_t v = 0; v < G::num_values; ++v) {
      std::size_t i = 0;
      for (std::size_t w = writer[ix.root[v]]; w != none && i < 32; w = next_writer[w], ++i)
        if (ix.pattern[v].disjoint_from(written_pattern(w, ix.root[v]))) apart[v] |= std::uint32_t{1} << i;
    }
  }
  // The region of root rt that node n writes: the pattern of the input it computes in.
  constexpr const index_pattern& written_pattern(std::size_t n, std::size_t rt) const {
    std::size_t o = 0;
    while (destroyed_root(g, ix, n, o) != rt) ++o;
    return ix.pattern[g.arg(n, static_cast<std::size_t>(g.entries[n].info.storage[o]))];
  }
  // Calls visit(q) for every node q that must run after node e (data, reader
  // before the node that overwrites what it read, ip::order).
  template <class F>
  constexpr void for_each_successor(std::size_t e, F&& visit) const {
    for (std::size_t o = 0; o < g.entries[e].info.num_outputs; ++o) {
      const std::size_t w = g.out_value(e, o);
      for (std::size_t k = readers.begin[w]; k < readers.begin[w + 1]; ++k) visit(readers.items[k]);
    }
    for (std::size_t j = 0; j < g.nargs(e); ++j) {
      const std::size_t a = g.arg(e, j), rt = ix.root[a];
      std::size_t i = 0;
      for (std::size_t w = writer[rt]; w != none; w = next_writer[w], ++i)  // (a region it does not read: any order)
        if (w != e && !(i < 32 && (apart[a] >> i & 1u))) visit(w);
      if (alias_writer[rt] != none && alias_writer[rt] != e) visit(alias_writer[rt]);
    }
    if (order_next[e] != none) visit(order_next[e]);
  }
  // The members of every step, listed by step (the representative of its loop).
  constexpr void list_members(csr<NE, NE>& members) const {
    members.build([&](auto add) {
      for (std::size_t e = 0; e < NE; ++e)
        if (g.is_op(e)) add(find(e), e);
    });
  }
  // Whether the graph of steps has no cycle (a loop that would have to run both
  // before and after another step).
  constexpr bool acyclic() const {
    csr<NE, NE> members;
    list_members(members);
    const auto& begin = members.begin;
    const auto& list = members.items;
    std::array<std::size_t, NE> stack{}, next{};
    std::array<unsigned char, NE> state{};  // 0 new, 1 on the stack, 2 done
    for (std::size_t s0 = 0; s0 < NE; ++s0) {
      if (!g.is_op(s0) || find(s0) != s0 || state[s0] != 0) continue;
      std::size_t sp = 0;
      stack[sp] = s0, next[sp] = 0, ++sp, state[s0] = 1;
      while (sp > 0) {
        const std::size_t st = stack[sp - 1];
        // the next successor step of st not yet looked at, by a flat index over its members' edges
        std::size_t idx = 0, found = none;
        for (std::size_t i = begin[st]; i < begin[st + 1] && found == none; ++i)
          for_each_successor(list[i], [&](std::size_t q) {
            if (found == none && idx++ == next[sp - 1]) found = find(q);
          });
        if (found == none) {
          state[st] = 2, --sp;
          continue;
        }
        ++next[sp - 1];
        if (found == st || state[found] == 2) continue;
        if (state[found] == 1) return false;
        stack[sp] = found, next[sp] = 0, ++sp, state[found] = 1;
      }
    }
    return true;
  }
  // out.order: the steps in a topological order, earliest analysis position first.
  constexpr void schedule_steps(result& out) const {
    csr<NE, NE> members;
    list_members(members);
    const auto& begin = members.begin;
    const auto& list = members.items;
    std::array<std::size_t, NE> indeg{};
    std::array<int, NE> first{};
    for (std::size_t st = 0; st < NE; ++st) {
      first[st] = -1;
      for (std::size_t i = begin[st]; i < begin[st + 1]; ++i)
        if (first[st] < 0 || pos[list[i]] < first[st]) first[st] = pos[list[i]];
      for (std::size_t i = begin[st]; i < begin[st + 1]; ++i)
        for_each_successor(list[i], [&](std::size_t q) {
          if (find(q) != st) ++indeg[find(q)];
        });
    }
    std::array<bool, NE> done{};
    std::size_t placed = 0;
    for (;;) {
      std::size_t best = none;
      for (std::size_t st = 0; st < NE; ++st)
        if (begin[st] < begin[st + 1] && !done[st] && indeg[st] == 0 && (best == none || first[st] < first[best])) best = st;
      if (best == none) break;
      done[best] = true;
      // members in analysis order
      for (int p = 0; p < static_cast<int>(r.schedule_size); ++p)
        for (std::size_t i = begin[best]; i < begin[best + 1]; ++i)
          if (pos[list[i]] == p) out.order[placed++] = list[i];
      for (std::size_t i = begin[best]; i < begin[best + 1]; ++i)
        for_each_successor(list[i], [&](std::size_t q) {
          if (find(q) != best) --indeg[find(q)];
        });
    }
  }

  constexpr bool only_reader(std::size_t v, std::size_t c) const {
    return readers.size(v) == 1 && readers.at(v, 0) == c;
  }
  // Can the members of the loop with representative g share one loop? (Whether
  // it can run as one step is acyclic()'s question.)
  constexpr bool valid(std::size_t rep) const {
    std::array<bool, NE> member{};
    for (std::size_t e = 0; e < NE; ++e) member[e] = g.is_op(e) && find(e) == rep;
    return can_share_loop(g, ix.root, ix.pattern, member);
  }
  // Does every value the loop may store have the same extents in every call?
  // (A value is stored when read outside the loop, returned, viewed, or a sink.)
  constexpr bool stores_one_extents(std::size_t rep) const {
    std::size_t first = none;
    for (std::size_t e = 0; e < NE; ++e) {
      if (!g.is_op(e) || find(e) != rep) continue;
      for (std::size_t o = 0; o < g.entries[e].info.num_outputs; ++o) {
        const std::size_t v = g.out_value(e, o);
        bool stored = ix.is_output[v] || by_base.size(v) > 1 || readers.size(v) == 0;
        for (std::size_t k = 0; k < readers.size(v) && !stored; ++k) stored = find(readers.at(v, k)) != rep;
        if (!stored) continue;
        if (first == none) first = v;
        else if (!classes.same(g, first, v)) return false;
      }
    }
    return true;
  }
};

}  // namespace inplace::detail::run

#include "inplace/detail/shadow_on.hpp"
