#pragma once
// Runs one plan (storage.hpp) of a function: every decision (which loop, which
// storage, which kernel) is a compile-time constant of the plan, so the call
// unrolls into its loops and kernels. At run time it only binds the arguments'
// storage, checks extents before anything is written, allocates the plan's
// buffers, runs the schedule and frees each buffer after its last reader.

#include "inplace/detail/indices.hpp"
#include "inplace/ops/detail/convert.hpp"
#include "inplace/run/detail/debug.hpp"
#include "inplace/run/detail/program.hpp"
#include "inplace/run/detail/storage.hpp"
#include "inplace/run/plan.hpp"
#include "inplace/tensor/assign.hpp"
#include "inplace/tensor/detail/op_kernels.hpp"
#include "inplace/tensor/detail/op_views.hpp"
#include "inplace/tensor/detail/texpr_multi.hpp"
#include "inplace/tensor/tensor_opaque.hpp"
#include "inplace/tensor/view_functions.hpp"

#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::run {

// A value's elements at run time: address, extents, strides (in elements), for
// values of up to MR axes (the graph's largest rank: a call's slots live on its
// stack, and a frame of eight-axis slots evicted the operands from L1).
// Left uninitialised: a call writes each slot before reading it (zeroing the
// slots of a small graph cost more than its loop on 16 floats).
template <std::size_t MR>
struct slot {
  void* p;
  std::array<std::size_t, MR> e;
  std::array<std::ptrdiff_t, MR> s;
};

// Blocks the call allocates, as ip::aligned_allocator does (so a tensor can own one).
struct block_free {
  void operator()(void* p) const noexcept { detail::aligned_free(p); }
};
using block = std::unique_ptr<void, block_free>;
inline block allocate_block(std::size_t bytes) { return block(detail::aligned_malloc(bytes, 64)); }

// What the last call on this thread allocated and copied, counted when the
// test-only macro INPLACE_COUNT_ALLOCATIONS is defined (tests compare it with
// ip::plan); otherwise the counting compiles to nothing (resetting a
// thread-local is a measurable part of a small call).
struct call_counts {
  std::size_t allocations = 0, copies = 0;
};
#if defined(INPLACE_COUNT_ALLOCATIONS)
inline thread_local call_counts last_call_counts{};
inline void count_reset() { last_call_counts = {}; }
inline void count_allocation() { ++last_call_counts.allocations; }
inline void count_copy() { ++last_call_counts.copies; }
#else
inline void count_reset() {}
inline void count_allocation() {}
inline void count_copy() {}
#endif

// A kernel of the form `R kernel(inputs...) const` that returns its one result,
// an ip::tensor or ip::tensor_view (of memory the op owns), copied into the
// call's storage.
template <class Op, class... In>
concept returns_result = requires(const In&... in) {
  requires texpr::tensor_like<decltype(Op{}.kernel(in...))> || texpr::view_like<decltype(Op{}.kernel(in...))>;
};

template <class Op, class Inputs>
struct kernel_returns;  // (a class, not a requires in place: clang 14 ignores it inside generic lambdas)
template <class Op, class... In>
struct kernel_returns<Op, std::tuple<In...>> : std::bool_constant<returns_result<Op, In...>> {};

template <class Op>
struct is_generic_inplace : std::false_type {};
template <class Op, int I>
struct is_generic_inplace<ops::inplace_op<Op, I>> : std::true_type {};

// The call's copy of a scalar input (any arithmetic type).
struct alignas(16) scalar_cell {
  unsigned char bytes[16];
};

template <class S, std::uint64_t Mask, plan_kind Kind>
class executor {
 public:
  using P = program<S>;
  using G = typename P::G;
  static constexpr std::size_t NE = P::NE, NV = P::NV, NI = G::num_inputs > 0 ? G::num_inputs : 1;
  static constexpr const G& g = S::graph_value;
  static constexpr const auto& schedule() {
    if constexpr (Kind == plan_kind::reference) return P::unfused;
    else return P::fused;
  }
  static constexpr const auto& fu = schedule();
  static constexpr const auto& pl = plan_for<S, Mask, Kind>::value;

  template <std::size_t V>
  using entry_of = typename P::template entry_t<g.values[V].entry>;
  template <std::size_t V>
  static constexpr std::size_t rank_of = g.values[V].value_shape.rank;
  template <std::size_t V>
  static constexpr auto dtype_of() {
    using E = entry_of<V>;
    if constexpr (g.entries[g.values[V].entry].kind == entry_kind::op)
      return std::type_identity<typename E::template out_dtype<g.values[V].out>>{};
    else
      return std::type_identity<concrete_dtype_t<typename E::dtype>>{};  // a lone constant: int64 or double
  }
  template <std::size_t V>
  using dtype = typename decltype(dtype_of<V>())::type;
  template <std::size_t V>
  using view_type = tensor_view<dtype<V>, rank_spec<rank_of<V>>>;

  static constexpr std::size_t NB = pl.num_buffers > 0 ? pl.num_buffers : 1;
  using slot = run::slot<P::max_rank>;
  std::array<slot, NV> slots;
  std::array<block, NB> buffers{};  // by buffer id
  std::array<scalar_cell, NI> scalars;

  // The elements of value V as a view (of mutable elements: the plan writes only
  // what it owns; borrowed inputs are only read).
  template <std::size_t V>
  view_type<V> view() const {
    constexpr std::size_t R = rank_of<V>;
    tx_extents<R> e{};
    tx_strides<R> s{};
    for (std::size_t i = 0; i < R; ++i) e[i] = slots[V].e[i], s[i] = slots[V].s[i];
    return view_type<V>(tx_unchecked, static_cast<dtype<V>*>(slots[V].p), e, s);
  }
  template <std::size_t V>
  std::size_t count() const {
    std::size_t n = 1;
    for (std::size_t i = 0; i < rank_of<V>; ++i) n *= slots[V].e[i];
    return n;
  }

