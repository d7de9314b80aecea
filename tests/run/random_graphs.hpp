#pragma once
// Support for the generated differential tests tests/run/random_graphs_*.cpp
// (written by scripts/gen_random_graphs.py; see its header comment).
//
//  - rg::arr and the rg:: reference ops: a naive reference in double, one plain
//    loop nest per op, with NumPy's semantics (broadcasting; transpose reverses
//    the axes; slice<B, E, S> and reverse act on the first axis as x[B:E:S] and
//    x[::-1]; dot with NumPy's rank rules; reduce_sum over everything or one
//    axis; softmax over the last axis). Every op, in place or not, is a pure
//    function of its inputs: in a graph, add_inplace(x, y) is a value and a
//    reader of x elsewhere sees the old x.
//  - rg::run(...): runs one generated graph under several donation patterns and
//    with and without the automatic rewrite (ip::no_rewrite), compares each
//    output with the reference (|got - want| <= 1e-4 + 1e-4 * |want|, float
//    results against double), and checks that borrowed arguments are unchanged.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// RG_ASAN: built with AddressSanitizer (known ASan failures are skipped then).
#if defined(__SANITIZE_ADDRESS__)
#define RG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RG_ASAN 1
#endif
#endif
#ifndef RG_ASAN
#define RG_ASAN 0
#endif

