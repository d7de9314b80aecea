// Argument-dependent lookup: a user's own functions named like the library's
// (check, function, inputs, position, plan, explain, to_dot, where, exp, ...),
// called unqualified on the library's tensors, symbols and functions, are the
// ones called. ip::inputs, ip::check and ip::function take any arguments (to
// report function_arguments), and a user's generic plan(f), explain(f) or
// to_dot(f) would lose to ip::plan(function_t<S>, ...) on a graph function, so
// these are objects, which lookup finds only by name; every other public
// function is constrained to the arguments it is about. And the tensor
// overloads of the ops never compete with the graph ones.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <concepts>
#include <string>
#include <type_traits>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto r = ip::exp(x) + y;
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(r));

using T = ip::tensor<float>;
using V = ip::tensor_view<float, 1>;
using CV = ip::tensor_view<const float, 1>;
using N = decltype(std::declval<T&>() + std::declval<T&>());  // a tensor expression node
using X = std::remove_cvref_t<decltype(x)>;                  // a symbol (an input)
using R = std::remove_cvref_t<decltype(r)>;                  // a symbol (a node's output)
using C = std::remove_cvref_t<decltype(2.0_c)>;              // a constant
using F = std::remove_cvref_t<decltype(f)>;                  // a graph function
}  // namespace

// ---- a user's functions, found before the library's -----------------------------------------
namespace user {
struct mine {};
mine check(auto&&...) { return {}; }
mine function(auto&&...) { return {}; }
mine inputs(auto&&...) { return {}; }
mine outputs(auto&&...) { return {}; }
mine position(auto&&...) { return {}; }
mine plan(auto&&...) { return {}; }
mine explain(auto&&...) { return {}; }
mine to_dot(auto&&...) { return {}; }
mine where(auto&&...) { return {}; }
mine exp(auto&&...) { return {}; }
mine transpose(auto&&...) { return {}; }
mine to_string(auto&&...) { return {}; }

template <class Got>
constexpr bool is_mine = std::is_same_v<Got, mine>;

inline void calls(T& t, T& u) {
  // The case: check(...) on tensors was ip::check, and failed with function_arguments.
  static_assert(is_mine<decltype(check(t, u))>);
  static_assert(is_mine<decltype(check(t))>);
  static_assert(is_mine<decltype(function(t, u))>);
  static_assert(is_mine<decltype(inputs(t, u))>);
  // ip::inputs, ip::check and ip::function are objects: not found even for graph arguments.
  static_assert(is_mine<decltype(check(ip::inputs(x), ip::outputs(r)))>);
  static_assert(is_mine<decltype(function(ip::inputs(x), ip::outputs(r)))>);
  static_assert(is_mine<decltype(inputs(x, y))>);
  static_assert(is_mine<decltype(check(ip::check(ip::inputs(x, y), ip::outputs(r))))>);
  // The functions of a graph function take one first: not viable for tensors or symbols.
  static_assert(is_mine<decltype(position(t, u))>);
  static_assert(is_mine<decltype(position(x, r))>);
  static_assert(is_mine<decltype(plan(t))>);
  static_assert(is_mine<decltype(explain(t, u))>);
  static_assert(is_mine<decltype(to_dot(t))>);
  static_assert(is_mine<decltype(outputs(t, u))>);
  // ip::plan, ip::explain and ip::to_dot are objects: a graph function does not bring them in.
  static_assert(is_mine<decltype(plan(f))>);
  static_assert(is_mine<decltype(plan(f, ip::donated, ip::borrowed))>);
  static_assert(is_mine<decltype(explain(f))>);
  static_assert(is_mine<decltype(explain(f, ip::borrowed, ip::borrowed))>);
  static_assert(is_mine<decltype(to_dot(f))>);
  static_assert(is_mine<decltype(to_dot(f, ip::donated, ip::donated))>);
  // The ops take tensors or symbols of their arity: not a function, not one tensor for where.
  static_assert(is_mine<decltype(where(t))>);
  static_assert(is_mine<decltype(where(t, u))>);
  static_assert(is_mine<decltype(where(f, f, f))>);
  static_assert(is_mine<decltype(exp(f))>);
  static_assert(is_mine<decltype(exp(t, u))>);
  static_assert(is_mine<decltype(transpose(f))>);
  static_assert(is_mine<decltype(to_string(t))>);
}
}  // namespace user

