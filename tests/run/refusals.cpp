// The rewrite's reasons of refusal are one table (run/detail/rewrite.hpp): the
// planner checks them in its order, ip::explain prints their meanings, and
// docs/running.md lists them; this test holds the docs to the table.
#include <inplace/run/detail/rewrite.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace run = inplace::detail::run;

namespace {
// The rows of the first Markdown table after `marker` in `text`, without its header.
std::vector<std::string> table_rows_after(const std::string& text, const std::string& marker) {
  std::vector<std::string> rows;
  std::istringstream in(text.substr(text.find(marker)));
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    const bool row = line.rfind("|", 0) == 0;
    if (!row && in_table) break;
    if (row) in_table = true;
    if (row && line.rfind("| ---", 0) != 0) rows.push_back(line);
  }
  if (!rows.empty()) rows.erase(rows.begin());  // the header
  return rows;
}
}  // namespace

TEST_CASE("docs/running.md lists the reasons of refusal in the table's order, with its meanings") {
  std::ifstream file(INPLACE_SOURCE_DIR "/docs/running.md");
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  const auto rows = table_rows_after(text.str(), "<!-- refusal reasons:");
  REQUIRE(rows.size() == run::refusal_reasons.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = run::refusal_reasons[i];
    CHECK(rows[i] == "| `" + std::string(r.name) + "` | " + std::string(r.meaning) + " |");
  }
}

TEST_CASE("every reason of refusal is in the table once, and only none and no_variant say nothing") {
  static_assert(run::meaning_of(run::refusal::none).empty());
  static_assert(run::meaning_of(run::refusal::no_variant).empty());
  for (std::size_t i = 0; i < run::refusal_reasons.size(); ++i) {
    CHECK(!run::refusal_reasons[i].meaning.empty());
    for (std::size_t k = 0; k < i; ++k) CHECK(run::refusal_reasons[k].kind != run::refusal_reasons[i].kind);
  }
}