namespace rg {

namespace ip = inplace;

inline constexpr double rel_tol = 1e-4;
inline constexpr double abs_tol = 1e-4;

// ---- reference values ---------------------------------------------------------------
struct arr {
  std::vector<std::size_t> shape;  // empty: rank 0 (one element)
  std::vector<double> v;           // row-major
  std::size_t rank() const { return shape.size(); }
  std::size_t size() const { return v.size(); }
};

// Concatenation through a stream (std::string's operator+ makes g++ 12 -O3 warn
// -Wrestrict inside the standard library).
template <class... P>
std::string cat(const P&... p) {
  std::ostringstream os;
  os.precision(9);
  (os << ... << p);
  return os.str();
}

inline std::size_t count(const std::vector<std::size_t>& s) {
  std::size_t n = 1;
  for (std::size_t e : s) n *= e;
  return n;
}
inline arr make(std::vector<std::size_t> s) {
  arr r;
  r.v.assign(count(s), 0.0);
  r.shape = std::move(s);
  return r;
}
inline std::string shape_str(const std::vector<std::size_t>& s) {
  std::ostringstream os;  // (not std::string's operator+: g++ 12 -O3 warns -Wrestrict inside it)
  os << "(";
  for (std::size_t i = 0; i < s.size(); ++i) os << (i ? "," : "") << s[i];
  os << ")";
  return os.str();
}
[[noreturn]] inline void ref_error(const std::string& what) { throw std::logic_error(cat("reference: ", what)); }

// NumPy broadcasting of two shapes.
inline std::vector<std::size_t> broadcast(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
  const std::size_t n = std::max(a.size(), b.size());
  std::vector<std::size_t> r(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t ea = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const std::size_t eb = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (ea != eb && ea != 1 && eb != 1) ref_error(cat("shapes do not broadcast ", shape_str(a), " ", shape_str(b)));
    r[i] = ea == 1 ? eb : ea;
  }
  return r;
}
// The element of a read at the flat row-major index i of a result of shape `to`.
inline double at_broadcast(const arr& a, const std::vector<std::size_t>& to, std::size_t i) {
  const std::size_t n = to.size(), k = a.rank();
  std::size_t off = 0, stride = 1;
  for (std::size_t d = n; d-- > 0;) {
    const std::size_t idx = i % to[d];
    i /= to[d];
    if (d >= n - k) {
      const std::size_t e = a.shape[d - (n - k)];
      if (e != 1) off += idx * stride;
      stride *= e;
    }
  }
  return a.v[off];
}

template <class Fn>
arr map1(const arr& a, Fn fn) {
  arr r = make(a.shape);
  for (std::size_t i = 0; i < a.size(); ++i) r.v[i] = fn(a.v[i]);
  return r;
}
template <class Fn>
arr map2(const arr& a, const arr& b, Fn fn) {
  arr r = make(broadcast(a.shape, b.shape));
  for (std::size_t i = 0; i < r.size(); ++i) r.v[i] = fn(at_broadcast(a, r.shape, i), at_broadcast(b, r.shape, i));
  return r;
}

inline arr constant(double c) { return arr{{}, {c}}; }
inline arr add(const arr& a, const arr& b) { return map2(a, b, [](double p, double q) { return p + q; }); }
inline arr sub(const arr& a, const arr& b) { return map2(a, b, [](double p, double q) { return p - q; }); }
inline arr mul(const arr& a, const arr& b) { return map2(a, b, [](double p, double q) { return p * q; }); }
inline arr div(const arr& a, const arr& b) { return map2(a, b, [](double p, double q) { return p / q; }); }
inline arr min(const arr& a, const arr& b) { return map2(a, b, [](double p, double q) { return p < q ? p : q; }); }
inline arr max(const arr& a, const arr& b) { return map2(a, b, [](double p, double q) { return p > q ? p : q; }); }
inline arr neg(const arr& a) { return map1(a, [](double p) { return -p; }); }
inline arr exp(const arr& a) { return map1(a, [](double p) { return std::exp(p); }); }
inline arr tanh(const arr& a) { return map1(a, [](double p) { return std::tanh(p); }); }
inline arr sigmoid(const arr& a) { return map1(a, [](double p) { return 1.0 / (1.0 + std::exp(-p)); }); }
inline arr relu(const arr& a) { return map1(a, [](double p) { return p > 0 ? p : 0.0; }); }
inline arr where(const arr& c, const arr& a, const arr& b) {
  arr r = make(broadcast(c.shape, broadcast(a.shape, b.shape)));
  for (std::size_t i = 0; i < r.size(); ++i)
    r.v[i] = at_broadcast(c, r.shape, i) != 0.0 ? at_broadcast(a, r.shape, i) : at_broadcast(b, r.shape, i);
  return r;
}
inline arr sum(const std::vector<arr>& xs) {
  std::vector<std::size_t> s = xs.at(0).shape;
  for (const arr& x : xs) s = broadcast(s, x.shape);
  arr r = make(s);
  for (std::size_t i = 0; i < r.size(); ++i) {
    double t = 0;
    for (const arr& x : xs) t += at_broadcast(x, s, i);
    r.v[i] = t;
  }
  return r;
}

// Views (as values: copies of the viewed elements).
inline arr transpose(const arr& a) {
  if (a.rank() <= 1) return a;
  if (a.rank() != 2) ref_error("transpose: rank > 2 not generated");
  const std::size_t m = a.shape[0], n = a.shape[1];
  arr r = make({n, m});
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) r.v[j * m + i] = a.v[i * n + j];
  return r;
}
// x[b:e:s] on the first axis, Python's slice.indices; has_end false: e omitted.
inline arr slice(const arr& a, long b, long e, bool has_end, long s) {
  if (a.rank() == 0 || s == 0) ref_error("slice: bad arguments");
  const long n = static_cast<long>(a.shape[0]);
  auto fix = [&](long v, bool stop) {
    if (v < 0) v += n;
    if (s > 0) return v < 0 ? 0L : (v > n ? n : v);
    (void)stop;
    return v < -1 ? -1L : (v > n - 1 ? n - 1 : v);
  };
  const long start = fix(b, false);
  const long stop = has_end ? fix(e, true) : (s > 0 ? n : -1L);
  std::vector<long> idx;
  for (long i = start; s > 0 ? i < stop : i > stop; i += s) idx.push_back(i);
  std::vector<std::size_t> shape = a.shape;
  shape[0] = idx.size();
  arr r = make(shape);
  const std::size_t inner = a.size() / a.shape[0];
  for (std::size_t k = 0; k < idx.size(); ++k)
    for (std::size_t j = 0; j < inner; ++j) r.v[k * inner + j] = a.v[static_cast<std::size_t>(idx[k]) * inner + j];
  return r;
}
inline arr reverse(const arr& a) { return slice(a, -1, 0, false, -1); }

