// ip::explain and ip::to_dot: the content of the text, line by line, for
// graphs that exercise every storage word, every way a node runs, and the
// refusals; the totals line against ip::plan; DOT through Graphviz when present.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;
using Catch::Matchers::Contains;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto S4 = ip::input<"S4", float, ip::extents<4>>;
constexpr auto k = ip::scalar<"k", float>;
constexpr auto P = ip::input<"P", float, ip::extents<4>, ip::indestructible>;

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
std::string totals_of(const ip::plan_result& p, const std::string& peak) {
  return "totals: allocations " + std::to_string(p.allocations) + ", copies " + std::to_string(p.copies) +
         ", loops " + std::to_string(p.loops) + ", in_place " + std::to_string(p.in_place) + ", peak_bytes " + peak;
}

constexpr auto chain = ip::function(ip::inputs(x, y), ip::outputs(ip::sigmoid(ip::exp(x) * y + 1.0_c)));
// (argmax: a reduction over every axis but argmax/argmin would reduce exp(x) * y as it is computed, a row loop)
constexpr auto two = ip::function(ip::inputs(x, y), ip::outputs(ip::argmax(ip::exp(x) * y), ip::relu(ip::add_inplace(x, y))));
}  // namespace

TEST_CASE("explain: a fused chain over a donated input ends in its storage", "[run][explain]") {
  const auto l = lines(ip::explain(chain, ip::donated, ip::borrowed));
  REQUIRE(l.size() == 7);
  CHECK(l[0] == "plan for (x: donated, y: borrowed)");
  CHECK(l[1] == "  #0  exp(x)        loop 0  in x's storage (donated), in place of x (rewrite)");
  CHECK(l[2] == "  #1  mul(#0, y)    loop 0  in x's storage (donated), in place of #0 (rewrite)");
  CHECK(l[3] == "  #2  add(#1, 1.0)  loop 0  in x's storage (donated), in place of #1 (rewrite)");
  CHECK(l[4] == "  #3  sigmoid(#2)   loop 0  in x's storage (donated), in place of #2 (rewrite)");
  CHECK(l[5] == "returns #3");
  constexpr auto p = ip::plan(chain, ip::donated, ip::borrowed);
  CHECK(l[6] == totals_of(p, "0"));  // nothing allocated: 0 bytes, whatever the extents
  CHECK(p.allocations == 0);
}

TEST_CASE("explain: borrowed, the chain's values stay inside the loop and the result is fresh", "[run][explain]") {
  const auto l = lines(ip::explain(chain, ip::borrowed, ip::borrowed));
  REQUIRE(l.size() == 7);
  CHECK(l[1] == "  #0  exp(x)        loop 0  not stored: inside loop 0; stayed pure: its input is borrowed (donate it "
                "with std::move)");
  CHECK(l[4] == "  #3  sigmoid(#2)   loop 0  fresh buffer 0; stayed pure: its input lives only inside the fused loop");
  CHECK(l[6] == totals_of(ip::plan(chain, ip::borrowed, ip::borrowed), "dynamic"));
}

TEST_CASE("explain: kernels, reuse of a dead buffer, explicit in-place nodes, later readers", "[run][explain]") {
  const auto d = lines(ip::explain(two, ip::donated, ip::borrowed));
  REQUIRE(d.size() == 8);
  CHECK(d[1] == "  #0  exp(x)             loop 0  not stored: inside loop 0; stayed pure: its input is still needed (read later, or by another in-place node)");
  CHECK(d[2] == "  #1  mul(#0, y)         loop 0  fresh buffer 0; stayed pure: its input lives only inside the fused loop");
  CHECK(d[3] == "  #2  argmax(#1)         kernel  fresh buffer 1");
  CHECK(d[4] == "  #3  add_inplace(x, y)  loop 1  in x's storage (donated), in place of x");
  CHECK(d[5] == "  #4  relu(#3)           loop 1  in x's storage (donated), in place of #3 (rewrite)");
  CHECK(d[6] == "returns #2, #4");
  const auto b = lines(ip::explain(two, ip::borrowed, ip::borrowed));
  REQUIRE(b.size() == 8);
  CHECK(b[4] == "  #3  add_inplace(x, y)  loop 1  not stored: inside loop 1");
  CHECK(b[5] == "  #4  relu(#3)           loop 1  buffer 0 (reused: #1's, dead by now); stayed pure: its input lives "
                "only inside the fused loop");
  CHECK(b[7] == totals_of(ip::plan(two, ip::borrowed, ip::borrowed), "dynamic"));
}

