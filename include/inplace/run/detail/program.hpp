#pragma once
// What running a checked function needs beyond its analysis, computed once per
// function while the program compiles:
//  - the entry types in the analysis's numbering (to call each node's kernel);
//  - per entry, its outputs' dtypes and which inputs have a registered
//    in-place variant (the rewrite's registry);
//  - the fused loops: which elementwise nodes run together in one loop, at the
//    place of their last member, and which of their values are stored.
// None of this depends on which arguments are donated (storage.hpp does).

#include "inplace/graph/detail/analysis.hpp"
#include "inplace/graph/detail/fusion_rule.hpp"
#include "inplace/graph/function.hpp"
#include "inplace/graph/node.hpp"
#include "inplace/ops/detail/type_name.hpp"
#include "inplace/ops/inplace_op.hpp"

#include <boost/mp11/algorithm.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::run {

using boost::mp11::mp_list;
inline constexpr std::size_t none = static_cast<std::size_t>(-1);

// ---- entry types in the analysis's numbering ---------------------------------------
// One depth-first walk over the types that threads a single list of the entries
// seen so far: each entry is added once and each argument edge costs one lookup.
// (Per-node lists merged with mp_unique cost O(N^3) list elements: 1.3 GB of
// compiler memory for a 200-node graph.)
template <class L, class E>
struct visit;
template <class L, class E>
using visit_t = typename visit<L, E>::type;
template <class L, class E>
struct visit_new {  // a leaf not seen yet
  using type = boost::mp11::mp_push_back<L, E>;
};
template <class L, class Op, template <class = void> class... Arg>
struct visit_new<L, node<Op, Arg...>> {
  using type = boost::mp11::mp_push_back<boost::mp11::mp_fold<mp_list<typename Arg<>::entry...>, L, visit_t>,
                                         node<Op, Arg...>>;
};
template <class L, class E>
struct visit {
  using type = typename std::conditional_t<boost::mp11::mp_contains<L, E>::value, std::type_identity<L>,
                                           visit_new<L, E>>::type;
};
template <class L, class V>
using visit_value = visit_t<L, typename V::entry>;

