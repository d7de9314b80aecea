// In-place ops on tensors (include/inplace/tensor/tensor_inplace.hpp): every *_inplace
// op of SPEC 2 runs at once in the storage of its destroyed operand, against a
// naive loop; donation of rvalue tensors; ip::apply with users' destroy_maps;
// and every error, with its message and "nothing was written".
#include "naive.hpp"

#include <boost/hana/integral_constant.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/tuple.hpp>

#include <cmath>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;
namespace hana = boost::hana;

namespace {
constexpr int n = 37;  // a SIMD remainder on every width

template <class T>
std::vector<T> elements(const ip::tensor<T>& x) {
  return {x.begin(), x.end()};
}

// op(x, more...) on a fresh x: computed in x's storage, returned as a view of it,
// equal to ref elementwise.
template <class T, class Op, class Ref>
void check_unary_inplace(Op op, Ref ref, double lo, double hi) {
  ip::tensor<T> x(n);
  naive::fill(x, lo, hi, 11);
  const ip::tensor<T> before = x;
  const T* storage = x.data();
  auto r = op(x);
  STATIC_REQUIRE(std::is_same_v<decltype(r), ip::tensor_view<T, 1>>);
  CHECK(r.data() == storage);
  CHECK(x.data() == storage);
  for (int i = 0; i < n; ++i) CHECK(naive::close(x(i), ref(before(i))));
  // On a strided view: only the viewed elements change.
  ip::tensor<T> big(2 * n);
  naive::fill(big, lo, hi, 12);
  const ip::tensor<T> big_before = big;
  op(ip::slice<1, ip::end, 2>(big));
  for (int i = 0; i < n; ++i) {
    CHECK(big(2 * i) == big_before(2 * i));
    CHECK(naive::close(big(2 * i + 1), ref(big_before(2 * i + 1))));
  }
  // A donated tensor: the same storage comes back as the tensor itself.
  ip::tensor<T> d = before;
  const T* dstorage = d.data();
  ip::tensor<T> out = op(std::move(d));
  CHECK(out.data() == dstorage);
  CHECK(d.size() == 0);  // NOLINT(bugprone-use-after-move)
  CHECK(d.data() == nullptr);
  for (int i = 0; i < n; ++i) CHECK(naive::close(out(i), ref(before(i))));
}

template <class T, class Op, class Ref>
void check_binary_inplace(Op op, Ref ref, double lo, double hi) {
  ip::tensor<T> x(n), y(n);
  naive::fill(x, lo, hi, 13);
  naive::fill(y, lo, hi, 14);
  const ip::tensor<T> x0 = x;
  auto r = op(x, y);
  CHECK(r.data() == x.data());
  for (int i = 0; i < n; ++i) CHECK(naive::close(x(i), ref(x0(i), y(i))));
  x = x0;
  op(x, T(0.75));  // a run-time scalar operand
  for (int i = 0; i < n; ++i) CHECK(naive::close(x(i), ref(x0(i), T(0.75))));
  x = x0;
  op(x, ip::reverse(y));  // another tensor read with another pattern: no hazard
  for (int i = 0; i < n; ++i) CHECK(naive::close(x(i), ref(x0(i), y(n - 1 - i))));
  x = x0;
  op(x, x);  // the destroyed operand read with its own pattern
  for (int i = 0; i < n; ++i) CHECK(naive::close(x(i), ref(x0(i), x0(i))));
}
}  // namespace

