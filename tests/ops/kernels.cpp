// An opaque op is one class: its name, its shape rule and its kernel. The
// library's opaque ops declare their kernels as a user's op does (void
// kernel(outputs..., inputs...) const over ip::tensor_views, outputs first),
// and a running graph calls both through that one form (ip::detail::has_kernel,
// tensor/detail/op_kernels.hpp). The kernel member is the one the tensor
// functions run: called on views it gives their values, and in a graph the
// user's op and the library's reduce_sum agree.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <string_view>

namespace ip = inplace;
namespace o = ip::ops;
using ip::detail::has_kernel;

namespace {
// A user's opaque op (as examples/custom_op.cpp's): the row sums of a matrix.
struct row_sums {
  static constexpr std::string_view name = "row_sums";
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 1>& in) {
    ip::shape r{};
    r.rank = 1;
    r.extent[0] = in[0].extent[0];
    return r;
  }
  template <class Out, class In>
  void kernel(const Out& out, const In& m) const {
    for (std::size_t i = 0; i < m.extent(0); ++i) {
      out(i) = 0;
      for (std::size_t j = 0; j < m.extent(1); ++j) out(i) += m(i, j);
    }
  }
};
struct no_kernel {};  // an opaque op that cannot run in a graph (op_kernel)

using out1 = ip::tensor_view<float, 1>;
using out2 = ip::tensor_view<float, 2>;
using in1 = ip::tensor_view<const float, 1>;
using in2 = ip::tensor_view<const float, 2>;
using out0 = ip::tensor_view<float, 0>;
using in0i = ip::tensor_view<const std::int64_t, 0>;

// Same extents and the same elements, bit for bit.
template <class X, class Y>
bool same(const X& x, const Y& y) {
  if (x.extents() != y.extents()) return false;
  auto j = y.begin();
  for (auto i = x.begin(); i != x.end(); ++i, ++j)
    if (*i != *j) return false;
  return true;
}
}  // namespace

// The same question of a user's op and of each library op: the same answer.
static_assert(has_kernel<row_sums, out1, in2>);
static_assert(has_kernel<o::reduce_sum<1>, out1, in2>);
static_assert(has_kernel<o::reduce<o::max_reducer, 1>, out1, in2>);
static_assert(has_kernel<o::reduce<o::arg_reducer<true>>, ip::tensor_view<std::int64_t, 0>, in2>);
static_assert(has_kernel<o::dot, out2, in2, in2>);
static_assert(has_kernel<o::matmul, out1, in2, in1>);
static_assert(has_kernel<o::softmax, out2, in2>);
static_assert(has_kernel<o::softmax_inplace, out2, in2>);  // the in-place variant: its base's kernel
static_assert(has_kernel<o::update<o::replace, o::transpose>, out2, in2, in2, in2>);
static_assert(has_kernel<o::update<o::add, o::dynamic_slice<0, 1>>, out2, in2, in2, in2, in0i>);
static_assert(has_kernel<o::inplace_op<o::update<o::add, o::transpose>, 0>, out2, in2, in2, in2>);
static_assert(!has_kernel<no_kernel, out1, in2>);
static_assert(!has_kernel<o::reduce_sum<1>, in2>);  // outputs first: one view is too few

TEST_CASE("a library op's kernel member computes what its tensor function returns", "[ops][kernel]") {
  ip::tensor<float, 2> a(3, 4), b(4, 2);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) a(i, j) = float(i) * 4.0f + float(j) - 5.5f;
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 2; ++j) b(i, j) = float(i) - float(j) * 0.5f;

  // each kernel against values worked by hand (NumPy's), and against the
  // tensor function, which calls it
  const auto near = [](const auto& x, std::initializer_list<double> want) {
    auto w = want.begin();
    for (auto i = x.begin(); i != x.end(); ++i, ++w)
      if (std::abs(double(*i) - *w) > 1e-6 * (1 + std::abs(*w))) return false;
    return std::size_t(w - want.begin()) == want.size();
  };
  ip::tensor<float, 1> s(3);
  o::reduce_sum<1>{}.kernel(s.view(), ip::tensor_view<const float, 2>(a));
  CHECK(near(s, {-16, 0, 16}));
  CHECK(same(s, ip::reduce_sum<1>(a)));
  ip::tensor<float, 1> m(4);
  o::reduce<o::max_reducer, 0>{}.kernel(m.view(), ip::tensor_view<const float, 2>(a));
  CHECK(near(m, {2.5, 3.5, 4.5, 5.5}));
  CHECK(same(m, ip::reduce_max<0>(a)));
  ip::tensor<float, 2> p(3, 2);
  o::dot{}.kernel(p.view(), ip::tensor_view<const float, 2>(a), ip::tensor_view<const float, 2>(b));
  CHECK(near(p, {-19, -11, 5, 5, 29, 21}));
  CHECK(same(p, ip::dot(a, b)));
  ip::tensor<float, 2> q(3, 4);
  o::softmax{}.kernel(q.view(), ip::tensor_view<const float, 2>(a));
  // every row is c + (-1.5, -0.5, 0.5, 1.5): e^-3, e^-2, e^-1, 1 over their sum
  const double z = std::exp(-3.0) + std::exp(-2.0) + std::exp(-1.0) + 1.0;
  const std::initializer_list<double> row{std::exp(-3.0) / z, std::exp(-2.0) / z, std::exp(-1.0) / z, 1.0 / z};
  for (std::size_t i = 0; i < 3; ++i) CHECK(near(ip::row(q.view(), static_cast<std::ptrdiff_t>(i)), row));
  CHECK(same(q, ip::softmax(a)));
  ip::tensor<float, 2> r(a);  // the in-place form: out is the operand's storage
  o::softmax_inplace{}.kernel(r.view(), ip::tensor_view<const float, 2>(r));
  CHECK(same(r, q));
}

TEST_CASE("a user's opaque op and the library's run side by side in a graph", "[ops][kernel]") {
  constexpr auto x = ip::input<"x", float, 2>;
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::apply(row_sums{}, x), ip::reduce_sum<1>(x)));
  ip::tensor<float, 2> a(3, 5);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 5; ++j) a(i, j) = float(i * 5 + j) * 0.25f;
  const auto [mine, library] = f(a);
  CHECK(same(mine, library));
  const auto [mine_debug, library_debug] = f.debug(a);  // the reference run: each kernel alone, checked
  CHECK(same(mine_debug, mine));
  CHECK(same(library_debug, library));
}
