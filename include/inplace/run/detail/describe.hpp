#pragma once
// Words for one plan of a function, shared by ip::explain and ip::to_dot: the
// name of every value, the storage every node writes, the loop it runs in, and
// why the rewrite left a pure node pure.

#include "inplace/run/detail/text.hpp"
#include "inplace/run/plan.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace inplace::detail::run {

template <class S, std::uint64_t Mask>
struct describe {
  using P = program<S>;
  using G = typename P::G;
  static constexpr const G& g = S::graph_value;
  static constexpr const auto& fu = P::fused;
  static constexpr const auto& pl = plan_for<S, Mask>::value;

  static std::string str(std::string_view s) { return std::string(s); }

  static std::size_t position(std::size_t e) { return static_cast<std::size_t>(S::result.position[e]); }
  // "x" for a leaf, "#p" for the output of the node at schedule position p
  // (ip::position), "#p.o" for output o of a node with several.
  static std::string value_name(std::size_t v) {
    const std::size_t e = g.values[v].entry;
    if (!g.is_op(e)) return str(g.entries[e].info.name);
    std::string s = cat("#", position(e));
    if (g.entries[e].info.num_outputs > 1) s += cat(".", g.values[v].out);
    return s;
  }
  // "mul(#0, y)"
  static std::string node_text(std::size_t e) {
    std::string s = cat(g.entries[e].info.name, "(");
    for (std::size_t j = 0; j < g.entries[e].num_args; ++j) s += cat(j ? ", " : "", value_name(g.arg(e, j)));
    return s += ")";
  }
  static std::string input_name(std::size_t k) { return str(g.entries[g.inputs[k]].info.name); }
  static bool is_scalar_input(std::size_t k) { return g.entries[g.inputs[k]].kind == entry_kind::scalar; }
  static bool donated(std::size_t k) { return !is_scalar_input(k) && (Mask >> k & 1u) != 0; }

  static bool is_view_node(std::size_t e) { return num_views(g.entries[e].info) == g.entries[e].info.num_outputs; }
  // "loop 2", "kernel", "view"
  static std::string runs_as(std::size_t e) {
    if (fu.chain[e] != none) return cat("row loop ", value_name(g.entries[fu.chain[e]].first_value));
    if (fu.group[e] != none) return cat("loop ", fu.group[e]);
    return is_view_node(e) ? "view" : "kernel";
  }