TEMPLATE_TEST_CASE("every *_inplace op computes in its operand's storage", "[inplace][ops]", float, double) {
  using T = TestType;
  check_binary_inplace<T>([](auto&& a, auto&& b) { return ip::add_inplace(a, b); }, std::plus<>{}, -3, 3);
  check_binary_inplace<T>([](auto&& a, auto&& b) { return ip::sub_inplace(a, b); }, std::minus<>{}, -3, 3);
  check_binary_inplace<T>([](auto&& a, auto&& b) { return ip::mul_inplace(a, b); }, std::multiplies<>{}, -3, 3);
  check_binary_inplace<T>([](auto&& a, auto&& b) { return ip::div_inplace(a, b); }, std::divides<>{}, 0.5, 3);
  check_binary_inplace<T>([](auto&& a, auto&& b) { return ip::sum_inplace(a, b, b); },
                          [](T a, T b) { return a + b + b; }, -3, 3);
  auto fwd = [](auto f) { return [f](auto&& a) { return f(std::forward<decltype(a)>(a)); }; };
  check_unary_inplace<T>(fwd([](auto&& a) { return ip::neg_inplace(std::forward<decltype(a)>(a)); }),
                         std::negate<>{}, -3, 3);
  check_unary_inplace<T>(fwd([](auto&& a) { return ip::exp_inplace(std::forward<decltype(a)>(a)); }),
                         [](T v) { return std::exp(v); }, -5, 5);
  check_unary_inplace<T>(fwd([](auto&& a) { return ip::log_inplace(std::forward<decltype(a)>(a)); }),
                         [](T v) { return std::log(v); }, 0.01, 50);
  check_unary_inplace<T>(fwd([](auto&& a) { return ip::sqrt_inplace(std::forward<decltype(a)>(a)); }),
                         [](T v) { return std::sqrt(v); }, 0, 50);
  check_unary_inplace<T>(fwd([](auto&& a) { return ip::abs_inplace(std::forward<decltype(a)>(a)); }),
                         [](T v) { return std::abs(v); }, -5, 5);
  check_unary_inplace<T>(fwd([](auto&& a) { return ip::tanh_inplace(std::forward<decltype(a)>(a)); }),
                         [](T v) { return std::tanh(v); }, -4, 4);
  check_unary_inplace<T>(fwd([](auto&& a) { return ip::sigmoid_inplace(std::forward<decltype(a)>(a)); }),
                         [](T v) { return T(1) / (T(1) + std::exp(-v)); }, -6, 6);
  check_unary_inplace<T>(fwd([](auto&& a) { return ip::relu_inplace(std::forward<decltype(a)>(a)); }),
                         [](T v) { return v > 0 ? v : T(0); }, -3, 3);
  check_unary_inplace<T>(fwd([](auto&& a) { return ip::gelu_inplace(std::forward<decltype(a)>(a)); }),
                         [](T v) { return T(0.5) * v * (T(1) + std::erf(v / std::sqrt(T(2)))); }, -4, 4);
}

TEST_CASE("in-place ops chain, broadcast their other operands, keep static extents", "[inplace]") {
  ip::tensor<float> x{1, 2, 3}, y{4, 5, 6};
  ip::mul_inplace(ip::add_inplace(x, 1.0f), y);  // (x + 1) * y, in x
  CHECK(elements(x) == std::vector<float>{8, 15, 24});
  ip::tensor<float, 2> A{{1, 2, 3}, {4, 5, 6}};
  ip::add_inplace(A, y);  // y broadcast over A's rows
  CHECK(std::vector<float>(A.begin(), A.end()) == std::vector<float>{5, 7, 9, 8, 10, 12});
  ip::tensor<float, 2> col{{10}, {20}};
  ip::sub_inplace(A, col);  // a (2, 1) column broadcast over A's columns
  CHECK(std::vector<float>(A.begin(), A.end()) == std::vector<float>{-5, -3, -1, -12, -10, -8});
  ip::tensor<float, ip::extents<2, 2>> S{{1, 2}, {3, 4}};
  auto v = ip::neg_inplace(S);
  STATIC_REQUIRE(std::is_same_v<decltype(v), ip::tensor_view<float, ip::extents<2, 2>>>);
  CHECK(S(1, 1) == -4);
  // The transpose of a square tensor is a view like any other destroyed operand.
  ip::tensor<float, 2> B{{1, 2}, {3, 4}};
  ip::mul_inplace(ip::transpose(B), ip::tensor<float, 2>{{1, 10}, {100, 1000}});
  CHECK(std::vector<float>(B.begin(), B.end()) == std::vector<float>{1, 200, 30, 4000});
}

namespace {
// SPEC 2's example op: output 0 overwrites input 0.
struct my_add_inplace {
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto a, auto b) const { return a + b; }
};
// Destroys its second input.
struct scale_second {
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 1>));
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto s, auto x) const { return s * x; }
};
}  // namespace

TEST_CASE("ip::apply runs an op with a destroy_map at once, in place", "[inplace][apply]") {
  ip::tensor<double> x{1, 2, 3}, y{10, 20, 30};
  auto r = ip::apply(my_add_inplace{}, x, y);
  CHECK(r.data() == x.data());
  CHECK(elements(x) == std::vector<double>{11, 22, 33});
  CHECK(elements(y) == std::vector<double>{10, 20, 30});
  auto s = ip::apply(scale_second{}, 2.0, y);
  CHECK(s.data() == y.data());
  CHECK(elements(y) == std::vector<double>{20, 40, 60});
  ip::apply(ip::inplace<1>(ip::ops::sub{}), x, y);  // y = x - y
  CHECK(elements(y) == std::vector<double>{-9, -18, -27});
  ip::apply(ip::ops::exp_inplace{}, ip::slice<0, 1>(x));
  CHECK(x(0) == Approx(std::exp(11.0)));
  CHECK(x(1) == 22);
  // A pure op still builds an expression: nothing happens until it is assigned.
  auto e = ip::apply(ip::ops::add{}, x, y);
  STATIC_REQUIRE(ip::detail::texpr::node_like<decltype(e)>);
}

