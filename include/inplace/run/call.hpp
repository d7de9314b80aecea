#pragma once
// f(args...): running a checked function.
//
// Arguments bind to ip::inputs(...) in order: ip::tensor (lvalue, const, or
// rvalue), ip::tensor_view, and plain numbers for ip::scalar inputs. A tensor
// argument's rank and dtype must be its input's (a compile error naming the
// input otherwise); extents are checked before anything runs (ip::shape_error).
//
// Donation: an rvalue ip::tensor with the default allocator is donated: the call
// may compute in its storage and return it. Everything else is borrowed and
// never written: a graph that destroys a borrowed input works on a copy. If a
// donated argument overlaps another argument (by address range), or the
// arguments' extents do not fit the plan of their donation pattern (a dynamic
// extent of 1 broadcast where the plan computes in place), the call runs the
// plan of all-borrowed arguments without the rewrite instead: same results,
// more memory. A borrowed strided view passed to an input that the graph
// reshapes or flattens is copied once (NumPy's reshape copies too). Under
// ip::strict_donation, donating an argument whose storage the plan never uses
// does not compile (inplace: unused_donation); under ip::debug_nans, an output
// holding a NaN or an infinity makes the call name the first node producing it.
//
// Results: the single output, or a std::tuple of them:
//  - a computed value: an ip::tensor owning its storage (a donated argument's,
//    o.data() == the argument's old data(), or a fresh buffer);
//  - an input, or a view of one, that was borrowed: an ip::tensor_view into the
//    caller's storage (of const elements if the argument was const);
//  - a donated input returned as it is: that tensor, moved;
//  - a view of a donated input or of a computed value: an ip::kept_view, which
//    keeps that storage alive (unless the viewed value is itself returned as a
//    tensor: then a tensor_view into that tensor);
//  - a scalar input or a constant: a rank-0 tensor;
//  - the output of an io_alias honoured by a copy (a may_alias that in place
//    would break a rule: graph/detail/analysis.hpp), its input donated: a tensor
//    in that input's storage, copied there when the graph has run, after every
//    output living in that storage was copied out (a fresh tensor each).
// An output returned twice is a tensor the second time too (a copy).
//
// If a call throws, no borrowed argument was modified. A donated argument keeps
// its storage until the call returns: after a throw it holds its storage with
// unspecified elements (the call may have written them); after a return it is
// empty if an output took its storage, and otherwise owns its storage with
// unspecified elements.

#include "inplace/detail/indices.hpp"
#include "inplace/graph/detail/diagnostics.hpp"
#include "inplace/graph/function.hpp"
#include "inplace/run/detail/executor.hpp"
#include "inplace/run/kept_view.hpp"
#include "inplace/run/plan.hpp"
#include "inplace/tensor/tensor.hpp"
#include "inplace/tensor/tensor_view.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {
namespace diagnostic {
template <class... Names>
struct argument_mismatch : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: argument_mismatch: an argument does not fit its input (the input, then what it expects, "
                "then the argument's type, in diagnostic::argument_mismatch<...>); fix: pass an ip::tensor or "
                "ip::tensor_view of the input's rank and dtype for a tensor input, a number for a scalar input.");
};
template <class... Names>
struct must_alias : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: must_alias: an output declared io_alias<O, I>(ip::must_alias) is returned in input I's "
                "storage, so argument I (named in diagnostic::must_alias<...>) must be donated; fix: pass it as an "
                "rvalue (std::move(t)).");
};
template <class... Names>
struct unused_donation : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: unused_donation: the function was built with ip::strict_donation, and this call donates "
                "an argument (an rvalue) whose storage its plan never uses: no node computes in it and no output "
                "returns it (the input is named in diagnostic::unused_donation<...>); fix: pass that argument as "
                "an lvalue (borrowed), or build the function without ip::strict_donation.");
};
template <class... Names>
struct argument_count : any_use {
  static_assert(holds_for_names<sizeof...(Names)>,
                "inplace: argument_count: f(args...) takes one argument per input of ip::inputs(...) (their "
                "numbers in diagnostic::argument_count<...>); fix: pass the arguments in the order of "
                "ip::inputs(...), one each.");
};
template <class Dtype, std::size_t Rank>
struct tensor_of {};
template <std::size_t N>
struct count {};
}  // namespace diagnostic


