// Symbols, constants, op application: dtypes, shapes and node identity (SPEC 1-2).
#include <inplace/graph.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto i = ip::input<"i", int>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto S = ip::input<"S", float, ip::extents<16, 16>>;
constexpr auto M = ip::input<"M", double, ip::extents<3, 4>>;
constexpr auto a = ip::scalar<"alpha", float>;

template <class V>
using dtype_of = typename std::remove_cvref_t<V>::dtype;
template <class V>
constexpr ip::shape shape_of(V) {
  return V::value_shape;
}

struct lu_like {  // two outputs, both in the storage of input 0
  static constexpr std::size_t num_outputs = 2;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>),
                                                     hana::make_pair(hana::int_c<1>, hana::tuple_c<int, 0>));
};
}  // namespace

TEST_CASE("symbols are empty objects whose type is the graph", "[symbols]") {
  STATIC_REQUIRE(std::is_empty_v<decltype(x)>);
  STATIC_REQUIRE(std::is_empty_v<decltype(ip::exp(x) + x)>);
  STATIC_REQUIRE(std::is_same_v<decltype(x + x), decltype(ip::add(x, x))>);
  STATIC_REQUIRE(!std::is_same_v<decltype(x + A), decltype(A + x)>);
  STATIC_REQUIRE(decltype(x)::name == "x");
  STATIC_REQUIRE(decltype(ip::input<"k", float, 1, ip::indestructible>)::indestructible);
  STATIC_REQUIRE(!decltype(x)::indestructible);
}

TEST_CASE("ranks and static extents", "[symbols]") {
  STATIC_REQUIRE(shape_of(x).rank == 1);
  STATIC_REQUIRE(shape_of(x).extent[0] == ip::dynamic);
  STATIC_REQUIRE(shape_of(A).rank == 2);
  STATIC_REQUIRE(shape_of(S).extent[1] == 16);
  STATIC_REQUIRE(shape_of(S).is_static());
  STATIC_REQUIRE(shape_of(a).rank == 0);
  STATIC_REQUIRE(shape_of(ip::transpose(M)).extent[0] == 4);
  STATIC_REQUIRE(shape_of(ip::flatten(M)).extent[0] == 12);
  STATIC_REQUIRE(shape_of(ip::reshape<2, 6>(M)).extent[1] == 6);
  STATIC_REQUIRE(shape_of(ip::slice<1>(M)).extent[0] == 2);
  STATIC_REQUIRE(shape_of(ip::slice<0, ip::end, 2>(M)).extent[0] == 2);
  STATIC_REQUIRE(shape_of(ip::slice<-1>(M)).extent[0] == 1);
  STATIC_REQUIRE(shape_of(ip::reverse(M)).extent[0] == 3);
  STATIC_REQUIRE(shape_of(ip::reduce_sum(M)).rank == 0);
  STATIC_REQUIRE(shape_of(ip::reduce_sum<1>(M)).extent[0] == 3);
  STATIC_REQUIRE(shape_of(ip::reduce_sum<-1>(M)).extent[0] == 3);  // negative: from the end, as NumPy
  STATIC_REQUIRE(shape_of(ip::reduce_sum<-2>(M)).extent[0] == 4);
  STATIC_REQUIRE(shape_of(ip::reduce_sum<-1>(M)).rank == 1);
  STATIC_REQUIRE(shape_of(ip::dot(M, ip::transpose(M))).extent[1] == 3);
  STATIC_REQUIRE(shape_of(ip::softmax(M)) == shape_of(M));
  // broadcasting, NumPy-style
  constexpr auto row = ip::input<"row", double, ip::extents<4>>;
  STATIC_REQUIRE(shape_of(M + row) == shape_of(M));
  STATIC_REQUIRE(shape_of(ip::reinterpret<float>(M)).extent[1] == 8);
}

TEST_CASE("dtypes; constants are weakly typed", "[symbols]") {
  // NumPy 2's rule (docs/reference.md, "Element types"): a weak float beside an
  // int is double, and int32 with float32 is float64
  STATIC_REQUIRE(std::is_same_v<dtype_of<decltype(x + 1.5_c)>, float>);
  STATIC_REQUIRE(std::is_same_v<dtype_of<decltype(2.5_c * i)>, double>);
  STATIC_REQUIRE(std::is_same_v<dtype_of<decltype(2_c * i)>, int>);
  STATIC_REQUIRE(std::is_same_v<dtype_of<decltype(x + i)>, double>);
  STATIC_REQUIRE(std::is_same_v<dtype_of<decltype(x + M)>, double>);
  STATIC_REQUIRE(std::is_same_v<dtype_of<decltype(a * x)>, float>);
  STATIC_REQUIRE(std::is_same_v<dtype_of<decltype(ip::reinterpret<int>(x))>, int>);
  STATIC_REQUIRE(std::is_same_v<dtype_of<decltype(ip::where(x, i, M))>, double>);
  STATIC_REQUIRE(decltype(2.5_c)::value == 2.5L);
  STATIC_REQUIRE(decltype(1e3_c)::value == 1000.0L);
  STATIC_REQUIRE(decltype(0x1F_c)::value == 31.0L);
  STATIC_REQUIRE(decltype(7_c)::name == "7");
}

TEST_CASE("multi-output ops return a hana::tuple of outputs", "[symbols]") {
  constexpr auto lu = ip::apply(lu_like{}, A);
  constexpr auto l = hana::at_c<0>(lu);
  constexpr auto u = hana::at_c<1>(lu);
  STATIC_REQUIRE(!std::is_same_v<decltype(l), decltype(u)>);
  // one input under two outputs of one node: a single destroyer
  STATIC_REQUIRE(ip::check(ip::inputs(A), ip::outputs(l, u)).ok);
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(l + u));
  STATIC_REQUIRE(ip::position(f, l) == ip::position(f, u));
}

TEST_CASE("leaves that differ only in dtype, shape or flag are distinct entries", "[symbols]") {
  // If two of these were taken for one entry, destroying one would destroy the other.
  constexpr auto xf = ip::input<"v", float>;
  constexpr auto xd = ip::input<"v", double>;
  STATIC_REQUIRE(ip::check(ip::inputs(xf, xd), ip::outputs(ip::neg_inplace(xf), xd)).ok);
  STATIC_REQUIRE(ip::check(ip::inputs(xf, xd), ip::outputs(ip::neg_inplace(xf), xf)).error ==
                 ip::error_kind::destroys_output);

  constexpr auto v4 = ip::input<"v", float, ip::extents<4>>;
  constexpr auto v5 = ip::input<"v", float, ip::extents<5>>;
  STATIC_REQUIRE(ip::check(ip::inputs(v4, v5), ip::outputs(ip::neg_inplace(v4), v5)).ok);

  constexpr auto vk = ip::input<"v", float, 1, ip::indestructible>;
  STATIC_REQUIRE(ip::check(ip::inputs(xf, vk), ip::outputs(ip::neg_inplace(xf), vk)).ok);

  // and equal expressions are one node: neg(x) twice is one node, so destroying it once is legal
  constexpr auto n1 = ip::neg(x);
  constexpr auto n2 = ip::neg(x);
  STATIC_REQUIRE(std::is_same_v<decltype(n1), decltype(n2)>);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::exp_inplace(n1), ip::neg(n2)));
  STATIC_REQUIRE(decltype(f)::num_nodes == 3);
}
