// A report's status is derived from its findings (spec README.md "Result envelope").
#include "memkit/result.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "memkit/findings.hpp"

namespace memkit {
namespace {

Finding finding(Severity severity) { return make_finding("MK-TEST-001", severity, "", "x"); }

// Was a defect: errc_name was declared in memkit/status.hpp and defined nowhere.
TEST_CASE("status: every error code has its stable lower-case name") {
  CHECK(errc_name(Errc::ok) == "ok");
  CHECK(errc_name(Errc::invalid_argument) == "invalid_argument");
  CHECK(errc_name(Errc::io) == "io");
  CHECK(errc_name(Errc::unsafe_path) == "unsafe_path");
  CHECK(errc_name(Errc::lock_busy) == "lock_busy");
  CHECK(errc_name(Errc::callback) == "callback");
}

TEST_CASE("findings: no findings, or only INFO, is PASS") {
  CHECK(derive_status({}) == ReportStatus::pass);
  CHECK(derive_status({finding(Severity::info), finding(Severity::info)}) == ReportStatus::pass);
}

TEST_CASE("findings: a WARNING without ERROR or BLOCKER is REVIEW") {
  CHECK(derive_status({finding(Severity::warning)}) == ReportStatus::review);
  CHECK(derive_status({finding(Severity::info), finding(Severity::warning)}) ==
        ReportStatus::review);
}

TEST_CASE("findings: any ERROR or BLOCKER is FAIL, wherever it sits in the list") {
  CHECK(derive_status({finding(Severity::error)}) == ReportStatus::fail);
  CHECK(derive_status({finding(Severity::blocker)}) == ReportStatus::fail);
  CHECK(derive_status({finding(Severity::warning), finding(Severity::error)}) ==
        ReportStatus::fail);
  CHECK(derive_status({finding(Severity::blocker), finding(Severity::warning)}) ==
        ReportStatus::fail);
  CHECK(derive_status({finding(Severity::info), finding(Severity::warning), finding(Severity::info),
                       finding(Severity::blocker)}) == ReportStatus::fail);
}

TEST_CASE("findings: a fatal finding is a BLOCKER and so makes the report FAIL") {
  const Finding fatal = make_fatal("MK-ARG-001", "", "--now: the time has no offset");
  CHECK(fatal.fatal);
  CHECK(fatal.severity == Severity::blocker);
  CHECK(derive_status({fatal}) == ReportStatus::fail);
}

TEST_CASE("findings: make_finding is never fatal and keeps every field") {
  const Finding made = make_finding("MK-MD-002", Severity::error, "decisions.md",
                                    "decisions.md:42: unclosed code fence", "close the fence");
  CHECK(made == Finding{"MK-MD-002", Severity::error, false, "decisions.md",
                        "decisions.md:42: unclosed code fence", "close the fence"});
  CHECK(make_finding("MK-X-001", Severity::blocker, "", "m").fatal == false);
  CHECK(make_finding("MK-X-001", Severity::info, "", "m").remediation.empty());
}

TEST_CASE("findings: severities and statuses have the names the envelope prints") {
  CHECK(severity_name(Severity::info) == "INFO");
  CHECK(severity_name(Severity::warning) == "WARNING");
  CHECK(severity_name(Severity::error) == "ERROR");
  CHECK(severity_name(Severity::blocker) == "BLOCKER");
  CHECK(report_status_name(ReportStatus::pass) == "PASS");
  CHECK(report_status_name(ReportStatus::review) == "REVIEW");
  CHECK(report_status_name(ReportStatus::fail) == "FAIL");
}

}  // namespace
}  // namespace memkit
