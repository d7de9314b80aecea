#pragma once
// The memory plan of one donation pattern, computed while the program compiles:
// where every stored value lives (a donated input's storage, a copy of a
// borrowed input, an intermediate buffer reused in place, a dead buffer
// reused, or a fresh one), which pure nodes the rewrite computes in place and
// why the others stay pure, when each buffer can be freed, and the totals
// ip::plan reports. The walk follows the schedule; a fused loop counts at its
// last member, where it runs.

#include "inplace/run/detail/program.hpp"
#include "inplace/run/detail/rewrite.hpp"

#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::run {

// A row chain's scratch block on the stack (executor.hpp): the rows of a
// reduction's block, when one row fits.
inline constexpr std::size_t row_scratch_bytes = 32768;

// Where a value's elements are.
enum class home : unsigned char {
  none,      // not stored: a view (of its root's storage) or a value inside a fused loop
  input,     // the storage of the tensor input `index` (donated, or borrowed and only read)
  buffer,    // the call's buffer `index`
  scalar,    // the call's copy of scalar input `index`
  constant,  // a compile-time constant
};

template <std::size_t NE, std::size_t NV>
struct storage_plan {
  std::array<home, NV> where{};
  std::array<std::size_t, NV> index{};
  std::array<bool, NV> copy{};            // its buffer is a copy-protection copy of a borrowed input
  std::array<bool, NV> copied{};          // ... that first receives the input's elements (an opaque kernel needs them)
  std::array<std::size_t, NV> same_as{};  // computed in place of this value: its elements, where they are
                                          // (a view's, when an in-place op overwrites a slice); none: at
                                          // the start of its buffer, row-major
  std::array<int, NE> rewritten{};        // a pure node computed in place in input j (-1: not)
  std::array<int, NE> rewritten_output{}; // ... its output computed there (its variant's destroy_map)
  // by opaque node and input: the buffer its kernel gets as that input, a copy
  // made just before it runs (none: the input itself). An input that the
  // destroy_map lists but no output is computed in (the 1 of {0: [0, 1]}):
  // copy-protected when borrowed, and always in the pure reference.
  std::array<std::array<std::size_t, max_args>, NE> arg_copy{};
  std::array<refusal, NE> why{};
  std::array<int, NV> buffer_dies{};      // by buffer: freed after the step at this position (-1: returned)
  std::array<std::size_t, NV> buffer_value{};  // by buffer: the first value it holds (its size)
  std::size_t num_buffers = 0;
  // io_alias honoured by a copy (graph_index::alias_by_copy), input donated: by
  // input value, its storage receives an output when the call returns; by
  // value, an output living in such storage, copied out first wherever returned
  std::array<bool, NV> alias_target{};
  std::array<bool, NV> saved{};
  std::size_t allocations = 0, copies = 0, loops = 0, in_place = 0;
  std::size_t peak_bytes = 0;  // ip::dynamic unless every buffer's extents are static
  bool must_alias_borrowed = false;
};

template <class P>
class planner {
 public:
  using G = typename P::G;
  static constexpr std::size_t NE = P::NE, NV = P::NV, NI = G::num_inputs > 0 ? G::num_inputs : 1;
  using result = storage_plan<NE, NV>;

  // donated[k]: tensor input k is donated; rewrite: the function allows the rewrite.
  // reuse: dead buffers are reused for new values of the same dtype and extents.
  // pure (debug mode's reference, with program::unfused as the schedule):
  // nothing is computed in place, every value stays intact until its buffer is freed.
  constexpr planner(const decltype(P::fused)& schedule, const std::array<bool, NI>& donated, bool rewrite, bool reuse,
                    bool pure)
      : g(P::g), ix(P::index), fu(schedule), donated_(donated), rewrite_(rewrite), reuse_(reuse),
        pure_(pure) {}

