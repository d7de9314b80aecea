#pragma once
// The index pattern of a view: the affine map from a view's element index i to
// the element of its root that it addresses,
//     j[r] = off[r] + sum_k m[r][k] * i[k]      (r: an axis of the basis)
// A root with static extents is addressed in its row-major flat order (one
// basis axis, so reshapes of dense views stay affine); a root with dynamic
// extents by its own axes, with offsets and extents linear in one unknown
// extent each ("n - 1"). Each view op states its step (a step_code); applying
// the steps one after another composes them, so two reads of one root have the
// same index pattern exactly when their maps and extents are equal (columns of
// axes of extent 1 do not count, an empty view addresses nothing). What does
// not stay affine and linear (a strided slice of an axis of unknown length, a
// reshape of a strided view of a dynamic root, a user view op) is `unknown`:
// never the same as anything (conservative). disjoint_from decides whether
// two patterns of one root share no element (overlap_system, at the end).

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace inplace::detail {

enum class step_kind : unsigned char {
  identity,
  transpose,    // all axes reversed
  permute,      // a: output axis k is input axis (a >> 4k) & 15
  slice,        // axis, a = begin, b = end (INT64_MAX: omitted), c = step (Python's rules)
  index,        // axis, a = index (negative: from the end); drops the axis
  expand,       // axis: a new axis of extent 1
  squeeze,      // axis: drops an axis of extent 1
  diagonal,     // axis = first axis, a = second axis, b = offset; the diagonal is the last output axis
  broadcast,    // to the output's extents (stride 0)
  reshape,      // to the output's extents, row-major
  reinterpret,  // a = sizeof the old element, b = sizeof the new one
  dynamic,      // axis: a slice whose start is known only when the program runs
  unknown
};

struct step_code {
  step_kind kind = step_kind::identity;
  std::int64_t axis = 0, a = 0, b = 0, c = 0;
  friend constexpr bool operator==(const step_code&, const step_code&) = default;
};

constexpr std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}
constexpr step_code make_step(step_kind k, std::int64_t axis = 0, std::int64_t a = 0, std::int64_t b = 0,
                              std::int64_t c = 0) {
  return {k, axis, a, b, c};
}