TEST_CASE("explain: copy-protection, views, scalars, static sizes, no_rewrite", "[run][explain]") {
  // a borrowed input an opaque in-place node destroys is copied once
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::transpose(ip::softmax_inplace(A))));
  const auto l = lines(ip::explain(f, ip::borrowed));
  REQUIRE(l.size() == 5);
  CHECK(l[1] == "  #0  softmax_inplace(A)  kernel  copy of A (copy-protection), buffer 0");
  CHECK(l[2] == "  #1  transpose(#0)       view    view of #0");
  CHECK(lines(ip::explain(f, ip::donated))[1] == "  #0  softmax_inplace(A)  kernel  in A's storage (donated), in place of A");

  // static extents: peak_bytes is known; a scalar input takes no marker
  constexpr auto g = ip::function(ip::inputs(S4, k), ip::outputs(ip::exp(S4) * k));
  const auto m = lines(ip::explain(g, ip::borrowed));
  CHECK(m[0] == "plan for (S4: borrowed, k: scalar)");
  CHECK(m.back() == "totals: allocations 1, copies 0, loops 1, in_place 0, peak_bytes 16");

  // no_rewrite and an indestructible input
  constexpr auto h = ip::function(ip::inputs(x), ip::outputs(ip::exp(ip::exp(x))), ip::no_rewrite);
  CHECK_THAT(ip::explain(h, ip::donated), Contains("stayed pure: the function was built with ip::no_rewrite"));
  constexpr auto q = ip::function(ip::inputs(P), ip::outputs(ip::neg(P)));
  CHECK_THAT(ip::explain(q, ip::donated), Contains("#0  neg(P)  loop 0  fresh buffer 0; stayed pure: its input is "
                                                   "indestructible or a constant"));
}

TEST_CASE("to_dot: view edges dashed, destroy edges red, loops as clusters, positions in labels", "[run][to_dot]") {
  constexpr auto f = ip::function(ip::inputs(x, A),
                                  ip::outputs(ip::relu(ip::add_inplace(x, 1.0_c)), ip::transpose(ip::softmax(ip::dot(A, A)))));
  const std::string plain = ip::to_dot(f);
  CHECK(plain.rfind("digraph inplace {", 0) == 0);
  CHECK_THAT(plain, Contains("n0 [label=\"x\", shape=ellipse];"));
  CHECK_THAT(plain, Contains("n2 [label=\"1.0\", shape=plaintext];"));
  CHECK_THAT(plain, Contains("  subgraph cluster_loop0 {\n    label=\"loop 0\";"));
  CHECK_THAT(plain, Contains("    n3 [label=\"#0 add_inplace\"];\n    n4 [label=\"#1 relu\"];\n  }"));
  CHECK_THAT(plain, Contains("n0 -> n3 [color=red];"));     // add_inplace overwrites x
  CHECK_THAT(plain, Contains("n3 -> n4;"));                  // relu stays pure without a plan
  CHECK_THAT(plain, Contains("n5 [label=\"#2 dot\"];\n  n6 [label=\"#3 softmax\"];"));  // kernels: no cluster
  CHECK_THAT(plain, Contains("n1 -> n5;\n  n1 -> n5;"));       // dot(A, A): one edge per argument
  CHECK_THAT(plain, Contains("n5 -> n6;"));                  // dot -> softmax
  CHECK_THAT(plain, Contains("n6 -> n7 [style=dashed];"));   // transpose is a view
  CHECK_THAT(plain, Contains("n7 -> out1;"));
  // with a donation pattern: storage words, and the rewrite's in-place edges in red
  const std::string donated = ip::to_dot(f, ip::donated, ip::borrowed);
  CHECK_THAT(donated, Contains("n0 [label=\"x\\ndonated\", shape=ellipse];"));
  CHECK_THAT(donated, Contains("n4 [label=\"#1 relu\\nin x's storage (donated), in place of #0 (rewrite)\"];"));
  CHECK_THAT(donated, Contains("n3 -> n4 [color=red];"));
  CHECK_THAT(donated, Contains("n6 [label=\"#3 softmax\\nbuffer 0, in place of #2 (rewrite)\"];"));
  CHECK_THAT(donated, Contains("n5 -> n6 [color=red];"));
}

