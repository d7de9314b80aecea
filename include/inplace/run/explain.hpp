#pragma once
// ip::explain(f, ip::donated | ip::borrowed ...): the plan of one donation
// pattern as text, one line per node in the order the call runs them:
//
//   plan for (x: donated, y: borrowed)
//     #0  exp(x)          loop 0  not stored: inside loop 0
//     #1  mul(#0, y)      loop 0  in x's storage (donated), in place of x (rewrite)
//     #2  reduce_sum(#1)  kernel  fresh buffer 0
//   returns #2
//   totals: allocations 1, copies 0, loops 2, in_place 1, peak_bytes dynamic
//
// "#p" is the value of the node at schedule position p (ip::position). Each line
// says how the node runs (a fused loop, an opaque kernel, a view), where it
// writes (a donated input, a copy-protection copy, a fresh or reused buffer, in
// place of one of its inputs, or nowhere: inside its loop), and for a pure node
// with a registered in-place variant that stayed pure, why. The totals are
// ip::plan's. Markers as for ip::plan.

#include "inplace/run/detail/describe.hpp"
#include "inplace/run/plan.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace inplace {

namespace detail {
struct explain_fn {  // an object: see ip::plan
  template <class... M>
  std::string operator()(const diagnostic::any_use&, M...) const {  // after a broken rule (see ip::plan)
    return {};
  }
  template <class S, class... M>
  std::string operator()(function_t<S> f, M... markers) const {
    (void)inplace::plan(f, markers...);  // the markers' checks
    using D = detail::run::describe<S, detail::run::mask_of<S, M...>()>;
    using G = typename D::G;
    constexpr const G& g = D::g;
    std::string out = "plan for (";
    for (std::size_t k = 0; k < G::num_inputs; ++k) {
      out += detail::run::cat(k ? ", " : "", D::input_name(k), ": ",
                              D::is_scalar_input(k) ? "scalar" : D::donated(k) ? "donated" : "borrowed");
    }
    out += ")\n";
    std::vector<std::string> pos, text;
    std::size_t wp = 0, wt = 0, wr = 0;
    for (std::size_t q = 0; q < D::fu.num_steps; ++q) {
      const std::size_t e = D::fu.order[q];
      pos.push_back(detail::run::cat("#", D::position(e)));
      text.push_back(D::node_text(e));
      wp = std::max(wp, pos.back().size());
      wt = std::max(wt, text.back().size());
      wr = std::max(wr, D::runs_as(e).size());
    }
    for (std::size_t q = 0; q < D::fu.num_steps; ++q) {
      const std::size_t e = D::fu.order[q];
      const std::string how = D::runs_as(e);
      std::string line = detail::run::cat("  ", pos[q], std::string(wp - pos[q].size() + 2, ' '), text[q],
                                          std::string(wt - text[q].size() + 2, ' '), how,
                                          std::string(wr - how.size() + 2, ' '));
      const std::size_t n = g.entries[e].info.num_outputs;
      for (std::size_t o = 0; o < n; ++o)
        line += detail::run::cat(o ? "; " : "", n > 1 ? detail::run::cat("output ", o, ": ") : std::string(),
                                 D::storage(e, o));
      line += D::input_copies(e);
      if (const auto why = D::refused(e); !why.empty()) line += detail::run::cat("; stayed pure: ", why);
      out += line + "\n";
    }
    out += "returns ";
    for (std::size_t k = 0; k < G::num_outputs; ++k) out += detail::run::cat(k ? ", " : "", D::value_name(g.outputs[k]));
    out += "\n";
    for (std::size_t k = 0; k < G::num_aliases; ++k)
      if (S::result.index.alias_by_copy[k]) out += alias_copy_lines<D>(k);
    out += detail::run::cat("totals: ", D::totals(), "\n");
    return out;
  }

  // An io_alias honoured by a copy: where its output goes, why not in place,
  // and the outputs copied out of the input's storage first.
  template <class D>
  static std::string alias_copy_lines(std::size_t k) {
    using detail::run::cat;
    constexpr const auto& g = D::g;
    const auto& a = g.aliases[k];
    const std::size_t o = static_cast<std::size_t>(a.output), in = static_cast<std::size_t>(a.input);
    const auto& why = D::P::spec::result.alias_why[k];
    std::string because = why.kind == error_kind::none ? std::string(why.names[2].view())
                                                       : cat("in place it would break ", to_string(why.kind));
    for (std::size_t i = 0; why.kind != error_kind::none && i < why.num_names; ++i)
      because += cat(i ? ", " : " (", why.names[i].view(), i + 1 == why.num_names ? ")" : "");
    std::string out = cat("io_alias<", o, ", ", in, ">: output ", o, " (", D::value_name(g.outputs[o]), ") ");
    if (!D::donated(in)) return out + cat("stays where it is computed: ", D::input_name(in), " is borrowed; ", because, "\n");
    out += cat("is copied into ", D::input_name(in), "'s storage (donated) when the call returns: ", because, "\n");
    for (std::size_t j = 0; j < D::G::num_outputs; ++j)
      if (D::pl.saved[g.outputs[j]] && D::pl.index[D::P::index.root[g.outputs[j]]] == in)
        out += cat("  output ", j, " (", D::value_name(g.outputs[j]), ") lives in ", D::input_name(in),
                   "'s storage: copied out first, into a fresh tensor\n");
    return out;
  }
};
}  // namespace detail
inline constexpr detail::explain_fn explain{};

}  // namespace inplace