  constexpr result run() {
    result out;
    compute_last_reads();
    for (std::size_t v = 0; v < G::num_values; ++v) holder[v] = {home::none, 0};
    for (std::size_t k = 0; k < G::num_inputs; ++k) {
      const std::size_t e = g.inputs[k], v = g.out_value(e);
      holder[v] = {g.entries[e].kind == entry_kind::scalar ? home::scalar : home::input, k};
      occupant_input[k] = v;
    }
    for (auto& x : out.same_as) x = none;
    for (auto& r : out.arg_copy)
      for (auto& x : r) x = none;
    for (std::size_t e = 0; e < NE; ++e) {
      out.rewritten[e] = out.rewritten_output[e] = -1;
      if (g.entries[e].kind == entry_kind::constant) holder[g.out_value(e)] = {home::constant, 0};
    }
    for (std::size_t p = 0; p < fu.num_steps; ++p) {
      const std::size_t e = fu.order[p];
      const std::size_t grp = fu.group[e];
      if (fu.chain[e] != none) {  // a row chain: every member at its head's step
        if (fu.chain[e] != e) continue;
        ++out.loops;
        place_chain(out, e, static_cast<int>(p));
        continue;
      }
      if (grp != none && fu.last[grp] != e) continue;  // runs with its loop's last member
      if (grp != none) {
        ++out.loops;
        for (std::size_t q = 0; q < fu.num_steps; ++q) {  // members in schedule order
          const std::size_t m = fu.order[q];
          if (fu.group[m] == grp) place_outputs(out, m, static_cast<int>(p));
        }
      } else if (!is_view_node(e)) {
        ++out.loops;
        place_outputs(out, e, static_cast<int>(p));
      }
    }
    for (std::size_t v = 0; v < G::num_values; ++v) {
      out.where[v] = holder[v].where;
      out.index[v] = holder[v].index;
    }
    finish_buffers(out);
    plan_alias_copies(out);
    count_result_copies(out);
    return out;
  }

 private:
  struct place {
    home where = home::none;
    std::size_t index = 0;
  };
  const G& g;
  const graph_index<G>& ix;
  const decltype(P::fused)& fu;
  std::array<bool, NI> donated_;
  bool rewrite_, reuse_, pure_;
  std::array<place, NV> holder{};         // by root value
  std::array<int, NV> last_read{};        // by root: the last position reading it (a big number: an output)
  std::array<int, NV> buf_free_from{};    // by buffer: the first position from which it may be reused
  std::array<int, NV> buf_first{};        // by buffer: the position it is allocated at
  std::array<bool, NV> buf_returned{};
  std::array<std::size_t, NV> occupant_buffer{};  // by buffer: the root it holds now
  std::array<std::size_t, NI> occupant_input{};   // by input: the root its storage holds now
  std::array<bool, NV> destroyed{};               // by root: some node's destroy_map lists it
  std::array<int, NV> held_from{};                // by root: the position it is computed at
  std::array<bool, NE> placed{};                  // by node: its outputs have their storage
  std::array<std::size_t, NE> scratch{};          // by position: the bytes a row chain allocates there
  static constexpr int forever = 1 << 30;
  static constexpr auto variant_out = variant_outputs<P>(std::make_index_sequence<NE>{});

  constexpr bool is_view_node(std::size_t e) const {
    return num_views(g.entries[e].info) == g.entries[e].info.num_outputs;  // (every output a view)
  }

  constexpr void compute_last_reads() {
    for (std::size_t e = 0; e < NE; ++e)
      for (std::size_t o = 0; g.is_op(e) && o < g.entries[e].info.num_outputs; ++o)
        for (std::size_t j = 0; j < g.nargs(e); ++j)
          if (g.entries[e].info.destroys[o] >> j & 1u) destroyed[ix.root[g.arg(e, j)]] = true;
    for (auto& x : last_read) x = -1;
    for (std::size_t q = 0; q < NE; ++q) {
      if (!g.is_op(q)) continue;
      for (std::size_t j = 0; j < g.nargs(q); ++j) {
        int& l = last_read[ix.root[g.arg(q, j)]];
        if (fu.at[q] > l) l = fu.at[q];
      }
    }
    for (std::size_t v = 0; v < G::num_values; ++v)
      if (ix.is_output[v]) last_read[ix.root[v]] = forever;
  }