TEST_CASE("to_dot output renders with Graphviz", "[run][to_dot]") {
  if (std::system("dot -V > /dev/null 2>&1") != 0) {
    WARN("Graphviz's dot is not installed: rendering not checked");
    return;
  }
  constexpr auto f = ip::function(ip::inputs(x, A),
                                  ip::outputs(ip::relu(ip::add_inplace(x, 1.0_c)), ip::transpose(ip::softmax(ip::dot(A, A)))));
  for (const std::string& text : {ip::to_dot(f), ip::to_dot(f, ip::donated, ip::donated), ip::to_dot(two, ip::borrowed, ip::borrowed)}) {
    const std::string in = "to_dot_test.dot", out = "to_dot_test.svg";
    std::ofstream(in) << text;
    REQUIRE(std::system(("dot -Tsvg " + in + " -o " + out).c_str()) == 0);
    std::ifstream svg(out);
    const std::string s((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
    CHECK_THAT(s, Contains("<svg"));
    CHECK_THAT(s, Contains("loop 0"));
    std::remove(in.c_str());
    std::remove(out.c_str());
  }
}

TEST_CASE("explain and to_dot mark io_alias outputs", "[run][explain][to_dot]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x * y), ip::io_alias<0, 0>(ip::may_alias));
  CHECK(lines(ip::explain(f, ip::donated, ip::borrowed))[1] ==
        "  #0  mul(x, y)  loop 0  in x's storage (donated), io_alias");
  CHECK(lines(ip::explain(f, ip::borrowed, ip::borrowed))[1] ==
        "  #0  mul(x, y)  loop 0  copy of x (copy-protection), buffer 0, io_alias");
  CHECK_THAT(ip::to_dot(f, ip::donated, ip::borrowed), Contains("n0 -> n2 [color=red];"));
  // the aliased input is not an argument of the output's node: a dotted edge
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(ip::exp(y)), ip::io_alias<0, 0>(ip::may_alias));
  CHECK_THAT(ip::to_dot(g), Contains("n0 -> n2 [color=red, style=dotted, label=\"io_alias\"];"));
  // an output that is a same-pattern view of the input overwrites nothing: dashed, not red
  constexpr auto v = ip::function(ip::inputs(x), ip::outputs(ip::slice<0>(x)), ip::io_alias<0, 0>(ip::may_alias));
  CHECK_THAT(ip::to_dot(v, ip::donated), Contains("n0 -> n1 [style=dashed];"));
}

TEST_CASE("explain: scalar inputs, outputs sharing a storage, ip::order in to_dot", "[run][explain][to_dot]") {
  constexpr auto f = ip::function(ip::inputs(k), ip::outputs(ip::exp(k)));
  CHECK_THAT(ip::explain(f), Contains("stayed pure: its input is a scalar input, passed by value"));
  constexpr auto e = ip::exp(x);
  constexpr auto t = ip::tanh(x);
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(e, t), ip::order(t, e));
  const std::string dot = ip::to_dot(g);
  CHECK_THAT(dot, Contains("n2 -> n1 [style=dotted, color=gray, label=\"order\"];"));
}