namespace detail::run {

template <class A>
using plain = std::remove_cvref_t<A>;

// An argument the call may compute in: an rvalue tensor of the default allocator.
template <class A>
inline constexpr bool donatable = [] {
  if constexpr (texpr::tensor_like<A>)
    return !std::is_lvalue_reference_v<A> && !std::is_const_v<std::remove_reference_t<A>> &&
           std::is_same_v<typename plain<A>::allocator_type, aligned_allocator<typename plain<A>::value_type>>;
  else
    return false;
}();

// An input's name as a type, printed as diagnostics print names ("x" on g++,
// chars<'x'> on clang, which prints a fixed_string as character codes).
#if INPLACE_CLANG
template <class I, std::size_t... K>
constexpr auto input_name(std::index_sequence<K...>) -> diagnostic::chars<I::name[K]...>;
template <class I>
using input_name_t = decltype(input_name<I>(std::make_index_sequence<I::name.size()>{}));
#else
template <class I>
inline constexpr auto input_fixed_name = [] {
  fixed_string<I::name.size() + 1> s;
  for (std::size_t i = 0; i < I::name.size(); ++i) s.value[i] = I::name[i];
  return s;
}();
template <class I>
using input_name_t = diagnostic::name<input_fixed_name<I>>;
#endif

template <class I, class A>
constexpr bool fits_input() {
  if constexpr (I::kind == entry_kind::scalar) return std::is_arithmetic_v<plain<A>>;
  else if constexpr (texpr::tensor_like<A> || texpr::view_like<A>)
    return plain<A>::rank == I::value_shape.rank && std::is_same_v<texpr::value_t<A>, typename I::dtype>;
  else return false;
}

template <class S, class... A>
struct call_types;
template <class... I, class... O, class... Opt, class... A>
struct call_types<spec<inputs_t<I...>, outputs_t<O...>, Opt...>, A...> {
  static constexpr std::uint64_t mask = [] {
    std::uint64_t m = 0, bit = 1;
    ((m |= donatable<A> ? bit : 0, bit <<= 1), ...);
    return m;
  }();
  // The first input that a must_alias output lives in, passed borrowed (none: every one is donated).
  static constexpr std::size_t must_alias_borrowed = [] {
    using S = spec<inputs_t<I...>, outputs_t<O...>, Opt...>;
    constexpr std::array<bool, sizeof...(A) + 1> donated{donatable<A>..., false};
    for (std::size_t k = 0; k < S::graph_type::num_aliases; ++k) {
      const auto& al = S::graph_value.aliases[k];
      if (al.must && !donated[static_cast<std::size_t>(al.input)]) return static_cast<std::size_t>(al.input);
    }
    return none;
  }();
};

// ip::strict_donation: the first input that mask M donates whose storage the
// plan of M never uses (no value is computed in it, no output returns it or a
// view of it); none: every donation is used.
template <class S, std::uint64_t M>
constexpr std::size_t first_unused_donation() {
  using G = typename S::graph_type;
  const auto& g = S::graph_value;
  const auto& ix = program<S>::index;
  const auto& pl = plan_for<S, M>::value;
  for (std::size_t k = 0; k < G::num_inputs; ++k) {
    if (!(M >> k & 1u)) continue;
    const std::size_t in = g.entries[g.inputs[k]].first_value;
    bool used = false;
    for (std::size_t v = 0; v < G::num_values; ++v)
      used = used || (v != in && pl.where[v] == home::input && pl.index[v] == k);
    for (std::size_t o = 0; o < G::num_outputs; ++o) {
      const std::size_t into = alias_copy_input(g, ix, o);  // (copied into another donated storage: not returned)
      if (into == none || !(M >> into & 1u)) used = used || ix.input_of[ix.root[g.outputs[o]]] == k;
    }
    used = used || pl.alias_target[in];  // an io_alias output is copied into it
    if (!used) return k;
  }
  return none;
}
template <class S, class... A>
constexpr std::size_t unused_donation() {
  if constexpr (S::strict_donation) return first_unused_donation<S, call_types<S, A...>::mask>();
  else return none;
}

// What function_t::operator() returns for arguments A...: void when they fit
// (the call runs), else the diagnostic type of the first broken rule, which the
// call instantiates at the user's line (see graph/function.hpp).
template <class S, class... A>
constexpr auto call_error() {
  using G = typename S::graph_type;
  if constexpr (sizeof...(A) != G::num_inputs) {
    return std::type_identity<diagnostic::argument_count<diagnostic::count<G::num_inputs>, diagnostic::count<sizeof...(A)>>>{};
  } else {
    constexpr auto first_bad = []<class... I>(mp_list<I...>) {
      constexpr bool fits[] = {fits_input<I, A>()..., true};
      std::size_t k = 0;
      while (k < sizeof...(A) && fits[k]) ++k;
      return k;
    }(typename S::input_list{});
    if constexpr (first_bad < sizeof...(A)) {
      using I = boost::mp11::mp_at_c<typename S::input_list, first_bad>;
      using Arg = boost::mp11::mp_at_c<mp_list<A...>, first_bad>;
      return std::type_identity<diagnostic::argument_mismatch<
          input_name_t<I>, diagnostic::tensor_of<typename I::dtype, I::value_shape.rank>, plain<Arg>>>{};
    } else if constexpr (call_types<S, A...>::must_alias_borrowed != none) {
      using I = boost::mp11::mp_at_c<typename S::input_list, call_types<S, A...>::must_alias_borrowed>;
      return std::type_identity<diagnostic::must_alias<input_name_t<I>>>{};
    } else if constexpr (unused_donation<S, A...>() != none) {
      using I = boost::mp11::mp_at_c<typename S::input_list, unused_donation<S, A...>()>;
      return std::type_identity<diagnostic::unused_donation<input_name_t<I>>>{};
    } else {
      return std::type_identity<void>{};
    }
  }
}

}  // namespace detail::run
namespace detail {
template <class S, class... A>
struct call_check {
  using type = typename decltype(run::call_error<S, A...>())::type;
};
}  // namespace detail
namespace detail::run {

// View ops that need their input's elements in row-major order say so
// (needs_row_major_input: reshape, flatten, a user's view op).
template <class Op>
inline constexpr bool needs_row_major = requires { requires Op::needs_row_major_input; };

template <class S, class... A>
class debug_invocation;

// Runs function spec S on arguments a...: binds them, picks the plan, runs it,
// and makes the results.
template <class S, class... A>
class invocation {
  using P = program<S>;
  using G = typename P::G;
  static constexpr const G& g = S::graph_value;
  static constexpr std::uint64_t mask = call_types<S, A...>::mask;
  using fast = executor<S, mask, plan_kind::fast>;
  // The fallback (see the top of this file); the same type when its plan is the
  // same, so that the compiler builds one executor.
  static constexpr bool same_plans = [] {
    const auto& a = plan_for<S, mask>::value;
    const auto& b = plan_for<S, 0, plan_kind::safe>::value;
    for (std::size_t v = 0; v < G::num_values; ++v)
      if (a.where[v] != b.where[v] || a.index[v] != b.index[v] || a.copied[v] != b.copied[v]) return false;
    for (std::size_t e = 0; e < G::num_entries; ++e)
      if (a.rewritten[e] != b.rewritten[e]) return false;
    for (std::size_t k = 0; k < a.num_buffers; ++k)
      if (a.buffer_dies[k] != b.buffer_dies[k]) return false;
    return a.num_buffers == b.num_buffers;
  }();
  using safe = std::conditional_t<same_plans, fast, executor<S, 0, plan_kind::safe>>;
  static constexpr std::size_t NI = G::num_inputs;
  static constexpr std::size_t NO = G::num_outputs;

