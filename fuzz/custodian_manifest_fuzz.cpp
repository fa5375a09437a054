// The custodian layout's readers (compaction.md §3, §5): manifest.md's protocol, load routes and
// module index, the protocol check, decision entries of any document, and the route and path rules
// on every route the manifest gives. Nothing read may point outside the document.
#include <string>

#include "fuzz_support.hpp"
#include "memkit/layouts.hpp"
#include "memkit/markdown.hpp"
#include "memkit/text.hpp"
#include "memkit/tokens.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(memkit::fuzz::as_text(data, size));
  const memkit::Document doc = memkit::parse_markdown(bytes);
  const std::uint32_t last_line = static_cast<std::uint32_t>(memkit::count_newlines(bytes)) + 1;

  const memkit::custodian::Manifest manifest = memkit::custodian::read_manifest(doc);
  for (const auto* routes : {&manifest.routes, &manifest.module_index}) {
    for (const memkit::custodian::Route& route : *routes) {
      MEMKIT_FUZZ_CHECK(route.line >= 1 && route.line <= last_line);
      (void)memkit::custodian::file_role(route.path);
      (void)memkit::custodian::budget_for(route.path);
      if (memkit::custodian::is_safe_route(route.path)) {
        const std::string inside = "/" + route.path + "/";
        MEMKIT_FUZZ_CHECK(route.path.ends_with(".md") && route.path.front() != '/' &&
                          inside.find("/../") == std::string::npos &&
                          inside.find("//") == std::string::npos);
      }
    }
  }
  for (const auto& [key, value] : manifest.protocol) {
    if (key == "version") (void)memkit::custodian::protocol_support(value);
  }

  const memkit::custodian::ProtocolCheck check =
      memkit::custodian::check_protocol(doc, memkit::Severity::error);
  // A version is always read; an empty or unusable one is always reported.
  MEMKIT_FUZZ_CHECK(
      memkit::custodian::protocol_support(check.version) ==
          memkit::custodian::ProtocolSupport::supported ||
      (check.finding.has_value() && check.finding->code == "MK-PROTO-001"));

  for (const memkit::custodian::DecisionEntry& entry :
       memkit::custodian::decision_entries(doc, memkit::default_token_counter())) {
    MEMKIT_FUZZ_CHECK(entry.line >= 1 && entry.line <= last_line);
  }
  return 0;
}
