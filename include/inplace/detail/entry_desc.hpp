#pragma once
// One constexpr descriptor per leaf and node type: what the analysis needs of
// it, plus pointers to its arguments' descriptors. A node's descriptor is
// built where the node is declared, from its arguments' (already built), so a
// graph is a linked structure of constant objects that a function walks with a
// loop. No type lists the nodes of its subgraph: such lists cost O(N^2) to
// build for N shared nodes. A node has few static members and functions: g++
// registers every function called and every static data member used while the
// program compiles as a symbol and mangles its name (as long as the node's
// expression type), even when nothing is emitted; 45 such symbols per node
// made an -O2 build of a 500-node chain 12x slower than -fsyntax-only. For the same reason no function or
// variable template takes a node's type as an argument where it can be helped.

#include "inplace/detail/index_pattern.hpp"
#include "inplace/detail/op_info.hpp"
#include "inplace/shape.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace inplace::detail {

enum class entry_kind : unsigned char { input, scalar, constant, op };

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

struct entry_desc;

// A value: output `out` of an entry; {nullptr, 0} ends an order chain.
struct value_ref {
  const entry_desc* entry = nullptr;
  std::size_t out = 0;
};

struct entry_desc {
  entry_record record;
  std::uint64_t hash = 0;                 // structural; only speeds up lookups
  std::array<value_ref, max_args> args{};  // record.num_args of them
  std::array<shape, max_outputs> out_shapes{};
  std::array<step_code, max_outputs> out_steps{};
  constexpr std::size_t num_values() const { return record.kind == entry_kind::op ? record.info.num_outputs : 1; }
};

constexpr std::uint64_t hash_text(std::uint64_t h, std::string_view s) {
  for (char c : s) h = mix(h, static_cast<unsigned char>(c));
  return h;
}

constexpr entry_desc leaf_description(entry_kind kind, bool indestructible, std::string_view name,
                                      const shape& value_shape) {
  entry_desc d;
  d.record.kind = kind;
  d.record.indestructible = indestructible;
  d.record.info.name = name;
  d.out_shapes[0] = value_shape;
  d.hash = hash_text(mix(0, static_cast<std::uint64_t>(kind)), name);
  return d;
}

}  // namespace inplace::detail
