#pragma once
// The destroy handler (docs/analysis.md) as constexpr algorithms over the arrays of
// graph_data.hpp and the graph index (graph_index.hpp: roots, index patterns,
// readers): the rules in the order of ip::error_kind, the constraint graph and
// its schedule. Loops only: no recursion, so a chain of any depth costs no
// template or constexpr depth. The result keeps the index for the runtime.

#include "inplace/graph/detail/fusion_rule.hpp"
#include "inplace/graph/detail/graph_data.hpp"
#include "inplace/graph/detail/graph_index.hpp"
#include "inplace/graph/detail/label.hpp"
#include "inplace/graph/error_kind.hpp"

#include <array>
#include <cstddef>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail {

struct report {
  error_kind kind = error_kind::none;
  std::array<label, 3> names{};
  std::size_t num_names = 0;

  constexpr bool ok() const { return kind == error_kind::none; }
  constexpr void add(const label& l) {
    if (num_names < names.size()) names[num_names++] = l;
  }
};

// "node n computes an output in the storage of root r" (a real destroy_map
// entry, or, for io_alias, a virtual one with arg = -1).
struct destroy_fact {
  std::size_t node = 0;
  std::size_t root = 0;
  int arg = -1;            // argument position of the destroyed input; -1: virtual
  index_pattern pattern;   // the destroyer's own index pattern on r
  std::size_t out_value = 0;
  bool whole = false;      // its output holds all of r (an update writes a region of it, returns r)
};

// The schedule the rules leave, or the first broken rule.
template <class G>
struct schedule_result {
  report rep;
  std::array<int, G::num_entries> position{};  // place in the schedule; -1 for leaves
  std::size_t schedule_size = 0;
  // The loops the schedule needs (the fused-loop rule): loop[e] is the same for
  // the nodes that must run as one fused loop; loop[e] == e for a node alone.
  std::array<std::size_t, G::num_entries> loop{};
};
template <class G>
struct analysis_result : schedule_result<G> {
  graph_index<G> index;  // built before the destroy rules (empty if a local rule broke)
  // by io_alias honoured by a copy (index.alias_by_copy): why not in place, the
  // rule that would break (kind) and its names, or (kind none) names[2] says why
  std::array<report, (G::num_aliases > 0 ? G::num_aliases : 1)> alias_why{};
};

// Short names of graph entries and values for diagnostics: "x", "mul(add(...), x)", "lu(...)#1".
template <class G>
constexpr label short_value(const G& g, std::size_t v) {
  const auto& e = g.entries[g.values[v].entry];
  label l;
  l += e.info.name;
  if (e.kind == entry_kind::op) l += "(...)";
  if (e.info.num_outputs > 1) (l += "#") += g.values[v].out;
  return l;
}
template <class G>
constexpr label entry_label(const G& g, std::size_t n) {
  const auto& e = g.entries[n];
  label l;
  l += e.info.name;
  if (e.kind != entry_kind::op) return l;
  l += "(";
  for (std::size_t j = 0; j < e.num_args; ++j) {
    if (j > 0) l += ", ";
    l += short_value(g, g.arg(n, j)).view();
  }
  return l += ")";
}
template <class G>
constexpr label value_label(const G& g, std::size_t v) {
  label l = entry_label(g, g.values[v].entry);
  if (g.entries[g.values[v].entry].info.num_outputs > 1) (l += "#") += g.values[v].out;
  return l;
}

template <class G>
class analyzer {
 public:
  static constexpr std::size_t NE = G::num_entries, NV = G::num_values > 0 ? G::num_values : 1,
                               NA = G::num_args > 0 ? G::num_args : 1;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_facts = NA + G::num_aliases + 1;
  static constexpr std::size_t max_edges = NA + G::num_order + 1;

  constexpr explicit analyzer(const G& graph) : g(graph) {}

  constexpr void run(analysis_result<G>& out) {
    schedule_result<G>& res = out;
    if (!local_rules(res.rep)) return;
    out.index.build(g);
    ix = &out.index;
    real_facts();
    if (!destroy_rules(res)) return;
    if (!alias_spec_rules(res.rep)) return;
    place_aliases(out);
  }

