// ip::set and ip::inc through dynamic slices on other axes than the first, in a
// chain with other views, two dynamic slices in one chain, and an int start:
// the update kernel builds each dynamic region itself
// (tensor/detail/kernel_update.hpp), so every position is compared with the
// same update written as a loop, the cache donated (in place, storage kept)
// and borrowed (x untouched).
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto M = ip::input<"M", double, ip::extents<4, 6>>;
constexpr auto V = ip::input<"V", double, ip::extents<2, 4>>;
constexpr auto t = ip::scalar<"t", std::int64_t>;
constexpr auto s = ip::scalar<"s", int>;
using mat = ip::tensor<double, ip::extents<4, 6>>;

mat start() {
  mat m;
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<double>(i) * 0.5 - 3.0;
  return m;
}

template <class T>
bool same_values(const T& a, const T& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a.data()[i] != b.data()[i]) return false;
  return true;
}

// The call borrowed (m kept) and donated (m's storage returned) against expect.
template <class F, class... A>
void check_both(const F& f, const mat& expect, const A&... a) {
  const mat m = start();
  const mat r = f(m, a...);
  CHECK(same_values(r, expect));
  CHECK(same_values(m, start()));
  mat d = start();
  const double* p = d.data();
  const mat rd = f(std::move(d), a...);
  CHECK(rd.data() == p);
  CHECK(same_values(rd, expect));
}
}  // namespace

TEST_CASE("set through transpose(dynamic_slice<-1, 2>(M, t)): M[:, t:t+2] = V.T at every t", "[update][dynamic_slice][run]") {
  constexpr auto f = ip::function(ip::inputs(M, t, V), ip::outputs(ip::set(ip::transpose(ip::dynamic_slice<-1, 2>(M, t)), V)));
  static_assert(ip::plan(f, ip::donated, ip::borrowed, ip::borrowed).allocations == 0);
  ip::tensor<double, ip::extents<2, 4>> v;
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = -1.0 - static_cast<double>(i);
  for (std::int64_t at = 0; at <= 4; ++at) {
    mat e = start();
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 2; ++j) e(i, static_cast<std::size_t>(at) + j) = v(j, i);
    check_both(f, e, at, v);
  }
  const mat m = start();
  CHECK_THROWS_AS(f(m, std::int64_t{5}, v), ip::shape_error);
}

TEST_CASE("inc through two dynamic slices and an int start: M[t, s:s+3] += 1", "[update][dynamic_slice][run]") {
  constexpr auto f = ip::function(ip::inputs(M, t, s),
                                  ip::outputs(ip::inc(ip::dynamic_slice<0, 1>(ip::dynamic_slice<1, 3>(M, s), t), 1.0_c)));
  static_assert(ip::plan(f, ip::donated, ip::borrowed, ip::borrowed).allocations == 0);
  for (std::int64_t r = 0; r < 4; ++r)
    for (int c = 0; c <= 3; ++c) {
      mat e = start();
      for (std::size_t j = 0; j < 3; ++j) e(static_cast<std::size_t>(r), static_cast<std::size_t>(c) + j) += 1.0;
      check_both(f, e, r, c);
    }
  const mat m = start();
  CHECK_THROWS_AS(f(m, std::int64_t{4}, 0), ip::shape_error);
  CHECK_THROWS_AS(f(m, std::int64_t{0}, 4), ip::shape_error);
  CHECK_THROWS_AS(f(m, std::int64_t{0}, -1), ip::shape_error);
}