 public:
  explicit invocation(A&&... a) : args_(std::forward<A>(a)...) {}

  // Inlined into call(): one stack frame per call, not two (a second frame's
  // prologue and epilogue are a measurable part of a small call).
  [[gnu::always_inline]] auto operator()() {
    count_reset();
    fast run_fast;
    bind(run_fast);
    run_fast.compute_extents();
    if constexpr (must_alias_mask != 0) refuse_overlapping_must_alias();
    if (same_plans || (!overlapping_donation() && run_fast.plan_fits())) {
      run_fast.run();
      return results(run_fast);
    }
    return run_safe();
  }

 private:
  template <class, class...>
  friend class debug_invocation;  // debug mode, built on the call (run/detail/debug_invocation.hpp)

  std::tuple<A&&...> args_;

  template <std::size_t K>
  using input_t = boost::mp11::mp_at_c<typename S::input_list, K>;
  template <std::size_t K>
  using arg_t = std::tuple_element_t<K, std::tuple<A...>>;

  // The fallback, out of line: its executor is not on the stack of every call.
  [[gnu::noinline]] auto run_safe() {
    safe x;
    bind(x);
    x.compute_extents();
    x.run();
    return results(x);
  }

  // ---- binding -------------------------------------------------------------------
  template <class X>
  void bind(X& x) {
    bind(x, args_);
  }
  template <class X, class Args>
  void bind(X& x, Args& args) {
    with_indices<NI>([&]<std::size_t... K>() { (bind_one<K>(x, std::get<K>(args)), ...); });
  }
  template <std::size_t K, class X, class Arg>
  void bind_one(X& x, Arg& a) {
    using I = input_t<K>;
    constexpr std::size_t v = g.entries[g.inputs[K]].first_value;
    auto& s = x.slots[v];
    if constexpr (I::kind == entry_kind::scalar) {
      const auto value = static_cast<typename I::dtype>(a);
      std::memcpy(x.scalars[K].bytes, &value, sizeof value);
      s.p = x.scalars[K].bytes;
    } else {
      constexpr std::size_t R = I::value_shape.rank;
      s.p = const_cast<void*>(static_cast<const void*>(a.data()));
      for (std::size_t i = 0; i < R; ++i) s.e[i] = a.extent(i), s.s[i] = a.stride(i);
      bool fits = true;
      for (std::size_t i = 0; i < R; ++i) fits = fits && (I::value_shape.extent[i] == dynamic || I::value_shape.extent[i] == s.e[i]);
      if (!fits) throw_input_extents<I>(s);
      if (R == 0 && s.p == nullptr)
        throw shape_error("inplace: shape_error: input \"" + std::string(I::name) +
                          "\": a rank-0 argument without storage (moved from?) has no value");
      if constexpr (densified<K> && !texpr::tensor_like<Arg>)
        if (!a.is_contiguous()) bind_dense<K>(s, a);
    }
  }

