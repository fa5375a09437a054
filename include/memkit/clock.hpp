// A clock reading as a value (STYLE V2): an instant plus the UTC offset in force, because local
// dates name archives and changelog headings. The core never reads a clock; the shell passes one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "memkit/result.hpp"

namespace memkit {

struct CivilDate {
  std::int32_t year;
  std::uint8_t month;  // 1..12
  std::uint8_t day;    // 1..31
  friend bool operator==(const CivilDate&, const CivilDate&) = default;
};

// A local wall time to the second, as the clock's offset gives it.
struct LocalDateTime {
  CivilDate date;
  std::uint8_t hour;    // 0..23
  std::uint8_t minute;  // 0..59
  std::uint8_t second;  // 0..59
  friend bool operator==(const LocalDateTime&, const LocalDateTime&) = default;
};

// "YYYY-MM-DD" naming a valid calendar date (years 0000-9999), else nullopt.
[[nodiscard]] std::optional<CivilDate> parse_iso_date(std::string_view text) noexcept;

// The number of days from `from` to `to` (negative when `to` is earlier).
[[nodiscard]] std::int64_t days_between(const CivilDate& from, const CivilDate& to) noexcept;

// Milliseconds from 1970-01-01 00:00 to `date` at `hour`:00 on a naive (zone-less) clock: how
// local wall times compare with each other (tiers3.md §8 windows).
[[nodiscard]] std::int64_t naive_millis(const CivilDate& date, int hour = 0) noexcept;

// Whether `text` is "YYYY-MM-DDTHH:MM:SS.mmmZ" naming a valid UTC time: the one spelling of the
// timestamps memkit stores (curated rows and floors, sync records), whose byte order is their time
// order.
[[nodiscard]] bool is_utc_millis(std::string_view text);

class ClockReading final {
 public:
  // Fails when the offset is outside -23:59..+23:59.
  [[nodiscard]] static Result<ClockReading> create(std::int64_t unix_millis,
                                                   std::int32_t utc_offset_minutes);

  // Parses an RFC 3339 timestamp with an offset ("2026-11-30T10:00:00+01:00", "...Z",
  // optional fraction, which keeps millisecond precision). `what` names the source in messages,
  // e.g. "--now: the time has no offset".
  [[nodiscard]] static Result<ClockReading> parse_rfc3339(std::string_view text,
                                                          std::string_view what = "--now");

  [[nodiscard]] std::int64_t unix_millis() const noexcept { return unix_millis_; }
  [[nodiscard]] std::int32_t utc_offset_minutes() const noexcept { return offset_minutes_; }

  [[nodiscard]] CivilDate local_date() const noexcept;
  [[nodiscard]] std::string local_date_iso() const;  // "2026-11-30"
  [[nodiscard]] LocalDateTime local_date_time() const noexcept;
  // The local wall time on the naive clock of naive_millis(), milliseconds included.
  [[nodiscard]] std::int64_t local_naive_millis() const noexcept;
  [[nodiscard]] std::string utc_rfc3339_millis() const;  // "2026-11-30T09:00:00.000Z"
  [[nodiscard]] std::string local_rfc3339() const;       // "2026-11-30T10:00:00+01:00"

  friend bool operator==(const ClockReading&, const ClockReading&) = default;

 private:
  ClockReading(std::int64_t unix_millis, std::int32_t offset_minutes) noexcept
      : unix_millis_(unix_millis), offset_minutes_(offset_minutes) {}

  std::int64_t unix_millis_;
  std::int32_t offset_minutes_;
};

}  // namespace memkit
