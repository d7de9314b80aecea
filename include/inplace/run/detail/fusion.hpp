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
#include <utility>

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

// The edges of the graph of nodes: every (node, node that must run after it)
// pair, each edge once: a reader of a node's output; a node that overwrites
// (destroy_map, or io_alias for an output) a root the node reads, unless the
// patterns prove the node reads only elements it does not write; ip::order.
// Several nodes may overwrite disjoint regions of one root (a chain: writer
// by root, then next_writer).
template <class G>
struct successor_edges {
  static constexpr std::size_t NE = G::num_entries, NV = graph_index<G>::NV;
  const G& g;
  const graph_index<G>& ix;
  const csr<NV, graph_index<G>::NA>& readers;

  template <class Add>
  constexpr void operator()(Add add) const {
    std::array<std::size_t, NV> writer{}, alias_writer{};  // by root: the (first) node computing into it
    std::array<std::size_t, NE> next_writer{}, order_next{};
    for (auto& w : writer) w = none;
    for (auto& w : alias_writer) w = none;
    for (auto& w : next_writer) w = none;
    for (auto& o : order_next) o = none;
    for (std::size_t n = 0; n < NE; ++n)
      for (std::size_t o = 0; g.is_op(n) && o < g.entries[n].info.num_outputs; ++o) {
        if (const std::size_t rt = destroyed_root(g, ix, n, o); rt != none && writer[rt] != n)
          next_writer[n] = writer[rt], writer[rt] = n;
        // A view output (the input itself, io_alias's same-pattern case) writes nothing:
        // its node is no writer, and other readers of the input or the view need not precede it.
        const std::size_t al = alias_input_value(g, ix, g.out_value(n, o));
        if (al != none && !g.is_view(g.out_value(n, o))) alias_writer[al] = n;
      }
    for (std::size_t k = 0; k + 1 < G::num_order; ++k) {
      const std::size_t a = g.order_chain[k], b = g.order_chain[k + 1];
      if (a == G::npos || b == G::npos) continue;
      const std::size_t ea = g.producer(a), eb = g.producer(b);
      if (g.is_op(ea) && g.is_op(eb)) order_next[ea] = eb;  // (a chain: one successor each)
    }
    for (std::size_t e = 0; e < NE; ++e) {
      if (!g.is_op(e)) continue;
      for (std::size_t o = 0; o < g.entries[e].info.num_outputs; ++o)
        for (const std::size_t q : readers.of(g.out_value(e, o))) add(e, q);
      for (std::size_t j = 0; j < g.nargs(e); ++j) {
        const std::size_t a = g.arg(e, j), rt = ix.root[a];
        for (std::size_t w = writer[rt]; w != none; w = next_writer[w])  // (a region it does not read: any order)
          if (w != e && !ix.pattern[a].disjoint_from(written_pattern(w, rt)))
            add(e, w);
        if (alias_writer[rt] != none && alias_writer[rt] != e) add(e, alias_writer[rt]);
      }
      if (order_next[e] != none) add(e, order_next[e]);
    }
  }
  // The region of root rt that node n writes: the pattern of the input it
  // computes in, or of the region its op names (an update's view of x).
  constexpr const index_pattern& written_pattern(std::size_t n, std::size_t rt) const {
    std::size_t o = 0;
    while (destroyed_root(g, ix, n, o) != rt) ++o;
    const int reg = g.entries[n].info.region;
    if (reg >= 0 && ix.root[g.arg(n, static_cast<std::size_t>(reg))] == rt)
      return ix.pattern[g.arg(n, static_cast<std::size_t>(reg))];
    return ix.pattern[g.arg(n, static_cast<std::size_t>(g.entries[n].info.storage[o]))];
  }
  // How many edges there are (the capacity of the fuser's list).
  constexpr std::size_t count() const {
    std::size_t c = 0;
    (*this)([&](std::size_t, std::size_t) { ++c; });
    return c > 0 ? c : 1;
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

template <class G, class Res, std::size_t NSucc>
class fuser {
 public:
  static constexpr std::size_t NE = G::num_entries, NV = graph_index<G>::NV;
  using result = fusion<NE, NV>;

  // successors: the edges successor_edges lists, by node (program<S> builds them
  // in a constant evaluation of their own: each has the compiler's step limit)
  constexpr fuser(const G& graph, const graph_index<G>& index, const value_lists<G>& lists,
                  const csr<NE, NSucc>& successors, const Res& res)
      : g(graph), ix(index), r(res), readers(lists.readers), by_base(lists.by_base), succ(successors) {}

  constexpr result run() {
    result out;
    for (std::size_t e = 0; e < NE; ++e) {
      pos[e] = r.position[e];
      if (pos[e] >= 0) analysis_order[static_cast<std::size_t>(pos[e])] = e;
    }
    out.num_steps = r.schedule_size;
    // The loops the analysis relies on (graph/detail/fusion_rule.hpp): ip::check
    // has proved that each can be formed and run as one step.
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e)) loops.unite(e, r.loop[e]);
    link_members();
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e) && find(e) == e && loops.size[e] > 1 && !valid(e)) {
        out.ok = false;
        return out;
      }
    if (!order_steps()) {
      out.ok = false;
      return out;
    }
    // Loops that save a pass: a value read by one node, an elementwise one, joins
    // that node's loop (also when it is returned: the loop then stores it too).
    for (std::size_t p = 0; p < r.schedule_size; ++p) {
      const std::size_t c = analysis_order[p];
      if (!g.fusable(c)) continue;
      for (std::size_t j = 0; j < g.nargs(c); ++j) {
        const std::size_t a = g.arg(c, j), pr = g.producer(a);
        if (!g.fusable(pr) || !only_reader(a, c)) continue;
        const std::size_t sa = find(pr), sc = find(c);
        if (sa == sc || joins_cycle(sa, sc)) continue;
        const std::size_t absorbed = loops.unite(pr, c), kept = find(c);
        const std::size_t kept_tail = tail[kept];
        splice(absorbed, kept);
        if (valid(kept) && stores_one_extents(kept)) {
          reorder(sa, sc, kept);
        } else {
          next[kept_tail] = none, tail[kept] = kept_tail;  // undo the splice
          loops.undo(absorbed);
        }
      }
    }
    join_siblings();
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
  std::array<int, NE> pos{};                 // by node: its analysis position (-1: a leaf)
  std::array<std::size_t, NE> analysis_order{};  // the nodes by analysis position
  loop_sets<NE> loops;
  extent_classes<G> classes{g};

  constexpr std::size_t find(std::size_t e) const { return loops.find(e); }
  // ---- the graph of steps (loops contracted) ------------------------------------------
  // Each edge of the graph of nodes (data, reader before the node that
  // overwrites what it read, ip::order) is listed once; a step's edges are its
  // members' edges. Every walk below is one pass over these lists.
  const csr<NE, NSucc>& succ;  // by node: the nodes that must run after it
  // The members of each step, a list by representative (head, next): joining
  // two loops splices their lists.
  std::array<std::size_t, NE> head{}, tail{}, next{};

  constexpr void link_members() {
    for (std::size_t e = 0; e < NE; ++e) head[e] = tail[e] = next[e] = none;
    for (std::size_t p = 0; p < r.schedule_size; ++p) {
      const std::size_t e = analysis_order[p], s = find(e);
      if (head[s] == none) head[s] = e;
      else next[tail[s]] = e;
      tail[s] = e;
    }
  }
  constexpr void splice(std::size_t from, std::size_t to) {
    next[tail[to]] = head[from], tail[to] = tail[from];
  }
  // Calls each(t) for every edge from step s to another step t.
  template <class F>
  constexpr void for_each_next_step(std::size_t s, F&& each) const {
    for (std::size_t m = head[s]; m != none; m = next[m])
      for (const std::size_t q : succ.of(m))
        if (const std::size_t t = find(q); t != s) each(t);
  }

  // A topological order of the steps, kept while loops join: topo lists the
  // steps (none: a place a joined step left), place[s] is s's index in topo.
  std::array<std::size_t, NE> topo{}, place{};
  std::size_t num_places = 0;
  std::array<std::size_t, NE> mark{};  // mark[s] == visit: s was reached in the latest search
  std::size_t visit = 0;

  // Orders the steps (Kahn's algorithm, one pass over the edges); false when
  // they have a cycle (a loop that would have to run both before and after another step).
  constexpr bool order_steps() {
    std::array<std::size_t, NE> indeg{}, ready{};
    std::size_t top = 0, total = 0;
    for (std::size_t s = 0; s < NE; ++s)
      if (head[s] != none) for_each_next_step(s, [&](std::size_t t) { ++indeg[t]; });
    for (std::size_t s = 0; s < NE; ++s)
      if (head[s] != none) {
        ++total;
        if (indeg[s] == 0) ready[top++] = s;
      }
    while (top > 0) {
      const std::size_t s = ready[--top];
      place[s] = num_places, topo[num_places++] = s;
      for_each_next_step(s, [&](std::size_t t) {
        if (--indeg[t] == 0) ready[top++] = t;
      });
    }
    return num_places == total;
  }
  // Would joining steps a and b make a cycle? Only when a path leads from one
  // to the other through a third step, which lies between them in topo: the
  // search stays there. It marks the steps reached from the earlier one.
  constexpr bool joins_cycle(std::size_t a, std::size_t b) {
    if (place[a] > place[b]) std::swap(a, b);
    ++visit;
    std::array<std::size_t, NE> stack{};
    std::size_t sp = 0;
    stack[sp++] = a;
    bool cycle = false;
    while (sp > 0 && !cycle) {
      const std::size_t s = stack[--sp];
      for_each_next_step(s, [&](std::size_t t) {
        if (t == b) cycle = cycle || s != a;
        else if (place[t] < place[b] && mark[t] != visit) mark[t] = visit, stack[sp++] = t;
      });
    }
    return cycle;
  }
  // After a and b joined into kept: topo stays topological when, between them,
  // the steps reached from the earlier one move after the joined step.
  constexpr void reorder(std::size_t a, std::size_t b, std::size_t kept) {
    if (place[a] > place[b]) std::swap(a, b);
    const std::size_t lo = place[a], hi = place[b];
    std::array<std::size_t, NE> later{};
    std::size_t k = lo, n = 0;
    for (std::size_t i = lo; i <= hi; ++i) {
      const std::size_t s = topo[i];
      if (s == none || s == a || s == b) continue;
      if (mark[s] == visit) later[n++] = s;
      else topo[k] = s, place[s] = k++;
    }
    topo[k] = kept, place[kept] = k++;
    for (std::size_t i = 0; i < n; ++i) topo[k] = later[i], place[later[i]] = k++;
    for (; k <= hi; ++k) topo[k] = none;
  }

  // The steps with their members in analysis order, for the final schedule.
  struct steps {
    std::array<std::size_t, NE> step{};
    csr<NE, NE> members;
  };
  constexpr void list_steps(steps& s) const {
    for (std::size_t e = 0; e < NE; ++e) s.step[e] = g.is_op(e) ? find(e) : none;
    s.members.build([&](auto add) {
      for (std::size_t p = 0; p < r.schedule_size; ++p) add(s.step[analysis_order[p]], analysis_order[p]);
    });
  }
  // out.order: the steps in a topological order, earliest analysis position first
  // (a step's position: its first member's), each step's members in analysis order.
  constexpr void schedule_steps(result& out) const {
    steps s;
    list_steps(s);
    std::array<std::size_t, NE> indeg{};  // edges between members of one step do not count
    for (std::size_t e = 0; e < NE; ++e)
      if (s.step[e] != none)
        for (const std::size_t q : succ.of(e))
          if (s.step[q] != s.step[e]) ++indeg[s.step[q]];
    // by analysis position: the step whose first member runs there, and whether it is ready
    std::array<std::size_t, NE> step_at{};
    std::array<bool, NE> ready{};
    for (std::size_t st = 0; st < NE; ++st)
      if (s.members.size(st) > 0) {
        const std::size_t p = static_cast<std::size_t>(pos[s.members.at(st, 0)]);
        step_at[p] = st, ready[p] = indeg[st] == 0;
      }
    std::size_t placed = 0, lo = 0;  // no step before position lo is ready
    while (true) {
      while (lo < r.schedule_size && !ready[lo]) ++lo;
      if (lo == r.schedule_size) break;
      const std::size_t best = step_at[lo];
      ready[lo] = false;
      for (const std::size_t m : s.members.of(best)) out.order[placed++] = m;
      for (const std::size_t m : s.members.of(best))
        for (const std::size_t q : succ.of(m)) {
          const std::size_t t = s.step[q];
          if (t == best || --indeg[t] != 0) continue;
          const std::size_t p = static_cast<std::size_t>(pos[s.members.at(t, 0)]);
          ready[p] = true;
          if (p < lo) lo = p;
        }
    }
  }

  // ---- sibling loops ------------------------------------------------------------------
  // A dying root: nothing reads it but elementwise nodes, each reading it
  // whole (the root itself, unbroadcast), and nothing overwrites or returns
  // it. When the steps reading one dying root also read all of another's,
  // they join one loop (if it stores values of one extents): the loop reads
  // every operand of an element before it stores any result, so two results
  // may be computed in the two dying roots (x + y in x, x - y in y: the
  // rewrite decides, storage.hpp). They join only when the values they store
  // are alive together anyway (returned, or read by steps that read a value
  // of each of them): a join must not keep a buffer from being reused. One
  // pass over the dying roots' readers; each join is tried as the joins above.
  constexpr void join_siblings() {
    std::array<bool, NV> dying{};
    for (std::size_t d = 0; d < G::num_values; ++d) {
      dying[d] = ix.root[d] == d && may_be_overwritten(d) && !ix.is_output[d];
      for (const std::size_t q : ix.root_readers.of(d)) dying[d] = dying[d] && reads_whole(q, d);
    }
    for (std::size_t v = 0; v < G::num_values; ++v)  // returned (a view of it too)
      if (ix.is_output[v]) dying[ix.root[v]] = false;
    for (std::size_t k = 0; k < G::num_aliases; ++k)  // io_alias's input, in place or by a copy
      dying[ix.root[g.entries[g.inputs[static_cast<std::size_t>(g.aliases[k].input)]].first_value]] = false;
    for (std::size_t e = 0; e < NE; ++e)  // overwritten
      for (std::size_t o = 0; g.is_op(e) && o < g.entries[e].info.num_outputs; ++o)
        if (const std::size_t rt = destroyed_root(g, ix, e, o); rt != none) dying[rt] = false;
    std::array<std::size_t, NE> stamp{}, set{};  // stamp[s] == d + 1: step s reads root d
    for (std::size_t d = 0; d < G::num_values; ++d) {
      if (!dying[d]) continue;
      std::size_t k = 0;
      for (const std::size_t q : ix.root_readers.of(d))
        if (const std::size_t s = find(q); stamp[s] != d + 1) stamp[s] = d + 1, set[k++] = s;
      if (k < 2 || !another_dies(d, set, k, stamp, dying) || !alive_together(set, k, stamp, d + 1)) continue;
      for (std::size_t i = 1; i < k; ++i) try_join(set[0], set[i]);
    }
  }
  // Do the steps set[0..k) (stamp[s] == d + 1) read every reader of some dying root other than d?
  constexpr bool another_dies(std::size_t d, const std::array<std::size_t, NE>& set, std::size_t k,
                              const std::array<std::size_t, NE>& stamp, const std::array<bool, NV>& dying) const {
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t m = head[set[i]]; m != none; m = next[m])
        for (std::size_t j = 0; j < g.nargs(m); ++j) {
          const std::size_t r2 = ix.root[g.arg(m, j)];
          if (r2 == d || !dying[r2]) continue;
          bool all = true;
          for (const std::size_t q : ix.root_readers.of(r2)) all = all && stamp[find(q)] == d + 1;
          if (all) return true;
        }
    return false;
  }
  // An input (not indestructible) or a value a node computes: storage the rewrite may reuse.
  constexpr bool may_be_overwritten(std::size_t d) const {
    const auto& leaf = g.entries[g.values[d].entry];
    return leaf.kind == entry_kind::op ? !g.is_view(d) : leaf.kind == entry_kind::input && !leaf.indestructible;
  }
  // Node q is a member of a loop and reads root d only as d itself, unbroadcast.
  constexpr bool reads_whole(std::size_t q, std::size_t d) const {
    if (!g.fusable(q)) return false;
    for (std::size_t j = 0; j < g.nargs(q); ++j) {
      const std::size_t a = g.arg(q, j);
      if (ix.root[a] == d && (a != d || is_broadcast_read(g.shape_of(a), g.shape_of(g.out_value(q))))) return false;
    }
    return true;
  }
  // Is every value that the steps set[0..k) (stamp[s] == stamped) store outside
  // them returned, or read only by steps that read a value of each of them?
  constexpr bool alive_together(const std::array<std::size_t, NE>& set, std::size_t k,
                                const std::array<std::size_t, NE>& stamp, std::size_t stamped) const {
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t m = head[set[i]]; m != none; m = next[m]) {
        const std::size_t v = g.out_value(m);  // (a member has one output)
        if (ix.is_output[v]) continue;
        if (by_base.size(v) > 1) return false;  // viewed: its views' readers are not followed
        for (const std::size_t q : readers.of(v))
          if (const std::size_t t = find(q); stamp[t] != stamped && !reads_each(t, set, k)) return false;
      }
    return true;
  }
  // Does some member of step t read a value that step set[i] computes, for every i < k?
  constexpr bool reads_each(std::size_t t, const std::array<std::size_t, NE>& set, std::size_t k) const {
    for (std::size_t i = 0; i < k; ++i) {
      bool found = false;
      for (std::size_t m = head[t]; m != none && !found; m = next[m])
        for (std::size_t j = 0; j < g.nargs(m) && !found; ++j) {
          const std::size_t pr = g.producer(g.arg(m, j));
          found = g.is_op(pr) && find(pr) == set[i];
        }
      if (!found) return false;
    }
    return true;
  }
  // Joins the steps of a and b into one loop, unless it could not run as one
  // step or would store values of other extents.
  constexpr void try_join(std::size_t a, std::size_t b) {
    const std::size_t sa = find(a), sb = find(b);
    if (sa == sb || joins_cycle(sa, sb)) return;
    const std::size_t absorbed = loops.unite(sa, sb), kept = find(sa);
    const std::size_t kept_tail = tail[kept];
    splice(absorbed, kept);
    if (stores_provably_one_extents(kept) && valid(kept)) {
      reorder(sa, sb, kept);
    } else {
      next[kept_tail] = none, tail[kept] = kept_tail;  // undo the splice
      loops.undo(absorbed);
    }
  }
  // stores_one_extents, also accepting two elementwise results whose operands
  // have, axis by axis, the same extent classes (x + y and x - y: each is the
  // broadcast of x's and y's extents, whatever they are).
  constexpr bool stores_provably_one_extents(std::size_t rep) const {
    std::size_t first = none;
    for (std::size_t e = head[rep]; e != none; e = next[e])
      for (std::size_t o = 0; o < g.entries[e].info.num_outputs; ++o) {
        const std::size_t v = g.out_value(e, o);
        bool stored = ix.is_output[v] || by_base.size(v) > 1 || readers.size(v) == 0;
        for (std::size_t i = 0; i < readers.size(v) && !stored; ++i) stored = find(readers.at(v, i)) != rep;
        if (!stored) continue;
        if (first == none) first = v;
        else if (!classes.same(g, first, v) && !same_broadcast(first, v)) return false;
      }
    return true;
  }
  // Are v and w elementwise results whose operands' extent classes (static
  // 1s aside: they broadcast) are the same set on every axis?
  constexpr bool same_broadcast(std::size_t v, std::size_t w) const {
    const std::size_t rank = g.shape_of(v).rank;
    if (g.shape_of(w).rank != rank || !g.elementwise(g.producer(v)) || !g.elementwise(g.producer(w))) return false;
    for (std::size_t k = 0; k < rank; ++k)  // k counts axes from the right
      if (!classes_within(v, w, k) || !classes_within(w, v, k)) return false;
    return true;
  }
  // Is every extent class of v's operands on axis k (from the right) one of w's?
  constexpr bool classes_within(std::size_t v, std::size_t w, std::size_t k) const {
    const std::size_t ev = g.producer(v), ew = g.producer(w);
    for (std::size_t j = 0; j < g.nargs(ev); ++j) {
      const std::size_t c = class_at(g.arg(ev, j), k);
      if (c == 1 || c == none) continue;
      bool found = false;
      for (std::size_t i = 0; i < g.nargs(ew) && !found; ++i) found = class_at(g.arg(ew, i), k) == c;
      if (!found) return false;
    }
    return true;
  }
  constexpr std::size_t class_at(std::size_t a, std::size_t k) const {  // none: a has no axis k
    const std::size_t ra = g.shape_of(a).rank;
    return k < ra ? classes.of[a][ra - 1 - k] : none;
  }

  constexpr bool only_reader(std::size_t v, std::size_t c) const {
    return readers.size(v) == 1 && readers.at(v, 0) == c;
  }
  // Can the members of the loop with representative rep share one loop? (Whether
  // it can run as one step is joins_cycle()'s question.)
  constexpr bool valid(std::size_t rep) const {
    std::array<bool, NE> member{};
    for (std::size_t e = head[rep]; e != none; e = next[e]) member[e] = true;
    return can_share_loop(g, ix.root, ix.pattern, member);
  }
  // Does every value the loop may store have the same extents in every call?
  // (A value is stored when read outside the loop, returned, viewed, or a sink.)
  constexpr bool stores_one_extents(std::size_t rep) const {
    std::size_t first = none;
    for (std::size_t e = head[rep]; e != none; e = next[e]) {
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

// ---- reads of the same elements ------------------------------------------------
// Two operands of one loop (or of one lone elementwise node) that view the same
// root with the same index pattern address the same elements with the same
// strides: set(r, r + 1) reads r twice, a red-black sweep reads u[k] in two
// places. The executor tags such reads (texpr::same_read<id>) and the loop reads
// them through one pointer, so each element is loaded once. ids[v]: the id of
// view v (the least value of its class), none when v is not tagged. A read is a
// loop's operand that the loop does not compute itself and that is no number.
// Built in a constant evaluation of its own (the executor's), apart from the
// fuser's, which is near clang's step limit on large graphs.
template <class G, std::size_t NE, std::size_t NV>
struct same_reads {
  std::array<std::size_t, NV> ids{};

  constexpr same_reads(const G& g, const graph_index<G>& ix, const fusion<NE, NV>& fu) {
    std::array<std::size_t, NV> cls{}, seen{}, count{};  // cls: union-find (same root and pattern is transitive)
    std::array<bool, NV> twice{};                         // by class: read twice in one step
    for (std::size_t v = 0; v < NV; ++v) cls[v] = v, ids[v] = none;
    auto find = [&](std::size_t v) {
      while (cls[v] != v) v = cls[v];
      return v;
    };
    csr<NE + NE, NE> steps;  // by step (a loop, or a lone node): its elementwise entries
    steps.build([&](auto add) {
      for (std::size_t e = 0; e < NE; ++e)
        if (g.elementwise(e)) add(fu.group[e] != none ? fu.group[e] : NE + e, e);
    });
    for (std::size_t k = 0; k < NE + NE; ++k) {
      std::size_t ns = 0;  // seen[0, ns): the first read of each class in step k
      for (const std::size_t e : steps.of(k))
        for (std::size_t j = 0; j < g.nargs(e); ++j) {
          const std::size_t a = g.arg(e, j), pr = g.producer(a);
          const auto kind = g.entries[pr].kind;
          const index_pattern& p = ix.pattern[a];
          if ((fu.group[pr] != none && fu.group[pr] == fu.group[e]) || kind == entry_kind::constant ||
              kind == entry_kind::scalar || p.unknown || p.superset || p.clamped)
            continue;  // computed in the loop, a number, or a pattern that may not be exact
          std::size_t c = none;
          for (std::size_t i = 0; i < ns && c == none; ++i)
            if (ix.root[seen[i]] == ix.root[a] && (seen[i] == a || ix.pattern[seen[i]].same_as(p))) c = seen[i];
          if (c == none) {
            seen[ns++] = a, count[a] = 1;
            continue;
          }
          const std::size_t ra = find(a), rc = find(c);
          if (ra != rc) cls[ra > rc ? ra : rc] = ra < rc ? ra : rc;
          if (++count[c] == 2) twice[c] = true;
        }
    }
    for (std::size_t v = 0; v < NV; ++v)
      if (twice[v]) twice[find(v)] = true;
    for (std::size_t v = 0; v < NV; ++v) ids[v] = twice[find(v)] ? find(v) : none;
  }
};

}  // namespace inplace::detail::run

#include "inplace/detail/shadow_on.hpp"
