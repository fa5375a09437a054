// --now and MEMKIT_NOW: RFC 3339 timestamps with an offset, read and written back (spec README.md
// "Global options").
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "memkit/clock.hpp"

namespace memkit {
namespace {

ClockReading parse(std::string_view text) { return ClockReading::parse_rfc3339(text).value(); }

TEST_CASE("clock: the spec's --now example reads as 09:00 UTC, 10:00 local") {
  const ClockReading now = parse("2026-11-30T10:00:00+01:00");
  CHECK(now.unix_millis() == 1'796'029'200'000);
  CHECK(now.utc_offset_minutes() == 60);
  CHECK(now.local_date() == CivilDate{2026, 11, 30});
  CHECK(now.local_date_iso() == "2026-11-30");
  CHECK(now.utc_rfc3339_millis() == "2026-11-30T09:00:00.000Z");
  CHECK(now.local_rfc3339() == "2026-11-30T10:00:00+01:00");
}

TEST_CASE("clock: Z and z both mean UTC, printed back as +00:00") {
  for (const std::string_view text : {"2026-11-30T09:00:00Z", "2026-11-30T09:00:00z",
                                      "2026-11-30T09:00:00+00:00", "2026-11-30T09:00:00-00:00"}) {
    CAPTURE(text);
    const ClockReading now = parse(text);
    CHECK(now.unix_millis() == 1'796'029'200'000);
    CHECK(now.utc_offset_minutes() == 0);
    CHECK(now.local_rfc3339() == "2026-11-30T09:00:00+00:00");
  }
}

TEST_CASE("clock: T, t and one space all separate the date from the time") {
  const ClockReading upper = parse("2026-11-30T10:00:00+01:00");
  CHECK(parse("2026-11-30t10:00:00+01:00") == upper);
  CHECK(parse("2026-11-30 10:00:00+01:00") == upper);
}

TEST_CASE("clock: a negative offset crossing midnight keeps the local date behind UTC") {
  const ClockReading now = parse("2026-11-30T23:30:00-01:00");
  CHECK(now.utc_offset_minutes() == -60);
  CHECK(now.local_date() == CivilDate{2026, 11, 30});
  CHECK(now.utc_rfc3339_millis() == "2026-12-01T00:30:00.000Z");
  CHECK(now.local_rfc3339() == "2026-11-30T23:30:00-01:00");
}

TEST_CASE("clock: a positive offset crossing midnight puts the local date ahead of UTC") {
  const ClockReading now = parse("2027-01-01T00:15:00+05:45");
  CHECK(now.utc_offset_minutes() == 345);
  CHECK(now.local_date() == CivilDate{2027, 1, 1});
  CHECK(now.utc_rfc3339_millis() == "2026-12-31T18:30:00.000Z");
  CHECK(now.local_rfc3339() == "2027-01-01T00:15:00+05:45");
}

TEST_CASE("clock: offsets up to 23:59 either way are accepted and printed back") {
  for (const std::string_view text :
       {"2026-03-01T00:00:00-09:30", "2026-03-01T00:00:00+14:00", "2026-03-01T00:00:00-12:00",
        "2026-03-01T00:00:00+23:59", "2026-03-01T00:00:00-23:59"}) {
    CAPTURE(text);
    const ClockReading now = parse(text);
    CHECK(now.local_rfc3339() == text);
    CHECK(now.local_date() == CivilDate{2026, 3, 1});
  }
  CHECK(parse("2026-03-01T00:00:00-23:59").utc_rfc3339_millis() == "2026-03-01T23:59:00.000Z");
  CHECK(parse("2026-03-01T00:00:00+23:59").utc_rfc3339_millis() == "2026-02-28T00:01:00.000Z");
}

TEST_CASE("clock: fractions keep milliseconds and truncate anything finer") {
  CHECK(parse("2026-11-30T09:00:00.5Z").unix_millis() == 1'796'029'200'500);
  CHECK(parse("2026-11-30T09:00:00.05Z").unix_millis() == 1'796'029'200'050);
  CHECK(parse("2026-11-30T09:00:00.123Z").unix_millis() == 1'796'029'200'123);
  CHECK(parse("2026-11-30T09:00:00.1239Z").unix_millis() == 1'796'029'200'123);
  CHECK(parse("2026-11-30T09:00:00.999999999999999999999Z").unix_millis() == 1'796'029'200'999);
  CHECK(parse("2026-11-30T09:00:00.000+01:00").unix_millis() == 1'796'025'600'000);
  const ClockReading now = parse("2026-11-30T10:00:00.250+01:00");
  CHECK(now.utc_rfc3339_millis() == "2026-11-30T09:00:00.250Z");
  CHECK(now.local_rfc3339() == "2026-11-30T10:00:00+01:00");  // milliseconds are dropped
}

TEST_CASE("clock: 1969 and fractions before the epoch read and print exactly") {
  CHECK(parse("1969-07-20T20:17:40Z").unix_millis() == -14'182'940'000);
  CHECK(parse("1969-12-31T23:59:59.5Z").unix_millis() == -500);
  CHECK(parse("1969-12-31T23:59:59.5Z").utc_rfc3339_millis() == "1969-12-31T23:59:59.500Z");
  CHECK(parse("1970-01-01T00:30:00+01:00").unix_millis() == -1'800'000);
  CHECK(parse("1970-01-01T00:30:00+01:00").local_date_iso() == "1970-01-01");
  CHECK(parse("1969-12-31T23:30:00-01:00").unix_millis() == 1'800'000);
  CHECK(parse("1969-12-31T23:30:00-01:00").local_date_iso() == "1969-12-31");
}

TEST_CASE("clock: leap days exist only in leap years") {
  CHECK(parse("2024-02-29T12:00:00Z").unix_millis() == 1'709'208'000'000);
  CHECK(parse("2000-02-29T00:00:00Z").local_date() == CivilDate{2000, 2, 29});
  CHECK(parse("1600-02-29T00:00:00Z").local_date() == CivilDate{1600, 2, 29});
  for (const std::string_view text :
       {"2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2100-02-29T00:00:00Z"}) {
    CAPTURE(text);
    CHECK_FALSE(ClockReading::parse_rfc3339(text).ok());
  }
}

TEST_CASE("clock: a time whose UTC instant leaves the years 0000-9999 is refused") {
  // Found by fuzz/clock_fuzz.cpp: the UTC spelling memkit stores would not read back.
  for (const std::string_view text : {"0000-01-01T00:00:00+01:01", "9999-12-31T23:59:59-00:01"}) {
    CAPTURE(text);
    const Result<ClockReading> reading = ClockReading::parse_rfc3339(text);
    REQUIRE_FALSE(reading);
    CHECK(reading.status().message() ==
          "--now: " + std::string(text) + ": outside the years 0000-9999 in UTC");
  }
  CHECK(parse("0000-01-01T01:01:00+01:01").utc_rfc3339_millis() == "0000-01-01T00:00:00.000Z");
  CHECK(parse("9999-12-31T23:59:59+00:00").utc_rfc3339_millis() == "9999-12-31T23:59:59.000Z");
}

TEST_CASE("clock: a timestamp without an offset is refused with its own message") {
  for (const std::string_view text : {"2026-11-30T10:00:00", "2026-11-30 10:00:00.250"}) {
    CAPTURE(text);
    const Result<ClockReading> now = ClockReading::parse_rfc3339(text);
    REQUIRE_FALSE(now.ok());
    CHECK(now.status().code() == Errc::invalid_argument);
    CHECK(now.status().message() == "--now: the time has no offset");
  }
  CHECK(ClockReading::parse_rfc3339("2026-11-30T10:00:00", "MEMKIT_NOW").status().message() ==
        "MEMKIT_NOW: the time has no offset");
}

TEST_CASE("clock: anything else that is not RFC 3339 is refused and quoted") {
  for (const std::string_view text : {
           "",
           "now",
           "2026-11-30",                  // no time
           "2026-11-30T10:00Z",           // no seconds
           "2026-11-30T10:00:00+0100",    // offset without a colon
           "2026-11-30T10:00:00+01",      // offset without minutes
           "2026-11-30T10:00:00+",        // a sign alone
           "2026-11-30T10:00:00 +01:00",  // space before the offset
           "2026-11-30T10:00:00.Z",       // a point without digits
           "2026-11-30T10:00:00,5Z",      // a comma is ISO 8601, not RFC 3339
           "26-11-30T10:00:00Z",          // two-digit year
           "+2026-11-30T10:00:00Z",       // signed year
           "2026-1-30T10:00:00Z",         // one-digit month
           "2026-11-30T1:00:00Z",         // one-digit hour
           "2026-11-30  10:00:00Z",       // two spaces
           "2026-11-30x10:00:00Z",        // unknown separator
           "2026-11-30T10:00:00ZZ",       // trailing characters
           "2026-11-30T10:00:00Z ",       // trailing space
           " 2026-11-30T10:00:00Z",       // leading space
           "2026-11-30T10:00:00UTC",      // a zone name
           "2026/11/30T10:00:00Z",        // slashes
           "2026-00-10T10:00:00Z",        // month 0
           "2026-13-10T10:00:00Z",        // month 13
           "2026-11-00T10:00:00Z",        // day 0
           "2026-11-31T10:00:00Z",        // November has 30 days
           "2026-11-30T24:00:00Z",        // hour 24
           "2026-11-30T10:60:00Z",        // minute 60
           "2026-11-30T10:00:61Z",        // second 61
           "2026-12-31T23:59:60Z",        // leap seconds are rejected
           "2026-11-30T10:00:00+24:00",   // offset beyond 23:59
           "2026-11-30T10:00:00+01:60",   // offset minute 60
           "\xef\xbc\x92\xef\xbc\x90\xef\xbc\x92\xef\xbc\x96-11-30T10:00:00Z",  // full-width digits
       }) {
    CAPTURE(text);
    const Result<ClockReading> now = ClockReading::parse_rfc3339(text);
    REQUIRE_FALSE(now.ok());
    CHECK(now.status().code() == Errc::invalid_argument);
    CHECK(now.status().message() == "--now: not an RFC 3339 timestamp: " + std::string(text));
  }
  CHECK(ClockReading::parse_rfc3339("soon", "MEMKIT_NOW").status().message() ==
        "MEMKIT_NOW: not an RFC 3339 timestamp: soon");
}

TEST_CASE("clock: a printed local time reads back as the same reading") {
  for (const std::string_view text :
       {"2026-11-30T10:00:00+01:00", "1969-12-31T23:59:59-00:01", "0000-01-01T00:00:00+00:00",
        "9999-12-31T23:59:59+23:59", "2400-02-29T12:34:56-07:00"}) {
    CAPTURE(text);
    const ClockReading now = parse(text);
    CHECK(now.local_rfc3339() == text);
    CHECK(parse(now.local_rfc3339()) == now);
    CHECK(ClockReading::create(now.unix_millis(), now.utc_offset_minutes()).value() == now);
  }
}

TEST_CASE("clock: create accepts offsets within -23:59..+23:59 only") {
  CHECK(ClockReading::create(0, 1439).ok());
  CHECK(ClockReading::create(0, -1439).ok());
  for (const std::int32_t offset : {1440, -1440, 100'000}) {
    CAPTURE(offset);
    const Result<ClockReading> now = ClockReading::create(0, offset);
    REQUIRE_FALSE(now.ok());
    CHECK(now.status().code() == Errc::invalid_argument);
  }
}

TEST_CASE("clock: the same instant under two offsets is two different readings") {
  const ClockReading utc = parse("2026-11-30T09:00:00Z");
  const ClockReading paris = parse("2026-11-30T10:00:00+01:00");
  CHECK(utc.unix_millis() == paris.unix_millis());
  CHECK_FALSE(utc == paris);
  CHECK(utc.utc_rfc3339_millis() == paris.utc_rfc3339_millis());
}

}  // namespace
}  // namespace memkit
