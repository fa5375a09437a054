// Clock strings (README "Global options"): an RFC 3339 reading that parses prints as RFC 3339
// that parses back to the same instant and offset; ISO dates read back as they print; a stamp
// is_utc_millis exactly when it is its own UTC spelling.
#include <cstdio>
#include <string>

#include "fuzz_support.hpp"
#include "memkit/clock.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = memkit::fuzz::as_text(data, size);
  if (const memkit::Result<memkit::ClockReading> reading =
          memkit::ClockReading::parse_rfc3339(text, "--now")) {
    const std::string utc = reading->utc_rfc3339_millis();
    const memkit::Result<memkit::ClockReading> from_utc = memkit::ClockReading::parse_rfc3339(utc);
    MEMKIT_FUZZ_CHECK(from_utc && from_utc->unix_millis() == reading->unix_millis());
    MEMKIT_FUZZ_CHECK(memkit::is_utc_millis(utc));
    const memkit::Result<memkit::ClockReading> from_local =
        memkit::ClockReading::parse_rfc3339(reading->local_rfc3339());
    // local_rfc3339 prints whole seconds: the same offset, the instant to the second.
    MEMKIT_FUZZ_CHECK(from_local &&
                      from_local->utc_offset_minutes() == reading->utc_offset_minutes());
    const std::int64_t cut = reading->unix_millis() - from_local->unix_millis();
    MEMKIT_FUZZ_CHECK(cut >= 0 && cut < 1000);
    const memkit::CivilDate local = reading->local_date();
    const std::optional<memkit::CivilDate> date = memkit::parse_iso_date(reading->local_date_iso());
    MEMKIT_FUZZ_CHECK(!date || *date == local);
    (void)reading->local_date_time();
    (void)reading->local_naive_millis();
  }
  if (const std::optional<memkit::CivilDate> date = memkit::parse_iso_date(text)) {
    char printed[32];
    std::snprintf(printed, sizeof printed, "%04d-%02u-%02u", static_cast<int>(date->year),
                  static_cast<unsigned>(date->month), static_cast<unsigned>(date->day));
    MEMKIT_FUZZ_CHECK(std::string_view(printed) == text);
    (void)memkit::days_between(*date, memkit::CivilDate{2026, 11, 30});
    (void)memkit::naive_millis(*date, 12);
  }
  (void)memkit::is_utc_millis(text);
  return 0;
}
