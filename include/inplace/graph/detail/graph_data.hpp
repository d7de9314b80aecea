#pragma once
// The value-level image of a graph. A function walks the entries' descriptors
// (entry_desc.hpp) once, in a constexpr loop, to list the distinct entries in
// topological order (arguments first), and copies what the analysis needs into
// flat arrays of small integer ids.

#include "inplace/graph/detail/entry_desc.hpp"
#include "inplace/graph/node.hpp"
#include "inplace/shape.hpp"
#include "inplace/graph/symbols.hpp"

#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

struct value_record {
  std::size_t entry = 0;
  std::size_t out = 0;
  shape value_shape;
  step_code step{};  // index step of a view output relative to its input
};

struct alias_record {
  int output = 0;
  int input = 0;
  bool must = true;
  bool types_agree = false;  // same dtype, rank and static extents (valid only when in range)
};

template <std::size_t NE, std::size_t NV, std::size_t NA, std::size_t NI, std::size_t NO, std::size_t NR,
          std::size_t NAL>
struct graph {
  std::array<entry_record, NE> entries{};
  std::array<value_record, NV> values{};
  std::array<std::size_t, (NA > 0 ? NA : 1)> args{};       // value ids
  std::array<std::size_t, (NI > 0 ? NI : 1)> inputs{};     // entry ids
  std::array<std::size_t, (NO > 0 ? NO : 1)> outputs{};    // value ids
  std::array<std::size_t, (NR > 0 ? NR : 1)> order_chain{};  // value ids; chains split by `npos`
  std::array<alias_record, (NAL > 0 ? NAL : 1)> aliases{};
  static constexpr std::size_t num_entries = NE, num_values = NV, num_args = NA, num_inputs = NI,
                               num_outputs = NO, num_order = NR, num_aliases = NAL;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  constexpr bool is_op(std::size_t e) const { return entries[e].kind == entry_kind::op; }
  constexpr std::size_t arg(std::size_t e, std::size_t j) const { return args[entries[e].first_arg + j]; }
  constexpr std::size_t producer(std::size_t v) const { return values[v].entry; }
  constexpr std::size_t nargs(std::size_t e) const { return entries[e].num_args; }
  constexpr std::size_t out_value(std::size_t e, std::size_t o = 0) const { return entries[e].first_value + o; }
  constexpr const shape& shape_of(std::size_t v) const { return values[v].value_shape; }
  constexpr bool elementwise(std::size_t e) const { return is_op(e) && entries[e].info.elementwise; }
  constexpr bool fusable(std::size_t e) const { return is_op(e) && detail::fusable(entries[e].info); }
  // Whether value v is an output with a view_map entry, and the value it views.
  constexpr bool is_view(std::size_t v) const {
    const auto& e = entries[values[v].entry];
    return e.kind == entry_kind::op && e.info.view_of[values[v].out] >= 0;
  }
  constexpr std::size_t viewed(std::size_t v) const {
    return arg(values[v].entry, static_cast<std::size_t>(entries[values[v].entry].info.view_of[values[v].out]));
  }
};

// ---- the distinct entries reachable from some roots, in topological order -----

class entry_index {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  constexpr std::size_t size() const { return list_.size(); }
  constexpr const entry_desc* operator[](std::size_t i) const { return list_[i]; }

  constexpr std::size_t find(const entry_desc* d) const {
    if (slots_.empty()) return npos;
    for (std::size_t s = d->hash.a & (slots_.size() - 1);; s = (s + 1) & (slots_.size() - 1)) {
      if (slots_[s] == 0) return npos;
      if (same_entry(list_[slots_[s] - 1], d)) return slots_[s] - 1;
    }
  }

  // Adds root and everything it depends on (iteratively: graphs may be deeper
  // than the compiler's constexpr recursion limit), arguments before users.
  constexpr void add(const entry_desc* root) {
    if (find(root) != npos) return;
    struct frame {
      const entry_desc* entry;
      std::size_t next_arg;
    };
    std::vector<frame> stack{{root, 0}};
    while (!stack.empty()) {
      const frame top = stack.back();
      if (top.next_arg < top.entry->record.num_args) {
        ++stack.back().next_arg;
        const entry_desc* a = top.entry->args[top.next_arg].entry;
        if (find(a) == npos) stack.push_back({a, 0});
      } else {
        insert(top.entry);
        stack.pop_back();
      }
    }
  }

  // Appends d, whose arguments are already in (a list in topological order).
  constexpr void insert(const entry_desc* d) {
    list_.push_back(d);
    if (2 * list_.size() > slots_.size()) {
      slots_.assign(slots_.empty() ? 64 : 2 * slots_.size(), 0);
      for (std::size_t i = 0; i < list_.size(); ++i) place(i);
    } else {
      place(list_.size() - 1);
    }
  }
 private:
  std::vector<const entry_desc*> list_;
  std::vector<std::size_t> slots_;  // open addressing: index + 1, 0 is empty

  constexpr void place(std::size_t i) {
    std::size_t s = list_[i]->hash.a & (slots_.size() - 1);
    while (slots_[s] != 0) s = (s + 1) & (slots_.size() - 1);
    slots_[s] = i + 1;
  }
};

template <std::size_t K>
constexpr entry_index index_entries(const std::array<value_ref, K>& roots) {
  entry_index idx;
  for (const value_ref& r : roots)
    if (!r.end) idx.add(r.entry);
  return idx;
}

// The distinct entries the roots reach: counted by one walk, listed by a second
// (a constexpr vector cannot outlive the evaluation that made it).
template <std::size_t K>
constexpr std::size_t count_entries(const std::array<value_ref, K>& roots) {
  return index_entries(roots).size();
}
template <std::size_t N, std::size_t K>
constexpr std::array<const entry_desc*, N> list_entries(const std::array<value_ref, K>& roots) {
  const entry_index idx = index_entries(roots);
  std::array<const entry_desc*, N> r{};
  for (std::size_t i = 0; i < N; ++i) r[i] = idx[i];
  return r;
}

struct graph_sizes {
  std::size_t values = 0, args = 0;
};
template <std::size_t N>
constexpr graph_sizes measure_graph(const std::array<const entry_desc*, N>& list) {
  graph_sizes n;
  for (const entry_desc* d : list) {
    n.values += d->num_values();
    n.args += d->record.num_args;
  }
  return n;
}

// Fills g's entries, values and args from the entry list (topological order).
// Returns the id of every root value (npos for a chain end).
template <class G, std::size_t N, std::size_t K>
constexpr std::array<std::size_t, K> fill_graph(G& g, const std::array<const entry_desc*, N>& list,
                                                const std::array<value_ref, K>& roots) {
  entry_index idx;  // the same numbering, for looking arguments up
  for (const entry_desc* d : list) idx.insert(d);
  std::size_t v = 0, a = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const entry_desc& d = *list[i];
    auto& e = g.entries[i];
    e = d.record;
    e.first_value = v;
    e.first_arg = a;
    for (std::size_t o = 0; o < d.num_values(); ++o, ++v) g.values[v] = {i, o, d.out_shapes[o], d.out_steps[o]};
    a += d.record.num_args;
  }
  auto value_id = [&](const value_ref& r) { return g.entries[idx.find(r.entry)].first_value + r.out; };
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < list[i]->record.num_args; ++j) g.args[g.entries[i].first_arg + j] = value_id(list[i]->args[j]);
  std::array<std::size_t, K> ids{};
  for (std::size_t k = 0; k < K; ++k) ids[k] = roots[k].end ? G::npos : value_id(roots[k]);
  return ids;
}

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