// Output dtypes and in-place variants of one entry.
// A dtype as a number (a hash of its name; 0 for a weak constant): g++ 12
// cannot compare string_views held in static constexpr arrays while compiling.
constexpr std::uint64_t dtype_id(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

struct entry_facts {
  std::array<std::uint64_t, max_outputs> dtype{};  // dtype_id
  std::array<std::size_t, max_outputs> dtype_size{};
  std::uint32_t variants = 0;  // bit j: inplace_variant<Op, j> is registered
};

template <class Node, std::size_t... I>
constexpr void node_dtypes(entry_facts& f, std::index_sequence<I...>) {
  ((f.dtype[I] = dtype_id(pretty_type_name<typename Node::template out_dtype<I>>()),
    f.dtype_size[I] = sizeof(typename Node::template out_dtype<I>)),
   ...);
}
template <class Op, std::size_t... J>
constexpr std::uint32_t variant_bits(std::index_sequence<J...>) {
  return ((has_inplace_variant<Op, static_cast<int>(J)> ? std::uint32_t{1} << J : 0u) | ... | 0u);
}

template <class E>
constexpr entry_facts facts_of() {
  entry_facts f;
  if constexpr (E::desc.record.kind == entry_kind::op) {
    constexpr std::size_t n = E::desc.record.info.num_outputs;
    node_dtypes<E>(f, std::make_index_sequence<n>{});
    f.variants = variant_bits<typename E::op>(std::make_index_sequence<E::desc.record.num_args>{});
  } else if constexpr (!is_weak<typename E::dtype>) {
    f.dtype[0] = dtype_id(pretty_type_name<typename E::dtype>());
    f.dtype_size[0] = sizeof(typename E::dtype);
  }
  return f;
}

// ---- the fused loops ------------------------------------------------------------------
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

// The graph facts the runtime's algorithms share, as flat lists so that each
// algorithm walks edges instead of scanning every node for every value:
// roots and patterns, the readers of every value, the values of every root,
// and the values that are views (through view_map chains) of every value.
template <class G>
struct graph_facts {
  static constexpr std::size_t NE = G::num_entries, NV = G::num_values > 0 ? G::num_values : 1,
                               NA = G::num_args > 0 ? G::num_args : 1;
  const G& g;
  std::array<std::size_t, NV> root{};
  std::array<index_pattern, NV> pattern{};
  std::array<bool, NV> is_output{};
  std::array<std::size_t, NV> base{};  // the first value that is not a view, following view_map back
  std::array<std::size_t, NV> input_of{};  // the input (its place in inputs(...)) whose value v is, or none
  std::array<std::size_t, NV + 1> reader_begin{}, root_begin{}, base_begin{};
  std::array<std::size_t, NA> reader{};  // reader[reader_begin[v] ..]: entries reading v (once each)
  std::array<std::size_t, NV> by_root{}, by_base{};

  constexpr explicit graph_facts(const G& graph) : g(graph) {
    roots_and_patterns(g, root, pattern);
    for (std::size_t k = 0; k < G::num_outputs; ++k) is_output[g.outputs[k]] = true;
    for (auto& k : input_of) k = none;
    for (std::size_t k = 0; k < G::num_inputs; ++k) input_of[g.entries[g.inputs[k]].first_value] = k;
    for (std::size_t v = 0; v < G::num_values; ++v) base[v] = is_view(v) ? base[viewed(v)] : v;  // topological
    // readers, each entry once per value
    std::array<std::size_t, NV> last{};
    for (auto& x : last) x = none;
    for (int pass = 0; pass < 2; ++pass) {
      std::array<std::size_t, NV> fill{};
      for (auto& x : last) x = none;
      for (std::size_t e = 0; e < NE; ++e)
        for (std::size_t j = 0; is_op(e) && j < nargs(e); ++j) {
          const std::size_t v = g.arg(e, j);
          if (last[v] == e) continue;
          last[v] = e;
          if (pass == 0) ++reader_begin[v + 1];
          else reader[reader_begin[v] + fill[v]++] = e;
        }
      if (pass == 0)
        for (std::size_t v = 0; v < NV; ++v) reader_begin[v + 1] += reader_begin[v];
    }
    group_by(root, root_begin, by_root);
    group_by(base, base_begin, by_base);
  }
  constexpr bool is_op(std::size_t e) const { return g.is_op(e); }
  constexpr bool elementwise(std::size_t e) const { return g.is_op(e) && g.entries[e].info.elementwise; }
  constexpr bool fusable(std::size_t e) const { return g.is_op(e) && detail::fusable(g.entries[e].info); }
  constexpr std::size_t nargs(std::size_t e) const { return g.entries[e].num_args; }
  constexpr std::size_t out_value(std::size_t e, std::size_t o = 0) const { return g.entries[e].first_value + o; }
  constexpr const shape& shape_of(std::size_t v) const { return g.values[v].value_shape; }
  // Whether value v is an output with a view_map entry, and the value it views.
  constexpr bool is_view(std::size_t v) const {
    const auto& e = g.entries[g.values[v].entry];
    return e.kind == entry_kind::op && e.info.view_of[g.values[v].out] >= 0;
  }
  constexpr std::size_t viewed(std::size_t v) const {
    const auto& e = g.entries[g.values[v].entry];
    return g.arg(g.values[v].entry, static_cast<std::size_t>(e.info.view_of[g.values[v].out]));
  }
  // Does node e read value v (with root r) in a way a fused loop that writes r may not:
  // another index pattern than `p`, or broadcast over e's output?
  constexpr bool reads_off_pattern(std::size_t e, std::size_t r, const index_pattern& p) const {
    for (std::size_t j = 0; j < nargs(e); ++j) {
      const std::size_t a = g.arg(e, j);
      if (root[a] != r) continue;
      if (!elementwise(e) || !pattern[a].same_as(p) || is_broadcast_read(shape_of(a), shape_of(out_value(e))))
        return true;
    }
    return false;
  }

 private:
  constexpr void group_by(const std::array<std::size_t, NV>& key, std::array<std::size_t, NV + 1>& begin,
                          std::array<std::size_t, NV>& list) const {
    for (std::size_t v = 0; v < G::num_values; ++v) ++begin[key[v] + 1];
    for (std::size_t v = 0; v < NV; ++v) begin[v + 1] += begin[v];
    std::array<std::size_t, NV> fill{};
    for (std::size_t v = 0; v < G::num_values; ++v) list[begin[key[v]] + fill[key[v]]++] = v;
  }
};

// Roots that node e computes into: from its destroy_map (destroyed_root), and
// from io_alias for the function's outputs (alias_input_value).
template <class G>
constexpr std::size_t destroyed_root(const graph_facts<G>& f, std::size_t e, std::size_t o) {
  const int st = f.g.entries[e].info.storage[o];
  return st < 0 ? none : f.root[f.g.arg(e, static_cast<std::size_t>(st))];
}
template <class G>
constexpr std::size_t alias_input_value(const G& g, std::size_t out_value) {
  for (std::size_t k = 0; k < G::num_aliases; ++k)
    if (g.outputs[static_cast<std::size_t>(g.aliases[k].output)] == out_value)
      return g.entries[g.inputs[static_cast<std::size_t>(g.aliases[k].input)]].first_value;
  return none;
}
template <class G>
constexpr std::size_t written_root(const graph_facts<G>& f, std::size_t e, std::size_t o) {
  const std::size_t rt = destroyed_root(f, e, o);
  return rt != none ? rt : alias_input_value(f.g, f.out_value(e, o));
}

// Whether value v lives in part of a storage: it is computed in place of a view
// (an in-place op on a slice), or of a value that is.
template <class G>
constexpr bool lives_in_view(const graph_facts<G>& f, std::size_t v) {
  for (;;) {
    const std::size_t e = f.g.producer(v);
    if (!f.is_op(e) || f.is_view(v)) return false;
    const int st = f.g.entries[e].info.storage[f.g.values[v].out];
    if (st < 0) return false;
    const std::size_t a = f.g.arg(e, static_cast<std::size_t>(st));
    if (f.is_view(a)) return true;
    v = a;
  }
}

template <class G, class Res>
class fuser {
 public:
  static constexpr std::size_t NE = G::num_entries, NV = graph_facts<G>::NV;
  using result = fusion<NE, NV>;

  constexpr fuser(const graph_facts<G>& facts, const Res& res) : f(facts), r(res) {}

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
      if (f.is_op(e)) loops.unite(e, r.loop[e]);
    for (std::size_t e = 0; e < NE; ++e)
      if (f.is_op(e) && find(e) == e && loops.size[e] > 1 && !valid(e)) {
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
      if (!f.fusable(c)) continue;
      for (std::size_t j = 0; j < f.nargs(c); ++j) {
        const std::size_t a = f.g.arg(c, j), pr = f.g.producer(a);
        if (!f.fusable(pr) || !only_reader(a, c)) continue;
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
      if (!f.fusable(e)) continue;  // (an elementwise op of several outputs runs alone)
      const std::size_t g = find(e);
      if (id[g] == none) id[g] = out.num_groups++;
      out.group[e] = id[g];
      out.last[id[g]] = e;  // positions ascend: the last one seen is the last member
    }
    for (std::size_t e = 0; e < NE; ++e) {
      if (!f.is_op(e)) out.at[e] = -1;
      else if (out.group[e] != none) out.at[e] = out.at[out.last[out.group[e]]];
    }
    // A value is stored unless only its own loop reads it.
    for (std::size_t v = 0; v < G::num_values; ++v) {
      const std::size_t e = f.g.producer(v);
      if (!f.is_op(e) || f.is_view(v)) continue;
      const std::size_t g = out.group[e];
      bool outside = g == none || out.last[g] == e || f.is_output[v];
      bool read = false;
      for (std::size_t i = f.base_begin[v]; i < f.base_begin[v + 1] && !outside; ++i) {
        const std::size_t u = f.by_base[i];
        if (u != v) outside = true;  // a view of it is read elsewhere (views are never members)
        for (std::size_t k = f.reader_begin[u]; k < f.reader_begin[u + 1]; ++k)
          read = true, outside = outside || out.group[f.reader[k]] != g;
      }
      out.stored[v] = outside || !read;
    }
    // The loop writes its stored values in one pass: a call checks that they have
    // one extents (a loop the analysis needs may meet values broadcast against each other).
    std::array<std::size_t, NE> first{};
    for (auto& x : first) x = none;
    for (std::size_t v = 0; v < G::num_values; ++v) {
      const std::size_t e = f.g.producer(v);
      out.peer[v] = none;
      if (!f.is_op(e) || f.is_view(v) || !out.stored[v] || out.group[e] == none) continue;
      if (first[out.group[e]] == none) first[out.group[e]] = v;
      else out.peer[v] = first[out.group[e]];
    }
    return out;
  }

 private:
  const graph_facts<G>& f;
  const Res& r;
  std::array<int, NE> pos{};
  loop_sets<NE> loops;
  extent_classes<G> classes{f.g};

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
      for (std::size_t o = 0; f.is_op(n) && o < f.g.entries[n].info.num_outputs; ++o) {
        if (const std::size_t rt = destroyed_root(f, n, o); rt != none && writer[rt] != n)
          next_writer[n] = writer[rt], writer[rt] = n;
        // A view output (the input itself, io_alias's same-pattern case) writes nothing:
        // its node is no writer, and other readers of the input or the view need not precede it.
        const std::size_t al = alias_input_value(f.g, f.out_value(n, o));
        if (al != none && !f.is_view(f.out_value(n, o))) alias_writer[al] = n;
      }
    for (std::size_t k = 0; k + 1 < G::num_order; ++k) {
      const std::size_t a = f.g.order_chain[k], b = f.g.order_chain[k + 1];
      if (a == G::npos || b == G::npos) continue;
      const std::size_t ea = f.g.producer(a), eb = f.g.producer(b);
      if (f.is_op(ea) && f.is_op(eb)) order_next[ea] = eb;  // (a chain: one successor each)
    }
    for (std::size_t v = 0; v < G::num_values; ++v) {
      std::size_t i = 0;
      for (std::size_t w = writer[f.root[v]]; w != none && i < 32; w = next_writer[w], ++i)
        if (f.pattern[v].disjoint_from(written_pattern(w, f.root[v]))) apart[v] |= std::uint32_t{1} << i;
    }
  }
  // The region of root rt that node n writes: the pattern of the input it computes in.
  constexpr const index_pattern& written_pattern(std::size_t n, std::size_t rt) const {
    std::size_t o = 0;
    while (destroyed_root(f, n, o) != rt) ++o;
    return f.pattern[f.g.arg(n, static_cast<std::size_t>(f.g.entries[n].info.storage[o]))];
  }
  // Calls visit(q) for every node q that must run after node e (data, reader
  // before the node that overwrites what it read, ip::order).
  template <class F>
  constexpr void for_each_successor(std::size_t e, F&& visit) const {
    for (std::size_t o = 0; o < f.g.entries[e].info.num_outputs; ++o) {
      const std::size_t w = f.out_value(e, o);
      for (std::size_t k = f.reader_begin[w]; k < f.reader_begin[w + 1]; ++k) visit(f.reader[k]);
    }
    for (std::size_t j = 0; j < f.nargs(e); ++j) {
      const std::size_t a = f.g.arg(e, j), rt = f.root[a];
      std::size_t i = 0;
      for (std::size_t w = writer[rt]; w != none; w = next_writer[w], ++i)  // (a region it does not read: any order)
        if (w != e && !(i < 32 && (apart[a] >> i & 1u))) visit(w);
      if (alias_writer[rt] != none && alias_writer[rt] != e) visit(alias_writer[rt]);
    }
    if (order_next[e] != none) visit(order_next[e]);
  }
  // The members of every step, listed by step (the representative of its loop).
  constexpr void list_members(std::array<std::size_t, NE + 1>& begin, std::array<std::size_t, NE>& list) const {
    begin = {};
    for (std::size_t e = 0; e < NE; ++e)
      if (f.is_op(e)) ++begin[find(e) + 1];
    for (std::size_t e = 0; e < NE; ++e) begin[e + 1] += begin[e];
    std::array<std::size_t, NE> fill{};
    for (std::size_t e = 0; e < NE; ++e)
      if (f.is_op(e)) list[begin[find(e)] + fill[find(e)]++] = e;
  }
  // Whether the graph of steps has no cycle (a loop that would have to run both
  // before and after another step).
  constexpr bool acyclic() const {
    std::array<std::size_t, NE + 1> begin{};
    std::array<std::size_t, NE> list{}, stack{}, next{};
    list_members(begin, list);
    std::array<unsigned char, NE> state{};  // 0 new, 1 on the stack, 2 done
    for (std::size_t s0 = 0; s0 < NE; ++s0) {
      if (!f.is_op(s0) || find(s0) != s0 || state[s0] != 0) continue;
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
    std::array<std::size_t, NE + 1> begin{};
    std::array<std::size_t, NE> list{}, indeg{};
    std::array<int, NE> first{};
    list_members(begin, list);
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
    return f.reader_begin[v + 1] - f.reader_begin[v] == 1 && f.reader[f.reader_begin[v]] == c;
  }
  // Can the members of the loop with representative g share one loop? (Whether
  // it can run as one step is acyclic()'s question.)
  constexpr bool valid(std::size_t g) const {
    std::array<bool, NE> member{};
    for (std::size_t e = 0; e < NE; ++e) member[e] = f.is_op(e) && find(e) == g;
    return can_share_loop(f.g, f.root, f.pattern, member);
  }
  // Does every value the loop may store have the same extents in every call?
  // (A value is stored when read outside the loop, returned, viewed, or a sink.)
  constexpr bool stores_one_extents(std::size_t g) const {
    std::size_t first = none;
    for (std::size_t e = 0; e < NE; ++e) {
      if (!f.is_op(e) || find(e) != g) continue;
      for (std::size_t o = 0; o < f.g.entries[e].info.num_outputs; ++o) {
        const std::size_t v = f.out_value(e, o);
        bool stored = f.is_output[v] || f.base_begin[v + 1] - f.base_begin[v] > 1 ||
                      f.reader_begin[v] == f.reader_begin[v + 1];
        for (std::size_t k = f.reader_begin[v]; k < f.reader_begin[v + 1] && !stored; ++k)
          stored = find(f.reader[k]) != g;
        if (!stored) continue;
        if (first == none) first = v;
        else if (!classes.same(f.g, first, v)) return false;
      }
    }
    return true;
  }
};

// ---- everything per function --------------------------------------------------------
template <class S>
struct program {
  using spec = S;
  using G = typename S::graph_type;
  static constexpr std::size_t NE = G::num_entries, NV = graph_facts<G>::NV;

  using all_entries = boost::mp11::mp_fold<
      boost::mp11::mp_append<typename S::input_list, typename S::output_list,
                             boost::mp11::mp_remove_if<typename S::order_values, std::is_void>>,
      mp_list<>, visit_value>;

  template <class... E>
  static constexpr std::array<std::size_t, NE> by_id(mp_list<E...>) {
    std::array<std::size_t, NE> at{};
    std::size_t k = 0;
    ((at[S::entry_id(&E::desc)] = k++), ...);
    return at;
  }
  static constexpr std::array<std::size_t, NE> type_index = by_id(all_entries{});
  template <std::size_t E>
  using entry_t = boost::mp11::mp_at_c<all_entries, type_index[E]>;

  template <std::size_t... E>
  static constexpr std::array<entry_facts, NE> all_facts(std::index_sequence<E...>) {
    return {facts_of<entry_t<E>>()...};
  }
  static constexpr std::array<entry_facts, NE> facts = all_facts(std::make_index_sequence<NE>{});

  // The graph's reader, root and view lists, built once for everything below.
  static constexpr graph_facts<G> gfacts{S::graph_value};

  // The largest rank of the graph's values (at least 1): the axes a call's
  // slots hold (execute.hpp).
  static constexpr std::size_t max_rank = [] {
    std::size_t r = 1;
    for (std::size_t v = 0; v < G::num_values; ++v) r = std::max(r, S::graph_value.values[v].value_shape.rank);
    return r;
  }();

  static constexpr auto fused = fuser<G, decltype(S::result)>(gfacts, S::result).run();

  // Debug mode's reference: every node alone, in the analysis's order, every
  // computed value stored (instantiated only by debug mode).
  static constexpr auto unfused = [] {
    fusion<NE, NV> u;
    const graph_facts<G>& gf = gfacts;
    for (std::size_t e = 0; e < NE; ++e) {
      u.group[e] = none;
      u.at[e] = S::result.position[e];
      if (u.at[e] >= 0) u.order[static_cast<std::size_t>(u.at[e])] = e;
    }
    for (std::size_t v = 0; v < G::num_values; ++v) u.stored[v] = gf.is_op(gf.g.producer(v)) && !gf.is_view(v), u.peer[v] = none;
    u.num_steps = S::result.schedule_size;
    return u;
  }();
};

}  // namespace inplace::detail::run

#include "inplace/detail/shadow_on.hpp"