  constexpr std::size_t alias_of_input(std::size_t k) const {  // the output value aliased to input k
    for (std::size_t a = 0; a < G::num_aliases; ++a)
      if (static_cast<std::size_t>(g.aliases[a].input) == k) return g.outputs[static_cast<std::size_t>(g.aliases[a].output)];
    return none;
  }
  constexpr bool alias_is_must(std::size_t out_value) const {
    for (std::size_t a = 0; a < G::num_aliases; ++a)
      if (g.outputs[static_cast<std::size_t>(g.aliases[a].output)] == out_value) return g.aliases[a].must;
    return false;
  }

  constexpr bool same_kind(std::size_t a, std::size_t b) const {  // dtype and static shape
    const auto& fa = P::facts[g.values[a].entry];
    const auto& fb = P::facts[g.values[b].entry];
    return fa.dtype[g.values[a].out] == fb.dtype[g.values[b].out] && g.shape_of(a) == g.shape_of(b);
  }
  constexpr std::size_t bytes_of(std::size_t v) const {
    const std::size_t n = g.shape_of(v).size();
    return n == dynamic ? dynamic : n * P::facts[g.values[v].entry].dtype_size[g.values[v].out];
  }

  // A buffer for value v at position p: a dead one of the same dtype and extents, else a new one.
  constexpr std::size_t take_buffer(result& out, std::size_t v, int p) {
    for (std::size_t b = 0; reuse_ && b < out.num_buffers; ++b)
      if (!buf_returned[b] && buf_free_from[b] <= p && same_kind(out.buffer_value[b], v)) {
        buf_free_from[b] = forever;  // taken until its new contents die
        return b;
      }
    const std::size_t b = out.num_buffers++;
    out.buffer_value[b] = v;
    buf_first[b] = p;
    buf_free_from[b] = forever;
    ++out.allocations;
    return b;
  }
  // v, computed at position p, now lives at pl. Its buffer is taken at least
  // through p: the node that computes v still reads its other operands and
  // writes its other outputs there (a value never read must not free it early).
  constexpr void hold(std::size_t v, place pl, int p) {
    holder[v] = pl;
    held_from[v] = p;
    if (pl.where == home::buffer) occupant_buffer[pl.index] = v;
    if (pl.where == home::input) occupant_input[pl.index] = v;
    if (pl.where == home::buffer) {
      if (last_read[v] == forever) buf_returned[pl.index] = true;
      else buf_free_from[pl.index] = (last_read[v] > p ? last_read[v] : p) + 1;
    }
  }

  // The outputs of node e, which runs at position p. A value that lives only
  // inside its fused loop gets no storage of its own, but where it would live
  // (the storage its node was rewritten into) is kept, so that its consumer
  // can be rewritten into that storage too: a chain over a donated input ends
  // in the donated storage.
  constexpr void place_outputs(result& out, std::size_t e, int p) {
    const auto& info = g.entries[e].info;
    bool pure = true;  // (an in-place node has nothing to refuse)
    for (std::size_t o = 0; o < info.num_outputs; ++o) pure = pure && info.destroys[o] == 0;
    if (pure) out.why[e] = usable_variants(e) == 0 ? refusal::no_variant : rewrite_ ? refusal::none : refusal::no_rewrite;
    else if (!info.elementwise) copy_destroyed_inputs(out, e, p);
    for (std::size_t o = 0; o < info.num_outputs; ++o) {
      if (info.view_of[o] >= 0) continue;  // a view output of an opaque op: no storage of its own
      const std::size_t v = g.out_value(e, o);
      const bool stored = fu.stored[v];
      if (ix.root[v] != v) {  // shares the storage of an earlier output of e (an LU's L and U)
        holder[v] = holder[ix.root[v]];
        out.same_as[v] = out.same_as[ix.root[v]];
        continue;
      }
      const std::size_t rt = destroyed_root(g, ix, e, o);
      if (rt != none) {
        const std::size_t arg = g.arg(e, static_cast<std::size_t>(info.storage[o]));
        write_root(out, v, rt, arg, p, !info.elementwise, stored);
        continue;
      }
      const std::size_t aliased = alias_input_value(g, ix, v);
      if (aliased != none) {
        if (alias_is_must(v) && !donated_[holder[aliased].index]) out.must_alias_borrowed = true;
        write_root(out, v, aliased, aliased, p, false, stored);
        continue;
      }
      if (info.elementwise && place_in_region(out, e, v, p)) continue;
      if (try_rewrite(out, e, o, v, p)) {
        if (finds_value_in_region(out, e)) --out.loops;  // nothing left to do: no loop
        continue;
      }
      if (info.region >= 0) ++out.copies;  // a pure update starts from a copy of x
      if (stored) hold(v, {home::buffer, take_buffer(out, v, p)}, p);
    }
    placed[e] = true;
  }

