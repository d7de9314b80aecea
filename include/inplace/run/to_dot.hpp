#pragma once
// ip::to_dot(f) and ip::to_dot(f, ip::donated | ip::borrowed ...): the graph as
// Graphviz DOT text (render with `dot -Tsvg`).
//   - inputs are ellipses, constants plain text, nodes boxes labelled with their
//     schedule position (ip::position) and op; outputs are marked "output k";
//   - an edge runs from a value to each node that reads it: dashed where the
//     node's output is a view of it (view_map), red where the node overwrites it
//     (destroy_map, the rewrite's in-place variant, or an io_alias output; a
//     dotted red "io_alias" edge when the aliased input is not an argument);
//   - the nodes of one fused loop are drawn inside a cluster "loop k", and the
//     loops and row op of a row loop inside a cluster "row loop #p";
//   - ip::order(a, b) is a dotted gray edge "order";
//   - with markers (as for ip::plan), inputs say donated or borrowed and every
//     node says where it writes, as in ip::explain.

#include "inplace/run/detail/describe.hpp"
#include "inplace/run/plan.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace inplace {
namespace detail::run {

inline std::string dot_quote(std::string_view s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (c == '\n') q += "\\n";
    else q += c;
  }
  return q + "\"";
}

template <class D, bool WithPlan>
std::string dot_of() {
  using G = typename D::G;
  constexpr const G& g = D::g;
  const auto& fu = D::fu;
  const auto id = [](std::size_t e) { return cat("n", e); };
  std::string out =
      "digraph inplace {\n  rankdir=TB;\n  graph [fontname=\"Helvetica\"];\n  node [shape=box, fontname=\"Helvetica\"];\n";
  // leaves
  for (std::size_t e = 0; e < G::num_entries; ++e) {
    if (g.is_op(e)) continue;
    std::string label(g.entries[e].info.name);
    std::string shape = "ellipse";
    if (g.entries[e].kind == entry_kind::constant) shape = "plaintext";
    for (std::size_t k = 0; k < G::num_inputs; ++k)
      if (g.inputs[k] == e) {
        if (D::is_scalar_input(k)) label += "\nscalar";
        else if (WithPlan) label += D::donated(k) ? "\ndonated" : "\nborrowed";
      }
    out += cat("  ", id(e), " [label=", dot_quote(label), ", shape=", shape, "];\n");
  }
  // nodes, each loop's members in a cluster
  const auto node_line = [&](std::size_t e) {
    std::string label = cat("#", D::position(e), " ", g.entries[e].info.name);
    if constexpr (WithPlan)
      for (std::size_t o = 0; o < g.entries[e].info.num_outputs; ++o) label += cat("\n", D::storage(e, o));
    return cat(id(e), " [label=", dot_quote(label), "];\n");
  };
  // (a row loop, program.hpp's row chains: a cluster around its members' loops and row ops)
  const auto loop_cluster = [&](std::size_t k, const std::string& indent) {
    std::string c = cat(indent, "subgraph cluster_loop", k, " {\n", indent, "  label=\"loop ", k, "\";\n", indent,
                        "  style=rounded;\n", indent, "  color=blue;\n");
    for (std::size_t q = 0; q < fu.num_steps; ++q)
      if (fu.group[fu.order[q]] == k) c += cat(indent, "  ", node_line(fu.order[q]));
    return c + indent + "}\n";
  };
  std::array<bool, G::num_entries> drawn{};
  for (std::size_t h = 0; h < G::num_entries; ++h) {
    if (fu.chain[h] != h) continue;
    out += cat("  subgraph cluster_row", h, " {\n    label=\"row loop ", D::value_name(g.entries[h].first_value),
               "\";\n    style=rounded;\n    color=darkgreen;\n");
    for (std::size_t q = 0; q < fu.num_steps; ++q) {
      const std::size_t e = fu.order[q];
      if (fu.chain[e] != h || drawn[e]) continue;
      if (fu.group[e] == none) out += cat("    ", node_line(e)), drawn[e] = true;
      else {
        out += loop_cluster(fu.group[e], "    ");
        for (std::size_t m = 0; m < G::num_entries; ++m) drawn[m] = drawn[m] || (g.is_op(m) && fu.group[m] == fu.group[e]);
      }
    }
    out += "  }\n";
  }
  for (std::size_t k = 0; k < fu.num_groups; ++k) {
    bool in_row = false;
    for (std::size_t e = 0; e < G::num_entries; ++e) in_row = in_row || (g.is_op(e) && fu.group[e] == k && drawn[e]);
    if (!in_row) out += loop_cluster(k, "  ");
  }
  for (std::size_t q = 0; q < fu.num_steps; ++q)
    if (fu.group[fu.order[q]] == none && !drawn[fu.order[q]]) out += cat("  ", node_line(fu.order[q]));
  // edges
  for (std::size_t e = 0; e < G::num_entries; ++e) {
    if (!g.is_op(e)) continue;
    const auto& info = g.entries[e].info;
    std::uint32_t destroyed = 0, viewed = 0;
    for (std::size_t o = 0; o < info.num_outputs; ++o) {
      destroyed |= info.destroys[o];
      if (info.view_of[o] >= 0) viewed |= std::uint32_t{1} << info.view_of[o];
    }
    if constexpr (WithPlan)
      if (D::pl.rewritten[e] >= 0) destroyed |= std::uint32_t{1} << D::pl.rewritten[e];
    // an output that io_alias puts in an input's storage: that input's edge is red too
    // (not for a view output: a same-pattern view of the input overwrites nothing)
    std::size_t aliased = none;
    for (std::size_t o = 0; o < info.num_outputs; ++o)
      if (info.view_of[o] < 0 && alias_input_value(g, D::P::index, g.entries[e].first_value + o) != none)
        aliased = alias_input_value(g, D::P::index, g.entries[e].first_value + o);
    bool aliased_drawn = aliased == none;
    for (std::size_t j = 0; j < g.entries[e].num_args; ++j) {
      const std::size_t a = g.arg(e, j), from = g.values[a].entry;
      if (a == aliased) destroyed |= std::uint32_t{1} << j, aliased_drawn = true;
      std::string attrs;
      if (viewed >> j & 1u) attrs += "style=dashed";
      if (destroyed >> j & 1u) attrs += cat(attrs.empty() ? "" : ", ", "color=red");
      if (g.entries[from].info.num_outputs > 1 && g.is_op(from))
        attrs += cat(attrs.empty() ? "" : ", ", "taillabel=\"", g.values[a].out, "\"");
      out += cat("  ", id(from), " -> ", id(e), attrs.empty() ? std::string() : cat(" [", attrs, "]"), ";\n");
    }
    if (!aliased_drawn)  // the input is not an argument of the node: a dotted edge
      out += cat("  ", id(g.values[aliased].entry), " -> ", id(e), " [color=red, style=dotted, label=\"io_alias\"];\n");
  }
  // ip::order(a, b, ...): a's node runs before b's
  for (std::size_t k = 0; k + 1 < G::num_order; ++k) {
    const std::size_t a = g.order_chain[k], b = g.order_chain[k + 1];
    if (a == G::npos || b == G::npos) continue;
    out += cat("  ", id(g.values[a].entry), " -> ", id(g.values[b].entry),
               " [style=dotted, color=gray, label=\"order\"];\n");
  }
  // outputs
  for (std::size_t k = 0; k < G::num_outputs; ++k) {
    const std::string o = cat("out", k);
    const std::size_t v = g.outputs[k], from = g.values[v].entry;
    out += cat("  ", o, " [label=\"output ", k, "\", shape=plaintext];\n");
    out += cat("  ", id(from), " -> ", o,
               g.is_op(from) && g.entries[from].info.num_outputs > 1 ? cat(" [taillabel=\"", g.values[v].out, "\"]")
                                                                       : std::string(),
               ";\n");
  }
  return out + "}\n";
}

}  // namespace detail::run

namespace detail {
struct to_dot_fn {  // an object: see ip::plan
  template <class... M>
  std::string operator()(const diagnostic::any_use&, M...) const {  // after a broken rule (see ip::plan)
    return {};
  }
  template <class S, class... M>
  std::string operator()(function_t<S> f, M... markers) const {
    if constexpr (sizeof...(M) == 0) {
      return detail::run::dot_of<detail::run::describe<S, 0>, false>();
    } else {
      (void)inplace::plan(f, markers...);  // the markers' checks
      return detail::run::dot_of<detail::run::describe<S, detail::run::mask_of<S, M...>()>, true>();
    }
  }
};
}  // namespace detail
inline constexpr detail::to_dot_fn to_dot{};

}  // namespace inplace
