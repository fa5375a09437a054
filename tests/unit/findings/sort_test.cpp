// Findings order: severity (most severe first), then code, path and message, compared bytewise
// (spec README.md "Result envelope").
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "memkit/findings.hpp"

namespace memkit {
namespace {

Finding finding(Severity severity, std::string code, std::string path, std::string message,
                std::string remediation = {}) {
  return make_finding(std::move(code), severity, std::move(path), std::move(message),
                      std::move(remediation));
}

std::vector<std::string> messages(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.message);
  return out;
}

TEST_CASE("findings: sorting puts the most severe first") {
  std::vector<Finding> findings = {
      finding(Severity::info, "MK-A-001", "", "info"),
      finding(Severity::warning, "MK-A-001", "", "warning"),
      finding(Severity::blocker, "MK-Z-999", "z", "blocker"),
      finding(Severity::error, "MK-A-001", "", "error"),
  };
  sort_findings(findings);
  CHECK(messages(findings) == std::vector<std::string>{"blocker", "error", "warning", "info"});
}

TEST_CASE("findings: within a severity, code comes before path and path before message") {
  std::vector<Finding> findings = {
      finding(Severity::error, "MK-B-001", "a.md", "a"),
      finding(Severity::error, "MK-A-002", "a.md", "b"),
      finding(Severity::error, "MK-A-001", "z.md", "c"),
      finding(Severity::error, "MK-A-001", "b.md", "e"),
      finding(Severity::error, "MK-A-001", "b.md", "d"),
  };
  sort_findings(findings);
  CHECK(messages(findings) == std::vector<std::string>{"d", "e", "c", "b", "a"});
}

TEST_CASE("findings: strings compare bytewise, so capitals and ASCII sort before UTF-8") {
  std::vector<Finding> findings = {
      finding(Severity::warning, "MK-A-001", "\xc3\xa9t\xc3\xa9.md", "utf8"),  // "été.md"
      finding(Severity::warning, "MK-A-001", "z.md", "lower"),
      finding(Severity::warning, "MK-A-001", "Z.md", "upper"),
      finding(Severity::warning, "MK-A-001", "", "empty"),
  };
  sort_findings(findings);
  CHECK(messages(findings) == std::vector<std::string>{"empty", "upper", "lower", "utf8"});
}

TEST_CASE("findings: a fatal BLOCKER sorts by the same keys as any BLOCKER") {
  std::vector<Finding> findings = {
      finding(Severity::blocker, "MK-B-001", "", "plain"),
      make_fatal("MK-A-001", "", "fatal"),
      finding(Severity::error, "MK-0-000", "", "error"),
  };
  sort_findings(findings);
  CHECK(messages(findings) == std::vector<std::string>{"fatal", "plain", "error"});
}

TEST_CASE("findings: sorting keeps findings equal in every key in their original order") {
  std::vector<Finding> findings = {
      finding(Severity::info, "MK-A-001", "a.md", "same", "first"),
      finding(Severity::warning, "MK-A-001", "a.md", "other"),
      finding(Severity::info, "MK-A-001", "a.md", "same", "second"),
      finding(Severity::info, "MK-A-001", "a.md", "same", "third"),
  };
  sort_findings(findings);
  REQUIRE(findings.size() == 4);
  CHECK(findings[0].message == "other");
  CHECK(findings[1].remediation == "first");
  CHECK(findings[2].remediation == "second");
  CHECK(findings[3].remediation == "third");
}

TEST_CASE("findings: sorting an empty list or a sorted list changes nothing") {
  std::vector<Finding> empty;
  sort_findings(empty);
  CHECK(empty.empty());
  std::vector<Finding> sorted = {
      finding(Severity::blocker, "MK-A-001", "", "1"),
      finding(Severity::error, "MK-A-001", "", "2"),
      finding(Severity::info, "MK-A-001", "", "3"),
  };
  const std::vector<Finding> before = sorted;
  sort_findings(sorted);
  CHECK(sorted == before);
}

}  // namespace
}  // namespace memkit