  // The members of the row chain whose head h runs at position p, in schedule
  // order. A block's first stage reads its operands before anything of the
  // block is written; a later stage reads them after: the roots it reads count
  // as read after p, so nothing of the chain is computed in their storage.
  // A reduction's block is held in a scratch buffer (executor.hpp): on the
  // stack when one row fits row_scratch_bytes, else one row allocated. With
  // the row's extent static, ip::plan counts that allocation; with it dynamic,
  // it cannot know (the call allocates it only for a row that long).
  constexpr void place_chain(result& out, std::size_t h, int p) {
    std::size_t first = none;
    for (std::size_t q = 0; q < fu.num_steps && first == none; ++q)
      if (fu.chain[fu.order[q]] == h) first = fu.order[q];
    for (std::size_t q = 0; q < fu.num_steps; ++q) {
      const std::size_t m = fu.order[q];
      if (fu.chain[m] != h || m == first || (fu.group[m] != none && fu.group[m] == fu.group[first])) continue;
      for (std::size_t j = 0; j < g.nargs(m); ++j) {  // (a value of the chain is read from its block, by design)
        const std::size_t a = g.arg(m, j), pr = g.producer(a);
        if (int& l = last_read[ix.root[a]]; !(g.is_op(pr) && fu.chain[pr] == h) && l < p + 1) l = p + 1;
      }
    }
    const std::size_t before = out.in_place;
    for (std::size_t q = 0; q < fu.num_steps; ++q)
      if (fu.chain[fu.order[q]] == h) place_outputs(out, fu.order[q], p);
    // in place: the one value the chain stores, when it took an input's storage
    // (its row values live in the block whatever their places say)
    const std::size_t w = fu.chain_out[h];
    out.in_place = before + (out.same_as[w] != none || out.copy[w] ? 1 : 0);
    if (fu.chain_out[h] == g.out_value(h) && !g.elementwise(h) && P::row_kinds[h] == row_kind::reduce) {
      const std::size_t f = fu.frame[h];
      const shape& sh = g.shape_of(f);
      const std::size_t c = sh.extent[sh.rank - 1], es = P::facts[g.values[f].entry].dtype_size[g.values[f].out];
      if (c != dynamic && c * es > row_scratch_bytes) {  // (a row of dynamic extent: known when the call runs)
        ++out.allocations;
        scratch[static_cast<std::size_t>(p)] = c * es;
      }
    }
  }

  // v is computed in the storage of root rt: in place when rt is donated or an
  // intermediate, else in a copy of it (copy-protection; `copy_data`: the node
  // needs the old elements there, as an opaque kernel does). A value inside a
  // fused loop needs no copy: the loop reads the borrowed input itself.
  // Where value a's elements are at run time: a itself when it is materialised
  // (an input, a view, a stored value), else (a value that lives only inside a
  // fused loop) the value whose place it took.
  constexpr std::size_t located(const result& out, std::size_t a) const {
    while (a != none && g.is_op(g.values[a].entry) && !g.is_view(a) && !fu.stored[a]) a = out.same_as[a];
    return a;
  }

  // `arg`: the value (rt or a view of it) whose elements v overwrites.
  constexpr void write_root(result& out, std::size_t v, std::size_t rt, std::size_t arg, int p,
                            bool copy_data, bool stored) {
    const place from = holder[rt];
    if (!pure_ && ((from.where == home::input && donated_[from.index]) || from.where == home::buffer ||
                   from.where == home::scalar)) {
      ++out.in_place;
      out.same_as[v] = located(out, arg);
      hold(v, from, p);
      return;
    }
    if (!stored) return;
    if (from.where == home::none) {  // rt lives only inside its fused loop (x * 3 under add_inplace):
      hold(v, {home::buffer, take_buffer(out, v, p)}, p);  // nothing to protect, a fresh buffer (not
      return;                                              // in place: no storage held rt)
    }
    ++out.in_place;
    ++out.copies;  // a borrowed input
    out.copy[v] = true;
    out.copied[v] = copy_data;
    hold(v, {home::buffer, take_buffer(out, v, p)}, p);
  }