  // A borrowed strided view passed to an input that the graph reshapes or
  // flattens (views that need row-major elements): the call copies it once,
  // as NumPy's reshape does, and reads the copy (counted as a copy and an
  // allocation; ip::plan cannot know an argument's strides and counts none).
  // Not when an output is that input or a view of it: such an output is a view
  // into the caller's storage, and the error (shape_error) stays.
  template <std::size_t E>
  static constexpr std::size_t reshaped_by() {  // the input whose elements node E reshapes, or none
    if constexpr (g.entries[E].kind != entry_kind::op) return none;
    else if constexpr (!needs_row_major<typename P::template entry_t<E>::op>) return none;
    else return P::index.input_of[P::index.root[g.arg(E, 0)]];
  }
  template <std::size_t K>
  static constexpr bool densified = [] {
    if constexpr (input_t<K>::kind == entry_kind::scalar || texpr::tensor_like<arg_t<K>>) {
      return false;
    } else {
      for (std::size_t o = 0; o < NO; ++o)
        if (P::index.input_of[P::index.root[g.outputs[o]]] == K) return false;
      return with_indices<G::num_entries>([]<std::size_t... E>() { return ((reshaped_by<E>() == K) || ...); });
    }
  }();
  struct no_copy {};
  template <std::size_t K>
  using dense_copy = std::conditional_t<densified<K>, tensor<typename input_t<K>::dtype, rank_spec<input_t<K>::value_shape.rank>>, no_copy>;
  template <std::size_t... K>
  static auto dense_copies(std::index_sequence<K...>) -> std::tuple<dense_copy<K>...>;
  [[no_unique_address]] decltype(dense_copies(std::make_index_sequence<NI>{})) dense_{};
  template <std::size_t K, class Slot, class Arg>
  void bind_dense(Slot& s, const Arg& a) {
    auto& c = std::get<K>(dense_);
    if (c.data() == nullptr) {  // (the fallback plan binds again: one copy)
      c = dense_copy<K>(a.view());
      count_allocation();
      count_copy();
    }
    s.p = c.data();
    for (std::size_t i = 0; i < input_t<K>::value_shape.rank; ++i) s.s[i] = c.stride(i);
  }
  template <class I, class Slot>
  [[noreturn, gnu::cold]] static void throw_input_extents(const Slot& s) {
    constexpr std::size_t R = I::value_shape.rank;
    std::array<std::size_t, R> want{}, got{};
    for (std::size_t i = 0; i < R; ++i) want[i] = I::value_shape.extent[i], got[i] = s.e[i];
    throw shape_error("inplace: shape_error: input \"" + std::string(I::name) + "\" has static extents " +
                      tx_shape_string(want) + " but the argument has extents " + tx_shape_string(got));
  }

