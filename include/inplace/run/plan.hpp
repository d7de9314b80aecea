#pragma once
// ip::plan(f, ip::donated | ip::borrowed ...): what a call of f does with
// memory for one donation pattern, as a compile-time constant.
//
//   allocations  fresh buffers the call allocates (results, intermediates, copies)
//   copies       copy-protection copies: a borrowed input that the graph destroys
//                (or that a may_alias output lives in) is copied once; and an
//                io_alias honoured by a copy (call.hpp): one per output copied
//                into its donated input, one per output copied out of it first
//   loops        loops run: one per fused elementwise loop, one per opaque kernel
//   in_place     nodes computed in storage that already held one of their inputs
//                (a donated input, a copy, an intermediate)
//   peak_bytes   the most bytes of the call's buffers alive at once: known when
//                every buffer's extents are static (0 when it allocates none),
//                ip::dynamic otherwise
//
// One marker per tensor input, in the order of ip::inputs(...). Scalar inputs
// are passed by value and take no marker (a marker given for one is ignored).

#include "inplace/graph/function.hpp"
#include "inplace/run/detail/program.hpp"
#include "inplace/run/detail/storage.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "inplace/detail/shadow_off.hpp"

namespace inplace {

struct donated_t {};
struct borrowed_t {};
inline constexpr donated_t donated{};
inline constexpr borrowed_t borrowed{};

struct plan_result {
  std::size_t allocations = 0;
  std::size_t copies = 0;
  std::size_t loops = 0;
  std::size_t in_place = 0;
  std::size_t peak_bytes = 0;
  friend constexpr bool operator==(const plan_result&, const plan_result&) = default;
};

namespace detail::run {

template <class S>
struct input_kinds;
template <class... I, class... O, class... Opt>
struct input_kinds<spec<inputs_t<I...>, outputs_t<O...>, Opt...>> {
  static constexpr std::array<bool, sizeof...(I) + 1> is_tensor{(I::kind == entry_kind::input)..., false};
  static constexpr std::size_t tensors = ((I::kind == entry_kind::input ? 1 : 0) + ... + 0);
  static constexpr std::size_t all = sizeof...(I);
};

// The plans a call can run, for one donation mask (bit k: input k donated):
//  fast       the plan of the arguments' donation pattern
//  safe       the fallback a call runs when its arguments do not fit that plan
//             (see call.hpp): everything borrowed, no rewrite, no reuse
//  reference  debug mode's pure reference: every node alone, in the analysis's
//             order, each value in its own buffer, nothing computed in place
enum class plan_kind { fast, safe, reference };

template <class S, std::uint64_t Mask, plan_kind Kind = plan_kind::fast>
struct plan_for {
  using P = program<S>;
  static constexpr auto value = [] {
    // ip::check formed these loops with the same rule (graph/detail/fusion_rule.hpp)
    static_assert(P::fused.ok, "inplace internal error: the runtime cannot run a fused loop that ip::check "
                               "accepted; please report the graph");
    constexpr std::size_t NI = P::G::num_inputs > 0 ? P::G::num_inputs : 1;
    std::array<bool, NI> donated{};
    for (std::size_t k = 0; k < P::G::num_inputs; ++k) donated[k] = (Mask >> k & 1u) != 0;
    constexpr bool fast = Kind == plan_kind::fast;
    if constexpr (Kind == plan_kind::reference) return planner<P>(P::unfused, donated, false, false, true).run();
    else return planner<P>(P::fused, donated, S::rewrite && fast, fast, false).run();
  }();
};

template <class M>
inline constexpr bool is_marker = std::is_same_v<M, donated_t> || std::is_same_v<M, borrowed_t>;

template <class S, class... M>
constexpr std::uint64_t mask_of() {
  using K = input_kinds<S>;
  constexpr bool markers[] = {std::is_same_v<M, donated_t>..., false};
  std::uint64_t mask = 0;
  for (std::size_t k = 0, m = 0; k < K::all; ++k) {
    if (sizeof...(M) == K::all) {
      if (markers[k] && K::is_tensor[k]) mask |= std::uint64_t{1} << k;
    } else if (K::is_tensor[k]) {
      if (markers[m++]) mask |= std::uint64_t{1} << k;
    }
  }
  return mask;
}

}  // namespace detail::run

// ip::plan, ip::explain and ip::to_dot are objects, as ip::check is
// (graph/function.hpp): a user's own unqualified plan(f), explain(f) or
// to_dot(f) on a graph function finds the user's function, not the library's.
namespace detail {
struct plan_fn {
  // After a broken rule, f holds the rule's type (diagnostic::any_use): the
  // rule's message is the error, not this call.
  template <class... M>
  constexpr plan_result operator()(const diagnostic::any_use&, M...) const {
    return {};
  }
  template <class S, class... M>
  constexpr plan_result operator()(function_t<S>, M...) const {
    using K = detail::run::input_kinds<S>;
    static_assert((detail::run::is_marker<M> && ...),
                  "inplace: plan_arguments: ip::plan(f, markers...): each marker is ip::donated or ip::borrowed; "
                  "fix: pass ip::donated or ip::borrowed for each tensor input.");
    static_assert(sizeof...(M) == K::tensors || sizeof...(M) == K::all,
                  "inplace: plan_arguments: ip::plan(f, markers...): the number of markers is not the number of "
                  "tensor inputs of f; fix: give one marker per tensor input, in the order of ip::inputs(...) "
                  "(scalar inputs take none).");
    static_assert(K::all <= 64, "inplace: plan_arguments: ip::plan: at most 64 inputs; fix: pass the data in fewer, larger tensors.");
    if constexpr ((detail::run::is_marker<M> && ...) && (sizeof...(M) == K::tensors || sizeof...(M) == K::all)) {
      constexpr auto& p = detail::run::plan_for<S, detail::run::mask_of<S, M...>()>::value;
      static_assert(!p.must_alias_borrowed,
                    "inplace: must_alias: an output declared io_alias<O, I>(ip::must_alias) lives in input I's "
                    "storage, so input I must be donated; fix: mark it ip::donated (pass it with std::move).");
      return {p.allocations, p.copies, p.loops, p.in_place, p.peak_bytes};
    } else {
      return {};
    }
  }
};
}  // namespace detail
inline constexpr detail::plan_fn plan{};

}  // namespace inplace

#include "inplace/detail/shadow_on.hpp"