 private:
  const G& g;
  const graph_index<G>* ix = nullptr;
  std::array<destroy_fact, max_facts> facts{};
  std::size_t num_facts = 0;
  // reachability from one destroyer, extended lazily (see fused_exception)
  std::array<bool, NE> reach{}, bad_path{};
  std::size_t reach_from = npos, reach_upto = 0;
  loop_sets<NE> loops;  // the loops the fused-loop exception relies on

  // ---- names ----------------------------------------------------------------
  constexpr label entry_label(std::size_t n) const { return detail::entry_label(g, n); }
  constexpr label value_label(std::size_t v) const { return detail::value_label(g, v); }
  constexpr bool fail(report& r, error_kind k, const label& a, const label& b = {}, const label& c = {}) const {
    r.kind = k;
    r.add(a);
    if (b.size > 0) r.add(b);
    if (c.size > 0) r.add(c);
    return false;
  }

  // ---- rules that look at one node ------------------------------------------
  constexpr bool local_rules(report& r) const {
    for (std::size_t e = 0; e < NE; ++e) {
      const auto k = g.entries[e].kind;
      if (k != entry_kind::input && k != entry_kind::scalar) continue;
      bool declared = false;
      for (std::size_t i = 0; i < G::num_inputs; ++i) declared |= g.inputs[i] == e;
      if (!declared) return fail(r, error_kind::undeclared_input, entry_label(e));
    }
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e) && !g.entries[e].info.maps_ok) return fail(r, error_kind::bad_op_maps, entry_label(e));
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e) && !g.entries[e].dtype_ok) return fail(r, error_kind::dtype_mismatch, entry_label(e));
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e) && !g.entries[e].shape_ok) return fail(r, error_kind::shape_mismatch, entry_label(e));
    return true;
  }

  // ---- the index's roots and patterns ------------------------------------------
  constexpr std::size_t root(std::size_t v) const { return ix->root[v]; }
  constexpr const index_pattern& pattern(std::size_t v) const { return ix->pattern[v]; }

  constexpr void real_facts() {
    for (std::size_t n = 0; n < NE; ++n) {
      const auto& e = g.entries[n];
      if (e.kind != entry_kind::op) continue;
      const std::size_t first = num_facts;
      for (std::size_t o = 0; o < e.info.num_outputs; ++o)
        for (std::size_t j = 0; j < e.num_args; ++j) {
          if (!(e.info.destroys[o] >> j & 1u)) continue;
          const std::size_t a = g.arg(n, j);
          bool known = false;
          for (std::size_t f = first; f < num_facts; ++f) known |= facts[f].root == root(a);
          if (!known) facts[num_facts++] = {n, root(a), static_cast<int>(j), written(n, a), e.first_value + o, e.info.region >= 0};
        }
    }
  }

  // The elements of destroyed input a that node n writes: all of them, or the
  // region its op names (ip::set's in-place form writes only its view of x).
  constexpr index_pattern written(std::size_t n, std::size_t a) const {
    const int reg = g.entries[n].info.region;
    if (reg < 0) return pattern(a);
    const std::size_t r = g.arg(n, static_cast<std::size_t>(reg));
    return root(r) == root(a) ? pattern(r) : pattern(a);
  }

  // ---- the destroy handler -----------------------------------------------------
  constexpr bool destroy_rules(schedule_result<G>& res) {
    report& r = res.rep;
    std::array<std::size_t, NV> destroyer{};
    for (auto& d : destroyer) d = npos;
    // (nodes writing disjoint regions of a root are independent, unless one
    // returns the whole root: the other's writes would show in it)
    for (std::size_t i = 0; i < num_facts; ++i) {
      const auto& f = facts[i];
      for (std::size_t k = 0; k < i; ++k)
        if (facts[k].root == f.root && facts[k].node != f.node &&
            (facts[k].whole || f.whole || !facts[k].pattern.disjoint_from(f.pattern)))
          return fail(r, error_kind::multiple_destroyers, value_label(f.root), entry_label(facts[k].node),
                      entry_label(f.node));
      if (destroyer[f.root] == npos) destroyer[f.root] = f.node;
    }
    for (std::size_t i = 0; i < num_facts; ++i) {
      const auto& e = g.entries[g.values[facts[i].root].entry];
      if (e.kind == entry_kind::constant || (e.kind == entry_kind::input && e.indestructible))
        return fail(r, error_kind::destroys_protected, value_label(facts[i].root), entry_label(facts[i].node));
    }
    for (std::size_t k = 0; k < G::num_outputs; ++k) {
      const std::size_t v = g.outputs[k];
      if (destroyer[root(v)] != npos)
        return fail(r, error_kind::destroys_output, value_label(v), entry_label(destroyer[root(v)]));
    }
    for (std::size_t i = 0; i < num_facts; ++i)
      if (!hazard_free(facts[i], r)) return false;
    return schedule(res);
  }

  constexpr bool hazard_free(const destroy_fact& f, report& r) const {
    const auto& n = g.entries[f.node];
    const shape& out = g.values[f.out_value].value_shape;
    const bool d_broadcast = f.arg >= 0 && is_broadcast_read(g.values[g.arg(f.node, static_cast<std::size_t>(f.arg))].value_shape, out);
    // a view whose indices share elements (ip::broadcast_to) is never written through
    if (f.arg >= 0 && f.pattern.overlaps_itself())
      return fail(r, error_kind::aliasing_hazard, entry_label(f.node), value_label(f.root),
                  value_label(g.arg(f.node, static_cast<std::size_t>(f.arg))));
    // (an update writes its region elementwise: v may read it at the same index)
    const int reg = n.info.region;
    const shape& span = reg < 0 ? out : g.values[g.arg(f.node, static_cast<std::size_t>(reg))].value_shape;
    for (std::size_t j = 0; j < n.num_args; ++j) {
      const std::size_t a = g.arg(f.node, j);
      if (static_cast<int>(j) == f.arg || static_cast<int>(j) == reg || root(a) != f.root) continue;
      const bool same_index = (n.info.elementwise || reg >= 0) && !d_broadcast &&
                              !is_broadcast_read(g.values[a].value_shape, span) && pattern(a).same_as(f.pattern);
      if (!same_index && !pattern(a).disjoint_from(f.pattern))  // (elements it does not write: read in any order)
        return fail(r, error_kind::aliasing_hazard, entry_label(f.node), value_label(f.root), value_label(a));
    }
    return true;
  }

  // Node m reads root f.root only where f's node does not write: no order needed.
  constexpr bool reads_apart(std::size_t m, const destroy_fact& f) const {
    if (f.arg < 0) return false;
    for (std::size_t j = 0; j < g.entries[m].num_args; ++j) {
      const std::size_t a = g.arg(m, j);
      if (root(a) == f.root && !pattern(a).disjoint_from(f.pattern)) return false;
    }
    return true;
  }

  constexpr std::size_t out_rank(std::size_t e) const { return g.values[g.entries[e].first_value].value_shape.rank; }

  // The fused-loop exception: reader m may run after destroyer n when both are
  // fusable (elementwise of one output), every path n ~> m goes through such nodes of n's rank
  // (so one fused loop holds them all), and m reads r with n's own index pattern.
  constexpr bool fused_exception(const destroy_fact& f, std::size_t m) {
    const std::size_t n = f.node;
    if (m <= n || !fusable(g.entries[n].info) || !fusable(g.entries[m].info)) return false;
    const std::size_t rank = out_rank(n);
    if (out_rank(m) != rank) return false;
    if (reach_from != n) reach_from = n, reach_upto = n;
    for (std::size_t e = reach_upto + 1; e <= m; ++e) {  // entries are topologically ordered
      reach[e] = bad_path[e] = false;
      for (std::size_t j = 0; g.is_op(e) && j < g.entries[e].num_args; ++j) {
        const std::size_t p = g.producer(g.arg(e, j));
        if (p == n) reach[e] = true;
        else if (p > n && reach[p]) {
          reach[e] = true;
          const bool good = fusable(g.entries[p].info) && out_rank(p) == rank;
          bad_path[e] = bad_path[e] || bad_path[p] || !good;
        }
      }
    }
    if (m > reach_upto) reach_upto = m;
    if (!reach[m] || bad_path[m]) return false;
    const shape& mout = g.values[g.entries[m].first_value].value_shape;
    for (std::size_t j = 0; j < g.entries[m].num_args; ++j) {
      const std::size_t a = g.arg(m, j);
      if (root(a) == f.root && (!pattern(a).same_as(f.pattern) || is_broadcast_read(g.values[a].value_shape, mout)))
        return false;
    }
    return true;
  }

  constexpr bool schedule(schedule_result<G>& res) {
    // constraint edges beyond the data edges, as (before, after)
    std::array<std::size_t, max_edges> before{}, after{};
    std::size_t ne = 0;
    loops = loop_sets<NE>{};
    reach_from = npos;
    for (std::size_t i = 0; i < num_facts; ++i) {
      const auto& f = facts[i];
      for (const std::size_t m : ix->root_readers.of(f.root)) {
        if (m == f.node || reads_apart(m, f)) continue;
        if (fused_exception(f, m)) {
          join_paths(g, loops, f.node, m);  // m runs after f.node: in its loop
          continue;
        }
        before[ne] = m, after[ne] = f.node, ++ne;
      }
    }
    for (std::size_t k = 0; k + 1 < G::num_order; ++k) {
      const std::size_t a = g.order_chain[k], b = g.order_chain[k + 1];
      if (a == G::npos || b == G::npos) continue;
      const std::size_t ea = g.producer(a), eb = g.producer(b);
      if (g.is_op(ea) && g.is_op(eb)) before[ne] = ea, after[ne] = eb, ++ne;
    }
    csr<NE, max_edges> pred;  // by node: the nodes the extra edges put before it
    pred.build([&](auto add) {
      for (std::size_t k = 0; k < ne; ++k) add(after[k], before[k]);
    });

    // depth-first, predecessors in order: ties keep the order of outputs(...)
    enum : unsigned char { white, gray, black };
    std::array<unsigned char, NE> state{};
    std::array<std::size_t, NE> stack{}, next{};
    for (auto& p : res.position) p = -1;
    int placed = 0;
    const auto visit = [&](std::size_t s) {
      if (state[s] != white || !g.is_op(s)) return true;
      std::size_t sp = 0;
      stack[sp] = s, next[sp] = 0, ++sp, state[s] = gray;
      while (sp > 0) {
        const std::size_t u = stack[sp - 1];
        const std::size_t k = next[sp - 1]++;
        const std::size_t nargs = g.entries[u].num_args, nextra = pred.size(u);
        if (k >= nargs + nextra) {
          state[u] = black, res.position[u] = placed++, --sp;
          continue;
        }
        const std::size_t p = k < nargs ? g.producer(g.arg(u, k)) : pred.at(u, k - nargs);
        if (!g.is_op(p) || state[p] == black) continue;
        if (state[p] == gray) {  // a cycle: p ... u on the stack
          std::size_t i = 0;
          while (stack[i] != p) ++i;
          res.rep.kind = error_kind::ordering_cycle;
          for (; i < sp; ++i) res.rep.add(entry_label(stack[i]));
          return false;
        }
        stack[sp] = p, next[sp] = 0, ++sp, state[p] = gray;
      }
      return true;
    };
    for (std::size_t k = 0; k < G::num_outputs; ++k)
      if (!visit(g.producer(g.outputs[k]))) return false;
    for (std::size_t k = 0; k < G::num_order; ++k)
      if (g.order_chain[k] != G::npos && !visit(g.producer(g.order_chain[k]))) return false;
    for (std::size_t e = 0; e < NE; ++e)
      if (!visit(e)) return false;
    res.schedule_size = static_cast<std::size_t>(placed);
    if (!loops_can_run(res.rep, pred)) return false;
    for (std::size_t e = 0; e < NE; ++e) res.loop[e] = loops.find(e);
    return true;
  }

  // The loops of the fused-loop rule: each can be formed, and contracted to one
  // step each they leave the constraint graph acyclic. A node that must run
  // between two members of a loop (after one, before another) can only run
  // inside it: the nodes of such a cycle join the loop when the rule lets them
  // share it; otherwise the cycle is an ordering_cycle naming the nodes.
  template <class Pred>
  constexpr bool loops_can_run(report& rep, const Pred& pred) {
    csr<NE, NE> members;  // by loop representative
    const auto list_members = [&] {
      members.build([&](auto add) {
        for (std::size_t e = 0; e < NE; ++e)
          if (g.is_op(e)) add(loops.find(e), e);
      });
    };
    list_members();
    bool any = false;
    for (std::size_t s = 0; s < NE; ++s) {
      if (members.size(s) < 2) continue;
      any = true;
      std::array<bool, NE> member{};
      for (const std::size_t m : members.of(s)) member[m] = true;
      if (!can_share_loop(g, ix->root, ix->pattern, member)) {
        rep.kind = error_kind::ordering_cycle;
        for (const std::size_t m : members.of(s)) rep.add(entry_label(m));
        return false;
      }
    }
    if (!any) return true;  // no loop: the schedule's own cycle check sufficed
    // depth-first over the steps; a frame walks its members' predecessors.
    // Each cycle found either joins one loop (fewer steps) or ends the analysis.
    enum : unsigned char { white, gray, black };
    std::array<unsigned char, NE> state{};
    std::array<std::size_t, NE> stack{}, member_at{}, pred_at{}, via{};
    for (std::size_t s0 = 0; s0 < NE; ++s0) {
      if (!g.is_op(s0) || loops.find(s0) != s0 || state[s0] != white) continue;
      std::size_t sp = 0;
      stack[0] = s0, member_at[0] = pred_at[0] = 0, sp = 1, state[s0] = gray;
      while (sp > 0) {
        const std::size_t s = stack[sp - 1];
        std::size_t q = npos, p = npos;
        while (q == npos && member_at[sp - 1] < members.size(s)) {
          const std::size_t u = members.at(s, member_at[sp - 1]);
          const std::size_t k = pred_at[sp - 1]++, nargs = g.entries[u].num_args;
          if (k >= nargs + pred.size(u)) {
            ++member_at[sp - 1], pred_at[sp - 1] = 0;
            continue;
          }
          p = k < nargs ? g.producer(g.arg(u, k)) : pred.at(u, k - nargs);
          if (!g.is_op(p) || loops.find(p) == s || state[loops.find(p)] == black) continue;
          q = loops.find(p), via[sp - 1] = u;
        }
        if (q == npos) {
          state[s] = black, --sp;
          continue;
        }
        if (state[q] == gray) {  // a cycle: q ... s on the stack
          std::size_t i = 0;
          while (stack[i] != q) ++i;
          if (join_cycle(stack, i, sp)) {  // one loop now: walk the graph of steps again
            list_members();
            state = {}, s0 = static_cast<std::size_t>(-1);
            break;
          }
          rep.kind = error_kind::ordering_cycle;  // name the nodes its edges leave from
          for (; i < sp; ++i) rep.add(entry_label(via[i]));
          rep.add(entry_label(p));
          return false;
        }
        stack[sp] = q, member_at[sp] = pred_at[sp] = 0, ++sp, state[q] = gray;
      }
    }
    return true;
  }
  // Joins the steps stack[i .. sp) into one loop when the rule lets them share it.
  template <class Stack>
  constexpr bool join_cycle(const Stack& stack, std::size_t i, std::size_t sp) {
    std::array<bool, NE> member{};
    for (std::size_t e = 0; e < NE; ++e)
      for (std::size_t k = i; k < sp && g.is_op(e); ++k) member[e] = member[e] || loops.find(e) == stack[k];
    if (!can_share_loop(g, ix->root, ix->pattern, member)) return false;
    for (std::size_t k = i + 1; k < sp; ++k) loops.unite(stack[i], stack[k]);
    return true;
  }

  // ---- io_alias ------------------------------------------------------------------
  constexpr label alias_label(const alias_record& a) const {
    label l;
    return ((((l += "io_alias<") += static_cast<std::size_t>((a.output < 0) ? 0 : a.output)) += ", ") +=
            static_cast<std::size_t>((a.input < 0) ? 0 : a.input)) += ">";
  }
  constexpr bool alias_spec_rules(report& r) const {
    for (std::size_t k = 0; k < G::num_aliases; ++k) {
      const auto& a = g.aliases[k];
      const bool in_range = (a.output >= 0) && (a.input >= 0) &&
                            (static_cast<std::size_t>(a.output) < G::num_outputs) &&
                            (static_cast<std::size_t>(a.input) < G::num_inputs);
      if (!in_range) {
        label why;
        why += "index out of range";
        return fail(r, error_kind::bad_alias_spec, alias_label(a), why);
      }
      for (std::size_t k2 = 0; k2 < k; ++k2)
        if (g.aliases[k2].input == a.input || g.aliases[k2].output == a.output) {
          label why;
          why += g.aliases[k2].input == a.input ? "input aliased twice" : "output aliased twice";
          return fail(r, error_kind::bad_alias_spec, alias_label(a), alias_label(g.aliases[k2]), why);
        }
      if (!a.types_agree) {
        label why;
        why += "dtype, rank or extents differ";
        return fail(r, error_kind::bad_alias_spec, alias_label(a),
                    value_label(g.outputs[static_cast<std::size_t>(a.output)]), why);
      }
    }
    return true;
  }
  // Each io_alias puts its output in its input's storage: "the output's node
  // computes it there" is one more destroy fact (arg -1), and the destroy rules
  // must still hold. must_alias first: each must be in place (else
  // alias_conflict). A may_alias that in place would break a rule is honoured by
  // a copy instead, as XLA's copy insertion does: no fact; a call copies the
  // output into the input's storage when it returns (run/call.hpp). Not into an
  // indestructible input: that stays alias_conflict (destroys_protected).
  constexpr void place_aliases(analysis_result<G>& out) {
    schedule_result<G>& res = out;
    schedule_result<G> placed;  // the rules' result with the facts kept so far
    bool any = false;
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t k = 0; k < G::num_aliases; ++k) {
        const auto& a = g.aliases[k];
        if (a.must != (pass == 0)) continue;
        report why;
        const int f = alias_fact(a, why);
        if (f == 0) continue;  // the output is the input, or a same-pattern view of it: nothing written
        if (f > 0) {
          schedule_result<G> trial;
          if (destroy_rules(trial)) {
            placed = trial, any = true;
            continue;
          }
          --num_facts;
          why = trial.rep;
        }
        const bool copy = !a.must && !g.entries[g.inputs[static_cast<std::size_t>(a.input)]].indestructible &&
                          why.kind != error_kind::destroys_protected;
        if (!copy) {
          res.rep = conflict(why);
          return;
        }
        out.index.alias_by_copy[k] = true;
        out.alias_why[k] = why;
      }
    if (any) static_cast<schedule_result<G>&>(out) = placed;
  }
  // The alias_conflict a reason for not computing in place gives: the rule's
  // names, and the rule in the last place.
  static constexpr report conflict(const report& why) {
    if (why.kind == error_kind::none) {
      report r = why;
      r.kind = error_kind::alias_conflict;
      return r;
    }
    report r;
    r.kind = error_kind::alias_conflict;
    for (std::size_t i = 0; i < why.num_names; ++i) r.add(why.names[i]);
    label rule;
    rule += to_string(why.kind);
    if (r.num_names == r.names.size()) r.names[2] = rule;
    else r.add(rule);
    return r;
  }
  // Adds the fact of alias a: 1; 0 when the output writes nothing (the input
  // itself, a same-pattern view); -1 when it cannot be computed there (why:
  // the input, the output, and the reason).
  constexpr int alias_fact(const alias_record& a, report& why) {
    const std::size_t v = g.outputs[static_cast<std::size_t>(a.output)];
    const std::size_t in = g.entries[g.inputs[static_cast<std::size_t>(a.input)]].first_value;
    const std::size_t n = g.values[v].entry;
    const auto& e = g.entries[n];
    const auto cannot = [&](std::string_view reason) {
      label w;
      w += reason;
      fail(why, error_kind::none, value_label(in), value_label(v), w);
      return -1;
    };
    if (v == in) return 0;
    if (e.kind != entry_kind::op) return cannot("the output is another leaf");
    if (e.info.view_of[g.values[v].out] >= 0) {
      if (root(v) == in && pattern(v).same_as(pattern(in))) return 0;
      return cannot("the output is a view with another index pattern or root");
    }
    const int storage = e.info.storage[g.values[v].out];
    if (storage >= 0) {
      if (root(g.arg(n, static_cast<std::size_t>(storage))) == in) return 0;  // already in place there
      return cannot("the output is computed in another input's storage");
    }
    for (std::size_t i = 0; i < num_facts; ++i)
      if (facts[i].arg < 0 && facts[i].out_value == v) return cannot("the output is computed in another input's storage");
    facts[num_facts++] = {n, in, -1, pattern(in), v};
    return 1;
  }
};

template <class G>
constexpr analysis_result<G> analyze(const G& g) {
  analysis_result<G> res;
  analyzer<G>(g).run(res);
  return res;
}

}  // namespace inplace::detail

#include "inplace/detail/shadow_on.hpp"