  // Where output o of node e is written.
  static std::string storage(std::size_t e, std::size_t o) {
    const auto& info = g.entries[e].info;
    const std::size_t v = g.entries[e].first_value + o;
    if (info.view_of[o] >= 0) return cat("view of ", value_name(g.arg(e, static_cast<std::size_t>(info.view_of[o]))));
    if (P::index.root[v] != v) return cat("with ", value_name(P::index.root[v]), ", in one storage");
    if (in_block(e))
      return cat("not stored: row by row in a block of row loop ", value_name(g.entries[fu.chain[e]].first_value));
    std::string s;
    switch (pl.where[v]) {
      case home::none:
        return cat("not stored: inside loop ", fu.group[e]);
      case home::input:
        s = cat("in ", input_name(pl.index[v]), "'s storage (donated)");  // a borrowed one is copied
        break;
      case home::scalar:
        s = cat("in the call's copy of ", input_name(pl.index[v]));
        break;
      case home::constant:  // (never a node's value)
        return "a constant";
      case home::buffer: {
        const std::size_t b = pl.index[v];
        if (pl.copy[v]) s = cat("copy of ", copied_input(e, o), " (copy-protection), buffer ", b);
        else if (pl.buffer_value[b] == v) s = cat("fresh buffer ", b);
        else if (computed_in_place(e, o) || (pl.same_as[v] != none && g.is_view(pl.same_as[v]))) s = cat("buffer ", b);
        else s = cat("buffer ", b, " (reused: ", value_name(pl.buffer_value[b]), "'s, dead by now)");
        break;
      }
    }
    if (alias_input_value(g, P::index, v) != none) s += ", io_alias";
    if (fu.chain[e] == e && P::row_kinds[e] == row_kind::reduce && fu.chain_out[e] == v) {  // (executor.hpp: run_chain)
      const shape& f = g.shape_of(fu.frame[e]);
      const std::size_t c = f.extent[f.rank - 1];
      const std::size_t bytes = c == dynamic ? dynamic : c * P::facts[g.values[fu.frame[e]].entry].dtype_size[g.values[fu.frame[e]].out];
      s += bytes == dynamic ? cat("; its rows' blocks on the stack (", row_scratch_bytes,
                                  " bytes), or one by one in an allocated row if a row is longer")
           : bytes <= row_scratch_bytes ? cat("; its rows' blocks on the stack (", row_scratch_bytes, " bytes)")
                                        : std::string("; its rows one by one in an allocated row");
    }
    if (fu.chain[e] == e && P::row_kinds[e] == row_kind::total && fu.chain_out[e] == v)  // (executor.hpp: run_total)
      s += cat("; its operand reduced as it is computed, block by block on the stack (", row_scratch_bytes, " bytes)");
    if (pl.same_as[v] != none && g.is_view(pl.same_as[v]) && !computed_in_place(e, o))
      s += cat(", written into ", value_name(pl.same_as[v]), ", the region its set replaces");
    if (computed_in_place(e, o) && !pl.copy[v]) {
      const int j = info.storage[o] >= 0 ? info.storage[o] : pl.rewritten[e];  // (the rewritten output)
      if (j >= 0) {
        const std::size_t a = g.arg(e, static_cast<std::size_t>(j));
        s += cat(", in place of ", value_name(a));
        if (pl.where[a] == home::none && pl.same_as[v] == none) s += ", a value its loop never stores";
      }
      if (info.storage[o] < 0) s += " (rewrite)";
      if (info.region_set && pl.same_as[g.arg(e, 1)] == g.arg(e, static_cast<std::size_t>(info.region)))
        s += "; its value is in its region already: nothing to do";
    }
    return s;
  }
  // The inputs node e's kernel gets as copies (a destroyed input, borrowed, that
  // it computes no output in): "; input 1 (y): copy (copy-protection), buffer 1".
  static std::string input_copies(std::size_t e) {
    std::string s;
    for (std::size_t j = 0; j < g.entries[e].num_args; ++j)
      if (pl.arg_copy[e][j] != none)
        s += cat("; input ", j, " (", value_name(g.arg(e, j)), "): copy (copy-protection), buffer ", pl.arg_copy[e][j]);
    return s;
  }
  static bool computed_in_place(std::size_t e, std::size_t o) {
    return g.entries[e].info.storage[o] >= 0 || pl.rewritten_output[e] == static_cast<int>(o);
  }
  static std::string copied_input(std::size_t e, std::size_t o) {
    const int j = g.entries[e].info.storage[o];
    if (j >= 0) return value_name(g.arg(e, static_cast<std::size_t>(j)));
    const std::size_t al = alias_input_value(g, P::index, g.entries[e].first_value + o);  // an io_alias output
    return al != none ? value_name(al) : std::string("its input");
  }

  // Is node e's value only in the blocks of its row chain (program.hpp: row_chainer)?
  static bool in_block(std::size_t e) {
    return g.is_op(e) && fu.chain[e] != none && fu.chain_out[fu.chain[e]] != g.entries[e].first_value;
  }
  // Why a pure node with a registered in-place variant stayed pure ("" if it did not).
  static std::string_view refused(std::size_t e) {
    if (in_block(e)) return {};
    return meaning_of(pl.why[e]);
  }

  static std::string totals() {
    return cat("allocations ", pl.allocations, ", copies ", pl.copies, ", loops ", pl.loops, ", in_place ", pl.in_place,
               ", peak_bytes ", pl.peak_bytes == dynamic ? std::string("dynamic") : std::to_string(pl.peak_bytes));
  }
};

}  // namespace inplace::detail::run