  // ---- before anything runs: extents ----------------------------------------------
  // Every node's output extents from its arguments' (ip::shape_error naming the
  // node when they do not fit); then whether the plan's in-place and reuse
  // choices hold for these extents (false: run the safe plan instead).
  INPLACE_CLANG_INLINE void compute_extents() {
    with_indices<NE>([&]<std::size_t... E>() INPLACE_CLANG_INLINE { (extents_of_entry<E>(), ...); });
    // the values one fused loop stores have one extents (program.hpp: fusion::peer)
    with_indices<G::num_values>([&]<std::size_t... V>() INPLACE_CLANG_INLINE {
      (
          [&] {
            if constexpr (fu.peer[V] != none) {
              bool same = true;
              for (std::size_t i = 0; i < rank_of<V>; ++i) same = same && slots[V].e[i] == slots[fu.peer[V]].e[i];
              if (!same) throw_loop_extents(fu.peer[V], V);
            }
          }(),
          ...);
    });
  }
  [[noreturn, gnu::cold, gnu::noinline]] void throw_loop_extents(std::size_t v, std::size_t w) const {
    const auto extents = [&](std::size_t u) {
      std::string r = "(";
      for (std::size_t i = 0; i < g.values[u].value_shape.rank; ++i) r += (i ? ", " : "") + std::to_string(slots[u].e[i]);
      return r + ")";
    };
    throw shape_error("inplace: shape_error: " + std::string(value_label(g, v).view()) + " and " +
                      std::string(value_label(g, w).view()) + " run in one fused loop but have extents " +
                      extents(v) + " and " + extents(w) + " in this call (one broadcast against the other)");
  }
  bool plan_fits() const {
    // a value computed in place of another has its extents; the values one
    // buffer holds in turn have one size
    std::array<std::size_t, NB> buffer_size{};
    bool ok = true;
    with_indices<G::num_values>([&]<std::size_t... V>() INPLACE_CLANG_INLINE {
      (
          [&] {
            if constexpr (fu.stored[V] && g.entries[g.values[V].entry].kind == entry_kind::op) {
              if constexpr (pl.same_as[V] != none) {
                for (std::size_t i = 0; i < rank_of<V>; ++i) ok = ok && slots[V].e[i] == slots[pl.same_as[V]].e[i];
              } else if constexpr (pl.where[V] == home::buffer) {
                const std::size_t bytes = count<V>() * sizeof(dtype<V>) + 1;
                std::size_t& b = buffer_size[pl.index[V]];
                ok = ok && (b == 0 || b == bytes);
                b = bytes;
              }
            }
          }(),
          ...);
    });
    // a kernel's copy of an input shares a buffer with values of its size
    with_indices<NE>([&]<std::size_t... E>() INPLACE_CLANG_INLINE {
      (arg_copies_fit<E>(buffer_size, ok, std::make_index_sequence<g.entries[E].num_args>{}), ...);
    });
    return ok;
  }

  template <std::size_t E, std::size_t... J>
  void arg_copies_fit(std::array<std::size_t, NB>& buffer_size, bool& ok, std::index_sequence<J...>) const {
    [[maybe_unused]] const auto one = [&](std::size_t k, std::size_t bytes) {
      ok = ok && (buffer_size[k] == 0 || buffer_size[k] == bytes);
      buffer_size[k] = bytes;
    };
    ((pl.arg_copy[E][J] != none ? one(pl.arg_copy[E][J], count<g.arg(E, J)>() * sizeof(dtype<g.arg(E, J)>) + 1)
                                : void()),
     ...);
  }

  // Debug mode's reference, for ip::debug_nans: throw debug_error at the first
  // node whose output holds a NaN or an infinity. (Other plans have no such flag.)
  // (two empty types: members of one empty type would need two addresses)
  template <int>
  struct no_flag {};
  [[no_unique_address]] std::conditional_t<Kind == plan_kind::reference, bool, no_flag<0>> find_nonfinite{};
  // Debug mode's bracket runs: every node's floating results moved by this many
  // ulps (see bracket_ulps in debug.hpp).
  [[no_unique_address]] std::conditional_t<Kind == plan_kind::reference, int, no_flag<1>> nudge_ulps{};

  // ---- the schedule ------------------------------------------------------------------
  INPLACE_CLANG_INLINE void run() {
    with_indices<fu.num_steps>([&]<std::size_t... Q>() INPLACE_CLANG_INLINE { (step<Q>(), ...); });
  }

 private:
  // A constant as a rank-0 value in memory, for what reads it as an array (an
  // opaque kernel, a view, a result); loops use the number itself.
  template <std::size_t V>
  static constexpr dtype<V> constant_value = constant_as<dtype<V>>(P::template entry_t<g.values[V].entry>::value);

  // Whether node E's arguments and results have static extents only: the
  // analysis checked them, and a call copies its results' extents.
  template <std::size_t E>
  static constexpr bool all_static() {
    constexpr auto& ent = g.entries[E];
    const auto fixed = [](const shape& s) {
      for (std::size_t i = 0; i < s.rank; ++i)
        if (s.extent[i] == dynamic) return false;
      return true;
    };
    for (std::size_t j = 0; j < ent.num_args; ++j)
      if (!fixed(g.values[g.arg(E, j)].value_shape)) return false;
    for (std::size_t o = 0; o < ent.info.num_outputs; ++o)
      if (!fixed(g.values[ent.first_value + o].value_shape)) return false;
    return true;
  }
  template <std::size_t E>
  void extents_of_entry() {
    constexpr auto& ent = g.entries[E];
    // (an opaque node or a view: an elementwise node's broadcast is a few
    // compares, and its extents as constants let g++ -O3 warn falsely of an
    // overflowing loop in the flat path, -Waggressive-loop-optimizations)
    if constexpr (ent.kind == entry_kind::op && !ent.info.elementwise && all_static<E>()) {
      for (std::size_t o = 0; o < ent.info.num_outputs; ++o) {
        const shape& s = g.values[ent.first_value + o].value_shape;
        for (std::size_t i = 0; i < s.rank; ++i) slots[ent.first_value + o].e[i] = s.extent[i];
      }
      if constexpr (requires { P::template entry_t<E>::op::dynamic_start; })
        check_start<E>(g.values[g.arg(E, 0)].value_shape);
    } else if constexpr (ent.kind == entry_kind::constant) {
      slots[ent.first_value].p = const_cast<void*>(static_cast<const void*>(&constant_value<ent.first_value>));
    } else if constexpr (ent.kind == entry_kind::op && ent.info.elementwise && ent.info.num_outputs == 1) {
      broadcast_extents<E>(std::make_index_sequence<ent.num_args>{});
    } else if constexpr (ent.kind == entry_kind::op) {
      using N = typename P::template entry_t<E>;
      using first_dtype = boost::mp11::mp_front<boost::mp11::mp_push_back<typename N::in_dtypes, double>>;
      std::array<shape, ent.num_args> in{};
      for (std::size_t j = 0; j < ent.num_args; ++j) {
        const slot& a = slots[g.arg(E, j)];
        in[j].rank = g.values[g.arg(E, j)].value_shape.rank;
        for (std::size_t i = 0; i < in[j].rank; ++i) in[j].extent[i] = a.e[i];
      }
      for (std::size_t o = 0; o < ent.info.num_outputs; ++o) {
        const shape s = out_shape_rule<typename N::op, first_dtype>(ent.info, o, in);
        const int st = ent.info.storage[o];
        if (s == invalid_shape || s.rank != g.values[ent.first_value + o].value_shape.rank)
          throw_node_extents(E, in, "its arguments' extents do not fit");
        if (st >= 0 && !(in[static_cast<std::size_t>(st)] == s))
          throw_node_extents(E, in, "the result would not fit the destroyed input (an in-place op cannot grow it)");
        slot& out = slots[ent.first_value + o];
        for (std::size_t i = 0; i < s.rank; ++i) out.e[i] = s.extent[i];
      }
      if constexpr (requires { N::op::dynamic_start; }) check_start<E>(in[0]);
    }
  }
  // A dynamic slice's start, a leaf's value, is in range before anything runs.
  template <std::size_t E>
  void check_start(const shape& x) const {
    using Op = typename P::template entry_t<E>::op;
    constexpr std::size_t start = g.arg(E, 1);
    const auto t = *static_cast<const dtype<start>*>(slots[start].p);
    const std::size_t n = x.extent[axis_of(Op::axis, x.rank)];
    if (!start_fits(static_cast<long long>(t), Op::size, n))
      throw shape_error("inplace: shape_error: " + std::string(entry_label(g, E).view()) + ": start " + std::to_string(t) +
                        " is out of range for " + std::to_string(Op::size) + " element(s) of an axis of extent " +
                        std::to_string(n) + " (0 <= start <= extent - size; nothing is clamped)");
  }
  // An elementwise node's extents: its arguments' broadcast (NumPy's rule), and
  // for an in-place node those of the input it overwrites.
  template <std::size_t E, std::size_t... J>
  void broadcast_extents(std::index_sequence<J...>) {
    constexpr auto& ent = g.entries[E];
    constexpr std::size_t R = g.values[ent.first_value].value_shape.rank;
    slot& out = slots[ent.first_value];
    bool ok = true;
    for (std::size_t k = 0; k < R; ++k) {  // k counts axes from the right
      std::size_t e = 1;
      (
          [&] {
            constexpr std::size_t a = g.arg(E, J), M = g.values[a].value_shape.rank;
            if (k < M) {
              const std::size_t x = slots[a].e[M - 1 - k];
              if (x != 1) ok = ok && (e == 1 || e == x), e = x;
            }
          }(),
          ...);
      out.e[R - 1 - k] = e;
    }
    constexpr int st = ent.info.storage[0];
    if constexpr (st >= 0) {
      constexpr std::size_t d = g.arg(E, static_cast<std::size_t>(st));
      constexpr std::size_t M = g.values[d].value_shape.rank;
      bool same = M == R;
      for (std::size_t i = 0; same && i < R; ++i) same = slots[d].e[i] == out.e[i];
      if (ok && !same) throw_node_extents<E>("the result would not fit the destroyed input (an in-place op cannot grow it)");
    }
    if (!ok) throw_node_extents<E>("its arguments' extents do not fit");
  }
  template <std::size_t E>
  [[noreturn, gnu::cold, gnu::noinline]] void throw_node_extents(const char* why) const {
    constexpr auto& ent = g.entries[E];
    std::array<shape, ent.num_args> in{};
    for (std::size_t j = 0; j < ent.num_args; ++j) {
      in[j].rank = g.values[g.arg(E, j)].value_shape.rank;
      for (std::size_t i = 0; i < in[j].rank; ++i) in[j].extent[i] = slots[g.arg(E, j)].e[i];
    }
    throw_node_extents(E, in, why);
  }
  template <std::size_t N>
  [[noreturn, gnu::cold]] static void throw_node_extents(std::size_t e, const std::array<shape, N>& in, const char* why) {
    std::string args;
    for (std::size_t j = 0; j < N; ++j) {
      args += j == 0 ? "(" : ", (";
      for (std::size_t i = 0; i < in[j].rank; ++i) args += (i ? ", " : "") + std::to_string(in[j].extent[i]);
      args += ")";
    }
    throw shape_error("inplace: shape_error: " + std::string(entry_label(g, e).view()) + ": " + why +
                      " (arguments of extents " + args + ")");
  }