// NumPy's dot for ranks 1 and 2.
inline arr dot(const arr& a, const arr& b) {
  if (a.rank() == 0 || b.rank() == 0 || a.rank() > 2 || b.rank() > 2) ref_error("dot: ranks");
  const std::size_t m = a.rank() == 2 ? a.shape[0] : 1, k = a.shape[a.rank() - 1];
  const std::size_t kb = b.shape[0], n = b.rank() == 2 ? b.shape[1] : 1;
  if (k != kb) ref_error(cat("dot: inner extents ", shape_str(a.shape), " ", shape_str(b.shape)));
  std::vector<std::size_t> s;
  if (a.rank() == 2) s.push_back(m);
  if (b.rank() == 2) s.push_back(n);
  arr r = make(s);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double t = 0;
      for (std::size_t p = 0; p < k; ++p) t += a.v[i * k + p] * b.v[p * n + j];
      r.v[i * n + j] = t;
    }
  return r;
}
inline arr reduce_sum(const arr& a) {
  double t = 0;
  for (double p : a.v) t += p;
  return constant(t);
}
inline arr reduce_sum(const arr& a, int axis) {
  const int rank = static_cast<int>(a.rank());
  const int ax = axis < 0 ? axis + rank : axis;
  if (ax < 0 || ax >= rank) ref_error("reduce_sum: axis");
  std::vector<std::size_t> s;
  for (int d = 0; d < rank; ++d)
    if (d != ax) s.push_back(a.shape[static_cast<std::size_t>(d)]);
  std::size_t outer = 1, inner = 1;
  for (int d = 0; d < ax; ++d) outer *= a.shape[static_cast<std::size_t>(d)];
  for (int d = ax + 1; d < rank; ++d) inner *= a.shape[static_cast<std::size_t>(d)];
  const std::size_t len = a.shape[static_cast<std::size_t>(ax)];
  arr r = make(s);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t i = 0; i < inner; ++i) {
      double t = 0;
      for (std::size_t l = 0; l < len; ++l) t += a.v[(o * len + l) * inner + i];
      r.v[o * inner + i] = t;
    }
  return r;
}
inline arr softmax(const arr& a) {
  if (a.rank() == 0) ref_error("softmax: rank 0");
  const std::size_t n = a.shape.back(), rows = a.size() / n;
  arr r = make(a.shape);
  for (std::size_t i = 0; i < rows; ++i) {
    double m = -std::numeric_limits<double>::infinity(), t = 0;
    for (std::size_t j = 0; j < n; ++j) m = std::max(m, a.v[i * n + j]);
    for (std::size_t j = 0; j < n; ++j) t += std::exp(a.v[i * n + j] - m);
    for (std::size_t j = 0; j < n; ++j) r.v[i * n + j] = std::exp(a.v[i * n + j] - m) / t;
  }
  return r;
}

// ---- tensors <-> arr --------------------------------------------------------------------
// Anything with extents(), size() and row-major operator[] (tensor, tensor_view, kept_view).
template <class T>
arr to_arr(const T& t) {
  if constexpr (std::is_arithmetic_v<T>) {
    return constant(static_cast<double>(t));
  } else {
    arr r;
    for (std::size_t e : t.extents()) r.shape.push_back(e);
    const std::size_t n = t.size();
    if (n != count(r.shape)) ref_error(cat("to_arr: size() ", n, " != product of extents ", shape_str(r.shape)));
    r.v.resize(n);
    for (std::size_t i = 0; i < n; ++i) r.v[i] = static_cast<double>(t[i]);
    return r;
  }
}

// Deterministic input data in [-1, 1] (multiples of 1/64), about one element in
// seven exactly 0 (so ip::where and relu see zeros).
inline float datum(std::uint32_t seed, std::size_t i) {
  std::uint32_t h = seed * 2654435761u + static_cast<std::uint32_t>(i) * 40503u + 12345u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  h *= 3266489917u;
  h ^= h >> 16;
  if (h % 7 == 0) return 0.0f;
  return static_cast<float>(static_cast<int>(h % 129) - 64) / 64.0f;
}
template <class Tensor>
Tensor filled(Tensor t, std::uint32_t seed) {
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = datum(seed, i);
  return t;
}
inline ip::tensor<float> vec(std::size_t n, std::uint32_t seed) { return filled(ip::tensor<float>(n), seed); }
inline ip::tensor<float, ip::extents<7>> vec7s(std::uint32_t seed) {
  return filled(ip::tensor<float, ip::extents<7>>(std::size_t{7}), seed);
}
inline ip::tensor<float, 2> mat(std::size_t r, std::size_t c, std::uint32_t seed) {
  return filled(ip::tensor<float, 2>(r, c), seed);
}
inline ip::tensor<float, ip::extents<5, 7>> mat57s(std::uint32_t seed) {
  return filled(ip::tensor<float, ip::extents<5, 7>>(std::size_t{5}, std::size_t{7}), seed);
}
inline float scalar(std::uint32_t seed) { return 0.25f + 0.5f * std::abs(datum(seed, 0)); }