  // The inputs that opaque node e's destroy_map lists but computes no output in
  // (the 1 of {0: [0, 1]}): its kernel may overwrite them. One that is borrowed
  // (in the pure reference: any) gets a copy, held while the kernel runs. A
  // donated input or an intermediate is overwritten as it is: the graph's rules
  // let nothing read it afterwards.
  constexpr void copy_destroyed_inputs(result& out, std::size_t e, int p) {
    const auto& info = g.entries[e].info;
    for (std::size_t j = 0; j < g.nargs(e); ++j) {
      bool listed = false, computed_in = false;
      for (std::size_t o = 0; o < info.num_outputs; ++o) {
        listed = listed || (info.destroys[o] >> j & 1u);
        computed_in = computed_in || info.storage[o] == static_cast<int>(j);
      }
      if (!listed || computed_in) continue;
      const std::size_t a = g.arg(e, j);
      const place at = holder[ix.root[a]];
      const bool borrowed = at.where == home::input && !donated_[at.index];
      if (!borrowed && !(pure_ && (at.where == home::input || at.where == home::buffer))) continue;
      const std::size_t b = take_buffer(out, a, p);
      buf_free_from[b] = p + 1;
      out.arg_copy[e][j] = b;
      ++out.copies;
    }
  }

  // The inputs whose registered variant the rewrite can use (bit j).
  constexpr std::uint32_t usable_variants(std::size_t e) const {
    std::uint32_t r = 0;
    for (std::size_t j = 0; g.is_op(e) && j < g.nargs(e); ++j)
      if ((P::facts[e].variants >> j & 1u) && variant_out[e][j] >= 0) r |= std::uint32_t{1} << j;
    return r;
  }