  template <std::size_t Q>
  INPLACE_CLANG_INLINE void step() {
    constexpr std::size_t E = fu.order[Q];
    if constexpr (g.entries[E].kind == entry_kind::op)
      check_variant_dtypes_of<typename P::template entry_t<E>>(std::make_index_sequence<g.entries[E].num_args>{});
    constexpr std::size_t grp = fu.group[E];
    if constexpr (Kind == plan_kind::reference) {  // debug mode: every node alone, checked against its maps
      // (a fused-loop op writes only its fresh destination: no snapshot of its inputs)
      const node_check<G, decltype(slots)> check(g, slots, E, elem_size, !g.entries[E].info.elementwise);
      run_node<E>();
      check.after(elem_size);
      check_variants<E>();
      if (find_nonfinite) check_finite<E>();
      if (nudge_ulps != 0) nudge_outputs<E>(nudge_ulps);
    } else if constexpr (fu.chain[E] != none) {
      if constexpr (fu.chain[E] == E && P::row_kinds[E] == row_kind::total) run_total<E>();
      else if constexpr (fu.chain[E] == E) run_chain<E>();  // (the other members run in it)
    } else if constexpr (grp != none) {
      if constexpr (fu.last[grp] == E) run_group<grp>();
    } else {
      run_node<E>();
    }
    free_after<static_cast<int>(Q)>();
  }
  template <std::size_t E>
  void run_node() {
    constexpr auto& info = g.entries[E].info;
    if constexpr (num_views(info) == info.num_outputs) {
      run_view<E>();
    } else if constexpr (info.elementwise && info.num_outputs == 1) {
      detail::assign(storage<g.entries[E].first_value>(), expr<E>(), loop_mode<g.entries[E].first_value>);
    } else if constexpr (info.elementwise) {  // several outputs: a loop of its own
      using Op = typename decltype(op_of<E>())::type;
      [&]<std::size_t... O, std::size_t... J>(std::index_sequence<O...>, std::index_sequence<J...>) {
        const std::tuple<decltype(output_storage<E, O>())...> outs{output_storage<E, O>()...};
        elementwise_loop<Op>(outs, operand<E, J>()...);
      }(std::make_index_sequence<info.num_outputs>{}, std::make_index_sequence<g.entries[E].num_args>{});
    } else {  // an opaque op, whose view outputs (if any) come from its view function
      run_view<E>();
      run_opaque<E>();
    }
  }
  // The element size of every value, as the call holds it.
  template <std::size_t... V>
  static constexpr std::array<std::size_t, NV> elem_sizes(std::index_sequence<V...>) {
    return {sizeof(dtype<V>)...};
  }
  static constexpr std::array<std::size_t, NV> elem_size = elem_sizes(std::make_index_sequence<G::num_values>{});

  template <int Q>
  void free_after() {
    with_indices<pl.num_buffers>([&]<std::size_t... B>() {
      ((pl.buffer_dies[B] == Q ? buffers[B].reset() : void()), ...);
    });
  }

  // Buffer k, allocated (for value V's elements) by the first value placed in it.
  template <std::size_t V>
  void* buffer_of(std::size_t k) {
    if (!buffers[k]) {
      buffers[k] = allocate_block(count<V>() * sizeof(dtype<V>));
      count_allocation();
    }
    return buffers[k].get();
  }
  // Contiguous row-major strides for extents e.
  template <std::size_t R, class Extents, class Strides>
  static void row_major(const Extents& e, Strides& s) {
    std::ptrdiff_t stride = 1;
    for (std::size_t i = R; i-- > 0;) s[i] = stride, stride *= static_cast<std::ptrdiff_t>(e[i]);
  }

  // The storage the plan gives stored value V: where the value it is computed in
  // place of lies (a view's elements, for an in-place op on a view), else the
  // start of its buffer, allocated now (plan_fits checked the sizes).
  template <std::size_t V>
  view_type<V> storage() {
    constexpr std::size_t R = rank_of<V>;
    slot& s = slots[V];
    if constexpr (pl.same_as[V] != none) {
      if constexpr (g.is_view(pl.same_as[V])) ensure_view<pl.same_as[V]>();  // (the plan may write it before its step)
      const slot& at = slots[pl.same_as[V]];
      s.p = at.p;
      for (std::size_t i = 0; i < R; ++i) s.s[i] = at.s[i];
      return view<V>();
    } else {
      static_assert(pl.where[V] == home::buffer);
      if constexpr (pl.copy[V]) count_copy();
      s.p = buffer_of<V>(pl.index[V]);
      row_major<R>(s.e, s.s);
      return view<V>();
    }
  }

