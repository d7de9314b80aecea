// The element-type rule against NumPy: dtype_table.inc (scripts/gen_dtype_table.py)
// holds NumPy's result dtype and value of a + b and a / b for every pair of the
// supported dtypes and weak int/float constants; each row is checked on a
// graph (inputs and _c constants) and on a tensor expression (tensors and C++
// numbers), which must both give it. Rows marked with a deviation give
// inplace's documented answer instead (the list is in the .inc's header).
// dtype_table_add.cpp and dtype_table_div.cpp check one op each (two files:
// a graph per row makes each a heavy compile).
#pragma once

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

namespace ip = inplace;
using namespace ip::literals;
using ip::detail::weak_float;
using ip::detail::weak_int;

namespace dtype_table {

#define INPLACE_DTYPE_SAMPLE(NAME, T, V) \
  struct NAME##_sample {                 \
    using type = T;                      \
    static constexpr auto value = V;     \
  };
#define INPLACE_DTYPE_ROW(...)
#include "dtype_table.inc"
#undef INPLACE_DTYPE_SAMPLE
#undef INPLACE_DTYPE_ROW

// The weak samples are the constants 3_c and 0.5_c (C++ numbers 3 and 0.5 on tensors).
static_assert(weak_int_sample::value == decltype(3_c)::value && weak_float_sample::value == decltype(0.5_c)::value);

template <class S, ip::fixed_string Name>
constexpr auto symbol() {
  using T = typename S::type;
  if constexpr (std::is_same_v<T, weak_int>) return 3_c;
  else if constexpr (std::is_same_v<T, weak_float>) return 0.5_c;
  else return ip::input<Name, T>;
}
template <class S>
auto number_or_tensor() {
  using T = typename S::type;
  if constexpr (std::is_same_v<T, weak_int>) return 3;
  else if constexpr (std::is_same_v<T, weak_float>) return 0.5;
  else return ip::tensor<T>{S::value};
}
template <class S>
inline constexpr bool weak = ip::detail::is_weak<typename S::type>;

template <class T>
std::string show(T v) {
  std::ostringstream s;
  s.precision(21);
  if constexpr (sizeof(T) == 1 && std::is_integral_v<T>) s << static_cast<int>(v);
  else s << v;
  return s.str();
}

// The graph of a op b; its inputs are the operands that are not constants.
template <class Op, class A, class B>
constexpr auto graph_function() {
  constexpr auto a = symbol<A, "a">();
  constexpr auto b = symbol<B, "b">();
  constexpr auto e = ip::apply(Op{}, a, b);
  if constexpr (weak<A>) return ip::function(ip::inputs(b), ip::outputs(e));
  else if constexpr (weak<B>) return ip::function(ip::inputs(a), ip::outputs(e));
  else return ip::function(ip::inputs(a, b), ip::outputs(e));
}

template <class Op, class A, class B, class R, class V>
void check_row(V want, const char* row) {
  INFO(row);
  if constexpr (weak<A> && weak<B>) {  // constants only: a folded weak constant
    using e = decltype(ip::apply(Op{}, symbol<A, "a">(), symbol<B, "b">()));
    STATIC_REQUIRE(std::is_same_v<typename e::dtype, R>);
    CHECK(e::value == want);
  } else {
    // the graph
    constexpr auto f = graph_function<Op, A, B>();
    auto ta = number_or_tensor<A>();
    auto tb = number_or_tensor<B>();
    const auto r = [&] {
      if constexpr (weak<A>) return f(tb);
      else if constexpr (weak<B>) return f(ta);
      else return f(ta, tb);
    }();
    STATIC_REQUIRE(std::is_same_v<typename std::remove_cvref_t<decltype(r)>::value_type, R>);
    CHECK(show(r.data()[0]) == show(want));
    // the tensor expression
    auto x = ip::apply(Op{}, ta, tb);
    STATIC_REQUIRE(std::is_same_v<typename decltype(x)::value_type, R>);
    const ip::tensor<R> t = x;
    CHECK(show(t.data()[0]) == show(want));
  }
}

}  // namespace dtype_table

// Runs the rows of the op OP (add or div): INPLACE_DTYPE_ROW expands to
// INPLACE_DTYPE_ROW_add or _div, which the including file defines.
#define INPLACE_DTYPE_ROW(OP, ...) INPLACE_DTYPE_ROW_##OP(OP, __VA_ARGS__)
#define INPLACE_DTYPE_CHECK(OP, A, B, R, V, DEV)                                                            \
  ::dtype_table::check_row<ip::ops::OP, ::dtype_table::A##_sample, ::dtype_table::B##_sample, R>( \
      V, #OP " " #A " " #B " (deviation: " #DEV ")");
