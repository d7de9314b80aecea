#pragma once
// What running a checked function needs beyond its analysis, computed once per
// function while the program compiles (program<S>):
//  - the entry types in the analysis's numbering (to call each node's kernel);
//  - per entry, its outputs' dtypes and which inputs have a registered
//    in-place variant (the rewrite's registry, rewrite.hpp);
//  - the graph index the analysis built (graph/detail/graph_index.hpp);
//  - the fused loops (fusion.hpp), and debug mode's unfused schedule.
// None of this depends on which arguments are donated (storage.hpp does).

#include "inplace/graph/detail/analysis.hpp"
#include "inplace/graph/function.hpp"
#include "inplace/graph/node.hpp"
#include "inplace/run/detail/fusion.hpp"
#include "inplace/ops/detail/type_name.hpp"
#include "inplace/ops/inplace_op.hpp"
#include "inplace/ops/opaque.hpp"
#include "inplace/ops/reductions.hpp"

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

// ---- entry types in the analysis's numbering ---------------------------------------
// One depth-first walk over the types that threads a single list of the entries
// seen so far: each entry is added once and each argument edge costs one lookup.
// (Per-node lists merged with mp_unique cost O(N^3) list elements.)
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

// ---- row chains ----------------------------------------------------------------------
// A row op runs along the last axis, each row alone: softmax, and a reduction
// over the last axis only (reduce_sum<-1>, reduce_max<-1>, ..., with or
// without keepdims; not argmax/argmin). Its elementwise producer (a loop whose
// one result only it reads) and, for softmax, its elementwise consumer (a
// loop that alone reads softmax's result) run inside its row loop: block by
// block of rows, the producer into the block, the row op on it, the consumer
// over it. The values between them are never stored (schedule::row_value).
//
// A reduction over every axis (reduce_sum(x), reduce_max(x), a vector's
// reduce_mean<0>, ...; not argmax/argmin) of a loop's one result runs the same
// way, its chain's head of kind `total`: the loop computes its value block by
// block (whole rows when a row fits the block, else pieces of a row) and the
// reduction takes each block in turn, in row-major order (executor.hpp:
// run_total), so nothing of the operand is stored.
enum class row_kind : unsigned char { none, softmax, reduce, total };

template <class Op>
struct is_reduce_sum : std::false_type {};
template <int A>
struct is_reduce_sum<ops::reduce_sum<A>> : std::true_type {};
template <class Op>
struct is_reduction : std::false_type {};
template <class R, int... A>
struct is_reduction<ops::reduce<R, A...>> : std::true_type {};

// What kind of row op node E is, its operand having rank `rank` (a row op's
// at least 2: rows of a matrix or more; a vector is one row, nothing to block).
template <class E>
constexpr row_kind row_kind_of(std::size_t rank) {
  if constexpr (E::desc.record.kind != entry_kind::op) {
    return row_kind::none;
  } else {
    using Op = typename E::op;
    if (rank < 1 || E::desc.record.num_args != 1) return row_kind::none;
    if constexpr (std::is_same_v<Op, ops::softmax>) {
      return rank >= 2 ? row_kind::softmax : row_kind::none;
    } else if constexpr (is_reduce_sum<Op>::value) {
      if (Op::axis == ops::all_axes) return row_kind::total;
      const std::size_t a = axis_of(Op::axis, rank);
      return a == rank ? row_kind::none : rank == 1 ? row_kind::total : a == rank - 1 ? row_kind::reduce : row_kind::none;
    } else if constexpr (is_reduction<Op>::value) {
      if constexpr (requires { Op::reducer::is_arg; }) return row_kind::none;
      else {
        const auto r = reduction_axes::read(Op::axes, rank);
        if (!r.ok) return row_kind::none;
        if (r.count == rank) return row_kind::total;
        return rank >= 2 && r.count == 1 && r.reduced[rank - 1] ? row_kind::reduce : row_kind::none;
      }
    } else {
      return row_kind::none;
    }
  }
}

// The fused loops (fusion.hpp) and the row chains over them.
template <std::size_t NE, std::size_t NV>
struct schedule : fusion<NE, NV> {
  std::array<std::size_t, NE> chain{};      // the entry whose step runs e's row chain (the head: itself; none: no chain)
  std::array<std::size_t, NE> chain_out{};  // by head: the value the chain stores (a row op's result, or a loop's)
  std::array<std::size_t, NE> frame{};      // by head: the value whose extents the rows are (the chain's row values')
  std::array<bool, NV> row_value{};         // computed block by block inside its chain, never stored
  std::size_t num_chains = 0;
};

template <class G, std::size_t NE, std::size_t NV>
class row_chainer {
 public:
  constexpr row_chainer(const G& graph, const graph_index<G>& index, const value_lists<G>& lists,
                        const std::array<row_kind, NE>& kinds, const std::array<entry_facts, NE>& facts)
      : g(graph), ix(index), ls(lists), kind(kinds), fa(facts), classes(graph) {}