  // Output o (value v) of pure node e: computed by the variant of an input j
  // whose destroy_map puts output o over input j, when j's storage may be
  // overwritten: the first such input that no reason of refusal_reasons
  // (rewrite.hpp), checked in the table's order, applies to; in a loop of
  // several results, one that fewer of the loop's later members could take
  // ((x + y, x * 2): x + y in y, x * 2 in x).
  constexpr bool try_rewrite(result& out, std::size_t e, std::size_t o, std::size_t v, int p) {
    const std::uint32_t variants = usable_variants(e);
    refusal& why = out.why[e];  // set by place_outputs; the first candidate's reason
    if (variants == 0 || !rewrite_ || out.rewritten[e] >= 0) return false;  // (no_rewrite: place_outputs)
    std::size_t j = none, fewest = none;
    for (std::size_t c = 0; c < g.nargs(e) && fewest != 0; ++c) {
      if (!(variants >> c & 1u) || variant_out[e][c] != static_cast<int>(o)) continue;
      refusal r = refusal::none;
      for (const refusal_reason& x : refusal_reasons)
        if (refuses(x.kind, e, c, v, p)) {
          r = x.kind;
          break;
        }
      if (r != refusal::none) {
        if (why == refusal::none) why = r;
        continue;
      }
      if (const std::size_t n = later_claims(e, ix.root[g.arg(e, c)]); n < fewest) j = c, fewest = n;
    }
    if (j != none) {
      const std::size_t a = g.arg(e, j);
      const place at = holder[ix.root[a]];
      out.rewritten[e] = static_cast<int>(j);
      out.rewritten_output[e] = static_cast<int>(o);
      out.same_as[v] = located(out, a);
      why = refusal::none;
      ++out.in_place;
      hold(v, at, p);
      return true;
    }
    return false;
  }
  // The rewrite reaching views: value v of elementwise node e (at position p),
  // whose one reader is an ip::set that writes v into its region of x and will
  // itself run in x's storage, is computed straight into that region: the set
  // then finds v where it puts it (set(row<0>(a), row<0>(a) + 1) is one loop
  // over row 0 of a). It may, when nothing reads the region's old elements
  // from p until the set except e's own loop at the same index (PyTorch's
  // re-inplacing of a scatter).
  constexpr bool place_in_region(result& out, std::size_t e, std::size_t v, int p) {
    if (pure_ || !rewrite_ || !fu.stored[v] || lists_readers_of(v) != 1) return false;
    const std::size_t u = only_reader(v);
    const auto& ui = g.entries[u].info;
    if (!ui.region_set || ui.destroys[0] != 0 || g.arg(u, 1) != v || g.arg(u, 0) == v || g.arg(u, 2) == v) return false;
    const std::size_t x = g.arg(u, 0), r = g.arg(u, static_cast<std::size_t>(ui.region)), ra = ix.root[x];
    const int pu = fu.at[u];
    if (ix.root[r] != ra || !(g.shape_of(r) == g.shape_of(v)) || !same_kind_dtype(r, v) ||
        ix.pattern[r].overlaps_itself() || ix.pattern[r].unknown || ix.pattern[r].superset)
      return false;
    // x's storage exists before e runs (the region's view is made from it when e stores v)
    if (g.is_op(g.producer(ra)) && fu.at[g.producer(ra)] >= p) return false;
    for (std::size_t w = r; g.is_view(w); w = g.viewed(w))  // (a dynamic slice's start: a leaf)
      for (std::size_t j = 1; j < g.nargs(g.producer(w)); ++j)
        if (g.is_op(g.producer(g.arg(g.producer(w), j)))) return false;
    if (!((usable_variants(u) & 1u) && variant_out[u][0] == 0)) return false;
    for (const refusal_reason& why : refusal_reasons)  // the set will run in x's storage
      if (why.kind != refusal::no_rewrite && refuses(why.kind, u, 0, g.out_value(u), pu)) return false;
    for (const std::size_t q : ix.root_readers.of(ra)) {  // nobody reads the region's old elements meanwhile
      if (q == u || is_view_node(q) || fu.at[q] < p || fu.at[q] > pu) continue;
      const bool same_loop = fu.at[q] == p && g.elementwise(q);
      for (std::size_t j = 0; j < g.nargs(q); ++j) {
        const std::size_t a = g.arg(q, j);
        if (ix.root[a] != ra || ix.pattern[a].disjoint_from(ix.pattern[r])) continue;
        if (!same_loop || !ix.pattern[a].same_as(ix.pattern[r]) || is_broadcast_read(g.shape_of(a), g.shape_of(g.out_value(q))))
          return false;
      }
    }
    out.same_as[v] = r;
    out.why[e] = refusal::none;
    holder[v] = holder[ra];  // (not its occupant: x stays there until the set)
    held_from[v] = p;
    ++out.in_place;
    return true;
  }
  // Set node e, run in place, whose value place_in_region computed in its region.
  constexpr bool finds_value_in_region(const result& out, std::size_t e) const {
    const auto& info = g.entries[e].info;
    return info.region_set && out.same_as[g.arg(e, 1)] == g.arg(e, static_cast<std::size_t>(info.region));
  }
  constexpr std::size_t lists_readers_of(std::size_t v) const { return P::lists.readers.size(v); }
  constexpr std::size_t only_reader(std::size_t v) const { return P::lists.readers.at(v, 0); }

