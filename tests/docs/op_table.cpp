// docs/reference.md's table of elementwise ops is held to the op list
// (INPLACE_ELEMENTWISE_OPS, ops/elementwise.hpp): one row per op, in its order,
// naming its function and class, and its *_inplace form exactly when it has one.
#include <inplace/ops/elementwise.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {
// The cells of the rows of the first Markdown table after `marker`, without its header.
std::vector<std::vector<std::string>> table_after(const std::string& text, const std::string& marker) {
  std::vector<std::vector<std::string>> rows;
  const auto at = text.find(marker);
  if (at == std::string::npos) return rows;
  std::istringstream in(text.substr(at));
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    const bool row = line.rfind("|", 0) == 0;
    if (!row && in_table) break;
    if (!row) continue;
    in_table = true;
    if (line.rfind("| ---", 0) == 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) cell += line[++i];  // \| inside a cell
      else if (line[i] == '|') {
        const auto b = cell.find_first_not_of(' ');
        cells.push_back(b == std::string::npos ? std::string() : cell.substr(b, cell.find_last_not_of(' ') - b + 1));
        cell.clear();
      } else cell += line[i];
    }
    rows.push_back(cells);
  }
  if (!rows.empty()) rows.erase(rows.begin());  // the header
  return rows;
}
}  // namespace

TEST_CASE("docs/reference.md's table of elementwise ops is the op list") {
  std::ifstream file(INPLACE_SOURCE_DIR "/docs/reference.md");
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  const auto rows = table_after(text.str(), "<!-- elementwise ops:");
  constexpr auto& ops = inplace::ops::elementwise_ops;
  REQUIRE(rows.size() == std::size(ops));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string name(ops[i].name);
    INFO("row " << i << ": " << name);
    REQUIRE(rows[i].size() >= 6);
    CHECK(rows[i][0].rfind("`ip::" + name + "(", 0) == 0);
    CHECK(rows[i][1] == "`ip::ops::" + name + "`");
    CHECK(rows[i][2] == (ops[i].has_inplace ? "`" + name + "_inplace`" : std::string()));
    CHECK(!rows[i][3].empty());  // the NumPy spelling
  }
}