TEST_CASE("an in-place op never copies: an overlapping read with another pattern throws", "[inplace][error]") {
  ip::tensor<float> x{0, 1, 2, 3, 4};
  const std::vector<float> x0 = elements(x);
  const char* msg =
      "inplace: aliasing_error: add_inplace: an operand overlaps the destroyed operand (extents (5)) with another "
      "index pattern (transposed, shifted, reversed or broadcast); an in-place op never copies: assign the pure "
      "expression instead (x = ...)";
  CHECK_THROWS_MATCHES(ip::add_inplace(x, ip::reverse(x)), ip::aliasing_error, Catch::Matchers::Message(msg));
  CHECK(elements(x) == x0);
  CHECK_THROWS_AS(ip::add_inplace(ip::slice<1>(x), ip::slice<0, -1>(x)), ip::aliasing_error);  // shifted
  CHECK_THROWS_AS(ip::add_inplace(ip::slice<0, -1>(x), ip::slice<1>(x)), ip::aliasing_error);  // the other way
  CHECK_THROWS_AS(ip::mul_inplace(x, ip::slice<2, 3>(x)), ip::aliasing_error);                 // broadcast of x
  CHECK_THROWS_AS(ip::sum_inplace(x, 1.0f, x * ip::reverse(x)), ip::aliasing_error);           // inside an expression
  CHECK(elements(x) == x0);
  ip::tensor<float, 2> A{{1, 2}, {3, 4}};
  CHECK_THROWS_AS(ip::sub_inplace(A, ip::transpose(A)), ip::aliasing_error);
  CHECK_THROWS_WITH(ip::sub_inplace(A, ip::transpose(A)), Catch::Matchers::StartsWith("inplace: aliasing_error: sub_inplace: "));
  CHECK(std::vector<float>(A.begin(), A.end()) == std::vector<float>{1, 2, 3, 4});
  // Disjoint parts of one tensor are fine.
  ip::add_inplace(ip::slice<0, 2>(x), ip::slice<3, 5>(x));
  CHECK(elements(x) == std::vector<float>{3, 5, 2, 3, 4});
  // The same transpose on both sides is the destroyed operand's own pattern.
  ip::add_inplace(ip::transpose(A), ip::transpose(A));
  CHECK(std::vector<float>(A.begin(), A.end()) == std::vector<float>{2, 4, 6, 8});
}

TEST_CASE("an in-place op cannot grow its destroyed operand", "[inplace][error]") {
  ip::tensor<float> x{1, 2, 3};
  ip::tensor<float, 2> A(2, 3);
  CHECK_THROWS_MATCHES(ip::add_inplace(x, A), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: add_inplace: the result's extents (2, 3) differ "
                                                "from those of the destroyed operand (input 0, extents (3)): an in-place "
                                                "op cannot grow its input by broadcasting"));
  CHECK(elements(x) == std::vector<float>{1, 2, 3});
  ip::tensor<float, 2> row{{1, 2, 3}};
  CHECK_THROWS_AS(ip::mul_inplace(row, A), ip::shape_error);  // (1, 3) would become (2, 3)
  CHECK(std::vector<float>(row.begin(), row.end()) == std::vector<float>{1, 2, 3});
  ip::tensor<float> four{1, 2, 3, 4};
  CHECK_THROWS_AS(ip::add_inplace(x, four), ip::shape_error);  // (3) and (4) do not broadcast at all
  CHECK(elements(x) == std::vector<float>{1, 2, 3});
  ip::tensor<double> d{1, 2, 3};
  CHECK_THROWS_AS(ip::apply(ip::inplace<1>(ip::ops::mul{}), A, d), ip::shape_error);
  CHECK_THROWS_WITH(ip::apply(ip::inplace<1>(ip::ops::mul{}), A, d), Catch::Matchers::Contains("(input 1, extents (3))"));
  CHECK(elements(d) == std::vector<double>{1, 2, 3});
}

TEST_CASE("static extents: what can and cannot fit is known at compile time", "[inplace]") {
  using ip::detail::texpr::may_fit;
  using ip::detail::texpr::static_shape_of;
  using S3 = ip::tensor<float, ip::extents<3>>;
  using S23 = ip::tensor<float, ip::extents<2, 3>>;
  using D2 = ip::tensor<float, 2>;
  using node = decltype(std::declval<S3&>() + std::declval<S23&>());
  STATIC_REQUIRE(static_shape_of<node>().rank == 2);
  STATIC_REQUIRE(!may_fit(static_shape_of<node>(), static_shape_of<S3>()));  // grows: a compile error
  STATIC_REQUIRE(may_fit(static_shape_of<node>(), static_shape_of<S23>()));
  using dyn = decltype(std::declval<S3&>() + std::declval<D2&>());
  STATIC_REQUIRE(may_fit(static_shape_of<dyn>(), static_shape_of<S3>()));  // unknown: checked at run time
  using four = decltype(std::declval<ip::tensor<float, ip::extents<4>>&>() * 2.0f);
  STATIC_REQUIRE(!may_fit(static_shape_of<four>(), static_shape_of<S3>()));
}