  constexpr schedule<NE, NV> run(const fusion<NE, NV>& f) {
    s = schedule<NE, NV>{};
    static_cast<fusion<NE, NV>&>(s) = f;
    for (auto& c : s.chain) c = none;
    for (auto& c : s.chain_out) c = none;
    for (auto& c : s.frame) c = none;
    if (!f.ok) return s;
    for (std::size_t q = 0; q < s.num_steps; ++q) pos[s.order[q]] = q;
    // a row op takes its producer's loop
    for (std::size_t q = 0; q < s.num_steps; ++q) {
      const std::size_t r = s.order[q];
      if (kind[r] == row_kind::none) continue;
      const std::size_t a = g.arg(r, 0), pr = g.producer(a);
      if (!g.is_op(pr) || s.group[pr] == none || loop_result(s.group[pr]) != a || !only_reader(a, r) ||
          (kind[r] == row_kind::softmax && !same_dtype(a, g.out_value(r))))
        continue;
      std::array<bool, NE> m = members_of(r);
      add_loop(m, s.group[pr]);
      if (!contiguous(m)) continue;
      commit(m, r, g.out_value(r), a);
      s.row_value[a] = true, s.stored[a] = false;
    }
    // softmax gives its rows to its consumer's loop
    for (std::size_t q = 0; q < s.num_steps; ++q) {
      const std::size_t r = s.order[q];
      if (kind[r] != row_kind::softmax) continue;
      const std::size_t v = g.out_value(r);
      if (ls.readers.size(v) != 1 || ix.is_output[v] || ls.by_base.size(v) != 1) continue;
      const std::size_t c = ls.readers.at(v, 0);
      if (!g.fusable(c) || s.group[c] == none) continue;
      // (a total reduction's blocks may cut rows: softmax stays out of its chain)
      if (s.chain[s.last[s.group[c]]] != none && kind[s.chain[s.last[s.group[c]]]] == row_kind::total) continue;
      const std::size_t w = loop_result(s.group[c]);
      // (its rows are softmax's in every call: equal extent classes, graph/detail/fusion_rule.hpp)
      if (w == none || !same_dtype(v, w) || !classes.same(g, v, w) || row_leaves(s.group[c]) != 1) continue;
      std::array<bool, NE> m = members_of(r);
      add_loop(m, s.group[c]);
      const std::size_t last = s.last[s.group[c]];
      for (std::size_t e = 0; e < NE; ++e)  // the consumer's loop may be a row op's producer already
        if (s.chain[last] != none && s.chain[e] == s.chain[last]) m[e] = true;
      if (!contiguous(m)) continue;
      const std::size_t head = s.chain[last] != none ? s.chain[last] : last;
      if (s.chain[last] != none) commit(m, head, s.chain_out[head], s.frame[head]);
      else commit(m, head, w, w);
      s.row_value[v] = true, s.stored[v] = false;
      if (s.peer[w] == none) s.peer[w] = v;  // one extents, checked before the call runs (executor.hpp)
    }
    for (std::size_t e = 0; e < NE; ++e) s.num_chains += s.chain[e] == e;
    return s;
  }

 private:
  const G& g;
  const graph_index<G>& ix;
  const value_lists<G>& ls;
  const std::array<row_kind, NE>& kind;
  const std::array<entry_facts, NE>& fa;
  extent_classes<G> classes;
  schedule<NE, NV> s{};
  std::array<std::size_t, NE> pos{};

