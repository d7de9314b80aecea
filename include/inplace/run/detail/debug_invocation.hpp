#pragma once
// Debug mode (f.debug(args...), ip::debug) and ip::debug_nans: a call of the
// invocation (run/call.hpp) with the pure reference around it. The reference
// is the executor's reference plan (every node alone, nothing in place), whose
// nodes are checked against their maps (run/detail/debug.hpp); the outputs of
// the call are compared with the reference's, and borrowed arguments with
// copies taken before the call. Only a debug call instantiates this.

#include "inplace/run/call.hpp"
#include "inplace/run/detail/debug.hpp"
#include "inplace/run/detail/executor.hpp"

#include <cfenv>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "inplace/detail/shadow_off.hpp"

namespace inplace::detail::run {

template <class S, class... A>
class debug_invocation : public invocation<S, A...> {
  using base = invocation<S, A...>;
  using P = program<S>;
  using G = typename P::G;
  static constexpr const G& g = S::graph_value;
  static constexpr std::size_t NI = G::num_inputs;
  static constexpr std::size_t NO = G::num_outputs;
  template <std::size_t K>
  using input_t = boost::mp11::mp_at_c<typename S::input_list, K>;
  template <std::size_t K>
  using arg_t = std::tuple_element_t<K, std::tuple<A...>>;
  using reference = executor<S, 0, plan_kind::reference>;

 public:
  using base::base;

  // Debug mode: the pure reference first, on the arguments all borrowed (so it
  // writes none of them), with every node checked against its maps and every
  // registered in-place variant against its op; then the call itself; then every
  // output against the reference's, and every borrowed argument against a copy
  // taken before the call. ip::debug_error names what differs.
  // Outputs that differ are judged again against the reference rounded upward
  // and downward (see within_rounding in debug.hpp), run only then.
  // With ip::debug_nans the reference also stops at the first NaN or infinity.
  auto debug() {
    auto copies = argument_copies();
    if constexpr (S::debug_nans) check_finite_arguments(copies);
    auto expected = reference_results(copies, S::debug_nans);
    const auto before = borrowed_copies(std::make_index_sequence<NI>{});
    auto got = (*this)();
    check_borrowed(before, std::make_index_sequence<NI>{});
    std::optional<decltype(expected)> up, down;
    bool deterministic = true;  // the brackets mean something only if the reference is repeatable
    const auto brackets = [&] {
      if (up || !deterministic) return deterministic;
      deterministic = same_outputs(expected, reference_results(copies, false));
      if (!deterministic) return false;
      {
        const rounding_mode upward(FE_UPWARD);
        up.emplace(reference_results(copies, false, bracket_ulps));
      }
      const rounding_mode downward(FE_DOWNWARD);
      down.emplace(reference_results(copies, false, -bracket_ulps));
      return true;
    };
    with_indices<NO>([&]<std::size_t... K>() {
      (compare_output<K>(output_of<K>(got), expected, up, down, brackets), ...);
    });
    return got;
  }

  // ip::debug_nans without ip::debug: the call, then its outputs checked; an
  // output holding NaN or an infinity reruns the graph op by op, on the
  // arguments as they were (donated ones copied before the call), to name the
  // first node producing one.
  auto nan_checked() {
    auto kept = donated_copies(std::make_index_sequence<NI>{});
    auto got = (*this)();
    with_indices<NO>([&]<std::size_t... K>() {
      (find_nonfinite_output<K>(output_of<K>(got), kept), ...);
    });
    return got;
  }

