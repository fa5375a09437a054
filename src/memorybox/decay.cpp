// Confidence bands and decay (spec memorybox.md §5, §6): computed when read, never written.
#include <fmt/format.h>

#include "memkit/memorybox.hpp"

namespace memkit::memorybox {
namespace {

constexpr std::uint64_t kFirstPenaltyDays = 30;
constexpr std::uint64_t kSecondPenaltyDays = 90;

}  // namespace

std::optional<std::uint32_t> parse_confidence(std::string_view text) noexcept {
  if (text == "0") return 0;
  if (text == "1") return 100;
  if (text.size() < 3 || text.size() > 4 || text[1] != '.') return std::nullopt;
  if (text[0] != '0' && text[0] != '1') return std::nullopt;
  std::uint32_t fraction = 0;
  for (std::size_t i = 2; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    fraction = fraction * 10 + static_cast<std::uint32_t>(text[i] - '0');
  }
  if (text.size() == 3) fraction *= 10;  // one decimal: tenths
  if (text[0] == '1') return fraction == 0 ? std::optional<std::uint32_t>(100) : std::nullopt;
  return fraction;
}

std::uint32_t decay_penalty(std::uint64_t days) noexcept {
  if (days >= kSecondPenaltyDays) return 30;
  if (days >= kFirstPenaltyDays) return 10;
  return 0;
}

std::uint32_t effective_confidence(std::uint32_t stored, std::uint64_t days) noexcept {
  const std::uint32_t penalty = decay_penalty(days);
  return stored > penalty ? stored - penalty : 0;
}

bool review_interval_passed(Band band, std::uint64_t days) noexcept {
  switch (band) {
    case Band::verified:
      return false;
    case Band::high:
      return days >= 90;
    case Band::medium:
      return days >= 30;
    case Band::low:
    case Band::speculation:
      return true;
  }
  return true;
}

Band band_of(std::uint32_t hundredths) noexcept {
  if (hundredths >= 95) return Band::verified;
  if (hundredths >= 80) return Band::high;
  if (hundredths >= 50) return Band::medium;
  if (hundredths >= 20) return Band::low;
  return Band::speculation;
}

std::string_view band_name(Band band) noexcept {
  switch (band) {
    case Band::verified:
      return "verified";
    case Band::high:
      return "high";
    case Band::medium:
      return "medium";
    case Band::low:
      return "low";
    case Band::speculation:
      return "speculation";
  }
  return "speculation";
}

std::string_view band_action(Band band) noexcept {
  switch (band) {
    case Band::verified:
      return "Persist in LONG_TERM.md";
    case Band::high:
      return "Persist, verify quarterly";
    case Band::medium:
      return "Keep in active memory, verify monthly";
    case Band::low:
      return "Flag for verification, don't rely on";
    case Band::speculation:
      return "Don't store. Use only in session context.";
  }
  return "";
}

DecayReport memorybox_decay(const Inputs& inputs, const ClockReading& now,
                            std::optional<std::string_view> only_file) {
  DecayReport report;
  const CivilDate today = now.local_date();
  for (const std::string& path : tier_files_1_to_4(inputs)) {
    if (only_file && *only_file != path) continue;
    const FileSnapshot* entry = inputs.snapshot.find(path);
    if (entry == nullptr || entry->state != EntryState::file) continue;
    const Document doc = parse_markdown(entry->bytes);
    if (const auto& issue = doc.parse_error()) {
      report.findings.push_back(
          make_finding("MK-PARSE-001", Severity::error, path,
                       describe_issue(*issue, path) + "; its entries are not read"));
      continue;
    }
    for (const Entry& e : read_entries(path, doc)) {
      auto warn = [&](const Field& field, std::string_view what) {
        report.findings.push_back(make_finding(
            "MK-BOX-001", Severity::warning, path,
            fmt::format("{}:{}: {} '{}' {}", path, field.line, field.key, field.value, what)));
      };
      std::optional<std::uint32_t> stored;
      std::optional<CivilDate> verified;
      for (const Field& field : e.fields) {
        if (field.key == "Confidence") {
          stored = parse_confidence(field.value);
          if (!stored) warn(field, "is not a confidence (0 to 1, at most two decimals)");
        } else if (field.key == "Verified") {
          verified = parse_iso_date(field.value);
          if (!verified) warn(field, "is not a date (YYYY-MM-DD)");
        } else if (field.key == "Decay-Trigger" && !parse_iso_date(field.value)) {
          warn(field, "is not a date (YYYY-MM-DD); the fact never becomes due by it");
        }
      }
      if (!stored || !verified) {
        report.unscored.push_back(e.id);
        continue;
      }
      Decay decay;
      decay.entry_id = e.id;
      decay.file = path;
      decay.stored = *stored;
      decay.verified = std::string(*e.field("Verified"));
      const std::int64_t days = days_between(*verified, today);
      const bool future = days < 0;
      if (future) {
        report.findings.push_back(
            make_finding("MK-BOX-001", Severity::warning, path,
                         fmt::format("{}: Verified {} lies in the future; counted as 0 days", e.id,
                                     decay.verified)));
      }
      decay.days = future ? 0 : static_cast<std::uint64_t>(days);
      decay.penalty = decay_penalty(decay.days);
      decay.effective = effective_confidence(decay.stored, decay.days);
      decay.band = band_of(decay.effective);
      const std::string_view review = e.field("Review").value_or("");
      const bool contradicted = review.rfind("contradicted", 0) == 0;
      const std::optional<std::string_view> trigger_text = e.field("Decay-Trigger");
      const std::optional<CivilDate> trigger =
          trigger_text ? parse_iso_date(*trigger_text) : std::nullopt;
      const bool trigger_reached = trigger && days_between(*trigger, today) >= 0;
      const bool needs_verification = review == "needs verification";
      if (contradicted) decay.flags.emplace_back("contradicted");
      if (trigger_reached) decay.flags.emplace_back("trigger_reached");
      if (needs_verification) decay.flags.emplace_back("needs_verification");
      if (future) decay.flags.emplace_back("future_verified");
      const bool interval_passed = review_interval_passed(decay.band, decay.days);
      decay.review_due = interval_passed || contradicted || trigger_reached || needs_verification;
      decay.reliable = decay.band != Band::low && decay.band != Band::speculation && !contradicted;
      report.entries.push_back(std::move(decay));
    }
  }
  sort_findings(report.findings);
  return report;
}

}  // namespace memkit::memorybox