  constexpr bool same_dtype(std::size_t a, std::size_t b) const {
    return fa[g.values[a].entry].dtype[g.values[a].out] == fa[g.values[b].entry].dtype[g.values[b].out];
  }
  constexpr bool only_reader(std::size_t v, std::size_t r) const {
    return ls.readers.size(v) == 1 && ls.readers.at(v, 0) == r && !ix.is_output[v] && ls.by_base.size(v) == 1;
  }
  // The one value loop grp stores or hands to a row op (none: several).
  constexpr std::size_t loop_result(std::size_t grp) const {
    std::size_t r = none;
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e) && s.group[e] == grp) {
        const std::size_t v = g.out_value(e);
        if (!s.stored[v] && !s.row_value[v]) continue;
        if (r != none) return none;
        r = v;
      }
    return r;
  }
  // How many row values the members of loop grp read.
  constexpr std::size_t row_leaves(std::size_t grp) const {
    std::size_t n = 0;
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e) && s.group[e] == grp)
        for (std::size_t j = 0; j < g.nargs(e); ++j) n += s.row_value[g.arg(e, j)] || kind_reads(e, j);
    return n;
  }
  constexpr bool kind_reads(std::size_t e, std::size_t j) const {  // reads a softmax's result
    const std::size_t pr = g.producer(g.arg(e, j));
    return g.is_op(pr) && kind[pr] == row_kind::softmax;
  }
  // r and the chain it is in already.
  constexpr std::array<bool, NE> members_of(std::size_t r) const {
    std::array<bool, NE> m{};
    m[r] = true;
    for (std::size_t e = 0; e < NE; ++e)
      if (s.chain[r] != none && s.chain[e] == s.chain[r]) m[e] = true;
    return m;
  }
  constexpr void add_loop(std::array<bool, NE>& m, std::size_t grp) const {
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e) && s.group[e] == grp) {
        if (s.chain[e] != none)
          for (std::size_t k = 0; k < NE; ++k) m[k] = m[k] || s.chain[k] == s.chain[e];
        m[e] = true;
      }
  }
  // Do the members run one after another (views aside)? Then nothing between
  // them can write what they read, and the chain may run at the last one's step.
  constexpr bool contiguous(const std::array<bool, NE>& m) const {
    std::size_t lo = s.num_steps, hi = 0;
    for (std::size_t e = 0; e < NE; ++e)
      if (m[e]) lo = pos[e] < lo ? pos[e] : lo, hi = pos[e] > hi ? pos[e] : hi;
    for (std::size_t q = lo; q <= hi; ++q) {
      const std::size_t e = s.order[q];
      if (!m[e] && num_views(g.entries[e].info) != g.entries[e].info.num_outputs) return false;
    }
    return true;
  }
  // The members run at the head's step.
  constexpr void commit(const std::array<bool, NE>& m, std::size_t head, std::size_t out, std::size_t frame) {
    for (std::size_t e = 0; e < NE; ++e)
      if (m[e]) {
        if (s.chain[e] != none && s.chain[e] != head) s.chain_out[s.chain[e]] = s.frame[s.chain[e]] = none;
        s.chain[e] = head, s.at[e] = s.at[head];
      }
    s.chain_out[head] = out, s.frame[head] = frame;
  }
};

// ---- everything per function --------------------------------------------------------
template <class S>
struct program {
  using spec = S;
  using G = typename S::graph_type;
  static constexpr std::size_t NE = G::num_entries, NV = graph_index<G>::NV;

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

  // The graph and its index (roots, readers, views), as the analysis built them.
  static constexpr const G& g = S::graph_value;
  static constexpr const graph_index<G>& index = S::result.index;

  // The largest rank of the graph's values (at least 1): the axes a call's
  // slots hold (executor.hpp).
  static constexpr std::size_t max_rank = [] {
    std::size_t r = 1;
    for (std::size_t v = 0; v < G::num_values; ++v) r = std::max(r, S::graph_value.values[v].value_shape.rank);
    return r;
  }();

  static constexpr value_lists<G> lists{g};
  static constexpr std::size_t num_edges = successor_edges<G>{g, index, lists.readers}.count();
  static constexpr auto successors = [] {
    csr<NE, num_edges> c;
    c.build(successor_edges<G>{g, index, lists.readers});
    return c;
  }();
  static constexpr std::array<row_kind, NE> row_kinds = [] {
    std::array<row_kind, NE> k{};
    [&]<std::size_t... E>(std::index_sequence<E...>) {
      ((k[E] = row_kind_of<entry_t<E>>(g.entries[E].kind == entry_kind::op && g.entries[E].num_args > 0
                                           ? g.shape_of(g.arg(E, 0)).rank
                                           : 0)),
       ...);
    }(std::make_index_sequence<NE>{});
    return k;
  }();
  // (two constant evaluations: each has the compiler's step limit, and the fuser's is near clang's on large graphs)
  static constexpr auto loops = fuser<G, decltype(S::result), num_edges>(g, index, lists, successors, S::result).run();
  static constexpr auto fused = row_chainer<G, NE, NV>(g, index, lists, row_kinds, facts).run(loops);

  // Debug mode's reference: every node alone, in the analysis's order, every
  // computed value stored (instantiated only by debug mode).
  static constexpr auto unfused = [] {
    schedule<NE, NV> u;
    for (std::size_t e = 0; e < NE; ++e) {
      u.group[e] = u.chain[e] = u.chain_out[e] = u.frame[e] = none;
      u.at[e] = S::result.position[e];
      if (u.at[e] >= 0) u.order[static_cast<std::size_t>(u.at[e])] = e;
    }
    for (std::size_t v = 0; v < G::num_values; ++v) u.stored[v] = g.is_op(g.producer(v)) && !g.is_view(v), u.peer[v] = none;
    u.num_steps = S::result.schedule_size;
    return u;
  }();
};

}  // namespace inplace::detail::run

#include "inplace/detail/shadow_on.hpp"