 private:
  // The reference runs on copies of the arguments: a lying op cannot reach the
  // caller's. (It never writes them: the copies serve every run of it.)
  auto argument_copies() const {
    return with_indices<NI>([&]<std::size_t... K>() {
      return std::tuple{argument_copy<K>()...};
    });
  }
  template <class C>
  auto reference_results(C& copies, bool find_nonfinite, int nudge_ulps = 0) {
    const auto ref = std::make_unique<reference>();
    ref->find_nonfinite = find_nonfinite;
    ref->nudge_ulps = nudge_ulps;
    this->bind(*ref, copies);
    ref->compute_extents();
    ref->run();
    return with_indices<NO>([&]<std::size_t... K>() {
      return std::tuple{reference_output<K>(*ref)...};
    });
  }
  template <std::size_t K>
  auto argument_copy() const {
    if constexpr (input_t<K>::kind == entry_kind::scalar) return std::get<K>(this->args_);
    else return tensor<typename input_t<K>::dtype, rank_spec<input_t<K>::value_shape.rank>>(std::get<K>(this->args_).view());
  }
  template <std::size_t K>
  auto reference_output(const reference& ref) {  // a copy of output K
    constexpr std::size_t V = g.outputs[K];
    using T = typename reference::template dtype<V>;
    using result_tensor = tensor<T, base::template result_spec<V>()>;
    return result_tensor(ref.template view<V>());
  }
  template <std::size_t K, class Got>
  static decltype(auto) output_of(Got& got) {
    if constexpr (NO == 1) return (got);
    else return (std::get<K>(got));
  }
  // Whether two runs of the reference returned the same outputs (an op whose
  // result changes from run to run makes the rounding brackets meaningless).
  template <class R>
  static bool same_outputs(const R& a, const R& b) {
    return with_indices<NO>([&]<std::size_t... K>() {
      return ((first_difference(std::get<K>(a).view(), std::get<K>(b).view()) == none) && ...);
    });
  }
  template <std::size_t K>
  static std::string output_name() {
    return cat("output ", K, " (", value_label(g, g.outputs[K]).view(), ")");
  }
  template <std::size_t K, class Got, class Want, class Brackets>
  static void compare_output(const Got& got, const Want& expected, const std::optional<Want>& up,
                             const std::optional<Want>& down, const Brackets& brackets) {
    const auto a = got.view();
    const auto b = std::get<K>(expected).view();
    const std::string name = output_name<K>();
    if (a.extents() != b.extents())
      throw_debug(name, cat("the call returned extents ", tx_shape_string(a.extents()), ", the pure reference ",
                            tx_shape_string(b.extents())));
    std::size_t at = first_difference(a, b);
    if (at != none && brackets()) at = first_difference(a, b, std::get<K>(*up).view(), std::get<K>(*down).view());
    if (at != none)
      throw_debug(name, cat("the call's result differs from the pure reference at element ", at, ": ",
                            element_string(a, at), " instead of ", element_string(b, at)));
  }
  template <std::size_t K>
  static constexpr bool borrowed_tensor = input_t<K>::kind != entry_kind::scalar && !donatable<arg_t<K>>;
  template <std::size_t K>
  static constexpr bool donated_tensor = input_t<K>::kind != entry_kind::scalar && donatable<arg_t<K>>;

  // ---- ip::debug_nans ----------------------------------------------------------------
  template <std::size_t... K>
  auto donated_copies(std::index_sequence<K...>) const {
    return std::tuple{[&] {
      if constexpr (donated_tensor<K>) return argument_copy<K>();
      else return 0;
    }()...};
  }
  // An argument for the op-by-op rerun: a donated one as it was before the call.
  template <std::size_t K, class Kept>
  auto rerun_argument(Kept& kept) const {
    if constexpr (donated_tensor<K>) return std::move(std::get<K>(kept));
    else return argument_copy<K>();
  }
  template <std::size_t K, class Got, class Kept>
  void find_nonfinite_output(const Got& got, Kept& kept) {
    const auto v = got.view();
    const std::size_t at = first_nonfinite(v);
    if (at == none) return;
    auto copies = with_indices<NI>([&]<std::size_t... J>() {
      return std::tuple{rerun_argument<J>(kept)...};
    });
    check_finite_arguments(copies);
    (void)reference_results(copies, true);  // throws at the first node whose result is not finite
    throw_debug(output_name<K>(), cat("element ", at, " is ", element_string(v, at),
                                      " (debug_nans), but no node of the graph run op by op produced a NaN or "
                                      "an infinity"));
  }
  template <class C>
  static void check_finite_arguments(const C& copies) {
    with_indices<NI>([&]<std::size_t... K>() {
      ([&] {
        if constexpr (input_t<K>::kind != entry_kind::scalar) {
          const auto v = std::get<K>(copies).view();
          const std::size_t at = first_nonfinite(v);
          if (at != none)
            throw debug_error(cat("inplace: debug_error: input \"", input_t<K>::name, "\": element ", at, " is ",
                                  element_string(v, at), " (debug_nans: the arguments hold a NaN or an infinity "
                                  "before any node runs)"));
        }
      }(), ...);
    });
  }
  template <std::size_t... K>
  auto borrowed_copies(std::index_sequence<K...>) const {
    return std::tuple{[&] {
      if constexpr (borrowed_tensor<K>) return tensor<typename input_t<K>::dtype, rank_spec<input_t<K>::value_shape.rank>>(
                                                   std::get<K>(this->args_).view());
      else return 0;
    }()...};
  }
  template <class C, std::size_t... K>
  void check_borrowed(const C& before, std::index_sequence<K...>) const {
    ([&] {
      if constexpr (borrowed_tensor<K>) {
        const std::size_t at = first_difference(std::get<K>(this->args_).view(), std::get<K>(before).view());
        if (at != none)
          throw debug_error(cat("inplace: debug_error: the call changed borrowed input \"", input_t<K>::name,
                                "\" (element ", at, ")"));
      }
    }(), ...);
  }

};

}  // namespace inplace::detail::run

#include "inplace/detail/shadow_on.hpp"
