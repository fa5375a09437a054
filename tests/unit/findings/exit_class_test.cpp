// Exit classes and exit codes: the first row of the table that applies wins (spec README.md
// "Result envelope").
#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "memkit/findings.hpp"

namespace memkit {
namespace {

Finding finding(Severity severity) { return make_finding("MK-TEST-001", severity, "", "x"); }
Finding fatal() { return make_fatal("MK-TEST-002", "", "y"); }

TEST_CASE("findings: exit class precedence is fatal > blocker > domain-failure > review") {
  struct Row {
    std::vector<Finding> findings;
    ExitClass expected;
  };
  const std::vector<Row> table = {
      {{}, ExitClass::success},
      {{finding(Severity::info)}, ExitClass::success},
      {{finding(Severity::warning)}, ExitClass::success_with_review},
      {{finding(Severity::info), finding(Severity::warning)}, ExitClass::success_with_review},
      {{finding(Severity::error)}, ExitClass::domain_failure},
      {{finding(Severity::warning), finding(Severity::error)}, ExitClass::domain_failure},
      {{finding(Severity::blocker)}, ExitClass::blocker},
      {{finding(Severity::error), finding(Severity::blocker)}, ExitClass::blocker},
      {{finding(Severity::blocker), finding(Severity::error), finding(Severity::warning)},
       ExitClass::blocker},
      {{fatal()}, ExitClass::fatal},
      {{finding(Severity::blocker), fatal()}, ExitClass::fatal},
      {{finding(Severity::warning), finding(Severity::error), finding(Severity::blocker), fatal()},
       ExitClass::fatal},
      {{fatal(), finding(Severity::info)}, ExitClass::fatal},
  };
  for (const Row& row : table) {
    CAPTURE(row.findings.size());
    CAPTURE(exit_class_name(row.expected));
    CHECK(derive_exit_class(row.findings) == row.expected);
  }
}

TEST_CASE("findings: a non-fatal BLOCKER is blocker, not fatal") {
  CHECK(derive_exit_class({finding(Severity::blocker)}) == ExitClass::blocker);
}

TEST_CASE("findings: exit class agrees with status where the table reuses it") {
  CHECK(derive_status({finding(Severity::warning)}) == ReportStatus::review);
  CHECK(derive_exit_class({finding(Severity::warning)}) == ExitClass::success_with_review);
  CHECK(derive_status({}) == ReportStatus::pass);
  CHECK(derive_exit_class({}) == ExitClass::success);
}

TEST_CASE("findings: fatal and blocker exit 2, domain-failure 1, the successes 0") {
  CHECK(exit_code(ExitClass::fatal) == 2);
  CHECK(exit_code(ExitClass::blocker) == 2);
  CHECK(exit_code(ExitClass::domain_failure) == 1);
  CHECK(exit_code(ExitClass::success_with_review) == 0);
  CHECK(exit_code(ExitClass::success) == 0);
}

TEST_CASE("findings: exit classes have the names the envelope prints") {
  CHECK(exit_class_name(ExitClass::fatal) == "fatal");
  CHECK(exit_class_name(ExitClass::blocker) == "blocker");
  CHECK(exit_class_name(ExitClass::domain_failure) == "domain-failure");
  CHECK(exit_class_name(ExitClass::success_with_review) == "success-with-review");
  CHECK(exit_class_name(ExitClass::success) == "success");
}

}  // namespace
}  // namespace memkit