constexpr std::int64_t gcd64(std::int64_t a, std::int64_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    const std::int64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

// (c + t * n[var]) / d: a number (t == 0, d == 1), or linear in one unknown:
// an extent of the basis (var < max_rank), or a quantity derived from one that
// is not linear (var: a hash of how it was derived, so that the same derivation
// gives the same unknown). d > 1 only after an exact division (a reinterpret).
struct lin {
  std::int64_t c = 0, t = 0, d = 1;
  std::int64_t var = -1;
  bool opaque = false;  // not of this form

  static constexpr lin num(std::int64_t v) { return {v, 0, 1, -1, false}; }
  static constexpr lin of_var(std::int64_t v) { return {0, 1, 1, v, false}; }
  static constexpr lin none() { return {0, 0, 1, -1, true}; }
  static constexpr lin make(std::int64_t c0, std::int64_t t0, std::int64_t d0, std::int64_t v) {
    if (d0 < 0) c0 = -c0, t0 = -t0, d0 = -d0;
    std::int64_t g = gcd64(gcd64(c0, t0), d0);
    if (g == 0) g = 1;
    return {c0 / g, t0 / g, d0 / g, t0 == 0 ? -1 : v, false};
  }
  constexpr bool is_num() const { return !opaque && t == 0 && d == 1; }
  constexpr bool is_num(std::int64_t v) const { return is_num() && c == v; }
  friend constexpr bool operator==(const lin& x, const lin& y) {
    return !x.opaque && !y.opaque && x.c == y.c && x.t == y.t && x.d == y.d && (x.t == 0 || x.var == y.var);
  }
  friend constexpr lin operator+(const lin& x, const lin& y) {
    if (x.opaque || y.opaque || (x.t != 0 && y.t != 0 && x.var != y.var)) return none();
    return make(x.c * y.d + y.c * x.d, x.t * y.d + y.t * x.d, x.d * y.d, x.t != 0 ? x.var : y.var);
  }
  friend constexpr lin operator*(std::int64_t k, const lin& x) {
    return x.opaque ? none() : make(k * x.c, k * x.t, x.d, x.var);
  }
  friend constexpr lin operator-(const lin& x, const lin& y) { return x + (-1) * y; }
  // x / k rounded up (k > 0): a number, an exact division of both terms, or a new unknown.
  friend constexpr lin ceil_div(const lin& x, std::int64_t k) {
    if (x.opaque) return none();
    if (x.is_num()) return num(x.c >= 0 ? (x.c + k - 1) / k : -((-x.c) / k));
    if (x.d == 1 && x.c % k == 0 && x.t % k == 0) return make(x.c / k, x.t / k, 1, x.var);
    std::uint64_t h = 0x243f6a8885a308d3ULL;
    for (std::int64_t v : {x.c, x.t, x.d, x.var, k}) h = mix(h, static_cast<std::uint64_t>(v));
    h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;  // every input bit into the high bits kept below
    h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return of_var(static_cast<std::int64_t>(h >> 2) | 16);  // (>= 16: never an extent of the basis)
  }
  // x / k where k divides x whenever the program runs (a reinterpret's checked size).
  friend constexpr lin exact_div(const lin& x, std::int64_t k) {
    if (x.opaque || (x.is_num() && x.c % k != 0)) return none();
    return make(x.c, x.t, x.d * k, x.var);
  }
};

struct index_pattern {
  static constexpr std::size_t max_axes = 8;
  static constexpr std::int64_t open_end = INT64_MAX;  // ip::end
  using column = std::array<std::int64_t, max_axes>;

  std::uint64_t basis = 0;        // 0: the root's own layout; else a hash of how it was re-based
  std::size_t rr = 0, vr = 0;     // axes of the basis, axes of the view
  std::array<lin, max_axes> n{};  // the basis's extents
  std::array<lin, max_axes> off{};
  std::array<column, max_axes> m{};  // m[r][k]
  std::array<lin, max_axes> ext{};   // the view's extents
  std::int64_t esize = 1, unit_div = 1;  // element size on the last basis axis, in root elements / unit_div
  bool unknown = false;
  bool may_overlap = false;  // a broadcast of an extent unknown until the program runs
  // Python clamps a slice's bounds to the axis, which the map (assuming the
  // axis long enough, as the shapes do) does not: on an axis of unknown length,
  //  - a stop that may be clamped (x[:5], x[-1:5]) leaves the map more indices
  //    than the program has, at the end: a `front` axis, on which only steps
  //    counting from the front keep the map a superset of the elements;
  //  - a start that may be clamped (x[-4:] of 2 elements starts at 0, not at
  //    -2) shifts the indices: a `shifted` axis, which no later step may pick
  //    from; with a step other than 1 the map misses the elements' phase.
  // A pattern that no longer covers its elements is `clamped`: it is never
  // proved disjoint from anything (same_as does not look at these yet).
  //  - a slice whose start is known only when the program runs (ip::dynamic_slice)
  //    keeps the whole axis: a `loose` axis, from which no later step may pick,
  //    and the pattern a `superset` of its elements: never the same as another,
  //    and disjoint only from what the whole axis is disjoint from.
  enum class cover : unsigned char { exact, front, shifted, loose };
  bool clamped = false;
  bool superset = false;
  std::array<cover, max_axes> partial{};
  // The least value of each extent of the basis for which every view of the
  // chain is non-empty (a view of an empty view is empty).
  std::array<std::int64_t, max_axes> least{};

  // The identity pattern of a root of shape s (extents: ip::dynamic for unknown).
  template <class Shape>
  static constexpr index_pattern of_root(const Shape& s, std::size_t dyn) {
    index_pattern p;
    if (s.rank > max_axes) return p.unknown = true, p;
    p.vr = s.rank;
    bool is_static = true;
    for (std::size_t k = 0; k < s.rank; ++k) is_static = is_static && s.extent[k] != dyn;
    for (std::size_t k = 0; k < s.rank; ++k)
      p.ext[k] = s.extent[k] == dyn ? lin::of_var(static_cast<std::int64_t>(s.rank == 1 ? 0 : k)) : lin::num(static_cast<std::int64_t>(s.extent[k]));
    if (s.rank == 0) return p;
    if (is_static || s.rank == 1) {  // one flat axis
      p.rr = 1;
      std::int64_t stride = 1;
      for (std::size_t k = s.rank; k-- > 0;) {
        p.m[0][k] = stride;
        stride *= p.ext[k].c;
      }
      p.n[0] = s.rank == 1 ? p.ext[0] : lin::num(stride);
    } else {
      p.rr = s.rank;
      for (std::size_t k = 0; k < s.rank; ++k) p.m[k][k] = 1, p.n[k] = p.ext[k];
    }
    p.normalise();
    return p;
  }

  // Applies a view's step; `out` is the view's shape (the extents a broadcast or reshape makes).
  template <class Shape>
  constexpr void append(const step_code& s, const Shape& out, std::size_t dyn) {
    if (unknown) return;
    if (superset && picks_from_loose(s)) return void(unknown = true);
    switch (s.kind) {
      case step_kind::identity: return;
      case step_kind::transpose: {
        std::int64_t code = 0;
        for (std::size_t k = 0; k < vr; ++k) code |= static_cast<std::int64_t>(vr - 1 - k) << (4 * k);
        permute(code);
        break;
      }
      case step_kind::permute: permute(s.a); break;
      case step_kind::slice: slice(static_cast<std::size_t>(s.axis), s.a, s.b, s.c); break;
      case step_kind::index: index(static_cast<std::size_t>(s.axis), s.a); break;
      case step_kind::expand: expand(static_cast<std::size_t>(s.axis)); break;
      case step_kind::squeeze: drop(static_cast<std::size_t>(s.axis)); break;
      case step_kind::diagonal: diagonal(static_cast<std::size_t>(s.axis), static_cast<std::size_t>(s.a), s.b); break;
      case step_kind::broadcast: broadcast(out, dyn); break;
      case step_kind::reshape: reshape(out, dyn); break;
      case step_kind::reinterpret: reinterpret(s.a, s.b); break;
      case step_kind::dynamic: loosen(static_cast<std::size_t>(s.axis)); break;
      case step_kind::unknown: unknown = true; return;
    }
    normalise();
  }

  constexpr bool same_as(const index_pattern& o) const {
    if (unknown || o.unknown || superset || o.superset || basis != o.basis || rr != o.rr || vr != o.vr) return false;
    for (std::size_t k = 0; k < vr; ++k)
      if (!(ext[k] == o.ext[k])) return false;
    if (is_empty()) return true;
    if (unit_div != o.unit_div) {  // measure both in the finer unit
      const std::int64_t u = lcm(unit_div, o.unit_div);
      return rescaled(u / unit_div).same_as(o.rescaled(u / o.unit_div));
    }
    if (esize != o.esize) return false;
    for (std::size_t r = 0; r < rr; ++r) {
      if (!(off[r] == o.off[r])) return false;
      for (std::size_t k = 0; k < vr; ++k)
        if (m[r][k] != o.m[r][k]) return false;
    }
    return true;
  }
  // Two indices of the view address one element (a broadcast's stride 0).
  constexpr bool overlaps_itself() const {
    if (may_overlap) return true;
    if (unknown || is_empty()) return false;
    for (std::size_t k = 0; k < vr; ++k) {
      if (ext[k].is_num() && ext[k].c <= 1) continue;
      bool zero = true;
      for (std::size_t r = 0; r < rr; ++r) zero = zero && m[r][k] == 0;
      if (zero) return true;
    }
    return false;
  }
  // No element addressed by this pattern is addressed by o, for every value of
  // the unknown extents (false: they may share one). Defined below.
  constexpr bool disjoint_from(const index_pattern& o) const;
  constexpr bool is_empty() const {
    for (std::size_t k = 0; k < vr; ++k)
      if (ext[k].is_num(0)) return true;
    return false;
  }
  // Whether the view's elements are dense and row-major in its root's storage
  // (what a reshape needs): known only when the pattern is.
  constexpr bool row_major() const { return !unknown && dense(); }

 private:
  friend struct overlap_system;
  static constexpr std::int64_t lcm(std::int64_t a, std::int64_t b) { return a / gcd64(a, b) * b; }

  constexpr void normalise() {
    for (std::size_t k = 0; k < vr; ++k) {
      if (ext[k].opaque) unknown = true;
      const lin& e = ext[k];
      if (!e.opaque && e.t > 0 && e.var >= 0 && e.var < static_cast<std::int64_t>(max_axes)) {  // e >= 1
        const std::int64_t need = e.d - e.c, at_least = need <= 0 ? 0 : (need + e.t - 1) / e.t;
        auto& l = least[static_cast<std::size_t>(e.var)];
        l = l > at_least ? l : at_least;
      }
      if (ext[k].is_num(1))
        for (std::size_t r = 0; r < rr; ++r) m[r][k] = 0;
    }
    for (std::size_t r = 0; r < rr; ++r)
      if (off[r].opaque) unknown = true;
  }
  // The last basis axis measured in units f times finer.
  constexpr index_pattern rescaled(std::int64_t f) const {
    index_pattern p = *this;
    if (f == 1 || rr == 0) return p;
    const std::size_t q = rr - 1;
    p.off[q] = f * off[q];
    p.n[q] = f * n[q];
    for (std::size_t k = 0; k < vr; ++k) p.m[q][k] *= f;
    p.esize *= f;
    p.unit_div *= f;
    return p;
  }
  constexpr void move_column(std::size_t from, std::size_t to) {
    ext[to] = ext[from];
    partial[to] = partial[from];
    for (std::size_t r = 0; r < rr; ++r) m[r][to] = m[r][from];
  }
  constexpr void shift(std::size_t k, const lin& by) {  // the view starts `by` elements further on axis k
    for (std::size_t r = 0; r < rr; ++r)
      if (m[r][k] != 0) off[r] = off[r] + m[r][k] * by;
  }
  // A run-time start on axis k: the whole axis stands for the slice.
  constexpr void loosen(std::size_t k) {
    if (!axis_ok(k, vr)) return;
    if (partial[k] != cover::exact) return void(unknown = true);
    partial[k] = cover::loose;
    superset = true;
  }
  // Whether step s selects from a loose axis, or lays the elements out anew
  // (the whole axis would then stand for the wrong elements).
  constexpr bool picks_from_loose(const step_code& s) const {
    const auto loose = [&](std::int64_t k) { return k >= 0 && static_cast<std::size_t>(k) < vr && partial[static_cast<std::size_t>(k)] == cover::loose; };
    switch (s.kind) {
      case step_kind::identity: case step_kind::transpose: case step_kind::permute: case step_kind::expand: return false;
      case step_kind::slice: case step_kind::index: case step_kind::squeeze: case step_kind::dynamic: return loose(s.axis);
      case step_kind::diagonal: return loose(s.axis) || loose(s.a);
      default: return true;  // broadcast, reshape, reinterpret, unknown
    }
  }
  constexpr bool axis_ok(std::size_t k, std::size_t limit) {
    if (k < limit) return true;
    unknown = true;
    return false;
  }
  constexpr void permute(std::int64_t code) {
    index_pattern p = *this;
    for (std::size_t k = 0; k < vr; ++k) {
      const auto from = static_cast<std::size_t>((code >> (4 * k)) & 15);
      if (!axis_ok(from, vr)) return;
      ext[k] = p.ext[from];
      partial[k] = p.partial[from];
      for (std::size_t r = 0; r < rr; ++r) m[r][k] = p.m[r][from];
    }
  }
  constexpr void drop(std::size_t k) {
    if (!axis_ok(k, vr)) return;
    for (std::size_t j = k + 1; j < vr; ++j) move_column(j, j - 1);
    --vr;
  }
  constexpr void expand(std::size_t k) {
    if (!axis_ok(k, vr + 1) || vr == max_axes) return void(unknown = true);
    for (std::size_t j = vr; j > k; --j) move_column(j - 1, j);
    ext[k] = lin::num(1);
    partial[k] = cover::exact;
    for (std::size_t r = 0; r < rr; ++r) m[r][k] = 0;
    ++vr;
  }
  // Python's x[b:e:s] on axis k (a number of unknown length is assumed long
  // enough: no clamping, as the shapes assume).
  constexpr void slice(std::size_t k, std::int64_t b, std::int64_t e, std::int64_t s) {
    if (!axis_ok(k, vr) || s == 0) return;
    if (partial[k] == cover::shifted || (partial[k] == cover::front && (s < 0 || b < 0))) clamped = true;
    const lin x = ext[k];
    lin first, len;
    if (x.is_num()) {
      const std::int64_t n_ = x.c;
      std::int64_t bb, ee;
      if (s > 0) {
        bb = b < 0 ? (b + n_ < 0 ? 0 : b + n_) : (b > n_ ? n_ : b);
        ee = e == open_end ? n_ : e < 0 ? (e + n_ < 0 ? 0 : e + n_) : (e > n_ ? n_ : e);
        len = lin::num(ee > bb ? (ee - bb - 1) / s + 1 : 0);
      } else {
        bb = b < 0 ? (b + n_ < -1 ? -1 : b + n_) : (b > n_ - 1 ? n_ - 1 : b);
        ee = e == open_end ? -1 : e < 0 ? (e + n_ < -1 ? -1 : e + n_) : (e > n_ - 1 ? n_ - 1 : e);
        len = lin::num(bb > ee ? (bb - ee - 1) / -s + 1 : 0);
      }
      first = lin::num(bb);
    } else {
      if ((s > 0 && b < -1) || (s < 0 && b > 0)) {  // the start may be clamped
        if (s != 1 && s != -1) clamped = true;
        partial[k] = cover::shifted;
      } else if (e != open_end && (s > 0) == (e >= 0) && partial[k] == cover::exact) {  // the stop may be
        partial[k] = cover::front;
      }
      first = b < 0 ? x + lin::num(b) : lin::num(b);
      const lin stop = e == open_end ? (s > 0 ? x : lin::num(-1)) : e < 0 ? x + lin::num(e) : lin::num(e);
      const lin span = s > 0 ? stop - first : first - stop;
      // (an extent is never negative: a span that is not positive for any n is empty)
      len = !span.opaque && span.t <= 0 && span.c <= 0 ? lin::num(0) : ceil_div(span, s > 0 ? s : -s);
    }
    if (len.is_num() && len.c <= 0) first = lin::num(0), len = lin::num(0);
    shift(k, first);
    for (std::size_t r = 0; r < rr; ++r) m[r][k] *= s;
    ext[k] = len;
  }
  constexpr void index(std::size_t k, std::int64_t i) {
    if (!axis_ok(k, vr)) return;
    if (partial[k] == cover::shifted || (partial[k] == cover::front && i < 0)) clamped = true;
    shift(k, i < 0 ? ext[k] + lin::num(i) : lin::num(i));
    drop(k);
  }
  constexpr void diagonal(std::size_t a1, std::size_t a2, std::int64_t offset) {
    if (!axis_ok(a1, vr) || !axis_ok(a2, vr) || a1 == a2) return void(unknown = true);
    // (from the front of both axes: a front axis of either keeps the diagonal a superset)
    if (partial[a1] == cover::shifted || partial[a2] == cover::shifted) clamped = true;
    const cover diag = partial[a1] == cover::front || partial[a2] == cover::front ? cover::front : cover::exact;
    const std::int64_t s1 = offset < 0 ? -offset : 0, s2 = offset > 0 ? offset : 0;
    const lin l1 = ext[a1] - lin::num(s1), l2 = ext[a2] - lin::num(s2);
    lin len = l1 == l2 ? l1 : (l1.is_num() && l2.is_num()) ? lin::num(l1.c < l2.c ? l1.c : l2.c) : lin::none();
    if (len.is_num() && len.c < 0) len = lin::num(0);
    if (!len.is_num(0)) shift(a1, lin::num(s1)), shift(a2, lin::num(s2));
    column d{};
    for (std::size_t r = 0; r < rr; ++r) d[r] = m[r][a1] + m[r][a2];
    const std::size_t hi = a1 > a2 ? a1 : a2, lo = a1 > a2 ? a2 : a1;
    drop(hi);
    drop(lo);
    ext[vr] = len;
    partial[vr] = diag;
    for (std::size_t r = 0; r < rr; ++r) m[r][vr] = d[r];
    ++vr;
  }
  template <class Shape>
  constexpr void broadcast(const Shape& out, std::size_t dyn) {
    if (out.rank < vr || out.rank > max_axes) return void(unknown = true);
    const std::size_t add = out.rank - vr;
    for (std::size_t k = vr; k-- > 0;) move_column(k, k + add);
    for (std::size_t k = 0; k < add; ++k) {
      partial[k] = cover::exact;
      for (std::size_t r = 0; r < rr; ++r) m[r][k] = 0;
      ext[k] = lin::num(1);
    }
    vr = out.rank;
    for (std::size_t k = 0; k < vr; ++k) {
      if (out.extent[k] == dyn || ext[k] == lin::num(static_cast<std::int64_t>(out.extent[k]))) continue;
      if (!ext[k].is_num()) {  // repeated if it is 1 when the program runs: may overlap
        may_overlap = unknown = true;
        return;
      }
      if (!ext[k].is_num(1)) return void(unknown = true);  // (a shape error)
      for (std::size_t r = 0; r < rr; ++r) m[r][k] = 0;
      ext[k] = lin::num(static_cast<std::int64_t>(out.extent[k]));
    }
  }
  // Dense row-major over the view's extents, in the one basis axis.
  constexpr bool dense() const {
    if (rr != 1) return false;
    if (is_empty()) return true;
    std::int64_t stride = esize;
    for (std::size_t k = vr; k-- > 0;) {
      if (!ext[k].is_num(1) && m[0][k] != stride) return false;
      if (k > 0 && !ext[k].is_num()) return false;
      stride *= ext[k].c;
    }
    return true;
  }
  // Every element of the root (the quick answer of disjoint_from for whole values).
  constexpr bool covers_root() const {
    if (is_root_identity()) return true;
    if (rr != 1 || esize != 1 || unit_div != 1 || !n[0].is_num()) return false;
    std::int64_t count = 1;
    for (std::size_t k = 0; k < vr; ++k) {
      if (!ext[k].is_num() || (!ext[k].is_num(1) && m[0][k] == 0)) return false;
      count *= ext[k].c;
    }
    return count == n[0].c && !overlaps_itself();
  }
  constexpr bool is_root_identity() const {
    if (vr != rr || unit_div != 1 || esize != 1) return false;
    for (std::size_t r = 0; r < rr; ++r) {
      if (!off[r].is_num(0) || !(ext[r] == n[r])) return false;
      for (std::size_t k = 0; k < vr; ++k)
        if (m[r][k] != (r == k && !ext[k].is_num(1) ? 1 : 0)) return false;
    }
    return true;
  }
  template <class Shape>
  constexpr void reshape(const Shape& out, std::size_t dyn) {
    if (out.rank > max_axes) return void(unknown = true);
    for (std::size_t k = 0; k < vr; ++k) clamped = clamped || partial[k] != cover::exact;
    if (dense()) {  // the same offset, dense over the new extents
      lin size = lin::num(1);
      for (std::size_t k = 0; k < vr; ++k)
        size = ext[k].is_num() ? ext[k].c * size : (size.is_num() ? size.c * ext[k] : lin::none());
      vr = out.rank;
      std::int64_t stride = esize;
      for (std::size_t k = vr; k-- > 0;) {
        ext[k] = out.extent[k] == dyn ? (vr == 1 ? size : lin::none()) : lin::num(static_cast<std::int64_t>(out.extent[k]));
        m[0][k] = stride;
        stride *= ext[k].c;
      }
      return;
    }
    if (!is_root_identity()) return void(unknown = true);
    // a dense root of dynamic extents seen with other axes: a basis of its own
    std::uint64_t h = mix(basis + 1, out.rank);
    for (std::size_t k = 0; k < out.rank; ++k) h = mix(h, out.extent[k]);
    *this = of_root(out, dyn);
    basis = h;
  }
  constexpr void reinterpret(std::int64_t from, std::int64_t to) {
    if (from == to) return;
    if (vr == 0 || rr == 0 || from <= 0 || to <= 0) return void(unknown = true);
    clamped = clamped || partial[vr - 1] != cover::exact;
    const std::size_t q = rr - 1, l = vr - 1;
    if (!ext[l].is_num(1)) {  // the last axis must be dense
      for (std::size_t r = 0; r < q; ++r)
        if (m[r][l] != 0) return void(unknown = true);
      if (m[q][l] != esize) return void(unknown = true);
    }
    const std::int64_t f = from / gcd64(esize * to, from);  // keep esize * to / from whole
    *this = rescaled(f);
    esize = esize * to / from;
    m[q][l] = esize;
    ext[l] = exact_div(from * ext[l], to);
  }
};

// Is there an index i of pattern a and i' of pattern b with
//     a.off[r] + sum_k a.m[r][k] i[k] == b.off[r] + sum_k b.m[r][k] i'[k]   for every axis r?
// Written as  sum_v coef[r][v] x[v] == rhs[r],  x[v] in [0, top[v]]  (v: the
// view axes of both, b's negated; with elements wider than the unit, one more
// variable each for the unit inside the element). The system has no solution:
//  - for every value of the unknowns, when one row alone proves it: its
//    coefficients' gcd never divides rhs (even vs odd columns), or rhs lies
//    beyond what the row's terms reach (row 0 vs rows 1.., two halves);
//  - with numbers only, also when an exact search finds none (the diagonal vs
//    the superdiagonal): from the largest coefficient down, each variable takes
//    only the values the remaining ones can still make up. Past a budget of
//    steps it answers "may overlap" (conservative).
// Unknowns are extents: at least 0, and at least what makes every extent of
// the two views at least 1 (an empty view overlaps nothing).
struct overlap_system {
  static constexpr std::size_t max_rows = index_pattern::max_axes, max_vars = 2 * index_pattern::max_axes + 2;
  static constexpr std::int64_t budget = 1 << 14;
  std::size_t rows = 0, vars = 0;
  std::array<std::array<std::int64_t, max_vars>, max_rows> coef{};
  std::array<lin, max_vars> top{};
  std::array<lin, max_rows> rhs{};
  std::array<std::int64_t, 2 * max_vars + max_rows> min_var{}, min_at{};  // the least value of unknown min_var[k]
  std::size_t num_min = 0;

  constexpr void add_pattern(const index_pattern& p, std::int64_t sign) {
    for (std::size_t k = 0; k < p.vr; ++k) {
      note_extent(p.ext[k]);
      bool any = false;
      for (std::size_t r = 0; r < rows; ++r) any = any || p.m[r][k] != 0;
      if (!any || vars == max_vars) continue;  // (extent 1, or every index of the axis at one element)
      for (std::size_t r = 0; r < rows; ++r) coef[r][vars] = sign * p.m[r][k];
      top[vars++] = p.ext[k] - lin::num(1);
    }
    if (p.esize > 1) {  // the units inside one element, on the last axis
      coef[rows - 1][vars] = sign;
      top[vars++] = lin::num(p.esize - 1);
    }
  }
  // An extent (c + t n) / d >= 1 when the view is not empty: n >= (d - c) / t.
  constexpr void note_extent(const lin& e) {
    if (e.opaque || e.t <= 0) return;
    const std::int64_t need = e.d - e.c;
    note_least(e.var, need <= 0 ? 0 : (need + e.t - 1) / e.t);
  }
  constexpr void note_least(std::int64_t var, std::int64_t least) {
    for (std::size_t k = 0; k < num_min; ++k)
      if (min_var[k] == var) return void(min_at[k] = min_at[k] > least ? min_at[k] : least);
    if (num_min < min_var.size()) min_var[num_min] = var, min_at[num_min++] = least;
  }
  // x > 0 for every value of its unknown allowed.
  constexpr bool positive(const lin& x) const {
    if (x.opaque || x.t < 0) return false;
    std::int64_t least = 0;
    for (std::size_t k = 0; k < num_min; ++k)
      if (min_var[k] == x.var) least = min_at[k];
    return x.c + x.t * least > 0;  // (d > 0)
  }
  constexpr bool row_has_no_solution(std::size_t r) const {
    std::int64_t g = 0;
    lin lo = lin::num(0), hi = lin::num(0);
    for (std::size_t v = 0; v < vars; ++v) {
      const std::int64_t a = coef[r][v];
      g = gcd64(g, a);
      if (a > 0) hi = hi + a * top[v];
      if (a < 0) lo = lo + a * top[v];
    }
    const lin& c = rhs[r];
    if (g == 0) return positive(c) || positive(lin::num(0) - c);
    if (!c.opaque && c.d == 1 && c.t % g == 0 && c.c % g != 0) return true;
    return positive(c - hi) || positive(lo - c);
  }

  constexpr bool has_no_solution() {
    for (std::size_t r = 0; r < rows; ++r)
      if (row_has_no_solution(r)) return true;
    for (std::size_t r = 0; r < rows; ++r)
      if (!rhs[r].is_num()) return false;
    for (std::size_t v = 0; v < vars; ++v)
      if (!top[v].is_num()) return false;
    return search();
  }

 private:
  static constexpr std::int64_t floor_div(std::int64_t p, std::int64_t q) {
    const std::int64_t d = p / q;
    return (p % q != 0 && ((p < 0) != (q < 0))) ? d - 1 : d;
  }
  static constexpr std::int64_t ceil_div(std::int64_t p, std::int64_t q) { return -floor_div(-p, q); }
  static constexpr std::int64_t magnitude(std::int64_t a) { return a < 0 ? -a : a; }

  // The exact search over numbers (see above).
  constexpr bool search() {
    const std::size_t n = vars;
    std::array<std::int64_t, max_vars> t{};
    for (std::size_t v = 0; v < n; ++v) t[v] = top[v].c;
    std::array<std::size_t, max_vars> order{};  // by largest |coefficient| first
    std::array<std::int64_t, max_vars> weight{};
    for (std::size_t v = 0; v < n; ++v) {
      order[v] = v;
      for (std::size_t r = 0; r < rows; ++r) weight[v] = weight[v] > magnitude(coef[r][v]) ? weight[v] : magnitude(coef[r][v]);
    }
    for (std::size_t i = 1; i < n; ++i)
      for (std::size_t j = i; j > 0 && weight[order[j - 1]] < weight[order[j]]; --j) {
        const std::size_t o = order[j - 1];
        order[j - 1] = order[j], order[j] = o;
      }
    // what variables d.. can still make up, per row: [lo, hi], multiples of g
    std::array<std::array<std::int64_t, max_vars + 1>, max_rows> lo{}, hi{}, g{};
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t d = n; d-- > 0;) {
        const std::int64_t a = coef[r][order[d]], reach = a * t[order[d]];
        lo[r][d] = lo[r][d + 1] + (reach < 0 ? reach : 0);
        hi[r][d] = hi[r][d + 1] + (reach > 0 ? reach : 0);
        g[r][d] = gcd64(g[r][d + 1], a);
      }
    std::array<std::array<std::int64_t, max_rows>, max_vars + 1> left{};  // rhs less the variables fixed
    std::array<std::int64_t, max_vars> cur{}, last{};
    for (std::size_t r = 0; r < rows; ++r) left[0][r] = rhs[r].c;
    std::int64_t steps = budget;
    std::size_t d = 0;
    for (;;) {
      if (steps-- == 0) return false;
      bool fits = true;
      for (std::size_t r = 0; r < rows && fits; ++r) {
        const std::int64_t x = left[d][r];
        fits = x >= lo[r][d] && x <= hi[r][d] && (g[r][d] == 0 ? x == 0 : x % g[r][d] == 0);
      }
      if (fits && d == n) return false;  // a common element
      if (fits) {  // the values of variable d the others can complete
        cur[d] = 0, last[d] = t[order[d]];
        for (std::size_t r = 0; r < rows; ++r) {
          const std::int64_t a = coef[r][order[d]];
          if (a == 0) continue;
          const std::int64_t from = left[d][r] - hi[r][d + 1], to = left[d][r] - lo[r][d + 1];  // a * x in [from, to]
          const std::int64_t x0 = a > 0 ? ceil_div(from, a) : ceil_div(to, a), x1 = a > 0 ? floor_div(to, a) : floor_div(from, a);
          cur[d] = cur[d] > x0 ? cur[d] : x0;
          last[d] = last[d] < x1 ? last[d] : x1;
        }
      }
      if (!fits || cur[d] > last[d]) {  // back to the deepest variable with values left
        for (;;) {
          if (d == 0) return true;
          --d;
          if (++cur[d] <= last[d]) break;
        }
      }
      for (std::size_t r = 0; r < rows; ++r) left[d + 1][r] = left[d][r] - coef[r][order[d]] * cur[d];
      ++d;
    }
  }
};

constexpr bool index_pattern::disjoint_from(const index_pattern& o) const {
  if (unknown || o.unknown || clamped || o.clamped) return false;
  if (is_empty() || o.is_empty()) return true;
  if (basis != o.basis || rr != o.rr || rr == 0 || covers_root() || o.covers_root()) return false;
  if (unit_div != o.unit_div) {  // measure both in the finer unit
    const std::int64_t u = lcm(unit_div, o.unit_div);
    return rescaled(u / unit_div).disjoint_from(o.rescaled(u / o.unit_div));
  }
  overlap_system s;
  s.rows = rr;
  for (std::size_t r = 0; r < max_axes; ++r) {
    s.note_least(static_cast<std::int64_t>(r), least[r]);
    s.note_least(static_cast<std::int64_t>(r), o.least[r]);
  }
  for (std::size_t r = 0; r < rr; ++r) s.rhs[r] = o.off[r] - off[r];
  s.add_pattern(*this, 1);
  s.add_pattern(o, -1);
  return s.has_no_solution();
}

}  // namespace inplace::detail
