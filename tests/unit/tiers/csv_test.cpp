// CSV data memory (spec tiers3.md §10, §15): lenient RFC 4180 records, read-data --head prefixes,
// the manifest entry and manifest.json (keys sorted, 2-space indent, other entries unchanged).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "memkit/tiers.hpp"
#include "tiers_support.hpp"

using namespace memkit;
using namespace memkit::tiers;
using tiers_test::at;
using tiers_test::spec_now;

namespace {

using Fields = std::vector<std::string>;

std::vector<Fields> records_of(std::string_view csv) {
  const CsvParse parsed = parse_csv(csv);
  REQUIRE_FALSE(parsed.unterminated_line.has_value());
  std::vector<Fields> out;
  for (const CsvRecord& r : parsed.records) out.push_back(r.fields);
  return out;
}

const std::string kSpecCsv = "name,note\n\"Smith, J\",\"line1\nline2\"\n\nx,\"say \"\"hi\"\"\"";

std::string head(std::string_view csv, std::uint64_t n, bool& truncated) {
  truncated = !truncated;  // so a value the function does not set is noticed
  return csv_head(csv, n, truncated);
}

}  // namespace

TEST_CASE("tiers csv: the §15 CSV has a header and 2 rows, a quoted field keeps its LF") {
  CHECK(records_of(kSpecCsv) ==
        std::vector<Fields>{{"name", "note"}, {"Smith, J", "line1\nline2"}, {"x", "say \"hi\""}});
  const DataEntry entry = data_entry("people.csv", kSpecCsv, parse_csv(kSpecCsv), spec_now());
  CHECK(entry.name == "people.csv");
  CHECK(entry.detected_columns == Fields{"name", "note"});
  CHECK(entry.row_count == 2);
  CHECK(entry.column_count == 2);
  CHECK(entry.size_bytes == kSpecCsv.size());
  CHECK(entry.updated_at == "2026-03-07T14:05:09");
}

TEST_CASE("tiers csv: records end at LF or CRLF, a final line break starts no record") {
  CHECK(records_of("a,b\r\n1,2\r\n") == std::vector<Fields>{{"a", "b"}, {"1", "2"}});
  CHECK(records_of("a,b\n1,2") == std::vector<Fields>{{"a", "b"}, {"1", "2"}});
  CHECK(records_of("a\n") == std::vector<Fields>{{"a"}});
  // Inside quotes CR and LF are literal.
  CHECK(records_of("\"x\r\ny\",z\r\n") == std::vector<Fields>{{"x\r\ny", "z"}});
  // A CR not followed by LF is no line break.
  CHECK(records_of("a\rb,c\n") == std::vector<Fields>{{"a\rb", "c"}});
}

TEST_CASE("tiers csv: empty lines are no records") {
  CHECK(records_of("a\n\n\nb\n\n") == std::vector<Fields>{{"a"}, {"b"}});
  CHECK(records_of("\r\n\r\na\r\n\r\n") == std::vector<Fields>{{"a"}});
  CHECK(records_of("\n\n").empty());
  CHECK(records_of("").empty());
  // A line of spaces is not empty: it is one field.
  CHECK(records_of(" \n") == std::vector<Fields>{{" "}});
}

TEST_CASE("tiers csv: empty content has no columns and no rows") {
  const DataEntry entry = data_entry("e.csv", "", parse_csv(""), spec_now());
  CHECK(entry.detected_columns.empty());
  CHECK(entry.row_count == 0);
  CHECK(entry.column_count == 0);
  CHECK(entry.size_bytes == 0);
}

TEST_CASE("tiers csv: a BOM at offset 0 is not part of the first field") {
  CHECK(records_of("\xEF\xBB\xBFname,x\n1,2\n") == std::vector<Fields>{{"name", "x"}, {"1", "2"}});
  CHECK(records_of("\xEF\xBB\xBF\"q\",x\n") == std::vector<Fields>{{"q", "x"}});
  // Elsewhere it is an ordinary character.
  CHECK(records_of("a\n\xEF\xBB\xBF"
                   "b\n") == std::vector<Fields>{{"a"},
                                                 {"\xEF\xBB\xBF"
                                                  "b"}});
  const std::string csv = "\xEF\xBB\xBFh1,h2\n";
  CHECK(data_entry("b.csv", csv, parse_csv(csv), spec_now()).detected_columns ==
        Fields{"h1", "h2"});
}

TEST_CASE("tiers csv: quoting: doubled quotes, text after the closing quote, quotes in fields") {
  CHECK(records_of("\"a\"\"b\",c") == std::vector<Fields>{{"a\"b", "c"}});
  CHECK(records_of("\"ab\"cd,e\n") == std::vector<Fields>{{"abcd", "e"}});
  CHECK(records_of("\"ab\" c\"d\",e") == std::vector<Fields>{{"ab c\"d\"", "e"}});
  CHECK(records_of("ab\"c,d\"\n") == std::vector<Fields>{{"ab\"c", "d\""}});
  CHECK(records_of("\"\",\"\"\"\"") == std::vector<Fields>{{"", "\""}});
  CHECK(records_of("\"a,b\nc\"\"d\"") == std::vector<Fields>{{"a,b\nc\"d"}});
}

