// ip::copy(x) on tensors: NumPy's x.copy() (PyTorch's clone, JAX's jnp.copy):
// a new ip::tensor of x's dtype and extents (static ones kept), row-major, in
// storage of its own, from a tensor, a view of any strides or an expression.
// Expected values: NumPy 2 on a = np.arange(12., dtype=np.float32).reshape(3, 4).
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;

namespace {
template <class V>
std::vector<double> values(const V& v) {
  std::vector<double> r;
  for (auto x : v) r.push_back(static_cast<double>(x));  // (row-major over any strides)
  return r;
}
ip::tensor<float, ip::extents<3, 4>> arange() {
  ip::tensor<float, ip::extents<3, 4>> a;
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  return a;
}
}  // namespace

TEST_CASE("ip::copy of a tensor: the same dtype and extents, its own storage", "[tensor][copy]") {
  auto a = arange();
  auto c = ip::copy(a);
  STATIC_REQUIRE(std::is_same_v<decltype(c), ip::tensor<float, ip::extents<3, 4>>>);
  CHECK(c.data() != a.data());
  CHECK(values(c) == values(a));
  // c += 1 (an in-place op of the copy) leaves a as it was
  ip::add_inplace(c, 1.0f);
  CHECK(c(2, 3) == 12.0f);
  CHECK(a(2, 3) == 11.0f);
  c(0, 0) = -5;
  CHECK(a(0, 0) == 0.0f);
  // a dynamic rank keeps its rank; an integer dtype stays
  ip::tensor<std::int16_t, 2> d(2, 3);
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<std::int16_t>(i);
  const auto dc = ip::copy(d);
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(dc)>, ip::tensor<std::int16_t, 2>>);
  CHECK(values(dc) == std::vector<double>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("ip::copy of a view or an expression is row-major", "[tensor][copy]") {
  const auto a = arange();
  // a.T.copy(): (4, 3), a[::2].copy(); const elements copy into mutable ones
  auto t = ip::copy(ip::transpose(a));
  STATIC_REQUIRE(std::is_same_v<decltype(t.data()), float*>);
  CHECK(t.extent(0) == 4);
  CHECK(t.stride(0) == 3);  // contiguous, row-major
  CHECK(values(t) == std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
  const auto s = ip::copy(ip::slice<0, ip::end, 2>(a));
  CHECK(s.extent(0) == 2);
  CHECK(values(s) == std::vector<double>{0, 1, 2, 3, 8, 9, 10, 11});
  // (a * 2 + 1).T.copy(): one loop into the new tensor
  const auto e = ip::copy(ip::transpose(a * 2.0f + 1.0f));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(e)>, ip::tensor<float, 2>>);
  CHECK(values(e) == std::vector<double>{1, 9, 17, 3, 11, 19, 5, 13, 21, 7, 15, 23});
  // an rvalue tensor: the same values
  auto m = arange();
  const auto mc = ip::copy(std::move(m));
  CHECK(values(mc) == values(a));
  // rank 0
  ip::tensor<double, ip::extents<>> z;
  z() = 2.5;
  const auto zc = ip::copy(z);
  CHECK(zc() == 2.5);
  CHECK(zc.data() != z.data());
}
