#pragma once
// One constexpr descriptor per leaf and node type: what the analysis needs of
// it, plus pointers to its arguments' descriptors. A node's descriptor is
// built where the node is declared, from its arguments' (already built), so a
// graph is a linked structure of constant objects that a function walks with a
// loop. No type lists the nodes of its subgraph: such lists cost O(N^2) to
// build for N shared nodes.

#include "inplace/detail/index_pattern.hpp"
#include "inplace/detail/op_info.hpp"
#include "inplace/shape.hpp"
#include "inplace/symbols.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

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

struct entry_desc {
  entry_record record;
  std::uint64_t hash = 0;                         // structural; only speeds up lookups
  const entry_desc* const* arg_entries = nullptr;  // record.num_args of them
  const std::size_t* arg_outs = nullptr;           // which output of each argument
  std::array<shape, max_outputs> out_shapes{};
  std::array<step_code, max_outputs> out_steps{};
  constexpr std::size_t num_values() const { return record.kind == entry_kind::op ? record.info.num_outputs : 1; }
};

// A value: output `out` of an entry; {nullptr, 0} ends an order chain.
struct value_ref {
  const entry_desc* entry = nullptr;
  std::size_t out = 0;
};

constexpr std::uint64_t hash_text(std::uint64_t h, std::string_view s) {
  for (char c : s) h = mix(h, static_cast<unsigned char>(c));
  return h;
}

template <class Leaf>
constexpr entry_desc make_leaf_desc() {
  entry_desc d;
  d.record.kind = Leaf::kind;
  d.record.indestructible = Leaf::indestructible;
  d.record.info.name = Leaf::name;
  d.out_shapes[0] = Leaf::value_shape;
  d.hash = hash_text(mix(0, static_cast<std::uint64_t>(Leaf::kind)), Leaf::name);
  return d;
}
template <class Leaf>
inline constexpr entry_desc leaf_desc = make_leaf_desc<Leaf>();

// The descriptor of a leaf or node type.
template <class E>
constexpr const entry_desc* desc_of() {
  if constexpr (E::kind == entry_kind::op) return &E::desc;
  else return &leaf_desc<E>;
}

}  // namespace inplace::detail