TEST_CASE("tiers csv: a trailing comma gives an empty last field") {
  CHECK(records_of("a,b,\n1,2,\n") == std::vector<Fields>{{"a", "b", ""}, {"1", "2", ""}});
  CHECK(records_of("a,") == std::vector<Fields>{{"a", ""}});
  CHECK(records_of("a,\r\n") == std::vector<Fields>{{"a", ""}});
  CHECK(records_of(",") == std::vector<Fields>{{"", ""}});
  CHECK(records_of("\"a\",") == std::vector<Fields>{{"a", ""}});
}

TEST_CASE("tiers csv: an unterminated quoted field is reported at its opening line") {
  CHECK(parse_csv("\"open").unterminated_line == std::optional<std::uint32_t>(1));
  CHECK(parse_csv("a,b\nc,\"open\nmore\n").unterminated_line == std::optional<std::uint32_t>(2));
  // Lines inside an earlier quoted field and empty lines count.
  CHECK(parse_csv("\"x\ny\",1\n\n\r\nz,\"open,\n\n").unterminated_line ==
        std::optional<std::uint32_t>(5));
  CHECK(parse_csv("a,\"b\"\"").unterminated_line == std::optional<std::uint32_t>(1));
  CHECK_FALSE(parse_csv(kSpecCsv).unterminated_line.has_value());
}

TEST_CASE("tiers read-data --head: the prefix through the Nth record, its line break kept") {
  const std::string csv = "h\r\nr1\r\nr2\r\n";
  bool truncated = false;
  CHECK(head(csv, 1, truncated) == "h\r\n");
  CHECK(truncated);
  CHECK(head(csv, 2, truncated) == "h\r\nr1\r\n");
  CHECK(truncated);
  CHECK(head(csv, 3, truncated) == csv);
  CHECK_FALSE(truncated);
  CHECK(head(csv, 9, truncated) == csv);
  CHECK_FALSE(truncated);
  // Without a final line break the last record ends the file.
  CHECK(head("h\nr1", 2, truncated) == "h\nr1");
  CHECK_FALSE(truncated);
}

TEST_CASE("tiers read-data --head: a BOM and interior empty lines are part of the prefix") {
  const std::string csv = "\xEF\xBB\xBFh\n\n\"a\nb\"\n\nr2\n\n";
  bool truncated = false;
  CHECK(head(csv, 1, truncated) == "\xEF\xBB\xBFh\n");
  CHECK(truncated);
  CHECK(head(csv, 2, truncated) == "\xEF\xBB\xBFh\n\n\"a\nb\"\n");
  CHECK(truncated);
  // Fewer records than N: through the end of the last record, not the trailing empty lines.
  CHECK(head(csv, 5, truncated) == "\xEF\xBB\xBFh\n\n\"a\nb\"\n\nr2\n");
  CHECK_FALSE(truncated);
}

TEST_CASE("tiers read-data --head: 0, or no record, gives \"\"") {
  bool truncated = false;
  CHECK(head("h\nr\n", 0, truncated) == "");
  CHECK(truncated);  // the file has more records than 0
  CHECK(head("", 3, truncated) == "");
  CHECK_FALSE(truncated);
  CHECK(head("\n\r\n\n", 1, truncated) == "");
  CHECK_FALSE(truncated);
  CHECK(head("", 0, truncated) == "");
  CHECK_FALSE(truncated);
}

// ---- manifest.json ------------------------------------------------------------------------------

namespace {

DataEntry spec_entry() {
  DataEntry entry = data_entry("people.csv", kSpecCsv, parse_csv(kSpecCsv), spec_now());
  return entry;
}

}  // namespace

TEST_CASE("tiers manifest: a new manifest, the entry's keys in the fixed order, 2-space indent") {
  const Result<std::string> manifest = manifest_with(std::nullopt, spec_entry());
  REQUIRE(manifest);
  CHECK(*manifest ==
        "{\n"
        "  \"people.csv\": {\n"
        "    \"name\": \"people.csv\",\n"
        "    \"path\": \"memory/data/people.csv\",\n"
        "    \"updated_at\": \"2026-03-07T14:05:09\",\n"
        "    \"source_label\": null,\n"
        "    \"description\": null,\n"
        "    \"declared_columns\": null,\n"
        "    \"detected_columns\": [\n"
        "      \"name\",\n"
        "      \"note\"\n"
        "    ],\n"
        "    \"row_count\": 2,\n"
        "    \"column_count\": 2,\n"
        "    \"size_bytes\": " +
            std::to_string(kSpecCsv.size()) +
            "\n"
            "  }\n"
            "}\n");
  // The skeleton init writes ("{}" and LF) is an empty object.
  CHECK(*manifest_with(std::string_view("{}\n"), spec_entry()) == *manifest);
}