  // How a loop assigns value V: into a buffer that V is the first to use (memory
  // allocated for it, which no operand can reach) without the overlap scan (a
  // large part of a small call); elsewhere (an
  // input's storage, a reused buffer) with it, as a safety net.
  template <std::size_t V>
  static constexpr assign_mode loop_mode =
      pl.same_as[V] == none && pl.where[V] == home::buffer && pl.buffer_value[pl.index[V]] == V ? assign_mode::fresh
                                                                                              : assign_mode::checked;

  // View value W made now, from its root up (a view only computes a place).
  template <std::size_t W>
  void ensure_view() {
    if constexpr (g.is_view(g.viewed(W))) ensure_view<g.viewed(W)>();
    run_view_output<g.producer(W), g.values[W].out>();
  }

  // A view node: output O views the input its view_map names for O.
  template <std::size_t E>
  void run_view() {
    with_indices<g.entries[E].info.num_outputs>([&]<std::size_t... O>() {
      (run_view_output<E, O>(), ...);
    });
  }
  template <std::size_t E, std::size_t O>
  void run_view_output() {
    if constexpr (g.entries[E].info.view_of[O] >= 0) {  // (an opaque op's kernel computes the others)
      constexpr std::size_t V = g.entries[E].first_value + O,
                            A = g.arg(E, static_cast<std::size_t>(g.entries[E].info.view_of[O]));
      using K = view_kernel<typename P::template entry_t<E>::op>;
      const auto out = [&] {  // (the standard view ops have one output and a plain run)
        if constexpr (requires { P::template entry_t<E>::op::dynamic_start; }) return K::run(view<A>(), view<g.arg(E, 1)>());
        else if constexpr (g.entries[E].info.num_outputs == 1) return K::run(view<A>());
        else return K::template run<O>(view<A>());
      }();
      slot& s = slots[V];
      s.p = const_cast<void*>(static_cast<const void*>(out.data()));
      for (std::size_t i = 0; i < rank_of<V>; ++i) s.e[i] = out.extent(i), s.s[i] = out.stride(i);
    }
  }

  // The op a node runs: its registered in-place variant where the rewrite chose
  // one. The generic variant of an elementwise op (ops::inplace_op<Op, I>)
  // computes exactly Op, and runs as Op: loops then have the same types in every
  // plan, and the compiler builds each loop once.
  template <std::size_t E>
  static constexpr auto op_of() {
    using Op = typename P::template entry_t<E>::op;
    if constexpr (pl.rewritten[E] >= 0) {
      using V = inplace_variant<Op, pl.rewritten[E]>;
      if constexpr (std::is_same_v<V, ops::inplace_op<Op, pl.rewritten[E]>> && g.entries[E].info.elementwise)
        return std::type_identity<Op>{};
      else return std::type_identity<V>{};
    } else if constexpr (is_generic_inplace<Op>::value && g.entries[E].info.elementwise) {
      return std::type_identity<typename Op::base_op>{};  // an explicit add_inplace node's loop body is add's
    } else {
      return std::type_identity<Op>{};
    }
  }

  template <std::size_t E, std::size_t O>
  auto output_storage() {
    constexpr std::size_t V = g.entries[E].first_value + O;
    auto out = storage<V>();
    if constexpr (pl.copied[V]) {  // copy-protection: the borrowed input's elements, then in place
      constexpr std::size_t A = g.arg(E, static_cast<std::size_t>(g.entries[E].info.storage[O]));
      detail::assign(out, view<A>(), assign_mode::noalias);
    }
    return out;
  }

  // The outputs an opaque kernel computes (not views), in order.
  template <std::size_t E>
  static constexpr auto computed_outputs() {
    constexpr auto& info = g.entries[E].info;
    std::array<std::size_t, info.num_outputs - num_views(info)> r{};
    for (std::size_t o = 0, k = 0; o < info.num_outputs; ++o)
      if (info.view_of[o] < 0) r[k++] = o;
    return r;
  }
  // Input J of node E, or the plan's copy of it (made now) when the kernel may
  // overwrite it (storage.hpp: arg_copy).
  template <std::size_t E, std::size_t J>
  view_type<g.arg(E, J)> argument() {
    constexpr std::size_t A = g.arg(E, J), R = rank_of<A>;
    if constexpr (pl.arg_copy[E][J] == none) {
      return view<A>();
    } else {
      count_copy();
      tx_extents<R> e{};
      tx_strides<R> s{};
      for (std::size_t i = 0; i < R; ++i) e[i] = slots[A].e[i];
      row_major<R>(e, s);
      const view_type<A> copy(tx_unchecked, static_cast<dtype<A>*>(buffer_of<A>(pl.arg_copy[E][J])), e, s);
      detail::assign(copy, view<A>(), assign_mode::noalias);
      return copy;
    }
  }
  template <std::size_t E>
  void run_opaque() {
    constexpr auto& ent = g.entries[E];
    using Op = typename decltype(op_of<E>())::type;
    if constexpr (ent.info.region >= 0 && ent.info.destroys[0] == 0 && pl.rewritten[E] < 0) count_copy();  // a pure update copies x
    static constexpr auto co = computed_outputs<E>();
    [&]<std::size_t... K, std::size_t... J>(std::index_sequence<K...>, std::index_sequence<J...>) {
      const std::tuple<decltype(output_storage<E, co[K]>())...> outs{output_storage<E, co[K]>()...};
      const std::tuple<view_type<g.arg(E, J)>...> args{argument<E, J>()...};
      // (an op with several outputs always takes them as arguments: op_kernel otherwise)
      if constexpr (g.entries[E].info.num_outputs == 1 &&
                    kernel_returns<Op, decltype(input_types<E>(std::make_index_sequence<g.entries[E].num_args>{}))>::value) {
        const auto result = Op{}.kernel(input_view<E, J>(outs, args)...);
        if constexpr (Kind == plan_kind::reference) check_returned<E>(result);
        if (result.extents() != std::get<0>(outs).extents())
          throw_node_extents<E>("its kernel returned a result of other extents than its shape rule's");
        detail::assign(std::get<0>(outs), result, assign_mode::noalias);
      } else {
        opaque_kernel<Op>::run(std::get<K>(outs)..., input_view<E, J>(outs, args)...);
      }
    }(std::make_index_sequence<co.size()>{}, std::make_index_sequence<ent.num_args>{});
  }
  template <std::size_t E, std::size_t... J>
  static auto input_types(std::index_sequence<J...>)
      -> std::tuple<tensor_view<const dtype<g.arg(E, J)>, rank_spec<rank_of<g.arg(E, J)>>>...>;
  // Input J of node E as its kernel sees it: an input that an output is
  // computed in is that output's storage when the plan copied it there (in the
  // reference, and copy-protection: the kernel never gets the borrowed
  // original of what it may overwrite), else the input or the plan's copy of it.
  // (outs: the computed outputs, views left out; args: argument<E, J>())
  template <std::size_t E, std::size_t J, class Outs, class Args>
  auto input_view(const Outs& outs, const Args& args) const {
    constexpr auto& info = g.entries[E].info;
    constexpr std::size_t o = [] {
      for (std::size_t k = 0, pos = 0; k < info.num_outputs; ++k) {
        if (info.storage[k] == static_cast<int>(J)) return pos;
        pos += info.view_of[k] < 0;
      }
      return none;
    }();
    constexpr bool copied = [] {
      if constexpr (o == none) return false;
      else return Kind == plan_kind::reference || pl.copied[g.entries[E].first_value + computed_outputs<E>()[o]];
    }();
    if constexpr (copied) return as_const(std::get<o>(outs));
    else return as_const(std::get<J>(args));
  }
  // Debug mode: a result a kernel returned must not be (part of) an input.
  template <std::size_t E, class R>
  void check_returned(const R& result) const {
    slot s{const_cast<void*>(static_cast<const void*>(result.data())), {}, {}};
    for (std::size_t i = 0; i < R::rank; ++i) s.e[i] = result.extent(i), s.s[i] = result.stride(i);
    const node_check<G, decltype(slots)> check(g, slots, E, elem_size, false);
    check.check_outside(0, span_of(s, R::rank, sizeof(*result.data())));
  }