// ---- comparing ----------------------------------------------------------------------------
inline std::string compare(const arr& got, const arr& want) {
  std::ostringstream os;
  os.precision(9);
  if (got.shape != want.shape) {
    os << "extents " << shape_str(got.shape) << ", expected " << shape_str(want.shape);
    return os.str();
  }
  int bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double g = got.v[i], w = want.v[i];
    if (!(std::abs(g - w) <= abs_tol + rel_tol * std::abs(w))) {
      if (bad < 4) os << (bad ? "; " : "") << "[" << i << "] got " << g << " expected " << w;
      ++bad;
    }
  }
  if (bad > 4) os << "; ... " << bad << " of " << want.size() << " elements differ";
  return os.str();
}
inline std::string same_bits(const arr& now, const arr& before) {
  if (now.shape != before.shape) return "extents changed";
  for (std::size_t i = 0; i < now.size(); ++i)
    if (!(now.v[i] == before.v[i]) && !(std::isnan(now.v[i]) && std::isnan(before.v[i]))) {
      std::ostringstream os;
      os.precision(9);
      os << "element " << i << " is " << now.v[i] << ", was " << before.v[i];
      return os.str();
    }
  return "";
}

template <class R>
std::vector<arr> outputs_of(const R& r) {
  if constexpr (requires { std::tuple_size<R>::value; })
    return std::apply([](const auto&... o) { return std::vector<arr>{to_arr(o)...}; }, r);
  else
    return {to_arr(r)};
}

// ---- argument patterns ------------------------------------------------------------------
template <class T>
inline constexpr bool is_tensor = !std::is_arithmetic_v<T>;

template <class... T>
inline constexpr std::uint64_t tensor_mask = [] {
  std::uint64_t m = 0, bit = 1;
  ((m |= is_tensor<T> ? bit : 0, bit <<= 1), ...);
  return m;
}();

// Argument K of a call with donation mask M: std::move(t) when donated, t otherwise.
template <std::uint64_t M, std::size_t K, class T>
decltype(auto) pass(T& t) {
  if constexpr ((M >> K & 1u) != 0) return std::move(t);
  else return static_cast<T&>(t);
}

// A borrowed strided view holding the same values as t: a vector as every
// second element of a twice longer tensor, a matrix as the transpose of its
// transposed copy. The elements in between are NaN, so reading one shows.
template <class T>
struct strided {
  T value;
  explicit strided(const T& t) : value(t) {}
  const T& view() const { return value; }
};
template <class T>
  requires is_tensor<T>
struct strided<T> {
  static constexpr std::size_t R = T::rank;
  ip::tensor<float, R> storage;
  explicit strided(const T& t) {
    if constexpr (R == 1) {
      storage = ip::tensor<float>(2 * t.size());
      for (std::size_t i = 0; i < storage.size(); ++i)
        storage[i] = i % 2 ? std::numeric_limits<float>::quiet_NaN() : t[i / 2];
    } else {
      const std::size_t m = t.extent(0), n = t.extent(1);
      storage = ip::tensor<float, 2>(n, m);
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) storage(j, i) = t(i, j);
    }
  }
  auto view() const {
    if constexpr (R == 1) return ip::slice<0, ip::end, 2>(storage);
    else return ip::transpose(storage);
  }
};

struct report {
  std::string graph;
  std::vector<std::string> errors;
  void add(const std::string& where, const std::string& what) {
    std::ostringstream os;
    os << graph << " [" << where << "] " << what;
    errors.push_back(os.str());
  }
};

// Calls f with donation mask M on fresh copies of `in`, then compares.
// Debug: the call is f.debug(...) (debug mode's pure reference, op checks and
// comparison run too; an ip::debug_error is a failure).
template <std::uint64_t M, bool Debug = false, class F, class... T, std::size_t... K>
void call_mask(report& rep, const char* what, const F& f, const std::tuple<T...>& in, const std::vector<arr>& in_arr,
               const std::vector<arr>& want, std::index_sequence<K...>) {
  auto copies = std::make_unique<std::tuple<T...>>(in);
  try {
    auto r = [&] {
      if constexpr (Debug) return f.debug(pass<M, K>(std::get<K>(*copies))...);
      else return f(pass<M, K>(std::get<K>(*copies))...);
    }();
    (
        [&] {
          if constexpr (is_tensor<T> && (M >> K & 1u) == 0) {
            const std::string e = same_bits(to_arr(std::get<K>(*copies)), in_arr[K]);
            if (!e.empty()) rep.add(what, cat("borrowed argument ", K, " modified: ", e));
          }
        }(),
        ...);
    // With every argument donated nothing of the caller's is left to view:
    // the results must own or keep their storage.
    if constexpr (M == tensor_mask<T...>) copies.reset();
    const std::vector<arr> got = outputs_of(r);
    if (got.size() != want.size()) {
      rep.add(what, cat("number of outputs ", got.size()));
      return;
    }
    for (std::size_t o = 0; o < want.size(); ++o) {
      const std::string e = compare(got[o], want[o]);
      if (!e.empty()) rep.add(what, cat("output ", o, ": ", e));
    }
  } catch (const std::exception& e) {
    rep.add(what, cat("threw: ", e.what()));
  }
}

