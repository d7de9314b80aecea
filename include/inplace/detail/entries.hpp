#pragma once
// Every leaf and node type carries `entries`: the distinct leaves and nodes of its
// subgraph, in topological order. It is built where the node is declared, from its
// arguments' lists (already built), so no walk over a deep graph ever recurses.

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <boost/mp11/utility.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace inplace::detail {

using boost::mp11::mp_list;

template <class... T>
struct type_set : boost::mp11::mp_identity<T>... {};

template <class Set, class T>
inline constexpr bool set_contains = std::is_base_of_v<boost::mp11::mp_identity<T>, Set>;

// A ++ (the elements of B that A lacks); both are lists of distinct types.
template <class A, class B>
struct merge_entries;
template <class... A, class... B>
struct merge_entries<mp_list<A...>, mp_list<B...>> {
  using set = type_set<A...>;
  using type = boost::mp11::mp_append<
      mp_list<A...>, boost::mp11::mp_if_c<set_contains<set, B>, mp_list<>, mp_list<B>>...>;
};

template <class... L>
struct merge_all {
  using type = mp_list<>;
};
template <class L>
struct merge_all<L> {
  using type = L;
};
template <class L1, class L2, class... Rest>
struct merge_all<L1, L2, Rest...> : merge_all<typename merge_entries<L1, L2>::type, Rest...> {};

template <class... L>
using merged_entries = typename merge_all<L...>::type;

// Index of T in a list of distinct types: one builtin comparison per element.
template <class T, class L>
struct index_of_impl;
template <class T, class... E>
struct index_of_impl<T, mp_list<E...>> {
  static constexpr std::size_t value = [] {
    constexpr bool same[] = {__is_same(T, E)..., false};
    std::size_t i = 0;
    while (i < sizeof...(E) && !same[i]) ++i;
    return i;
  }();
};
template <class T, class L>
inline constexpr std::size_t index_of = index_of_impl<T, L>::value;

}  // namespace inplace::detail