  // How many members of node e's loop, placed after it, could be computed in root ra.
  constexpr std::size_t later_claims(std::size_t e, std::size_t ra) const {
    std::size_t n = 0;
    for (const std::size_t m : ix.root_readers.of(ra)) {
      if (m == e || placed[m] || fu.group[m] == none || fu.group[m] != fu.group[e]) continue;
      const std::uint32_t vm = usable_variants(m);
      bool claims = false;
      for (std::size_t k = 0; k < g.nargs(m); ++k) claims = claims || ((vm >> k & 1u) && ix.root[g.arg(m, k)] == ra);
      n += claims;
    }
    return n;
  }
  // Whether reason r keeps the rewrite of node e (output value v, at position
  // p) from computing in input j's storage.
  constexpr bool refuses(refusal r, std::size_t e, std::size_t j, std::size_t v, int p) const {
    const std::size_t a = g.arg(e, j), ra = ix.root[a];
    const place at = holder[ra];
    const auto& leaf = g.entries[g.values[ra].entry];
    switch (r) {
      case refusal::view:  // a view, or in part of a storage
        return ra != a || lives_in_view(g, a);
      case refusal::dtype:
        return !same_kind_dtype(a, v);
      case refusal::extents:
        return !fits_in_place(g.shape_of(a), g.shape_of(v)) || is_broadcast_read(g.shape_of(a), g.shape_of(v));
      case refusal::protected_input:
        return leaf.kind == entry_kind::constant || (leaf.kind == entry_kind::input && leaf.indestructible) ||
               at.where == home::constant;
      case refusal::borrowed:
        return at.where == home::input && !donated_[at.index];
      case refusal::fused:
        return at.where == home::none;
      case refusal::scalar:
        return at.where == home::scalar;
      case refusal::output:
        return last_read[ra] == forever;
      case refusal::io_alias:
        return at.where == home::input && alias_of_input(at.index) != none && alias_of_input(at.index) != v;
      case refusal::aliasing_hazard:
        return !g.elementwise(e) && read_twice(e, ra, j);
      case refusal::later_reader: {  // read later, overwritten by an in-place node, or read here differently
        const std::size_t now = at.where == home::input ? occupant_input[at.index] : occupant_buffer[at.index];
        return last_read[ra] > p || destroyed[ra] || now != ra || !only_same_pattern_now(e, ra, a, p);
      }
      default:  // none, no_variant; no_rewrite is the function's (place_outputs)
        return false;
    }
  }
  constexpr bool same_kind_dtype(std::size_t a, std::size_t b) const {
    return P::facts[g.values[a].entry].dtype[g.values[a].out] == P::facts[g.values[b].entry].dtype[g.values[b].out];
  }
  // Whether opaque node e reads root ra through another argument than j (op(x, y, x),
  // op(x, view of x)): its kernel would read what it overwrites. An update's
  // region is where it writes, and its value may read the region at the same
  // index (set(row<0>(a), 2 * row<0>(a))) or elsewhere.
  constexpr bool read_twice(std::size_t e, std::size_t ra, std::size_t j) const {
    const int reg = g.entries[e].info.region;
    for (std::size_t k = 0; k < g.nargs(e); ++k) {
      const std::size_t a = g.arg(e, k);
      if (k == j || ix.root[a] != ra || static_cast<int>(k) == reg) continue;
      if (reg >= 0) {
        const std::size_t r = g.arg(e, static_cast<std::size_t>(reg));
        if (ix.pattern[a].disjoint_from(ix.pattern[r]) ||
            (ix.pattern[a].same_as(ix.pattern[r]) && !is_broadcast_read(g.shape_of(a), g.shape_of(r))))
          continue;
      }
      return true;
    }
    return false;
  }
  // Everything that reads root ra at position p (node e, or its loop) reads it as a does.
  constexpr bool only_same_pattern_now(std::size_t e, std::size_t ra, std::size_t a, int p) const {
    for (std::size_t q = 0; q < NE; ++q) {
      if (!g.is_op(q) || fu.at[q] != p) continue;
      if (q == e && !g.elementwise(e)) continue;  // an opaque kernel: read_twice

      if (ix.reads_off_pattern(g, q, ra, ix.pattern[a])) return false;
    }
    return true;
  }

  // The copies of io_aliases that the analysis could not put in place: one per
  // output copied into its donated input's storage; the copies out of that
  // storage count with the results (count_result_copies).
  constexpr void plan_alias_copies(result& out) const {
    for (std::size_t k = 0; k < G::num_outputs; ++k) {
      const std::size_t in = alias_copy_input(g, ix, k);
      if (in == none || !donated_[in]) continue;
      out.alias_target[g.out_value(g.inputs[in])] = true;
      ++out.copies;
    }
    for (std::size_t v = 0; v < G::num_values; ++v) {
      const place at = holder[ix.root[v]];
      out.saved[v] = ix.is_output[v] && at.where == home::input && out.alias_target[g.out_value(g.inputs[at.index])];
    }
  }

