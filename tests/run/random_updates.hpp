#pragma once
// Support for the generated tests tests/run/random_updates_*.cpp (written by
// scripts/gen_update_fuzz.py; see its docstring): beside nf::run's checks
// against NumPy, the storage a donated input lends an update, and a run-time
// start out of range.
#include "random_numpy.hpp"

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace nu {

namespace ip = inplace;

template <class R>
const auto& first_output(const R& r) {
  if constexpr (requires { std::tuple_size<R>::value; }) return std::get<0>(r);
  else return r;
}

// Whether ip::explain's plan puts the first value f returns (a node #k) in
// input x's donated storage: "returns #k, ..." and the line of #k saying so.
inline bool first_output_in(const std::string& plan, const std::string& x) {
  const std::size_t r = plan.find("\nreturns #");
  if (r == std::string::npos) return false;
  const std::size_t b = r + 9, e = plan.find_first_of(", \n", b);
  const std::string id = plan.substr(b, e - b);
  const std::size_t line = plan.find("\n  " + id + " ");
  if (line == std::string::npos) return false;
  const std::string text = plan.substr(line, plan.find('\n', line + 1) - line);
  return text.find("in " + x + "'s storage (donated)") != std::string::npos;
}

// How many calls checked that output 0 is the donated storage (reported once).
inline int& donated_checks() {
  static int n = 0;
  return n;
}

// f called with argument X (input x) alone donated: when the plan says output 0
// (an update of x) is computed in x's storage, it is that storage, returned.
template <std::size_t X, class F, class... T>
void in_donated_storage(const char* x, const F& f, const std::string& plan, T... in) {
  if (!first_output_in(plan, x)) return;
  ++donated_checks();
  std::tuple<T...> t(std::move(in)...);
  const void* p = std::get<X>(t).data();
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    const auto r = f(rg::pass<(std::uint64_t{1} << X), K>(std::get<K>(t))...);
    INFO(plan);
    CHECK(static_cast<const void*>(first_output(r).data()) == p);
  }(std::index_sequence_for<T...>{});
}

// f called (every argument borrowed) with a start K out of range: ip::shape_error
// naming dynamic_slice, before anything runs (the arguments are unchanged).
template <std::size_t K, class F, class... T>
void out_of_range(const F& f, T... in) {
  const std::tuple<T...> t(std::move(in)...);
  const std::vector<rg::arr> before = std::apply([](const auto&... a) { return std::vector<rg::arr>{rg::to_arr(a)...}; }, t);
  bool threw = false;
  try {
    (void)std::apply(f, t);
  } catch (const ip::shape_error& e) {
    threw = true;
    CHECK_THAT(e.what(), Catch::Contains("dynamic_slice"));
  }
  CHECK(threw);
  const std::vector<rg::arr> after = std::apply([](const auto&... a) { return std::vector<rg::arr>{rg::to_arr(a)...}; }, t);
  for (std::size_t i = 0; i < before.size(); ++i) CHECK(rg::same_bits(after[i], before[i]).empty());
}

}  // namespace nu
