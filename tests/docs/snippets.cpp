// Every ```cpp block of README.md and docs/*.md must appear verbatim (but for
// the indentation of its lines: a region inside a function is shown dedented)
// in a file under examples/ or tests/fail/, which CTest builds and runs: no
// snippet drifts.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {
std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text with the leading blanks of every line removed.
std::string unindented(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == ' ' || c == '\t')) continue;
    out += c;
    line_start = c == '\n';
  }
  return out;
}

struct snippet {
  std::string file;
  int line;
  std::string code;
};

std::vector<snippet> cpp_blocks(const fs::path& doc) {
  std::vector<snippet> out;
  std::ifstream in(doc);
  std::string line, code;
  int n = 0, start = 0;
  bool inside = false;
  while (std::getline(in, line)) {
    ++n;
    if (inside && line.rfind("```", 0) == 0) {
      out.push_back({doc.filename().string(), start, code});
      inside = false;
    } else if (inside) {
      code += line + "\n";
    } else if (line == "```cpp") {
      inside = true, code.clear(), start = n;
    }
  }
  return out;
}
}  // namespace

TEST_CASE("doc snippets are pieces of built examples", "[docs]") {
  const fs::path root = INPLACE_SOURCE_DIR;
  std::string corpus;
  for (const char* dir : {"examples", "tests/fail"})
    for (const auto& e : fs::directory_iterator(root / dir))
      if (e.path().extension() == ".cpp") corpus += unindented(read(e.path())) + "\n";
  std::vector<fs::path> docs{root / "README.md"};
  for (const auto& e : fs::directory_iterator(root / "docs"))
    if (e.path().extension() == ".md") docs.push_back(e.path());
  int blocks = 0;
  for (const auto& doc : docs)
    for (const auto& s : cpp_blocks(doc)) {
      ++blocks;
      INFO(s.file << ":" << s.line << "\n" << s.code);
      CHECK(corpus.find(unindented(s.code)) != std::string::npos);
    }
  CHECK(blocks > 0);
}
