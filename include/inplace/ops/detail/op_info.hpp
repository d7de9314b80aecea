#pragma once
// Reads an op class once into a plain constexpr record: its name, whether it is
// elementwise, its number of outputs, and its view_map / destroy_map as arrays.
// A malformed map is recorded (maps_ok = false), never a hard error here: the
// analysis reports it as bad_op_maps, and ip::check must not fail to compile.

#include "inplace/ops/detail/type_name.hpp"

#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/second.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

inline constexpr std::size_t max_outputs = 8;
inline constexpr std::size_t max_args = 32;

struct op_info {
  std::string_view name;
  bool elementwise = false;
  bool maps_ok = true;
  std::size_t num_outputs = 1;
  std::array<int, max_outputs> view_of{-1, -1, -1, -1, -1, -1, -1, -1};  // input viewed by output i
  std::array<std::uint32_t, max_outputs> destroys{};                      // inputs destroyed, as a bit set
  std::array<int, max_outputs> storage{-1, -1, -1, -1, -1, -1, -1, -1};  // first listed input of destroy_map[i]
  // An op that overwrites only part of its destroyed input (ip::set's in-place
  // form) names the input that is a view of that part (region_input), or -1.
  // Its pure form computes a copy of the destroyed input, then the region.
  int region = -1;
  bool region_set = false;  // ... and replaces it by input 1 (ip::set): not combined with its old elements
};

// How many of the op's outputs its view_map lists: a view op lists them all
// (an op listing some but not all cannot run in a graph: op_kernel).
constexpr std::size_t num_views(const op_info& info) {
  std::size_t n = 0;
  for (std::size_t o = 0; o < info.num_outputs; ++o) n += info.view_of[o] >= 0;
  return n;
}

// Whether a node may join a fused loop: an elementwise op of one output. An
// elementwise op of several outputs (operator() returns a tuple) runs as its own
// loop, like an opaque node.
constexpr bool fusable(const op_info& info) { return info.elementwise && info.num_outputs == 1; }

template <class Op>
constexpr std::size_t num_outputs_of() {
  if constexpr (requires { Op::num_outputs; }) return static_cast<std::size_t>(Op::num_outputs);
  else return 1;
}

template <class Op>
constexpr bool is_elementwise() {
  if constexpr (requires { Op::elementwise; }) return static_cast<bool>(Op::elementwise);
  else return false;
}

// Calls f(output, input, position-in-list) for every entry of a Hana map {i: [j...]}.
template <class Map, class F>
constexpr bool for_each_map_entry(const Map& map, F f) {
  bool ok = true;
  boost::hana::for_each(map, [&](const auto& pair) {
    using key = std::remove_cvref_t<decltype(boost::hana::first(pair))>;
    int pos = 0;
    boost::hana::for_each(boost::hana::second(pair), [&](const auto& j) {
      f(static_cast<int>(key::value), static_cast<int>(std::remove_cvref_t<decltype(j)>::value), pos++);
    });
    if (pos == 0) ok = false;  // {i: []} lists no input
  });
  return ok;
}

template <class Op>
constexpr op_info read_op(std::size_t num_args) {
  op_info r;
  r.name = op_name<Op>();
  r.elementwise = is_elementwise<Op>();
  r.num_outputs = num_outputs_of<Op>();
  if constexpr (requires { Op::region_input; }) r.region = static_cast<int>(Op::region_input);
  if constexpr (requires { Op::replaces_region; }) r.region_set = Op::replaces_region;
  if (r.num_outputs == 0 || r.num_outputs > max_outputs) {
    r.maps_ok = false;
    r.num_outputs = r.num_outputs == 0 ? 1 : max_outputs;
  }
  const auto in_range = [&](int i, int j) {
    return i >= 0 && static_cast<std::size_t>(i) < r.num_outputs && j >= 0 &&
           static_cast<std::size_t>(j) < num_args && static_cast<std::size_t>(j) < max_args;
  };
  if constexpr (requires { Op::view_map; }) {
    r.maps_ok &= for_each_map_entry(Op::view_map, [&](int i, int j, int pos) {
      if (!in_range(i, j) || pos > 0) {  // out of range, or {i: [j, k]}: one input per view
        r.maps_ok = false;
        return;
      }
      r.view_of[static_cast<std::size_t>(i)] = j;
    });
  }
  if constexpr (requires { Op::destroy_map; }) {
    r.maps_ok &= for_each_map_entry(Op::destroy_map, [&](int i, int j, int pos) {
      if (!in_range(i, j)) {
        r.maps_ok = false;
        return;
      }
      const auto o = static_cast<std::size_t>(i);
      if (r.view_of[o] >= 0) r.maps_ok = false;  // an output in both maps
      r.destroys[o] |= std::uint32_t{1} << j;
      if (pos == 0) r.storage[o] = j;
    });
  }
  return r;
}

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