  template <std::size_t E>
  void nudge_outputs(int ulps) const {
    constexpr auto& ent = g.entries[E];
    if constexpr (ent.kind == entry_kind::op && ent.info.view_of[0] < 0)
      with_indices<ent.info.num_outputs>([&]<std::size_t... O>() { (nudge(view<ent.first_value + O>(), ulps), ...); });
  }
  // ip::debug_nans: node E's outputs are finite (a view's are its input's, checked before).
  template <std::size_t E>
  void check_finite() const {
    constexpr auto& ent = g.entries[E];
    if constexpr (ent.kind == entry_kind::op && ent.info.view_of[0] < 0) {
      with_indices<ent.info.num_outputs>([&]<std::size_t... O>() {
        (
            [&] {
              constexpr std::size_t W = ent.first_value + O;
              const std::size_t at = first_nonfinite(view<W>());
              if (at != none)
                throw_debug(entry_label(g, E).view(),
                            cat("the first node whose result is NaN or infinite (debug_nans): output ", O, " is ",
                                element_string(view<W>(), at), " at element ", at));
            }(),
            ...);
      });
    }
  }

  // Debug mode: every in-place variant registered for node E's op, run on a copy
  // of the input it overwrites, computes what the op computed (every output).
  template <std::size_t E>
  void check_variants() {
    constexpr auto& ent = g.entries[E];
    if constexpr (ent.kind == entry_kind::op && num_views(ent.info) == 0 && P::facts[E].variants != 0) {
      with_indices<ent.num_args>([&]<std::size_t... J>() { (check_variant<E, J>(), ...); });
    }
  }
  template <std::size_t E, std::size_t J>
  void check_variant() {
    using Op = typename P::template entry_t<E>::op;
    // the variant computes output VO over input J (-1: one the rewrite cannot use)
    constexpr int VO = variant_in_place_output<Op, J, g.entries[E].num_args>();
    constexpr std::size_t V = g.entries[E].first_value + (VO < 0 ? 0 : VO), A = g.arg(E, J),
                          NO = g.entries[E].info.num_outputs;
    if constexpr (VO >= 0 && std::is_same_v<dtype<A>, dtype<V>> && rank_of<A> == rank_of<V>) {
      for (std::size_t i = 0; i < rank_of<V>; ++i)
        if (slots[A].e[i] != slots[V].e[i]) return;  // broadcast: the rewrite never uses it
      using Variant = inplace_variant<Op, static_cast<int>(J)>;
      tensor<dtype<V>, rank_spec<rank_of<V>>> copy(view<A>());
      const auto in_place = copy.view();
      with_indices<NO>([&]<std::size_t... O>() {
        // output VO in the copy, the others in fresh storage
        std::tuple<variant_output_t<E, J, O>...> fresh{variant_output<E, J, O, O == static_cast<std::size_t>(VO)>()...};
        const auto out = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
          if constexpr (K == static_cast<std::size_t>(VO)) return in_place;
          else return std::get<K>(fresh).view();
        };
        if constexpr (g.entries[E].info.elementwise && NO > 1) {
          with_indices<g.entries[E].num_args>([&]<std::size_t... K>() {
            elementwise_loop<Variant>(std::tuple{out(std::integral_constant<std::size_t, O>{})...},
                                      variant_operand<E, K, J>(in_place)...);
          });
        } else if constexpr (g.entries[E].info.elementwise) {
          constexpr std::size_t R = rank_of<V>;
          tx_extents<R> e;
          for (std::size_t i = 0; i < R; ++i) e[i] = slots[V].e[i];
          with_indices<g.entries[E].num_args>([&]<std::size_t... K>() {
            detail::assign(in_place, texpr::make_known(e, Variant{}, variant_operand<E, K, J>(in_place)...),
                           assign_mode::checked);
          });
        } else {
          // (the condition depends on E only: clang 14 instantiates discarded
          // branches whose condition depends on a generic lambda's parameters)
          if constexpr (NO == 1 && kernel_returns<Variant, decltype(input_types<E>(std::make_index_sequence<
                                                                    g.entries[E].num_args>{}))>::value)
            run_returning_variant<E, J, Variant>(in_place);
          else
            with_indices<g.entries[E].num_args>([&]<std::size_t... K>() {
              opaque_kernel<Variant>::run(out(std::integral_constant<std::size_t, O>{})...,
                                          variant_operand<E, K, J>(in_place)...);
            });
        }
        (compare_variant_output<E, J, O, Variant>(out(std::integral_constant<std::size_t, O>{})), ...);
      });
    }
  }
  template <std::size_t E, std::size_t J, class Variant, class C>
  void run_returning_variant(const C& in_place) const {
    with_indices<g.entries[E].num_args>([&]<std::size_t... K>() {
      detail::assign(in_place, Variant{}.kernel(variant_operand<E, K, J>(in_place)...), assign_mode::noalias);
    });
  }
  template <std::size_t E, std::size_t J, std::size_t O>
  using variant_output_t = tensor<dtype<g.entries[E].first_value + O>, rank_spec<rank_of<g.entries[E].first_value + O>>>;
  template <std::size_t E, std::size_t J, std::size_t O, bool InPlace>
  variant_output_t<E, J, O> variant_output() const {
    if constexpr (InPlace) {
      return {};
    } else {
      constexpr std::size_t W = g.entries[E].first_value + O;
      tx_extents<rank_of<W>> e;
      for (std::size_t i = 0; i < rank_of<W>; ++i) e[i] = slots[W].e[i];
      return variant_output_t<E, J, O>(e);
    }
  }
  template <std::size_t E, std::size_t J, std::size_t O, class Variant, class Out>
  void compare_variant_output(const Out& got) {
    constexpr std::size_t W = g.entries[E].first_value + O;
    std::size_t at = first_difference(as_const(got), as_const(view<W>()));
    if (at != none) {  // rounding or contraction? (see within_rounding; only for an op that repeats itself)
      const tensor<dtype<W>, rank_spec<rank_of<W>>> before(view<W>());
      const auto up = rerun_rounded<E, W>(FE_UPWARD);
      const auto down = rerun_rounded<E, W>(FE_DOWNWARD);
      if (first_difference(as_const(before.view()), as_const(view<W>())) == none)
        at = first_difference(as_const(got), as_const(view<W>()), as_const(up.view()), as_const(down.view()));
    }
    if (at != none)
      throw_debug(entry_label(g, E).view(),
                  cat("its in-place variant ", op_name<Variant>(), " (in the storage of input ", J,
                      ") computes something else than the op: ", O > 0 ? cat("output ", O, ", ") : std::string(),
                      "element ", at, " is ", element_string(got, at), " instead of ", element_string(view<W>(), at)));
  }
  // Debug mode: value W of node E computed again with rounding `mode` (a
  // copy, moved by bracket_ulps that way); then again as before, which leaves
  // W as it was.
  template <std::size_t E, std::size_t W>
  tensor<dtype<W>, rank_spec<rank_of<W>>> rerun_rounded(int mode) {
    tensor<dtype<W>, rank_spec<rank_of<W>>> r;
    {
      const rounding_mode rounded(mode);
      run_node<E>();
      r = tensor<dtype<W>, rank_spec<rank_of<W>>>(view<W>());
    }
    nudge(r.view(), mode == FE_UPWARD ? bracket_ulps : -bracket_ulps);
    run_node<E>();
    return r;
  }
  template <std::size_t E, std::size_t K, std::size_t J, class C>
  auto variant_operand(const C& copy) const {
    if constexpr (K == J) return as_const(copy);
    else if constexpr (g.entries[E].info.elementwise) return operand<E, K>();
    else return as_const(view<g.arg(E, K)>());
  }
  template <class T, auto R>
  static tensor_view<const T, R> as_const(const tensor_view<T, R>& v) {
    return v;
  }

  // ---- fused loops -------------------------------------------------------------------
  // The expression of member E: its op over its arguments, members inlined.
  template <std::size_t E>
  auto expr() const {
    using Op = typename decltype(op_of<E>())::type;
    constexpr std::size_t V = g.entries[E].first_value, R = rank_of<V>;
    tx_extents<R> e;
    for (std::size_t i = 0; i < R; ++i) e[i] = slots[V].e[i];
    return with_indices<g.entries[E].num_args>([&]<std::size_t... J>() {
      return texpr::make_known(e, Op{}, loop_operand<E, J>()...);
    });
  }
  // A read of the same elements as another of the step: tagged, to share its pointer (fusion.hpp).
  static constexpr same_reads<G, NE, NV> reads{g, P::index, fu};
  template <std::size_t E, std::size_t J>
  auto loop_operand() const {
    if constexpr (constexpr std::size_t id = reads.ids[g.arg(E, J)]; id != none && texpr::view_like<decltype(operand<E, J>())>)
      return texpr::read_as<id>(operand<E, J>());
    else return operand<E, J>();
  }
  template <std::size_t E, std::size_t J>
  auto operand() const {
    constexpr std::size_t a = g.arg(E, J), pr = g.producer(a);
    using resolved = boost::mp11::mp_at_c<typename P::template entry_t<E>::in_dtypes, J>;
    if constexpr (fu.group[pr] != none && fu.group[pr] == fu.group[E]) return expr<pr>();
    // constants and scalars enter as what the graph says they are (not as a
    // tensor expression's weak C++ numbers): the loop computes in the dtype the
    // graph declares its value with
    else if constexpr (g.entries[pr].kind == entry_kind::constant) {
      // (a weak integer beyond the dtype of the integers beside it, in an op
      // that reads values, keeps its value: u8 > -1_c compares with -1, not 255)
      using C = typename P::template entry_t<pr>;
      if constexpr (reads_weak_value<typename decltype(op_of<E>())::type, resolved, C> && !value_fits<resolved, C>)
        return texpr::scalar_leaf<decltype(constant_value_of<C>())>{constant_value_of<C>()};
      else return texpr::scalar_leaf<resolved>{constant_as<resolved>(C::value)};
    }
    else if constexpr (g.entries[pr].kind == entry_kind::scalar)
      return texpr::scalar_leaf<dtype<a>>{*static_cast<const dtype<a>*>(slots[a].p)};
    else return as_const(view<a>());
  }

  // An elementwise op of several outputs (operator() returns a tuple: output I
  // is element I) runs as a loop of its own over the outputs' extents, operands
  // broadcast NumPy-style (views, or numbers: constants and scalar inputs). For
  // each element every operand is read and every result computed before any is
  // stored: an output may overwrite an input read with its own index pattern.
  template <class Op, class... D, class... X>
  static void elementwise_loop(const std::tuple<D...>& outs, const X&... x) {
    using result = std::remove_cvref_t<decltype(Op{}(std::declval<element_of<X>>()...))>;
    static_assert(tuple_of_size<result, sizeof...(D)>(),
                  "inplace: op_kernel: an elementwise op of several outputs returns them from operator() as one "
                  "tuple (std::tuple, std::pair or std::array), element I being output I; fix: return exactly "
                  "num_outputs scalars, e.g. return std::tuple{a + b, a - b}.");
    if constexpr (tuple_of_size<result, sizeof...(D)>()) {
      constexpr std::size_t R = std::tuple_element_t<0, std::tuple<D...>>::rank, A = R > 0 ? R : 1;
      const auto e = std::get<0>(outs).extents();
      [&]<std::size_t... O, std::size_t... J>(std::index_sequence<O...>, std::index_sequence<J...>) {
        if (((std::get<O>(outs).extents() != e) || ...))  // (an output_shape of its own that breaks the rule)
          throw shape_error("inplace: shape_error: the outputs of an elementwise op have different extents");
        std::size_t n = 1;
        for (std::size_t i = 0; i < R; ++i) n *= e[i];
        if (n == 0) return;
        // strides in the outputs' index space (0 on an axis an operand is broadcast along)
        std::array<std::array<std::ptrdiff_t, A>, sizeof...(O)> os{};
        std::array<std::array<std::ptrdiff_t, A>, sizeof...(J) + 1> xs{};
        ((os[O] = broadcast_strides<A>(std::get<O>(outs), R)), ...);
        ((xs[J] = broadcast_strides<A>(x, R)), ...);
        std::array<std::ptrdiff_t, sizeof...(O)> oo{};
        std::array<std::ptrdiff_t, sizeof...(J) + 1> xo{};
        std::array<std::size_t, A> idx{};
        for (std::size_t k = 0; k < n; ++k) {
          const result r = Op{}(element_at(x, xo[J])...);
          ((std::get<O>(outs).data()[oo[O]] =
                inplace::detail::convert<typename std::tuple_element_t<O, std::tuple<D...>>::value_type>(std::get<O>(r))),
           ...);
          for (std::size_t a = R; a-- > 0;) {  // the next index, last axis fastest
            if (++idx[a] < e[a]) {
              ((oo[O] += os[O][a]), ...);
              ((xo[J] += xs[J][a]), ...);
              break;
            }
            idx[a] = 0;
            const auto back = static_cast<std::ptrdiff_t>(e[a] - 1);
            ((oo[O] -= back * os[O][a]), ...);
            ((xo[J] -= back * xs[J][a]), ...);
          }
        }
      }(std::index_sequence_for<D...>{}, std::index_sequence_for<X...>{});
    }
  }
  template <class X>
  static auto element_type_of() {
    if constexpr (requires(const X& v) { v.data(); }) return std::type_identity<std::remove_cv_t<typename X::value_type>>{};
    else if constexpr (requires(const X& l) { l.v; }) return std::type_identity<decltype(X::v)>{};  // a constant or scalar
    else return std::type_identity<X>{};
  }
  template <class X>
  using element_of = typename decltype(element_type_of<X>())::type;
  template <class X>
  static element_of<X> element_at(const X& x, std::ptrdiff_t off) {
    if constexpr (requires { x.data(); }) return x.data()[off];
    else if constexpr (requires { x.v; }) return x.v;
    else return x;
  }
  template <std::size_t A, class X>
  static std::array<std::ptrdiff_t, A> broadcast_strides(const X& x, std::size_t R) {
    std::array<std::ptrdiff_t, A> s{};
    if constexpr (requires { x.data(); }) {
      constexpr std::size_t M = X::rank;
      for (std::size_t i = 0; i < M; ++i) s[R - M + i] = x.extent(i) == 1 ? 0 : x.stride(i);
    }
    return s;
  }
  template <class T, std::size_t N>
  static constexpr bool tuple_of_size() {
    if constexpr (requires { std::tuple_size<T>::value; }) return std::tuple_size<T>::value == N;
    else return false;
  }

  // ---- row chains (program.hpp: row_chainer) -------------------------------------------
  // The values chain H's members read or compute, each once (a row value's
  // extents too: its block is bound to it when materialised).
  template <std::size_t H>
  static constexpr auto chain_values() {
    constexpr auto list = [](auto add) {
      std::array<bool, NV> seen{};
      for (std::size_t e = 0; e < NE; ++e) {
        if (fu.chain[e] != H) continue;
        const auto one = [&](std::size_t v) {
          if (!seen[v]) seen[v] = true, add(v);
        };
        for (std::size_t j = 0; j < g.entries[e].num_args; ++j) one(g.arg(e, j));
        for (std::size_t o = 0; o < g.entries[e].info.num_outputs; ++o) one(g.entries[e].first_value + o);
      }
    };
    constexpr std::size_t n = [&] {
      std::size_t c = 0;
      list([&](std::size_t) { ++c; });
      return c;
    }();
    std::array<std::size_t, n> r{};
    std::size_t k = 0;
    list([&](std::size_t v) { r[k++] = v; });
    return r;
  }
  // Value V's part in the block [idx[a], idx[a] + b) of axis a (N - 2: a block
  // of rows) at the outer index idx of a frame of rank N (V's axes aligned to
  // the frame's right, or its left: a reduction's result). Broadcast axes and
  // the axes after a stay whole.
  template <std::size_t V, std::size_t N, bool Left>
  void slice(const slot& from, const std::array<std::size_t, P::max_rank>& idx, std::size_t b, std::size_t a = N - 2) {
    constexpr std::size_t M = rank_of<V>;
    constexpr std::ptrdiff_t shift = Left ? 0 : static_cast<std::ptrdiff_t>(N) - static_cast<std::ptrdiff_t>(M);
    // where the elements are (a value inside a loop has extents only)
    constexpr bool located = !g.is_op(g.values[V].entry) || g.is_view(V) || fu.stored[V];
    slot& to = slots[V];
    to = from;
    std::ptrdiff_t off = 0;
    for (std::size_t k = 0; k <= a; ++k) {
      const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(k) - shift;
      if (j < 0 || j >= static_cast<std::ptrdiff_t>(M) || from.e[static_cast<std::size_t>(j)] == 1) continue;
      if constexpr (located) off += static_cast<std::ptrdiff_t>(idx[k]) * from.s[static_cast<std::size_t>(j)];
      to.e[static_cast<std::size_t>(j)] = k == a ? b : 1;
    }
    if constexpr (located) to.p = static_cast<char*>(from.p) + off * static_cast<std::ptrdiff_t>(sizeof(dtype<V>));
  }
  template <std::size_t V, class D>
  void bind(const D& d) {
    slot& s = slots[V];
    s.p = d.data();
    for (std::size_t i = 0; i < rank_of<V>; ++i) s.e[i] = d.extent(i), s.s[i] = d.stride(i);
  }
  // The one row value loop Grp reads (none: it reads none).
  template <std::size_t Grp>
  static constexpr std::size_t row_leaf = [] {
    for (std::size_t e = 0; e < NE; ++e)
      if (g.is_op(e) && fu.group[e] == Grp)
        for (std::size_t j = 0; j < g.entries[e].num_args; ++j)
          if (fu.row_value[g.arg(e, j)]) return g.arg(e, j);
    return none;
  }();
  // Value V's block (the sliced slots') computed into d: a loop's result over
  // its operands (its row value first, into d), or softmax over its operand's.
  // Into the chain's own scratch block (Fresh), which no operand reaches, the
  // assignments skip the overlap scan; into a value's storage they keep it.
  template <std::size_t V, bool Fresh, class D>
  void materialize(const D& d) {
    constexpr assign_mode mode = Fresh ? assign_mode::fresh : assign_mode::checked;
    constexpr std::size_t E = g.producer(V);
    if constexpr (g.entries[E].info.elementwise) {
      constexpr std::size_t RL = row_leaf<fu.group[E]>;
      if constexpr (RL != none) {
        materialize<RL, Fresh>(d);
        bind<RL>(d);
      }
      detail::assign(d, expr<E>(), mode);
    } else {
      constexpr std::size_t U = g.arg(E, 0);
      if constexpr (fu.row_value[U]) materialize<U, Fresh>(d);
      else detail::assign(d, as_const(view<U>()), mode);
      constexpr std::size_t N = rank_of<V>;
      const std::size_t b = d.extent(N - 2), n = d.extent(N - 1);
      for (std::size_t r = 0; r < b; ++r)
        texpr::softmax_row(d.data() + static_cast<std::ptrdiff_t>(r) * d.stride(N - 2), n, d.stride(N - 1));
    }
  }
  // Chain H's loop result F walked block by block along axis a (N - 2: blocks
  // of whole rows), per_block at a time: each block slices every value of the
  // chain to it (the chain's output W by its left axes when Reduced: a
  // reduction's result) and calls body(b), b the block's length. The slots are
  // restored at the end.
  template <std::size_t H, bool Reduced, class Body>
  void for_each_block(std::size_t a, std::size_t per_block, Body body) {
    constexpr std::size_t F = fu.frame[H], W = fu.chain_out[H], N = rank_of<F>;
    static constexpr auto vs = chain_values<H>();
    const auto saved = slots;
    const std::size_t len = saved[F].e[a];
    std::size_t outer = 1;
    for (std::size_t k = 0; k < a; ++k) outer *= saved[F].e[k];
    std::array<std::size_t, P::max_rank> idx{};
    for (std::size_t o = 0; o < outer; ++o) {
      for (std::size_t k = a, rest = o; k-- > 0;) idx[k] = rest % saved[F].e[k], rest /= saved[F].e[k];
      for (std::size_t i0 = 0; i0 < len; i0 += per_block) {
        const std::size_t b = len - i0 < per_block ? len - i0 : per_block;
        idx[a] = i0;
        with_indices<vs.size()>([&]<std::size_t... K>() {
          (slice<vs[K], N, Reduced && vs[K] == W>(saved[vs[K]], idx, b, a), ...);
        });
        body(b);
      }
    }
    slots = saved;
  }
  // A scratch view of F's shape with extent b on axis a, C on the axes after it
  // and 1 before: one block of for_each_block, row-major.
  template <std::size_t F, class T>
  static view_type<F> block_view(T* scratch, std::size_t a, std::size_t b, std::size_t C) {
    constexpr std::size_t N = rank_of<F>;
    tx_extents<N> e{};
    for (std::size_t i = 0; i < N; ++i) e[i] = i < a ? 1 : i == a ? b : C;
    tx_strides<N> st{};
    row_major<N>(e, st);
    return view_type<F>(tx_unchecked, scratch, e, st);
  }
  // Chain H, block by block: each block's rows fit row_scratch_bytes (at least one row).
  template <std::size_t H>
  void run_chain() {
    constexpr std::size_t F = fu.frame[H], W = fu.chain_out[H], N = rank_of<F>;
    constexpr bool reduces = W == g.entries[H].first_value && !g.entries[H].info.elementwise &&
                             P::row_kinds[H] == row_kind::reduce;
    using T = dtype<F>;
    (void)storage<W>();
    const std::size_t C = slots[F].e[N - 1], rows = slots[F].e[N - 2];
    // a reduction's block: on the stack when one row fits, else one row allocated
    // (storage.hpp: place_chain; ip::plan counts it when the row's extent is static)
    constexpr std::size_t CS = g.values[F].value_shape.extent[N - 1];
    constexpr bool may_stack = reduces && (CS == dynamic || CS * sizeof(T) <= row_scratch_bytes);
    alignas(64) unsigned char stack[may_stack ? row_scratch_bytes : 1];
    const std::size_t row_bytes = C * sizeof(T);
    const bool on_stack = !reduces || (may_stack && row_bytes <= row_scratch_bytes);
    block heap;
    T* scratch = reinterpret_cast<T*>(stack);
    if (!on_stack) {
      heap = allocate_block((C > 0 ? C : 1) * sizeof(T));
      count_allocation();
      scratch = static_cast<T*>(heap.get());
    }
    const std::size_t per_block = !on_stack ? 1 : row_bytes == 0 ? (rows > 0 ? rows : 1)
                                                 : (row_bytes >= row_scratch_bytes ? 1 : row_scratch_bytes / row_bytes);
    for_each_block<H, reduces>(N - 2, per_block, [&](std::size_t b) {
      if constexpr (reduces) {
        materialize<F, true>(block_view<F>(scratch, N - 2, b, C));
        using Op = typename P::template entry_t<H>::op;
        const auto out = view<W>();
        constexpr std::size_t RO = rank_of<W>;
        const std::ptrdiff_t os = RO + 1 == N ? out.stride(RO - 1) : out.stride(N - 2);
        for (std::size_t r = 0; r < b; ++r)
          out.data()[static_cast<std::ptrdiff_t>(r) * os] = reduce_row<Op, dtype<W>>(scratch + r * C, C);
      } else {
        materialize<W, false>(view<W>());
      }
    });
  }
  // Total chain H (a reduction over every axis of its loop's result F): F block
  // by block on the stack, in row-major order, each block reduced as it comes
  // (texpr::run_reducer, block_summer: the unfused kernel's operations on the
  // whole of F). A block is whole rows when a row fits it (axis N - 2), else a
  // piece of one row (axis N - 1); nothing is allocated but the result.
  template <std::size_t H>
  void run_total() {
    constexpr std::size_t F = fu.frame[H], W = fu.chain_out[H], N = rank_of<F>;
    using T = dtype<F>;
    using R = dtype<W>;
    using Op = typename P::template entry_t<H>::op;
    (void)storage<W>();
    constexpr std::size_t per_run = row_scratch_bytes / sizeof(T);
    const std::size_t C = slots[F].e[N - 1];
    const bool by_rows = N >= 2 && C > 0 && C <= per_run;
    const std::size_t a = by_rows ? N - 2 : N - 1;
    const std::size_t unit = by_rows ? C : 1, per_block = by_rows ? per_run / C : per_run;
    alignas(64) unsigned char stack[row_scratch_bytes];
    T* const scratch = reinterpret_cast<T*>(stack);
    const auto reduce_all = [&](auto& acc) {
      for_each_block<H, false>(a, per_block, [&](std::size_t b) {
        materialize<F, true>(block_view<F>(scratch, a, b, C));
        acc.add(scratch, b * unit);
      });
    };
    R result;
    if constexpr (is_reduction<Op>::value) {
      texpr::run_reducer<typename Op::reducer, R, T> acc;
      reduce_all(acc);
      result = acc.result();
    } else {
      texpr::block_summer<T> acc;
      reduce_all(acc);
      result = static_cast<R>(acc.sum());
    }
    *view<W>().data() = result;
  }
  template <class Op, class R, class T>
  static R reduce_row(const T* p, std::size_t n) {
    if constexpr (is_reduction<Op>::value) return texpr::reduce_row<typename Op::reducer, R>(p, n);
    else return static_cast<R>(texpr::sum_row(p, n, 1));
  }

  template <std::size_t Grp>
  static constexpr auto stored_values() {  // the values loop Grp stores, in schedule order
    constexpr std::size_t n = [] {
      std::size_t c = 0;
      for (std::size_t q = 0; q < fu.num_steps; ++q)
        if (fu.group[fu.order[q]] == Grp && fu.stored[g.entries[fu.order[q]].first_value]) ++c;
      return c;
    }();
    std::array<std::size_t, n> r{};
    for (std::size_t q = 0, c = 0; q < fu.num_steps; ++q)
      if (fu.group[fu.order[q]] == Grp && fu.stored[g.entries[fu.order[q]].first_value])
        r[c++] = g.entries[fu.order[q]].first_value;
    return r;
  }

  template <std::size_t Grp>
  INPLACE_CLANG_INLINE void run_group() {
    static constexpr auto vs = stored_values<Grp>();
    with_indices<vs.size()>([&]<std::size_t... K>() INPLACE_CLANG_INLINE {
      if constexpr (sizeof...(K) == 1) {
        constexpr std::size_t V = vs[0];
        detail::assign(storage<V>(), expr<g.values[V].entry>(), loop_mode<V>);
      } else {
        const std::tuple<view_type<vs[K]>...> dsts{storage<vs[K]>()...};
        texpr::assign_multi<rank_of<vs[0]>>(dsts, std::tuple{expr<g.values[vs[K]].entry>()...});
      }
    });
  }
};

#undef INPLACE_CLANG_INLINE
}  // namespace inplace::detail::run

#include "inplace/detail/shadow_on.hpp"