  // A donated argument whose elements overlap another argument's. The pairs
  // are chosen at compile time: each donated argument against every other
  // tensor argument (a loop over all pairs with run-time tests of the mask
  // costs a small call measurably).
  struct byte_range {
    const unsigned char* first = nullptr;
    const unsigned char* last = nullptr;
  };
  // (an empty range strictly inside another counts as overlapping it: the call
  // then runs the all-borrowed plan, with the same results)
  static bool overlap(const byte_range& a, const byte_range& b) { return a.first < b.last && b.first < a.last; }
  bool overlapping_donation() const {
    if constexpr (mask == 0) {
      return false;
    } else {
      std::array<byte_range, NI> r{};
      with_indices<NI>([&]<std::size_t... K>() { (range_of<K>(r[K].first, r[K].last), ...); });
      return with_indices<NI>([&]<std::size_t... K>() { return (donated_overlaps<K>(r) || ...); });
    }
  }
  // The donated inputs that a must_alias output lives in (a bit each).
  static constexpr std::uint64_t must_alias_mask = [] {
    std::uint64_t m = 0;
    for (std::size_t k = 0; k < G::num_aliases; ++k)
      if (g.aliases[k].must) m |= std::uint64_t{1} << g.aliases[k].input;
    return m & mask;
  }();
  // A must_alias output is computed in its input's storage or not at all (as
  // XLA's must-alias): a donated argument overlapping another could only take
  // a fresh tensor, so the call throws before anything runs.
  void refuse_overlapping_must_alias() const {
    std::array<byte_range, NI> r{};
    with_indices<NI>([&]<std::size_t... K>() { (range_of<K>(r[K].first, r[K].last), ...); });
    with_indices<NI>([&]<std::size_t... K>() {
      (
          [&] {
            if constexpr (must_alias_mask >> K & 1u) {
              if (donated_overlaps<K>(r))
                throw alias_error("inplace: alias_error: an output is ip::must_alias to input \"" +
                                  std::string(input_t<K>::name) +
                                  "\", but the argument donated for it overlaps another argument, so the "
                                  "output cannot be computed in its storage; nothing was run. Fix: pass "
                                  "arguments that do not overlap, or declare the alias ip::may_alias.");
            }
          }(),
          ...);
    });
  }
  template <std::size_t K, class R>
  static bool donated_overlaps(const R& r) {
    if constexpr (!(mask >> K & 1u)) {
      return false;
    } else {
      return with_indices<NI>([&]<std::size_t... J>() {
        return ((J != K && input_t<J>::kind != entry_kind::scalar && overlap(r[K], r[J])) || ...);
      });
    }
  }
  template <std::size_t K>
  void range_of(const unsigned char*& first, const unsigned char*& last) const {
    if constexpr (input_t<K>::kind != entry_kind::scalar) {
      const auto& a = std::get<K>(args_);
      if constexpr (texpr::tensor_like<arg_t<K>>) {  // contiguous: no need to walk the strides
        first = reinterpret_cast<const unsigned char*>(a.data());
        last = first + a.size() * sizeof(*a.data());
      } else {
        const auto b = tx_bytes_of(a.data(), a.extents(), a.strides());
        first = b.first;
        last = b.last;
      }
    }
  }

