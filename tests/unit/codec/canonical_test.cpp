// Canonical JSON (spec compaction.md §12.1): the streamed writer and the value-tree writer agree,
// and both give Python's json.dumps(ensure_ascii=False, sort_keys=True, separators=(",",":")).
#include "codec/canonical.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "json/json.hpp"

TEST_CASE("json: strings are escaped exactly as Python escapes them") {
  // Expected bytes produced by python3 json.dumps(s, ensure_ascii=False).
  CHECK(memkit::json_string("a\"b\\c") == R"("a\"b\\c")");
  CHECK(memkit::json_string("\b\f\n\r\t") == R"("\b\f\n\r\t")");
  CHECK(memkit::json_string(std::string("\x00\x01\x1f\x7f", 4)) == "\"\\u0000\\u0001\\u001f\x7f\"");
  CHECK(memkit::json_string("caf\xC3\xA9 \xE8\xA8\x98 /") == "\"caf\xC3\xA9 \xE8\xA8\x98 /\"");
  CHECK(memkit::json_string("\xC3\x28") == "\"\xEF\xBF\xBD(\"");  // ill-formed: U+FFFD
}

TEST_CASE("json: the streamed writer equals the value-tree writer on 20000 random strings") {
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::string s(rng() % 12, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 4 == 0 ? rng() % 0x20 : rng() % 256);
    CAPTURE(s);
    CHECK(memkit::json_string(s) == memkit::detail::canonical_dump(memkit::detail::utf8(s)));
  }
}

TEST_CASE("json: objects sort keys bytewise and carry no whitespace") {
  const nlohmann::json value{{"b", 1}, {"a", {{"\xC3\xA9", true}, {"Z", nullptr}}}, {"B", -2}};
  CHECK(memkit::detail::canonical_dump(value) ==
        "{\"B\":-2,\"a\":{\"Z\":null,\"\xC3\xA9\":true},\"b\":1}");
}

TEST_CASE("json: the envelope derives status and exit class from its findings") {
  const std::vector<memkit::Finding> none;
  CHECK(memkit::envelope_json("markdown units", "{}", none) ==
        R"({"command":"markdown units","data":{},"exit_class":"success","findings":[],)"
        R"("output_schema_version":1,"status":"PASS"})");
  const std::vector<memkit::Finding> fatal = {
      memkit::make_fatal("MK-ARG-001", "", "--now: the time has no offset")};
  CHECK(memkit::envelope_json("custodian status", "{}", fatal) ==
        R"({"command":"custodian status","data":{},"exit_class":"fatal","findings":[{"code":)"
        R"("MK-ARG-001","fatal":true,"message":"--now: the time has no offset","path":"",)"
        R"("remediation":"","severity":"BLOCKER"}],"output_schema_version":1,"status":"FAIL"})");
}

TEST_CASE("json: the document writer streams units and sections with sorted keys") {
  const memkit::Document doc = memkit::parse_markdown(std::string("# Notes\n\n- a\n  b\n## S\n"));
  CHECK(memkit::document_json(doc) ==
        R"({"sections":[{"first_line":1,"heading":null,"kind":"preamble","last_line":4},)"
        R"({"first_line":5,"heading":"S","kind":"section","last_line":5}],"units":[)"
        R"({"first_line":1,"key":"notes","kind":"heading","last_line":1},)"
        R"({"first_line":2,"key":null,"kind":"blank","last_line":2},)"
        R"({"first_line":3,"key":"a\n  b","kind":"bullet_unit","last_line":4},)"
        R"({"first_line":5,"key":"s","kind":"heading","last_line":5}]})");
  CHECK(memkit::document_json(memkit::parse_markdown(std::string("```\n"))) ==
        R"({"sections":null,"units":null})");
}