template <class F, class... T, std::size_t... K>
void call_views(report& rep, const F& f, const std::tuple<T...>& in, const std::vector<arr>& in_arr,
                const std::vector<arr>& want, std::index_sequence<K...>) {
  std::tuple<strided<T>...> s{strided<T>(std::get<K>(in))...};
  try {
    auto r = f(std::get<K>(s).view()...);
    (
        [&] {
          if constexpr (is_tensor<T>) {
            const std::string e = same_bits(to_arr(std::get<K>(s).view()), in_arr[K]);
            if (!e.empty()) rep.add("strided views", cat("borrowed argument ", K, " modified: ", e));
          }
        }(),
        ...);
    const std::vector<arr> got = outputs_of(r);
    for (std::size_t o = 0; o < want.size() && o < got.size(); ++o) {
      const std::string e = compare(got[o], want[o]);
      if (!e.empty()) rep.add("strided views", cat("output ", o, ": ", e));
    }
  } catch (const std::exception& e) {
    rep.add("strided views", cat("threw: ", e.what()));
  }
}

#ifndef RG_DEBUG
#define RG_DEBUG 0
#endif

// Which calls rg::run makes (a bit set; the generator picks one per graph).
enum pattern : unsigned {
  borrowed = 1,            // f(lvalues...)
  donated = 2,             // f(std::move(fresh copies)...)
  mixed_even = 4,          // arguments 0, 2, ... donated, the others borrowed
  mixed_odd = 8,           // arguments 1, 3, ... donated, the others borrowed
  views = 16,              // f(strided const views...): borrowed, non-contiguous
  nr_borrowed = 32,        // the ip::no_rewrite function, borrowed
  nr_donated = 64,         // ... donated
  nr_mixed_even = 128,     // ... arguments 0, 2, ... donated
  all_patterns = 255,
};

// Runs graph `name`: f (with the rewrite) and fn (the same graph with
// ip::no_rewrite) under the patterns in P. A mixed pattern that equals borrowed
// or donated (one tensor argument) is skipped.
template <unsigned P, class F, class FN, class... T>
void run(const char* name, const F& f, const FN& fn, std::vector<arr> (*reference)(const std::vector<arr>&),
         T... inputs) {
  const std::tuple<T...> in(std::move(inputs)...);
  const std::vector<arr> in_arr = std::apply([](const auto&... t) { return std::vector<arr>{to_arr(t)...}; }, in);
  const std::vector<arr> want = reference(in_arr);
  report rep{name, {}};
  using seq = std::index_sequence_for<T...>;
  constexpr std::uint64_t all = tensor_mask<T...>;
  constexpr std::uint64_t even = all & 0x5555555555555555u, odd = all & 0xAAAAAAAAAAAAAAAAu;
  constexpr bool has_mixed = even != 0 && odd != 0;
  if constexpr ((P & borrowed) != 0) call_mask<0>(rep, "borrowed", f, in, in_arr, want, seq{});
  // donated; with RG_DEBUG (the random_inplace files), in debug mode, which also
  // checks the plan against a pure reference and every op against its maps
  if constexpr ((P & donated) != 0) {
    if constexpr (RG_DEBUG) call_mask<all, true>(rep, "donated, debug mode", f, in, in_arr, want, seq{});
    else call_mask<all>(rep, "donated", f, in, in_arr, want, seq{});
  }
  if constexpr ((P & mixed_even) != 0 && has_mixed) call_mask<even>(rep, "mixed: even donated", f, in, in_arr, want, seq{});
  if constexpr ((P & mixed_odd) != 0 && has_mixed) call_mask<odd>(rep, "mixed: odd donated", f, in, in_arr, want, seq{});
  if constexpr ((P & views) != 0) call_views(rep, f, in, in_arr, want, seq{});
  if constexpr ((P & nr_borrowed) != 0) call_mask<0>(rep, "no_rewrite, borrowed", fn, in, in_arr, want, seq{});
  if constexpr ((P & nr_donated) != 0) call_mask<all>(rep, "no_rewrite, donated", fn, in, in_arr, want, seq{});
  if constexpr ((P & nr_mixed_even) != 0 && has_mixed)
    call_mask<even>(rep, "no_rewrite, mixed: even donated", fn, in, in_arr, want, seq{});
  for (const std::string& e : rep.errors) FAIL_CHECK(e);
  CHECK(rep.errors.empty());
}

}  // namespace rg
