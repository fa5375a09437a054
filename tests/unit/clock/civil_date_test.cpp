// Instants to calendar dates: the proleptic Gregorian calendar, before and after 1970, with the
// UTC offset applied (spec README.md "Global options" --now).
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "memkit/clock.hpp"

namespace memkit {
namespace {

constexpr std::int64_t kMillisPerDay = 86'400'000;

ClockReading reading(std::int64_t unix_millis, std::int32_t offset_minutes = 0) {
  return ClockReading::create(unix_millis, offset_minutes).value();
}

TEST_CASE("clock: the Unix epoch is 1970-01-01 UTC") {
  CHECK(reading(0).local_date() == CivilDate{1970, 1, 1});
  CHECK(reading(0).local_date_iso() == "1970-01-01");
  CHECK(reading(0).utc_rfc3339_millis() == "1970-01-01T00:00:00.000Z");
}

TEST_CASE("clock: one millisecond before the epoch is still 1969, not 1970") {
  // Truncating division would put -1 ms at 1970-01-01T00:00:00; floor division puts it last.
  CHECK(reading(-1).local_date() == CivilDate{1969, 12, 31});
  CHECK(reading(-1).utc_rfc3339_millis() == "1969-12-31T23:59:59.999Z");
  CHECK(reading(-1).local_rfc3339() == "1969-12-31T23:59:59+00:00");
  CHECK(reading(-kMillisPerDay).local_date_iso() == "1969-12-31");
  CHECK(reading(-kMillisPerDay - 1).local_date_iso() == "1969-12-30");
}

TEST_CASE("clock: dates in 1969 and earlier convert exactly") {
  // The Apollo 11 landing, a widely published Unix time.
  CHECK(reading(-14'182'940'000).utc_rfc3339_millis() == "1969-07-20T20:17:40.000Z");
  CHECK(reading(-2'203'891'200'000).local_date() == CivilDate{1900, 3, 1});
  CHECK(reading(-62'135'596'800'000).local_date_iso() == "0001-01-01");
  CHECK(reading(-62'167'219'200'000).local_date_iso() == "0000-01-01");
}

TEST_CASE("clock: leap years follow the 4, 100 and 400 year rules") {
  // 2000 is a leap year (divisible by 400), so 2000-02-29 exists and March starts a day later.
  CHECK(reading(951'868'800'000 - kMillisPerDay).local_date() == CivilDate{2000, 2, 29});
  CHECK(reading(951'868'800'000).local_date() == CivilDate{2000, 3, 1});
  // 1900 is not (divisible by 100 only): the day before 1900-03-01 is 02-28.
  CHECK(reading(-2'203'891'200'000 - kMillisPerDay).local_date() == CivilDate{1900, 2, 28});
  CHECK(reading(1'709'208'000'000).local_date() == CivilDate{2024, 2, 29});
  CHECK(reading(1'709'208'000'000 + kMillisPerDay).local_date() == CivilDate{2024, 3, 1});
}

TEST_CASE("clock: every day from 0001-01-01 to 4000-12-31 follows the one before it") {
  // A naive calendar walk checks the closed-form conversion day by day, across 400-year eras,
  // century years and leap days.
  const auto days_in_month = [](int y, int m) {
    constexpr int kLengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    return m == 2 && leap ? 29 : kLengths[m - 1];
  };
  int year = 1;
  int month = 1;
  int day = 1;
  std::int64_t days_since_epoch = -719'162;  // 0001-01-01
  for (; year <= 4000; ++days_since_epoch) {
    const CivilDate expected{year, static_cast<std::uint8_t>(month),
                             static_cast<std::uint8_t>(day)};
    // Noon, shifted by -12:00 and +12:00, still lands on the same date.
    const std::int64_t noon = days_since_epoch * kMillisPerDay + kMillisPerDay / 2;
    if (!(reading(noon).local_date() == expected && reading(noon, -720).local_date() == expected &&
          reading(noon - 1, 720).local_date() == expected)) {
      FAIL("day " << days_since_epoch << " should be " << year << "-" << month << "-" << day);
    }
    if (++day > days_in_month(year, month)) {
      day = 1;
      if (++month > 12) {
        month = 1;
        ++year;
      }
    }
  }
  CHECK(days_since_epoch == 741'808);  // 4001-01-01
}

TEST_CASE("clock: the offset decides the local date near midnight") {
  // 2026-11-30T23:30:00Z
  const std::int64_t late = 1'796'081'400'000;
  CHECK(reading(late, 0).local_date_iso() == "2026-11-30");
  CHECK(reading(late, 30).local_date_iso() == "2026-12-01");
  CHECK(reading(late, 29).local_date_iso() == "2026-11-30");
  CHECK(reading(late, -23 * 60 - 30).local_rfc3339() == "2026-11-30T00:00:00-23:30");
  CHECK(reading(late, -23 * 60 - 31).local_rfc3339() == "2026-11-29T23:59:00-23:31");
  CHECK(reading(late + kMillisPerDay / 24, -60).local_date_iso() == "2026-11-30");
  CHECK(reading(late + kMillisPerDay / 24, -29).local_date_iso() == "2026-12-01");
  // Around the epoch a negative offset reaches back into 1969.
  CHECK(reading(0, -1).local_date() == CivilDate{1969, 12, 31});
  CHECK(reading(0, -1).local_rfc3339() == "1969-12-31T23:59:00-00:01");
}

TEST_CASE("clock: the extreme 64-bit instants convert without overflow") {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  // The same values Java's Instant.ofEpochMilli prints for Long.MAX_VALUE and MIN_VALUE.
  CHECK(reading(kMax).utc_rfc3339_millis() == "+292278994-08-17T07:12:55.807Z");
  CHECK(reading(kMin).utc_rfc3339_millis() == "-292275055-05-16T16:47:04.192Z");
  CHECK(reading(kMax, 23 * 60 + 59).local_rfc3339() == "+292278994-08-18T07:11:55+23:59");
  CHECK(reading(kMin, -23 * 60 - 59).local_rfc3339() == "-292275055-05-15T16:48:04-23:59");
  CHECK(reading(kMin, -23 * 60 - 59).local_date() == CivilDate{-292275055, 5, 15});
}

TEST_CASE("clock: local_date_time is the local wall time to the second") {
  // 2026-03-07T08:35:09.999Z at +05:30: 14:05:09 local; the milliseconds are cut, not rounded.
  const ClockReading now = reading(1'772'872'509'999, 330);
  CHECK(now.local_date_time() == LocalDateTime{CivilDate{2026, 3, 7}, 14, 5, 9});
  CHECK(now.local_date_time().date == now.local_date());
  // A negative offset moves the wall time back across midnight, and the date with it.
  CHECK(reading(1'772'841'600'000, -60).local_date_time() ==
        LocalDateTime{CivilDate{2026, 3, 6}, 23, 0, 0});
  // The last millisecond before the epoch, and the epoch itself.
  CHECK(reading(-1).local_date_time() == LocalDateTime{CivilDate{1969, 12, 31}, 23, 59, 59});
  CHECK(reading(0).local_date_time() == LocalDateTime{CivilDate{1970, 1, 1}, 0, 0, 0});
  CHECK_FALSE(reading(0).local_date_time() == reading(1000).local_date_time());
}

TEST_CASE("clock: naive_millis counts from 1970-01-01 00:00 on a clock without zones") {
  CHECK(naive_millis(CivilDate{1970, 1, 1}) == 0);
  CHECK(naive_millis(CivilDate{1970, 1, 1}, 23) == 23 * 3'600'000);
  CHECK(naive_millis(CivilDate{1970, 1, 2}) == kMillisPerDay);
  CHECK(naive_millis(CivilDate{1969, 12, 31}, 23) == -3'600'000);
  CHECK(naive_millis(CivilDate{2026, 3, 7}, 14) == 1'772'892'000'000);
  // A leap day lies between 2024-02-28 and 2024-03-01.
  CHECK(naive_millis(CivilDate{2024, 3, 1}) - naive_millis(CivilDate{2024, 2, 28}) ==
        2 * kMillisPerDay);
  CHECK(naive_millis(CivilDate{0, 1, 1}) == -62'167'219'200'000);
}

TEST_CASE("clock: local_naive_millis is the local wall time on naive_millis' clock") {
  // 14:05:09.250 local at +05:30, -08:00 and UTC all read the same on the naive clock.
  const std::int64_t wall = naive_millis(CivilDate{2026, 3, 7}, 14) + 5 * 60'000 + 9'250;
  CHECK(reading(1'772'872'509'250, 330).local_naive_millis() == wall);
  CHECK(reading(1'772'921'109'250, -480).local_naive_millis() == wall);
  CHECK(reading(1'772'892'309'250).local_naive_millis() == wall);
  CHECK(reading(-1).local_naive_millis() == -1);
  CHECK(reading(0, -1).local_naive_millis() == -60'000);
  // 00:00 UTC at +01:00 is 01:00 local: the hour naive_millis() gives for that local date.
  CHECK(reading(1'772'841'600'000, 60).local_naive_millis() ==
        naive_millis(CivilDate{2026, 3, 7}, 1));
}

TEST_CASE("clock: local_naive_millis does not wrap at the ends of the 64-bit range") {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  CHECK(reading(kMax).local_naive_millis() == kMax);
  CHECK(reading(kMin).local_naive_millis() == kMin);
  CHECK(reading(kMax - 60'000, 1).local_naive_millis() == kMax);
  CHECK(reading(kMax, 60).local_naive_millis() == kMax);
  CHECK(reading(kMin, -60).local_naive_millis() == kMin);
  CHECK(reading(kMax, -60).local_naive_millis() == kMax - 3'600'000);
}

}  // namespace
}  // namespace memkit
