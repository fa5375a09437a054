// Findings and the verdicts derived from them (spec README.md "Result envelope"): a report's
// status and exit class are never set by hand, only computed from its findings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace memkit {

// Ordered from least to most severe.
enum class Severity : std::uint8_t { info, warning, error, blocker };

struct Finding {
  std::string code;  // MK-<AREA>-<NNN>
  Severity severity = Severity::info;
  bool fatal = false;       // true only for BLOCKERs caused by the invocation or the environment
  std::string path;         // relative, POSIX separators, or ""
  std::string message;      // "file:line: what is wrong", lower case, no full stop
  std::string remediation;  // what to do about it, or ""

  friend bool operator==(const Finding&, const Finding&) = default;
};

enum class ReportStatus : std::uint8_t { pass, review, fail };
enum class ExitClass : std::uint8_t {
  success,
  success_with_review,
  domain_failure,
  blocker,
  fatal
};

[[nodiscard]] std::string_view severity_name(Severity severity) noexcept;  // "INFO" ... "BLOCKER"
[[nodiscard]] std::string_view report_status_name(ReportStatus status) noexcept;  // "PASS" ...
[[nodiscard]] std::string_view exit_class_name(ExitClass exit_class) noexcept;    // "success" ...

// FAIL if any finding is ERROR or BLOCKER, else REVIEW if any is WARNING, else PASS.
[[nodiscard]] ReportStatus derive_status(const std::vector<Finding>& findings) noexcept;

// The first row that applies: fatal, blocker, domain-failure, success-with-review, success.
[[nodiscard]] ExitClass derive_exit_class(const std::vector<Finding>& findings) noexcept;

// Whether the findings stop a command before it writes: a BLOCKER, fatal or not.
[[nodiscard]] bool stops(const std::vector<Finding>& findings) noexcept;

// 2 for fatal and blocker, 1 for domain-failure, 0 otherwise.
[[nodiscard]] int exit_code(ExitClass exit_class) noexcept;

// Sorts by severity (most severe first), then code, then path, then message; stable otherwise.
void sort_findings(std::vector<Finding>& findings);

// Convenience constructors; `fatal` findings are always BLOCKERs.
[[nodiscard]] Finding make_finding(std::string code, Severity severity, std::string path,
                                   std::string message, std::string remediation = {});
[[nodiscard]] Finding make_fatal(std::string code, std::string path, std::string message,
                                 std::string remediation = {});

}  // namespace memkit