TEST_CASE("tiers manifest: a manifest nested deeper than the JSON limit is refused, not rewritten") {
  for (const std::size_t depth : {std::size_t{20000}, std::size_t{100000}}) {
    CAPTURE(depth);
    const std::string deep = R"({"old.csv": )" + std::string(depth, '[') + std::string(depth, ']') + "}";
    const Result<std::string> manifest = manifest_with(std::string_view(deep), spec_entry());
    REQUIRE_FALSE(manifest);
    CHECK(manifest.status().message() ==
          "memory/data/manifest.json: nested more than 512 levels deep (at byte 523); repair or "
          "remove it");
    CHECK_FALSE(manifest_entry(deep, "old.csv"));
  }
}

TEST_CASE("tiers manifest: optional values and raw non-ASCII text") {
  DataEntry entry = spec_entry();
  entry.source_label = "CRM export";
  entry.description = "caf\xC3\xA9 \xE8\xA8\x98";
  entry.declared_columns = Fields{"name", "note"};
  const Result<std::string> manifest = manifest_with(std::nullopt, entry);
  REQUIRE(manifest);
  CHECK(manifest->find("    \"source_label\": \"CRM export\",\n") != std::string::npos);
  CHECK(manifest->find("    \"description\": \"caf\xC3\xA9 \xE8\xA8\x98\",\n") !=
        std::string::npos);
  CHECK(manifest->find("\\u") == std::string::npos);
  CHECK(manifest->find("    \"declared_columns\": [\n      \"name\",\n      \"note\"\n    ],\n") !=
        std::string::npos);
}

TEST_CASE("tiers manifest: keys sorted, other entries keep their content and key order") {
  const std::string existing =
      R"({"zeta.csv": {"size_bytes": 1, "name": "zeta.csv", "extra": {"b": [1, 2], "a": "\u00e9"}},)"
      "\n"
      R"( "alpha.csv": {"name": "alpha.csv"}})";
  DataEntry entry = spec_entry();
  entry.name = "m.csv";
  const Result<std::string> manifest = manifest_with(std::string_view(existing), entry);
  REQUIRE(manifest);
  const std::string alone = *manifest_with(std::nullopt, entry);
  // alone is "{\n  \"m.csv\": {...}\n}\n"; its entry sits between alpha and zeta.
  const std::string m_entry = alone.substr(2, alone.size() - 5);
  CHECK(*manifest ==
        "{\n"
        "  \"alpha.csv\": {\n"
        "    \"name\": \"alpha.csv\"\n"
        "  },\n" +
            m_entry +
            ",\n"
            "  \"zeta.csv\": {\n"
            "    \"size_bytes\": 1,\n"
            "    \"name\": \"zeta.csv\",\n"
            "    \"extra\": {\n"
            "      \"b\": [\n"
            "        1,\n"
            "        2\n"
            "      ],\n"
            "      \"a\": \"\xC3\xA9\"\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST_CASE("tiers manifest: an entry for the same file is replaced whole") {
  const std::string existing = R"({"people.csv": {"old": true, "row_count": 99}, "a.csv": null})";
  const Result<std::string> manifest = manifest_with(std::string_view(existing), spec_entry());
  REQUIRE(manifest);
  CHECK(manifest->find("\"old\"") == std::string::npos);
  CHECK(manifest->find("99") == std::string::npos);
  CHECK(manifest->rfind("{\n  \"a.csv\": null,\n  \"people.csv\": {\n", 0) == 0);
  CHECK(manifest->back() == '\n');
}

TEST_CASE("tiers manifest: a manifest that is no JSON object is refused") {
  for (const std::string_view bad : {"[]", "\"x\"", "3", "null", "not json", "{\"a\": 1"}) {
    CAPTURE(bad);
    CHECK_FALSE(manifest_with(bad, spec_entry()));
  }
}

TEST_CASE("tiers manifest: manifest_entry gives the entry for a name, or nothing") {
  const std::string manifest = *manifest_with(std::nullopt, spec_entry());
  const std::optional<std::string> found = manifest_entry(manifest, "people.csv");
  REQUIRE(found.has_value());
  CHECK(found->find('\n') == std::string::npos);
  const nlohmann::json value = nlohmann::json::parse(*found);
  CHECK(value == nlohmann::json::parse(manifest)["people.csv"]);
  CHECK(value["row_count"] == 2);
  CHECK(value["path"] == "memory/data/people.csv");
  CHECK_FALSE(manifest_entry(manifest, "other.csv").has_value());
  CHECK_FALSE(manifest_entry(manifest, "people").has_value());
  CHECK_FALSE(manifest_entry("[1]", "people.csv").has_value());
  CHECK_FALSE(manifest_entry("{broken", "people.csv").has_value());
}

TEST_CASE("tiers manifest: updated_at is local wall time without a zone") {
  const DataEntry entry =
      data_entry("x.csv", "a\n", parse_csv("a\n"), at("2026-03-08T00:15:00+09:00"));
  CHECK(entry.updated_at == "2026-03-08T00:15:00");
}
