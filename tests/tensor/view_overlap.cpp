// Run-time overlap checks of tensor assignments with the axis views: a
// destination and a source that touch disjoint elements of one buffer need no
// temporary; a real overlap still goes through one (and the result is NumPy's).
// And the element-level test itself against brute force.
#include "allocations.hpp"
#include "naive.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <random>
#include <set>
#include <vector>

namespace ip = inplace;
using naive::iota;
using allocations::temporaries;


TEST_CASE("disjoint parts of one buffer: no temporary", "[views][overlap]") {
  SECTION("two different rows") {
    auto a = iota(4, 5);
    CHECK(temporaries([&] { ip::row(a, 0) = ip::row(a, 2) + ip::row(a, 3); }) == 0);
    for (std::size_t j = 0; j < 5; ++j) CHECK(a(0, j) == static_cast<float>(10 + j + 15 + j));
  }
  SECTION("even and odd columns") {
    auto a = iota(3, 6);
    CHECK(temporaries([&] { ip::view(a, ip::all, ip::range<0, ip::end, 2>) = 2.0f * ip::view(a, ip::all, ip::range<1, ip::end, 2>); }) == 0);
    CHECK(a(1, 0) == 14.0f);
    CHECK(a(2, 4) == 34.0f);
    CHECK(a(2, 5) == 17.0f);
  }
  SECTION("odd number of columns: columns 0, 2 from columns 1, 3") {
    auto a = iota(3, 5);
    CHECK(temporaries([&] { ip::view(a, ip::all, ip::range<0, 4, 2>) = ip::view(a, ip::all, ip::range<1, 4, 2>); }) == 0);
    CHECK(a(2, 0) == 11.0f);
    CHECK(a(2, 2) == 13.0f);
  }
  SECTION("two blocks side by side, a column and its neighbour, the diagonal and the one above") {
    auto a = iota(4, 4);
    CHECK(temporaries([&] { ip::block<0, 0, 2, 2>(a) = ip::block<0, 2, 2, 2>(a); }) == 0);
    CHECK(a(1, 1) == 7.0f);
    CHECK(temporaries([&] { ip::col(a, 1) = ip::col(a, 2) - 1.0f; }) == 0);
    CHECK(a(3, 1) == 13.0f);
    CHECK(temporaries([&] { ip::diagonal(ip::block<0, 0, 3, 3>(a)) = ip::diagonal<1>(a) + 0.5f; }) == 0);
    CHECK(a(2, 2) == 11.5f);
  }
  SECTION("under ip::noalias, disjoint parts do not throw") {
    auto a = iota(4, 4);
    CHECK_NOTHROW(ip::noalias(ip::row(a, 1)) = ip::row(a, 3));
    CHECK(a(1, 2) == 14.0f);
    CHECK_THROWS_AS(ip::noalias(ip::row(a, 1)) = ip::view(ip::col(a, 1), ip::range<0, 4>), ip::aliasing_error);
  }
}

TEST_CASE("real overlaps still go through a temporary", "[views][overlap]") {
  auto a = iota(3, 4);
  auto b = iota(3, 4);
  CHECK(temporaries([&] { ip::view(a, ip::all, ip::range<1>) = ip::view(a, ip::all, ip::range<0, -1>); }) == 1);
  // NumPy: a[:, 1:] = a[:, :-1] reads the old values
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 1; j < 4; ++j) CHECK(a(i, j) == b(i, j - 1));
  auto s = iota(4, 4);
  auto t = iota(4, 4);
  CHECK(temporaries([&] { s = ip::transpose(s); }) == 1);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) CHECK(s(i, j) == t(j, i));
}

TEST_CASE("element-level disjointness against brute force", "[views][overlap]") {
  std::mt19937 rng(3);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::vector<float> buf(400);
  float* base = buf.data() + 200;
  std::size_t disjoint = 0, shared = 0;
  for (int round = 0; round < 4000; ++round) {
    auto random_view = [&] {
      ip::detail::tx_extents<2> e{static_cast<std::size_t>(pick(1, 5)), static_cast<std::size_t>(pick(1, 5))};
      ip::detail::tx_strides<2> s{pick(-9, 9), pick(-4, 4)};
      return ip::tensor_view<const float, 2>(base + pick(-20, 20), e, s);
    };
    const auto a = random_view(), b = random_view();
    std::set<const float*> in_a;
    for (std::size_t i = 0; i < a.extent(0); ++i)
      for (std::size_t j = 0; j < a.extent(1); ++j) in_a.insert(&a(i, j));
    bool share = false;
    for (std::size_t i = 0; i < b.extent(0); ++i)
      for (std::size_t j = 0; j < b.extent(1); ++j) share = share || in_a.count(&b(i, j)) > 0;
    const bool verdict = ip::detail::texpr::disjoint_from(a.data(), a.extents(), a.strides(), b);
    INFO("round " << round);
    REQUIRE(verdict == !share);  // small views: never past the budget, so exact
    (share ? shared : disjoint) += 1;
  }
  CHECK(disjoint > 500);
  CHECK(shared > 500);
}
