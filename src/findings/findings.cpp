#include "memkit/findings.hpp"

#include <algorithm>
#include <tuple>


namespace memkit {

std::string_view severity_name(Severity severity) noexcept {
  switch (severity) {
    case Severity::info:
      return "INFO";
    case Severity::warning:
      return "WARNING";
    case Severity::error:
      return "ERROR";
    case Severity::blocker:
      return "BLOCKER";
  }
  return "INFO";
}

std::string_view report_status_name(ReportStatus status) noexcept {
  switch (status) {
    case ReportStatus::pass:
      return "PASS";
    case ReportStatus::review:
      return "REVIEW";
    case ReportStatus::fail:
      return "FAIL";
  }
  return "PASS";
}

std::string_view exit_class_name(ExitClass exit_class) noexcept {
  switch (exit_class) {
    case ExitClass::success:
      return "success";
    case ExitClass::success_with_review:
      return "success-with-review";
    case ExitClass::domain_failure:
      return "domain-failure";
    case ExitClass::blocker:
      return "blocker";
    case ExitClass::fatal:
      return "fatal";
  }
  return "success";
}

ReportStatus derive_status(const std::vector<Finding>& findings) noexcept {
  ReportStatus status = ReportStatus::pass;
  for (const Finding& f : findings) {
    if (f.severity >= Severity::error) return ReportStatus::fail;
    if (f.severity == Severity::warning) status = ReportStatus::review;
  }
  return status;
}

ExitClass derive_exit_class(const std::vector<Finding>& findings) noexcept {
  bool blocker = false;
  bool error = false;
  bool warning = false;
  for (const Finding& f : findings) {
    if (f.fatal) return ExitClass::fatal;
    blocker = blocker || f.severity == Severity::blocker;
    error = error || f.severity == Severity::error;
    warning = warning || f.severity == Severity::warning;
  }
  if (blocker) return ExitClass::blocker;
  if (error) return ExitClass::domain_failure;
  if (warning) return ExitClass::success_with_review;
  return ExitClass::success;
}

int exit_code(ExitClass exit_class) noexcept {
  switch (exit_class) {
    case ExitClass::fatal:
    case ExitClass::blocker:
      return 2;
    case ExitClass::domain_failure:
      return 1;
    case ExitClass::success_with_review:
    case ExitClass::success:
      return 0;
  }
  return 2;
}

void sort_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    // Most severe first; strings compare bytewise.
    return std::tie(b.severity, a.code, a.path, a.message) <
           std::tie(a.severity, b.code, b.path, b.message);
  });
}

Finding make_finding(std::string code, Severity severity, std::string path, std::string message,
                     std::string remediation) {
  return Finding{std::move(code), severity,           false,
                 std::move(path), std::move(message), std::move(remediation)};
}

Finding make_fatal(std::string code, std::string path, std::string message,
                   std::string remediation) {
  return Finding{std::move(code), Severity::blocker,  true,
                 std::move(path), std::move(message), std::move(remediation)};
}

bool stops(const std::vector<Finding>& findings) noexcept {
  const ExitClass c = derive_exit_class(findings);
  return c == ExitClass::fatal || c == ExitClass::blocker;
}

}  // namespace memkit
