#pragma once
// The graph index: what the analysis and the runtime both look up per value,
// built once by the analysis (analysis.hpp) and kept in its result, so that a
// call reads the same roots that ip::check judged:
//  - the root of every value (view_map edges followed back to a value that owns
//    its storage) and the index pattern by which the value reads it;
//  - the readers of every root (op entries reading a value of it, once each);
//  - which values are outputs, and which input each input value is.
// Lists are flat (csr): an algorithm walks edges instead of scanning every
// node for every value. (Lists only the fused loops need, by value, are the
// fuser's: run/detail/fusion.hpp.)

#include "inplace/graph/detail/graph_data.hpp"

#include <array>
#include <cstddef>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

// Items listed by key, in one array (compressed sparse rows): the items of key
// k are items[begin[k] .. begin[k + 1]).
template <std::size_t NK, std::size_t NI>
struct csr {
  struct range {
    const std::size_t* first;
    const std::size_t* last;
    constexpr const std::size_t* begin() const { return first; }
    constexpr const std::size_t* end() const { return last; }
  };
  std::array<std::size_t, NK + 1> begin{};
  std::array<std::size_t, NI> items{};

  // Lists the pairs (key, item) that each(add) passes to add(key, item), by key,
  // each key's items in the order given. each is called twice (count, then fill)
  // and must give the same pairs both times.
  template <class Each>
  constexpr void build(Each each) {
    begin = {};
    each([&](std::size_t k, std::size_t) { ++begin[k + 1]; });
    for (std::size_t k = 0; k < NK; ++k) begin[k + 1] += begin[k];
    std::array<std::size_t, NK> fill{};
    each([&](std::size_t k, std::size_t item) { items[begin[k] + fill[k]++] = item; });
  }
  constexpr std::size_t size(std::size_t k) const { return begin[k + 1] - begin[k]; }
  constexpr std::size_t at(std::size_t k, std::size_t i) const { return items[begin[k] + i]; }  // item i of key k
  constexpr range of(std::size_t k) const { return {items.data() + begin[k], items.data() + begin[k + 1]}; }
};

template <class G>
struct graph_index {
  static constexpr std::size_t NE = G::num_entries, NV = G::num_values > 0 ? G::num_values : 1,
                               NA = G::num_args > 0 ? G::num_args : 1;
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  std::array<std::size_t, NV> root{};
  std::array<index_pattern, NV> pattern{};
  std::array<bool, NV> is_output{};
  std::array<std::size_t, NV> input_of{};  // the input (its place in inputs(...)) whose value v is, or none
  csr<NV, NA> root_readers;                // by root: the op entries reading a value of it (impact(r))
  // by io_alias (g.aliases): honoured by a copy when a call returns, not computed in
  // the input's storage (an ip::may_alias that in place would break a rule: analysis.hpp)
  std::array<bool, G::num_aliases> alias_by_copy{};

  // Fills the index of g (in place: the index is large, a copy costs).
  constexpr void build(const G& g) {
    roots_and_patterns(g);
    for (std::size_t k = 0; k < G::num_outputs; ++k) is_output[g.outputs[k]] = true;
    for (auto& k : input_of) k = none;
    for (std::size_t k = 0; k < G::num_inputs; ++k) input_of[g.entries[g.inputs[k]].first_value] = k;
    root_readers.build(readers_by(g, [this](std::size_t v) { return root[v]; }));
  }

  // The op entries reading a value, listed under key(value): each entry once
  // per key, entries ascending (a csr::build argument).
  template <class Key>
  static constexpr auto readers_by(const G& g, Key key) {
    return [&g, key](auto add) {
      std::array<std::size_t, NV> last{};
      for (auto& x : last) x = none;
      for (std::size_t e = 0; e < NE; ++e)
        for (std::size_t j = 0; j < g.entries[e].num_args; ++j) {
          const std::size_t k = key(g.arg(e, j));
          if (last[k] != e) last[k] = e, add(k, e);
        }
    };
  }

  // Does node e read value v (with root r) in a way a fused loop that writes r may not:
  // another index pattern than `p`, or broadcast over e's output?
  constexpr bool reads_off_pattern(const G& g, std::size_t e, std::size_t r, const index_pattern& p) const {
    for (std::size_t j = 0; j < g.entries[e].num_args; ++j) {
      const std::size_t a = g.arg(e, j);
      if (root[a] != r) continue;
      if (!g.elementwise(e) || !pattern[a].same_as(p) || is_broadcast_read(g.shape_of(a), g.shape_of(g.out_value(e))))
        return true;
    }
    return false;
  }

 private:
  constexpr void roots_and_patterns(const G& g) {
    for (std::size_t v = 0; v < G::num_values; ++v) {
      const auto& val = g.values[v];
      const auto& e = g.entries[val.entry];
      if (!g.is_view(v)) {
        root[v] = v;
        pattern[v] = index_pattern::of_root(val.value_shape, dynamic);
        // Outputs computed in the storage of the same input (an LU's L and U)
        // share that storage: they are one new root.
        const int storage = e.kind == entry_kind::op ? e.info.storage[val.out] : -1;
        for (std::size_t o = 0; storage >= 0 && o < val.out; ++o)
          if (e.info.storage[o] == storage) {
            root[v] = e.first_value + o;
            break;
          }
        continue;
      }
      const std::size_t a = g.viewed(v);
      root[v] = root[a];
      pattern[v] = pattern[a];
      pattern[v].append(val.step, val.value_shape, dynamic);
    }
  }
};

// Roots that node e computes into: from its destroy_map (destroyed_root), and
// from io_alias for the function's outputs (alias_input_value).
template <class G>
constexpr std::size_t destroyed_root(const G& g, const graph_index<G>& ix, std::size_t e, std::size_t o) {
  const int st = g.entries[e].info.storage[o];
  return st < 0 ? graph_index<G>::none : ix.root[g.arg(e, static_cast<std::size_t>(st))];
}
// The input value whose storage an io_alias computes output value v in (none: no
// such alias; an alias honoured by a copy computes nothing there).
template <class G>
constexpr std::size_t alias_input_value(const G& g, const graph_index<G>& ix, std::size_t out_value) {
  for (std::size_t k = 0; k < G::num_aliases; ++k)
    if (!ix.alias_by_copy[k] && g.outputs[static_cast<std::size_t>(g.aliases[k].output)] == out_value)
      return g.entries[g.inputs[static_cast<std::size_t>(g.aliases[k].input)]].first_value;
  return graph_index<G>::none;
}
// The input (its place in inputs(...)) whose storage a call copies output k into
// when it returns, if donated (an io_alias honoured by a copy), or none.
template <class G>
constexpr std::size_t alias_copy_input(const G& g, const graph_index<G>& ix, std::size_t k) {
  for (std::size_t a = 0; a < G::num_aliases; ++a)
    if (ix.alias_by_copy[a] && static_cast<std::size_t>(g.aliases[a].output) == k)
      return static_cast<std::size_t>(g.aliases[a].input);
  return graph_index<G>::none;
}

// Whether value v lives in part of a storage: it is computed in place of a view
// (an in-place op on a slice), or of a value that is.
template <class G>
constexpr bool lives_in_view(const G& g, std::size_t v) {
  for (;;) {
    const std::size_t e = g.producer(v);
    if (!g.is_op(e) || g.is_view(v)) return false;
    const int st = g.entries[e].info.storage[g.values[v].out];
    if (st < 0) return false;
    const std::size_t a = g.arg(e, static_cast<std::size_t>(st));
    if (g.is_view(a)) return true;
    v = a;
  }
}

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
