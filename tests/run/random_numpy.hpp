#pragma once
// Support for the generated NumPy-oracle tests tests/run/random_numpy_*.cpp
// (written by scripts/gen_numpy_fuzz.py; see its header comment).
//
// Each generated graph carries its inputs and, computed by NumPy 2 at
// generation time, each output's dtype, extents, values and a tolerance per
// element (a bound on the rounding error of the terms, propagated through the
// graph in the output's precision). nf::run calls the graph under every
// donation pattern of its tensor arguments, with ip::no_rewrite (borrowed and
// donated), with strided borrowed views as arguments and once in debug mode
// (every argument donated), checks each output's dtype, extents and values and
// that borrowed arguments are unchanged. It reuses the conversions and
// argument helpers of random_graphs.hpp.
#include "random_graphs.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

namespace nf {

namespace ip = inplace;
using rg::arr;
using rg::cat;

// One expected output: NumPy's dtype (as a C++ name), extents, values, tolerances.
// Values are long double: exact for every 64-bit integer (uint64 wraps near 2^64).
struct expected {
  const char* dtype;
  std::vector<std::size_t> shape;
  std::vector<long double> v;
  std::vector<double> tol;
};

template <class T>
constexpr const char* dtype_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, int>) return "int";
  else if constexpr (std::is_same_v<T, long>) return "long";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "std::int8_t";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "std::uint8_t";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "std::int16_t";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "std::uint16_t";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "std::uint32_t";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "std::uint64_t";
  else return "other";
}
template <class O>
constexpr const char* dtype_of() {
  if constexpr (std::is_arithmetic_v<O>) return dtype_name<O>();
  else return dtype_name<typename O::value_type>();
}

template <class R>
std::vector<const char*> dtypes_of() {
  if constexpr (requires { std::tuple_size<R>::value; })
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return std::vector<const char*>{dtype_of<std::remove_cvref_t<std::tuple_element_t<I, R>>>()...};
    }(std::make_index_sequence<std::tuple_size_v<R>>{});
  else
    return {dtype_of<R>()};
}

// A tensor (any dtype, static or dynamic extents) filled row-major with v.
template <class Tensor>
Tensor fill(Tensor t, std::initializer_list<long double> v) {
  std::size_t i = 0;
  for (long double d : v) t[i++] = static_cast<typename Tensor::value_type>(d);
  if (i != t.size()) rg::ref_error(cat("fill: ", i, " values for ", t.size(), " elements"));
  return t;
}

// An output's elements as long double (every 64-bit integer exactly; rg::arr holds doubles).
template <class O>
std::vector<long double> values_of(const O& o) {
  if constexpr (std::is_arithmetic_v<O>) {
    return {static_cast<long double>(o)};
  } else {
    std::vector<long double> r(o.size());
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<long double>(o[i]);
    return r;
  }
}
template <class R>
std::vector<std::vector<long double>> all_values_of(const R& r) {
  if constexpr (requires { std::tuple_size<R>::value; })
    return std::apply([](const auto&... o) { return std::vector<std::vector<long double>>{values_of(o)...}; }, r);
  else
    return {values_of(r)};
}

inline std::string compare(const arr& got, const std::vector<long double>& vals, const expected& want) {
  std::ostringstream os;
  os.precision(21);
  if (got.shape != want.shape) {
    os << "extents " << rg::shape_str(got.shape) << ", NumPy " << rg::shape_str(want.shape);
    return os.str();
  }
  int bad = 0;
  for (std::size_t i = 0; i < want.v.size(); ++i) {
    const long double g = vals[i], w = want.v[i];
    if (!(std::abs(g - w) <= want.tol[i])) {
      if (bad < 4) os << (bad ? "; " : "") << "[" << i << "] got " << g << " NumPy " << w << " (tolerance " << want.tol[i] << ")";
      ++bad;
    }
  }
  if (bad > 4) os << "; ... " << bad << " of " << want.v.size() << " elements differ";
  return os.str();
}

template <class R>
void check_outputs(rg::report& rep, const char* what, const R& r, const std::vector<expected>& want) {
  const std::vector<const char*> dt = dtypes_of<R>();
  const std::vector<arr> got = rg::outputs_of(r);
  const std::vector<std::vector<long double>> vals = all_values_of(r);
  if (got.size() != want.size()) {
    rep.add(what, cat("number of outputs ", got.size()));
    return;
  }
  for (std::size_t o = 0; o < want.size(); ++o) {
    if (std::string(dt[o]) != want[o].dtype) rep.add(what, cat("output ", o, ": dtype ", dt[o], ", NumPy ", want[o].dtype));
    const std::string e = compare(got[o], vals[o], want[o]);
    if (!e.empty()) rep.add(what, cat("output ", o, ": ", e));
  }
}