  // ---- results -------------------------------------------------------------------
  static constexpr const graph_index<G>& ix = P::index;
  // Whether value V lives in part of a storage (an in-place op on a slice): it is
  // returned as a kept_view of that storage, never as a tensor.
  template <std::size_t V>
  static constexpr bool in_view = lives_in_view(g, V);
  // Owners of the storage that kept_view results keep alive (none for most
  // functions), by storage: buffer k at k, input k's at NV + k.
  static constexpr bool views_kept = [] {
    for (std::size_t k = 0; k < NO; ++k) {
      const std::size_t v = g.outputs[k];
      if (ix.root[v] != v || lives_in_view(g, v)) return true;
    }
    return false;
  }();
  std::array<std::shared_ptr<void>, views_kept ? P::NV + NI : 0> owners_{};
  template <std::size_t R, class X>
  static constexpr std::size_t owner_key() {
    if constexpr (ix.input_of[R] != none) return P::NV + ix.input_of[R];
    else if constexpr (X::pl.where[R] == home::input) return P::NV + X::pl.index[R];
    else return X::pl.index[R];
  }

  template <class X>
  auto results(X& x) {
    if constexpr (alias_copies) save_outputs(x);
    return with_indices<NO>([&]<std::size_t... K>() {
      if constexpr (NO == 1) return output<0>(x);
      else return std::tuple<decltype(output<K>(x))...>{output<K>(x)...};
    });
  }

  // The storage block of root value R, taken over from the buffer or the donated argument.
  template <std::size_t R, class X>
  void* take_block(X& x) {
    constexpr std::size_t k = ix.input_of[R];
    if constexpr (k != none) {
      return detail::tensor_access::take(std::get<k>(args_));
    } else if constexpr (X::pl.where[R] == home::input) {
      return detail::tensor_access::take(std::get<X::pl.index[R]>(args_));
    } else {
      static_assert(X::pl.where[R] == home::buffer);
      return x.buffers[X::pl.index[R]].release();
    }
  }

  template <std::size_t K>
  static constexpr bool borrowed_input() {
    if constexpr (K == none) return false;
    else return !donatable<arg_t<K>>;
  }

