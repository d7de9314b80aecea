#pragma once
// The value-level image of a graph: types are mapped to small integer ids once,
// and everything the analysis needs is copied into flat constexpr arrays.
// Entries (leaves and nodes) are in topological order: arguments first.

#include "inplace/detail/index_pattern.hpp"
#include "inplace/detail/op_info.hpp"
#include "inplace/node.hpp"
#include "inplace/shape.hpp"
#include "inplace/symbols.hpp"

#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace inplace::detail {

struct entry_record {
  entry_kind kind = entry_kind::op;
  bool indestructible = false;
  bool dtype_ok = true;
  bool shape_ok = true;
  op_info info;                 // for a leaf: its name, one output, empty maps
  std::size_t first_arg = 0;    // into graph::args
  std::size_t num_args = 0;
  std::size_t first_value = 0;  // into graph::values
};

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
};

// ---- building the arrays from the types -------------------------------------

template <class E>
constexpr std::size_t num_outputs_of_entry() {
  if constexpr (E::kind == entry_kind::op) return E::info.num_outputs;
  else return 1;
}

template <class E, class Seq>
struct outputs_list;
template <class E, std::size_t... I>
struct outputs_list<E, std::index_sequence<I...>> {
  using type = mp_list<out<E, I>...>;
};

template <class E, bool IsOp = E::kind == entry_kind::op>
struct entry_parts {  // a leaf: no arguments, one value (itself)
  using args = mp_list<>;
  using values = mp_list<E>;
};
template <class E>
struct entry_parts<E, true> {
  using args = typename E::args;
  using values = typename outputs_list<E, std::make_index_sequence<E::info.num_outputs>>::type;
};

template <class L>
struct graph_builder;

template <class... E>
struct graph_builder<mp_list<E...>> {
  using list = mp_list<E...>;
  static constexpr std::size_t num_entries = sizeof...(E);
  static constexpr std::array<std::size_t, sizeof...(E) + 1> value_base = [] {
    std::array<std::size_t, sizeof...(E) + 1> b{};
    const std::size_t n[] = {num_outputs_of_entry<E>()..., 0};
    for (std::size_t i = 0; i < sizeof...(E); ++i) b[i + 1] = b[i] + n[i];
    return b;
  }();
  static constexpr std::size_t num_values = value_base[sizeof...(E)];
  using all_args = boost::mp11::mp_append<typename entry_parts<E>::args...>;
  using all_values = boost::mp11::mp_append<typename entry_parts<E>::values...>;
  static constexpr std::size_t num_args = boost::mp11::mp_size<all_args>::value;

  template <class V>
  static constexpr std::size_t value_id = value_base[index_of<entry_of<V>, list>] + out_index_of<V>;

  template <class Leaf>
  static constexpr entry_record leaf_record() {
    entry_record r;
    r.kind = Leaf::kind;
    r.indestructible = Leaf::indestructible;
    r.info.name = Leaf::name;
    return r;
  }
  template <class Entry>
  static constexpr entry_record record() {
    if constexpr (Entry::kind == entry_kind::op) {
      entry_record r;
      r.info = Entry::info;
      r.dtype_ok = Entry::dtype_ok;
      r.shape_ok = Entry::shape_ok;
      r.num_args = Entry::num_args;
      return r;
    } else {
      return leaf_record<Entry>();
    }
  }
  template <class V>
  static constexpr value_record value_of() {
    value_record v;
    v.entry = index_of<entry_of<V>, list>;
    v.out = out_index_of<V>;
    v.value_shape = V::value_shape;
    if constexpr (requires { V::entry::out_steps; }) v.step = V::entry::out_steps[out_index_of<V>];
    return v;
  }
  template <class... V>
  static constexpr std::array<value_record, sizeof...(V)> values_of(mp_list<V...>) {
    return {value_of<V>()...};
  }
  template <class... A>
  static constexpr std::array<std::size_t, (sizeof...(A) > 0 ? sizeof...(A) : 1)> arg_ids(mp_list<A...>) {
    return {value_id<A>...};
  }

  template <class G>
  static constexpr void fill(G& g) {
    g.entries = {record<E>()...};
    g.values = values_of(all_values{});
    std::size_t a = 0;
    for (std::size_t i = 0; i < num_entries; ++i) {
      g.entries[i].first_value = value_base[i];
      g.entries[i].first_arg = a;
      a += g.entries[i].num_args;
    }
    if constexpr (num_args > 0) g.args = arg_ids(all_args{});
  }
};

}  // namespace inplace::detail
