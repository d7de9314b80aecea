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
  static constexpr auto fused = fuser<G, decltype(S::result), num_edges>(g, index, lists, successors, S::result).run();

  // Debug mode's reference: every node alone, in the analysis's order, every
  // computed value stored (instantiated only by debug mode).
  static constexpr auto unfused = [] {
    fusion<NE, NV> u;
    for (std::size_t e = 0; e < NE; ++e) {
      u.group[e] = none;
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