// ---- the library's functions are not viable for arguments they are not about -----------------
namespace {
template <class... A>
concept position_viable = requires(A... a) { ip::position(a...); };
template <class... A>
concept plan_viable = requires(A... a) { ip::plan(a...); };
template <class... A>
concept explain_viable = requires(A... a) { ip::explain(a...); };
template <class... A>
concept to_dot_viable = requires(A... a) { ip::to_dot(a...); };
template <class... A>
concept io_alias_viable = requires(A... a) { ip::io_alias<0, 0>(a...); };

static_assert(position_viable<F, R> && position_viable<F, X>);
static_assert(!position_viable<T, T> && !position_viable<X, R> && !position_viable<F, T>);
static_assert(plan_viable<F, ip::donated_t, ip::borrowed_t> && plan_viable<F>);
static_assert(!plan_viable<T> && !plan_viable<X> && !plan_viable<T, ip::donated_t>);
static_assert(explain_viable<F> && !explain_viable<T> && !explain_viable<R>);
static_assert(to_dot_viable<F> && !to_dot_viable<T> && !to_dot_viable<R>);
static_assert(io_alias_viable<ip::must_alias_t> && io_alias_viable<ip::may_alias_t>);
static_assert(!io_alias_viable<T> && !io_alias_viable<int>);

// ---- tensor overloads and graph overloads never compete (tensor/expression.hpp) ---------------
// Every op is overloaded twice: the graph's (graph/graph_ops.hpp: ip::add ...,
// ip::apply, the operators) requires a symbol among the operands
// (detail::any_symbolic), the tensors' (tensor/expression.hpp, tensor_opaque.hpp,
// view_functions.hpp) requires operands that are all tensors, views, tensor
// expressions or numbers, one at least not a number (detail::texpr::expression_args).
// No list of operands satisfies both.
template <class... A>
concept graph_overload = ip::detail::any_symbolic<A...>;
template <class... A>
concept tensor_overload = ip::detail::texpr::expression_args<A...>;

template <class... L>
struct operands {
  template <class P>
  static constexpr bool none_with() {
    return ((!(graph_overload<P, L> && tensor_overload<P, L>)) && ...) &&
           ((!(graph_overload<P, L, P> && tensor_overload<P, L, P>)) && ...);
  }
  static constexpr bool never_both = (none_with<L>() && ...) && ((!(graph_overload<L> && tensor_overload<L>)) && ...);
};
static_assert(operands<T, T&, const T&, T&&, V, CV, N, X, R, C, F, float, int, double>::never_both);

// Each side takes its own operands ...
static_assert(tensor_overload<T&, T&> && tensor_overload<V, float> && tensor_overload<N, CV> && tensor_overload<T&>);
static_assert(graph_overload<X, R> && graph_overload<X, C> && graph_overload<R>);
// ... and refuses the other's: a tensor among symbols is the graph's (it reports
// runtime_number_in_graph), never the tensors'.
static_assert(!tensor_overload<X, X> && !tensor_overload<T&, X> && !tensor_overload<R> && !tensor_overload<C, T&>);
static_assert(!graph_overload<T&, T&> && !graph_overload<V, float> && !graph_overload<N>);
static_assert(graph_overload<T&, X>);
// Plain numbers are neither's.
static_assert(!graph_overload<float, float> && !tensor_overload<float, float>);
static_assert(!ip::detail::texpr::operand<X> && !ip::detail::texpr::operand<R> && !ip::detail::symbolic<T>);

// The calls pick their side.
static_assert(ip::detail::symbolic<decltype(ip::exp(x))> && ip::detail::symbolic<decltype(ip::where(x, y, x))>);
static_assert(ip::detail::symbolic<decltype(x + y)> && ip::detail::symbolic<decltype(ip::apply(ip::ops::mul{}, x, y))>);
static_assert(ip::detail::texpr::operand<decltype(ip::exp(std::declval<T&>()))>);
static_assert(ip::detail::texpr::operand<decltype(ip::where(std::declval<T&>(), std::declval<T&>(), 1.0f))>);
static_assert(ip::detail::texpr::operand<decltype(ip::apply(ip::ops::mul{}, std::declval<T&>(), 2.0f))>);
}  // namespace

TEST_CASE("a user's unqualified functions beat the library's on library arguments") {
  T t{1, 2, 3}, u{4, 5, 6};
  user::calls(t, u);
  // and the library's, called qualified, still work
  STATIC_REQUIRE(ip::check(ip::inputs(x, y), ip::outputs(r)).ok);
  STATIC_REQUIRE(ip::position(f, ip::exp(x)) == 0);
  auto out = f(t, u);
  REQUIRE(out.size() == 3);
  CHECK(out[0] == Approx(std::exp(1.0f) + 4));
  CHECK(ip::explain(f, ip::borrowed, ip::borrowed).find("plan for") != std::string::npos);
  CHECK(ip::to_dot(f).find("digraph") != std::string::npos);
}
