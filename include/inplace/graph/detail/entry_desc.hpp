#pragma once
// One constexpr descriptor per leaf and node type: what the analysis needs of
// it, plus pointers to its arguments' descriptors. A node's descriptor is
// built where the node is declared, from its arguments' (already built), so a
// graph is a linked structure of constant objects that a function walks with a
// loop. No type lists the nodes of its subgraph: such lists cost O(N^2) to
// build for N shared nodes. A node has few static members and functions: g++
// registers every function called and every static data member used while the
// program compiles as a symbol and mangles its name (as long as the node's
// expression type), even when nothing is emitted, which made -O2 builds of
// long chains many times slower than -fsyntax-only. For the same reason no function or
// variable template takes a node's type as an argument where it can be helped.

#include "inplace/ops/detail/index_pattern.hpp"
#include "inplace/ops/detail/op_info.hpp"
#include "inplace/ops/detail/type_name.hpp"
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

// A 128-bit structural hash of an entry: a leaf's full type, a node's op type
// and its arguments' hashes. Equal entries have equal hashes; entries are
// compared by hash before their addresses are (see same_entry).
struct identity_hash {
  std::uint64_t a = 0x6a09e667f3bcc908ULL, b = 0xcbf29ce484222325ULL;
  constexpr void add(std::uint64_t v) {
    a = mix(a, v);
    b = (b ^ v) * 0x100000001b3ULL;  // FNV-1a step, independent of `a`
    b ^= b >> 29;
  }
  constexpr void add(std::string_view s) {
    for (char c : s) add(static_cast<unsigned char>(c));
    add(s.size());
  }
  friend constexpr bool operator==(const identity_hash&, const identity_hash&) = default;
};

// A value: output `out` of an entry. `end` marks the end of an order chain; it is
// a flag, not a null entry, because g++ under sanitizers (no null-pointer-check
// deletion) cannot compare the address of a variable with null while compiling.
struct value_ref {
  const entry_desc* entry = nullptr;
  std::size_t out = 0;
  bool end = false;
};

struct entry_desc {
  entry_record record;
  identity_hash hash;
  std::array<value_ref, max_args> args{};  // record.num_args of them
  std::array<shape, max_outputs> out_shapes{};
  std::array<step_code, max_outputs> out_steps{};
  constexpr std::size_t num_values() const { return record.kind == entry_kind::op ? record.info.num_outputs : 1; }
};

// Whether x and y are the descriptor of one entry. Addresses are compared only
// when the hashes agree, i.e. (barring a 2^-128 accident) when they are equal:
// g++ cannot compare the addresses of two DIFFERENT variables while compiling
// when null-pointer checks are kept (-fsanitize=null, -fno-delete-null-pointer-checks).
constexpr bool same_entry(const entry_desc* x, const entry_desc* y) { return x->hash == y->hash && x == y; }

// type: the leaf's full type name (name, dtype, shape, flags), its identity.
constexpr entry_desc leaf_description(entry_kind kind, bool indestructible, std::string_view name,
                                      const shape& value_shape, std::string_view type) {
  entry_desc d;
  d.record.kind = kind;
  d.record.indestructible = indestructible;
  d.record.info.name = name;
  d.out_shapes[0] = value_shape;
  d.hash.add(static_cast<std::uint64_t>(kind));
  d.hash.add(type);  // clang prints class-type template arguments as {}: add what they carry
  d.hash.add(name);
  d.hash.add(value_shape.rank);
  for (std::size_t i = 0; i < value_shape.rank; ++i) d.hash.add(value_shape.extent[i]);
  return d;
}

}  // namespace inplace::detail