  // Results the call allocates when it returns: a constant or a scalar input
  // returned (as a rank-0 tensor), and a value returned as a tensor a second time
  // (a copy). They are alive at the end, beside the returned buffers.
  constexpr void count_result_copies(result& out) const {
    std::size_t extra = 0;
    for (std::size_t k = 0; k < G::num_outputs; ++k) {
      const std::size_t v = g.outputs[k], r = ix.root[v];
      const auto kind = g.entries[g.values[r].entry].kind;
      bool copy = kind == entry_kind::constant || kind == entry_kind::scalar || holder[r].where == home::scalar;
      const bool borrowed_input = kind == entry_kind::input && !donated_[ix.input_of[r]];
      const auto copied_in = [&](std::size_t j) {  // (plan_alias_copies: returns no storage of its own)
        const std::size_t in = alias_copy_input(g, ix, j);
        return in != none && donated_[in];
      };
      if (!copy && !borrowed_input && !copied_in(k) && v == r && !lives_in_view(g, v))
        for (std::size_t j = 0; j < k; ++j) copy = copy || (g.outputs[j] == v && !copied_in(j));
      if (out.saved[v]) copy = true, ++out.copies;  // (plan_alias_copies)
      if (!copy) continue;
      ++out.allocations;
      const std::size_t b = bytes_of(v);
      extra = extra == dynamic || b == dynamic ? dynamic : extra + (b == 0 ? sizeof(double) : b);
    }
    if (extra == 0 || out.peak_bytes == dynamic) return;
    if (extra == dynamic) {
      out.peak_bytes = dynamic;
      return;
    }
    std::size_t returned = 0;  // the returned buffers, alive at the end
    for (std::size_t b = 0; b < out.num_buffers; ++b)
      if (out.buffer_dies[b] < 0) returned += bytes_of(out.buffer_value[b]);
    if (returned + extra > out.peak_bytes) out.peak_bytes = returned + extra;
  }
  // When each buffer is freed, and the most bytes alive at once.
  constexpr void finish_buffers(result& out) {
    std::array<int, NV> dies{};
    for (std::size_t b = 0; b < out.num_buffers; ++b) dies[b] = buf_returned[b] ? forever : buf_first[b];
    for (std::size_t v = 0; v < G::num_values; ++v) {
      if (holder[ix.root[v]].where != home::buffer) continue;
      const std::size_t b = holder[ix.root[v]].index;
      if (!buf_returned[b] && last_read[ix.root[v]] > dies[b]) dies[b] = last_read[ix.root[v]];
      if (!buf_returned[b] && held_from[ix.root[v]] > dies[b]) dies[b] = held_from[ix.root[v]];  // (never read)
    }
    for (std::size_t e = 0; e < NE; ++e)  // a kernel's copy of an input lives while it runs
      for (std::size_t j = 0; j < max_args; ++j)
        if (const std::size_t b = out.arg_copy[e][j]; b != none && !buf_returned[b] && fu.at[e] > dies[b])
          dies[b] = fu.at[e];
    // a buffer reused later lives until its last holder dies: the walk above saw every holder
    bool known = true;
    for (std::size_t b = 0; b < out.num_buffers; ++b) known = known && bytes_of(out.buffer_value[b]) != dynamic;
    for (std::size_t p = 0; p < fu.num_steps; ++p) known = known && scratch[p] != dynamic;
    std::size_t peak = 0;
    for (std::size_t p = 0; known && p < fu.num_steps; ++p) {
      std::size_t live = scratch[p];
      for (std::size_t b = 0; b < out.num_buffers; ++b)
        if (buf_first[b] <= static_cast<int>(p) && static_cast<int>(p) <= dies[b]) live += bytes_of(out.buffer_value[b]);
      if (live > peak) peak = live;
    }
    out.peak_bytes = known ? peak : dynamic;
    for (std::size_t b = 0; b < out.num_buffers; ++b) out.buffer_dies[b] = buf_returned[b] ? -1 : dies[b];
  }
};

}  // namespace inplace::detail::run

#include "inplace/detail/shadow_on.hpp"