// Calls f with donation mask M on fresh copies of `in` (debug mode if Debug).
template <std::uint64_t M, bool Debug, class F, class... T, std::size_t... K>
void call_mask(rg::report& rep, const char* label, const F& f, const std::tuple<T...>& in, const std::vector<arr>& in_arr,
               const std::vector<expected>& want, std::index_sequence<K...>) {
  const std::string what = cat(label, Debug ? "debug mode, " : "", "donation mask ", M);
  auto copies = std::make_unique<std::tuple<T...>>(in);
  try {
    auto r = [&] {
      if constexpr (Debug) return f.debug(rg::pass<M, K>(std::get<K>(*copies))...);
      else return f(rg::pass<M, K>(std::get<K>(*copies))...);
    }();
    (
        [&] {
          if constexpr (rg::is_tensor<T> && (M >> K & 1u) == 0) {
            const std::string e = rg::same_bits(rg::to_arr(std::get<K>(*copies)), in_arr[K]);
            if (!e.empty()) rep.add(what, cat("borrowed argument ", K, " modified: ", e));
          }
        }(),
        ...);
    // With every argument donated nothing of the caller's is left to view.
    if constexpr (M == rg::tensor_mask<T...>) copies.reset();
    check_outputs(rep, what.c_str(), r, want);
  } catch (const std::exception& e) {
    rep.add(what, cat("threw: ", e.what()));
  }
}

// A borrowed non-contiguous view holding t's values, of any dtype: a vector as
// every second element of a twice longer tensor, a matrix as the transpose of
// its transposed copy; other ranks and scalars are passed as they are.
template <class T>
struct strided {
  T value;
  explicit strided(const T& t) : value(t) {}
  const T& view() const { return value; }
};
template <class T>
  requires(rg::is_tensor<T> && (T::rank == 1 || T::rank == 2))
struct strided<T> {
  using V = typename T::value_type;
  ip::tensor<V, T::rank> storage;
  explicit strided(const T& t) {
    if constexpr (T::rank == 1) {
      storage = ip::tensor<V>(2 * t.size());
      for (std::size_t i = 0; i < storage.size(); ++i) storage[i] = i % 2 ? V(-99) : t[i / 2];
    } else {
      const std::size_t m = t.extent(0), n = t.extent(1);
      storage = ip::tensor<V, 2>(n, m);
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) storage(j, i) = t(i, j);
    }
  }
  auto view() const {
    if constexpr (T::rank == 1) return ip::slice<0, ip::end, 2>(storage);
    else return ip::transpose(storage);
  }
};

template <class F, class... T, std::size_t... K>
void call_views(rg::report& rep, const F& f, const std::tuple<T...>& in, const std::vector<arr>& in_arr,
                const std::vector<expected>& want, std::index_sequence<K...>) {
  std::tuple<strided<T>...> s{strided<T>(std::get<K>(in))...};
  try {
    auto r = f(std::get<K>(s).view()...);
    (
        [&] {
          if constexpr (rg::is_tensor<T>) {
            const std::string e = rg::same_bits(rg::to_arr(std::get<K>(s).view()), in_arr[K]);
            if (!e.empty()) rep.add("strided views", cat("borrowed argument ", K, " modified: ", e));
          }
        }(),
        ...);
    check_outputs(rep, "strided views", r, want);
  } catch (const std::exception& e) {
    rep.add("strided views", cat("threw: ", e.what()));
  }
}

// Graphs ip::check rejects (the library changed since the file was generated):
// skipped, counted, and reported once.
inline int& skipped() {
  static int n = 0;
  return n;
}

// Runs graph `name` (f, and fn with ip::no_rewrite) under every donation mask,
// fn borrowed and donated, strided views, and debug mode with every argument
// donated. Ok: ip::check accepted the graph (else it is skipped: the calls of a
// rejected graph would not compile).
template <bool Ok, class F, class FN, class... T>
void run(const char* name, const F& f, const FN& fn, const std::vector<expected>& want, T... inputs) {
  if constexpr (!Ok) {
    ++skipped();
    WARN(cat(name, ": ip::check rejects this graph now; skipped (", skipped(), " so far)"));
  } else {
    const std::tuple<T...> in(std::move(inputs)...);
    const std::vector<arr> in_arr = std::apply([](const auto&... t) { return std::vector<arr>{rg::to_arr(t)...}; }, in);
    rg::report rep{name, {}};
    using seq = std::index_sequence_for<T...>;
    constexpr std::uint64_t all = rg::tensor_mask<T...>;
    [&]<std::uint64_t... M>(std::integer_sequence<std::uint64_t, M...>) {
      // every subset of the tensor arguments donated (masks not within `all` are skipped)
      ((void)((M & ~all) == 0 ? (call_mask<M & all, false>(rep, "", f, in, in_arr, want, seq{}), 0) : 0), ...);
    }(std::make_integer_sequence<std::uint64_t, (std::uint64_t{1} << sizeof...(T))>{});
    call_mask<0, false>(rep, "no_rewrite, ", fn, in, in_arr, want, seq{});
    call_mask<all, false>(rep, "no_rewrite, ", fn, in, in_arr, want, seq{});
    call_views(rep, f, in, in_arr, want, seq{});
    call_mask<all, true>(rep, "", f, in, in_arr, want, seq{});
    for (const std::string& e : rep.errors) FAIL_CHECK(e);
    CHECK(rep.errors.empty());
  }
}

}  // namespace nf
