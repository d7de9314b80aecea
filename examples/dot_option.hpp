// `example --dot DIR`: the example also writes each of its graphs as Graphviz
// DOT, DIR/<example>_<graph>.dot (ip::to_dot). scripts/render-graphs.sh turns
// them into the SVGs of docs/graphs/; CTest renders them all with `dot -Tsvg`.
#pragma once

#include <fstream>
#include <string>
#include <string_view>

class dot_option {
 public:
  dot_option(int argc, char** argv, std::string_view example) : example_(example) {
    for (int i = 1; i + 1 < argc; ++i)
      if (std::string_view(argv[i]) == "--dot") dir_ = argv[i + 1];
  }
  void write(std::string_view graph, const std::string& dot) const {
    if (dir_.empty()) return;
    std::ofstream(dir_ + "/" + std::string(example_) + "_" + std::string(graph) + ".dot") << dot;
  }

 private:
  std::string_view example_;
  std::string dir_;
};