  // The shape spec of a result tensor: ip::extents<E...> when every extent of the
  // value is static (a loop can hand a result back as the next call's argument,
  // of the same type), else its rank.
  template <std::size_t V>
  static constexpr bool all_static = [] {
    for (std::size_t i = 0; i < g.values[V].value_shape.rank; ++i)
      if (g.values[V].value_shape.extent[i] == dynamic) return false;
    return g.values[V].value_shape.rank > 0;
  }();
  template <std::size_t V, std::size_t... I>
  static constexpr auto static_spec(std::index_sequence<I...>) {
    return extents<g.values[V].value_shape.extent[I]...>;
  }
  template <std::size_t V>
  static constexpr auto result_spec() {
    if constexpr (all_static<V>) return static_spec<V>(std::make_index_sequence<g.values[V].value_shape.rank>{});
    else return rank_spec<g.values[V].value_shape.rank>;
  }

  // io_aliases honoured by a copy (graph_index::alias_by_copy) with the input
  // donated: when the computation is done, each output that lives in such an
  // input's storage is copied out (saved, by output), then each aliased output
  // is copied into its input's storage and returned in it. Decided by the
  // arguments' types, so that both plans (fast and safe) return the same types.
  static constexpr const auto& fast_plan = plan_for<S, mask>::value;
  static constexpr std::array<std::size_t, NO + 1> copy_into = [] {
    std::array<std::size_t, NO + 1> in{};
    for (std::size_t k = 0; k <= NO; ++k) {
      in[k] = k < NO ? alias_copy_input(g, ix, k) : none;
      if (in[k] != none && !(mask >> in[k] & 1u)) in[k] = none;
    }
    return in;
  }();
  static constexpr bool alias_copies = [] {
    for (std::size_t k = 0; k < NO; ++k)
      if (copy_into[k] != none) return true;
    return false;
  }();
  template <std::size_t K>
  static constexpr bool saved = fast_plan.saved[g.outputs[K]];
  template <std::size_t K>
  using result_tensor_t = tensor<typename fast::template dtype<g.outputs[K]>, result_spec<g.outputs[K]>()>;
  template <std::size_t K>
  using saved_t = std::conditional_t<saved<K>, std::optional<result_tensor_t<K>>, no_copy>;  // (a tensor of static extents allocates when built)
  template <std::size_t... K>
  static auto saved_types(std::index_sequence<K...>) -> std::tuple<saved_t<K>...>;
  [[no_unique_address]] decltype(saved_types(std::make_index_sequence<NO>{})) saved_{};
  bool copy_in_ok_ = false;  // no donated argument overlaps another: the copies may write them

  template <class X>
  void save_outputs(X& x) {
    with_indices<NO>([&]<std::size_t... K>() { (save_output<K>(x), ...); });
    copy_in_ok_ = !overlapping_donation();
  }
  template <std::size_t K, class X>
  void save_output(X& x) {
    if constexpr (saved<K>) {
      count_allocation();
      count_copy();
      std::get<K>(saved_).emplace(x.template view<g.outputs[K]>());
    }
  }
  // Output K copied into the storage of donated input copy_into[K], and returned
  // in it; a fresh copy when the extents differ in this call (dynamic extents)
  // or a donated argument overlaps another.
  template <std::size_t K, class X>
  result_tensor_t<K> copied_output(X& x) {
    constexpr std::size_t V = g.outputs[K];
    const auto from = [&] {
      if constexpr (saved<K>) return std::get<K>(saved_)->view();
      else return x.template view<V>();
    }();
    auto& arg = std::get<copy_into[K]>(args_);
    bool fits = copy_in_ok_;
    for (std::size_t i = 0; i < X::template rank_of<V>; ++i) fits = fits && from.extent(i) == arg.extent(i);
    if (!fits) {  // (a saved output already is a fresh tensor)
      if constexpr (saved<K>) {
        return std::move(*std::get<K>(saved_));
      } else {
        count_allocation();
        count_copy();
        return result_tensor_t<K>(from);
      }
    }
    count_copy();
    detail::assign(arg.view(), from, assign_mode::noalias);
    return tensor_access::adopt<result_tensor_t<K>>(tensor_access::take(arg), from.extents());
  }

  // Whether value V is returned as a tensor (not a view) by an output before position K.
  template <std::size_t V, std::size_t K>
  static constexpr bool returned_before = [] {
    for (std::size_t k = 0; k < K; ++k)
      if (g.outputs[k] == V && copy_into[k] == none) return true;
    return false;
  }();
  template <std::size_t V>
  static constexpr bool returned_as_tensor = [] {
    for (std::size_t k = 0; k < NO; ++k)
      if (g.outputs[k] == V && copy_into[k] == none) return !lives_in_view(g, V);
    return false;
  }();

  template <std::size_t K, class X>
  auto output(X& x) {
    constexpr std::size_t V = g.outputs[K];
    constexpr std::size_t R = ix.root[V];
    constexpr auto kind = g.entries[g.values[R].entry].kind;
    using T = typename X::template dtype<V>;
    constexpr std::size_t N = X::template rank_of<V>;
    using result_tensor = tensor<T, result_spec<V>()>;
    constexpr std::size_t k = ix.input_of[R];
    if constexpr (copy_into[K] != none) {
      return copied_output<K>(x);
    } else if constexpr (saved<K>) {
      return std::move(*std::get<K>(saved_));
    } else if constexpr (kind == entry_kind::constant || kind == entry_kind::scalar || X::pl.where[R] == home::scalar) {
      count_allocation();  // a copy of the call's value (or a view of it)
      return result_tensor(x.template view<V>());
    } else if constexpr (borrowed_input<k>()) {  // a view into the caller's storage
      using E = std::remove_pointer_t<decltype(std::get<k>(args_).data())>;
      using U = std::conditional_t<std::is_const_v<E>, const T, T>;
      const auto v = x.template view<V>();
      return tensor_view<U, rank_spec<N>>(tx_unchecked, v.data(), v.extents(), v.strides());
    } else if constexpr (V == R && !in_view<V>) {  // a tensor owning the value's storage
      if constexpr (returned_before<V, K>) {  // returned twice: a copy
        count_allocation();
        return result_tensor(x.template view<V>());
      }
      else return tensor_access::adopt<result_tensor>(static_cast<T*>(take_block<R>(x)), x.template view<V>().extents());
    } else if constexpr (V != R && returned_as_tensor<R>) {  // a view of a tensor returned beside it
      return x.template view<V>();
    } else {
      static_assert(views_kept);
      auto& owner = owners_[owner_key<R, X>()];
      if (!owner) owner = std::shared_ptr<void>(take_block<R>(x), block_free{});
      return kept_view<T, rank_spec<N>>(x.template view<V>(), owner);
    }
  }
};

// (function_t's operator() and debug() admit only the arguments call_check
// accepts: the count, each argument's rank and dtype, must_alias donated.)
template <class S, bool Debug, class... A>
auto call(A&&... a) {
  if constexpr (Debug) return debug_invocation<S, A...>(std::forward<A>(a)...).debug();
  else if constexpr (S::debug_nans) return debug_invocation<S, A...>(std::forward<A>(a)...).nan_checked();
  else return invocation<S, A...>(std::forward<A>(a)...)();
}
}  // namespace detail::run

// f(args...) and f.debug(args...) (function_t finds these by argument-dependent
// lookup). A function built with ip::debug runs every call in debug mode.
template <class S, class... A>
auto debug_function(const function_t<S>&, A&&... a) {
  return detail::run::call<S, true>(std::forward<A>(a)...);
}
template <class S, class... A>
auto call_function(const function_t<S>& f, A&&... a) {
  if constexpr (S::debug) return debug_function(f, std::forward<A>(a)...);
  else return detail::run::call<S, false>(std::forward<A>(a)...);
}

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"

// Debug mode and ip::debug_nans, on top of the invocation above.
#include "inplace/run/detail/debug_invocation.hpp"
