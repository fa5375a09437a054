#include "memkit/clock.hpp"

#include <charconv>
#include <string>

namespace memkit {
namespace {

constexpr std::int64_t kMillisPerMinute = 60'000;
constexpr std::int64_t kMinutesPerDay = 1'440;
constexpr std::int32_t kMaxOffsetMinutes = 23 * 60 + 59;

// Rounds toward negative infinity, so instants before 1970 land on the day and second they
// belong to instead of the one after (C++ division truncates toward zero).
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept {
  const std::int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

// The remainder that goes with floor_div, in [0, b) for b > 0. Computed from %, not as
// a - floor_div(a, b) * b, because that product overflows near INT64_MIN.
constexpr std::int64_t floor_mod(std::int64_t a, std::int64_t b) noexcept {
  const std::int64_t r = a % b;
  return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
}

constexpr bool is_leap_year(std::int64_t year) noexcept {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

constexpr int days_in_month(std::int64_t year, int month) noexcept {
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap_year(year) ? 29 : kDays[month - 1];
}

// Howard Hinnant's days_from_civil (proleptic Gregorian calendar): counting in 400-year eras
// that start on March 1 puts the leap day last, so every era has the same shape.
// REQUIRES: 1 <= month <= 12, 1 <= day <= days_in_month(year, month).
constexpr std::int64_t days_from_civil(std::int64_t year, int month, int day) noexcept {
  const std::int64_t y = month <= 2 ? year - 1 : year;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t year_of_era = y - era * 400;                               // [0, 399]
  const std::int64_t month_from_march = month > 2 ? month - 3 : month + 9;      // [0, 11]
  const std::int64_t day_of_year = (153 * month_from_march + 2) / 5 + day - 1;  // [0, 365]
  const std::int64_t day_of_era =
      year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;  // [0, 146096]
  return era * 146097 + day_of_era - 719468;  // 719468 days from 0000-03-01 to 1970-01-01
}

struct Civil {
  std::int64_t year;
  int month;
  int day;
};

// Howard Hinnant's civil_from_days, the inverse of days_from_civil.
constexpr Civil civil_from_days(std::int64_t days_since_epoch) noexcept {
  const std::int64_t z = days_since_epoch + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t day_of_era = z - era * 146097;  // [0, 146096]
  const std::int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const std::int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);  // [0, 365]
  const std::int64_t month_from_march = (5 * day_of_year + 2) / 153;           // [0, 11]
  const int day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  const int month =
      static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  const std::int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  return Civil{year, month, day};
}

static_assert(days_from_civil(1970, 1, 1) == 0);
static_assert(days_from_civil(2000, 3, 1) == 11017);
static_assert(days_from_civil(1969, 12, 31) == -1);
static_assert(civil_from_days(-1).year == 1969 && civil_from_days(-1).day == 31);

// A reading split into the local calendar day and the milliseconds into it.
struct LocalTime {
  Civil date;
  std::int64_t millis_of_day;  // [0, 86'399'999]
};

// Works in whole minutes first, so no unix_millis, however extreme, overflows when the offset is
// added: the offset is a whole number of minutes and only shifts the minute count.
LocalTime to_local_time(std::int64_t unix_millis, std::int32_t offset_minutes) noexcept {
  const std::int64_t utc_minutes = floor_div(unix_millis, kMillisPerMinute);
  const std::int64_t millis_of_minute = floor_mod(unix_millis, kMillisPerMinute);
  const std::int64_t local_minutes = utc_minutes + offset_minutes;
  const std::int64_t days = floor_div(local_minutes, kMinutesPerDay);
  const std::int64_t minute_of_day = floor_mod(local_minutes, kMinutesPerDay);
  return LocalTime{civil_from_days(days), minute_of_day * kMillisPerMinute + millis_of_minute};
}

void append_padded(std::string& out, std::int64_t value, int width) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  static_cast<void>(ec);  // 24 characters hold every int64_t
  const auto length = static_cast<int>(end - digits);
  out.append(static_cast<std::size_t>(width > length ? width - length : 0), '0');
  out.append(digits, end);
}

// RFC 3339 has only four-digit years; outside 0000..9999 this falls back to the ISO 8601
// expanded form (a sign and at least four digits) rather than printing a misleading date.
void append_date(std::string& out, const Civil& date) {
  if (date.year < 0) {
    out += '-';
    append_padded(out, -date.year, 4);
  } else {
    if (date.year > 9999) out += '+';
    append_padded(out, date.year, 4);
  }
  out += '-';
  append_padded(out, date.month, 2);
  out += '-';
  append_padded(out, date.day, 2);
}

void append_time_of_day(std::string& out, std::int64_t millis_of_day) {
  const std::int64_t seconds_of_day = millis_of_day / 1000;
  append_padded(out, seconds_of_day / 3600, 2);
  out += ':';
  append_padded(out, seconds_of_day / 60 % 60, 2);
  out += ':';
  append_padded(out, seconds_of_day % 60, 2);
}

// A cursor over the timestamp text; every read fails softly so the parser reads as the grammar.
class Scanner {
 public:
  explicit Scanner(std::string_view text) noexcept : text_(text) {}

  [[nodiscard]] bool at_end() const noexcept { return pos_ == text_.size(); }
  [[nodiscard]] char peek() const noexcept { return at_end() ? '\0' : text_[pos_]; }

  // Returns true iff the next character is one of `choices`; consumes it then.
  bool accept_any(std::string_view choices) noexcept {
    if (at_end() || choices.find(text_[pos_]) == std::string_view::npos) return false;
    ++pos_;
    return true;
  }

  // Returns true iff exactly `count` digits follow; stores their value and consumes them.
  bool read_digits(int count, int& value) noexcept {
    int result = 0;
    for (int i = 0; i < count; ++i) {
      if (!is_digit(peek())) return false;
      result = result * 10 + (text_[pos_++] - '0');
    }
    value = result;
    return true;
  }

  // Reads a fraction of a second of one or more digits, truncated to milliseconds.
  bool read_fraction_millis(int& millis) noexcept {
    if (!is_digit(peek())) return false;
    int result = 0;
    int kept = 0;
    for (; is_digit(peek()); ++pos_) {
      if (kept < 3) {
        result = result * 10 + (text_[pos_] - '0');
        ++kept;
      }
    }
    for (; kept < 3; ++kept) result *= 10;
    millis = result;
    return true;
  }

 private:
  static bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

  std::string_view text_;
  std::size_t pos_ = 0;
};

Status not_a_timestamp(std::string_view text, std::string_view what) {
  std::string message(what);
  message += ": not an RFC 3339 timestamp: ";
  message += text;
  return Status(Errc::invalid_argument, std::move(message));
}

}  // namespace

std::optional<CivilDate> parse_iso_date(std::string_view text) noexcept {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  int value[3] = {0, 0, 0};
  const int starts[3] = {0, 5, 8};
  const int widths[3] = {4, 2, 2};
  for (int part = 0; part < 3; ++part) {
    for (int k = 0; k < widths[part]; ++k) {
      const char c = text[static_cast<std::size_t>(starts[part] + k)];
      if (c < '0' || c > '9') return std::nullopt;
      value[part] = value[part] * 10 + (c - '0');
    }
  }
  if (value[1] < 1 || value[1] > 12 || value[2] < 1 ||
      value[2] > days_in_month(value[0], value[1])) {
    return std::nullopt;
  }
  return CivilDate{value[0], static_cast<std::uint8_t>(value[1]),
                   static_cast<std::uint8_t>(value[2])};
}

std::int64_t days_between(const CivilDate& from, const CivilDate& to) noexcept {
  return days_from_civil(to.year, to.month, to.day) -
         days_from_civil(from.year, from.month, from.day);
}

Result<ClockReading> ClockReading::create(std::int64_t unix_millis,
                                          std::int32_t utc_offset_minutes) {
  if (utc_offset_minutes < -kMaxOffsetMinutes || utc_offset_minutes > kMaxOffsetMinutes) {
    return Status(Errc::invalid_argument, "UTC offset of " + std::to_string(utc_offset_minutes) +
                                              " minutes is outside -23:59..+23:59");
  }
  return ClockReading(unix_millis, utc_offset_minutes);
}

// RFC 3339 §5.6 date-time, with the lower-case and space separators §5.6 allows. A leap second
// (:60) is rejected: a Unix instant has no place for it, and a fixed --now never needs one.
Result<ClockReading> ClockReading::parse_rfc3339(std::string_view text, std::string_view what) {
  Scanner in(text);
  int year = 0;
  int month = 0;
  int day = 0;
  int hour = 0;
  int minute = 0;
  int second = 0;
  int millis = 0;
  const bool date_ok = in.read_digits(4, year) && in.accept_any("-") && in.read_digits(2, month) &&
                       in.accept_any("-") && in.read_digits(2, day) && month >= 1 && month <= 12 &&
                       day >= 1 && day <= days_in_month(year, month);
  const bool time_ok = date_ok && in.accept_any("Tt ") && in.read_digits(2, hour) &&
                       in.accept_any(":") && in.read_digits(2, minute) && in.accept_any(":") &&
                       in.read_digits(2, second) && hour <= 23 && minute <= 59 && second <= 59;
  if (!time_ok) return not_a_timestamp(text, what);
  if (in.accept_any(".") && !in.read_fraction_millis(millis)) return not_a_timestamp(text, what);
  if (in.at_end()) {
    return Status(Errc::invalid_argument, std::string(what) + ": the time has no offset");
  }

  int offset_minutes = 0;
  if (!in.accept_any("Zz")) {
    const bool east = in.peek() == '+';
    int offset_hour = 0;
    int offset_minute = 0;
    const bool offset_ok = in.accept_any("+-") && in.read_digits(2, offset_hour) &&
                           in.accept_any(":") && in.read_digits(2, offset_minute) &&
                           offset_hour <= 23 && offset_minute <= 59;
    if (!offset_ok) return not_a_timestamp(text, what);
    // "-00:00" (RFC 3339 §4.3: UTC known, local offset unknown) reads as UTC.
    offset_minutes = (east ? 1 : -1) * (offset_hour * 60 + offset_minute);
  }
  if (!in.at_end()) return not_a_timestamp(text, what);

  const std::int64_t local_seconds =
      days_from_civil(year, month, day) * 86'400 + hour * 3'600 + minute * 60 + second;
  const std::int64_t utc_millis =
      (local_seconds - std::int64_t{offset_minutes} * 60) * 1'000 + millis;
  // memkit stores the UTC spelling (utc_rfc3339_millis), which has four digits of year: a local
  // time in year 0000 or 9999 whose offset carries it out of those years could not be read back.
  const std::int64_t utc_year = to_local_time(utc_millis, 0).date.year;
  if (utc_year < 0 || utc_year > 9999) {
    return Status(Errc::invalid_argument, std::string(what) + ": " + std::string(text) +
                                              ": outside the years 0000-9999 in UTC");
  }
  return ClockReading(utc_millis, offset_minutes);
}

CivilDate ClockReading::local_date() const noexcept {
  const Civil date = to_local_time(unix_millis_, offset_minutes_).date;
  // Every int64_t millisecond count lies within +-292 million years, which fits an int32_t.
  return CivilDate{static_cast<std::int32_t>(date.year), static_cast<std::uint8_t>(date.month),
                   static_cast<std::uint8_t>(date.day)};
}

LocalDateTime ClockReading::local_date_time() const noexcept {
  const LocalTime local = to_local_time(unix_millis_, offset_minutes_);
  const std::int64_t seconds = local.millis_of_day / 1000;
  return LocalDateTime{local_date(), static_cast<std::uint8_t>(seconds / 3600),
                       static_cast<std::uint8_t>(seconds / 60 % 60),
                       static_cast<std::uint8_t>(seconds % 60)};
}

std::int64_t ClockReading::local_naive_millis() const noexcept {
  const LocalTime local = to_local_time(unix_millis_, offset_minutes_);
  // Saturates rather than overflowing at the ends of the int64_t range.
  std::int64_t day_millis = 0;
  std::int64_t total = 0;
  if (__builtin_mul_overflow(days_from_civil(local.date.year, local.date.month, local.date.day),
                             std::int64_t{86'400'000}, &day_millis) ||
      __builtin_add_overflow(day_millis, local.millis_of_day, &total)) {
    return unix_millis_ < 0 ? INT64_MIN : INT64_MAX;
  }
  return total;
}

std::int64_t naive_millis(const CivilDate& date, int hour) noexcept {
  return days_from_civil(date.year, date.month, date.day) * 86'400'000 +
         std::int64_t{hour} * 3'600'000;
}

std::string ClockReading::local_date_iso() const {
  std::string out;
  append_date(out, to_local_time(unix_millis_, offset_minutes_).date);
  return out;
}

std::string ClockReading::utc_rfc3339_millis() const {
  const LocalTime utc = to_local_time(unix_millis_, 0);
  std::string out;
  append_date(out, utc.date);
  out += 'T';
  append_time_of_day(out, utc.millis_of_day);
  out += '.';
  append_padded(out, utc.millis_of_day % 1000, 3);
  out += 'Z';
  return out;
}

std::string ClockReading::local_rfc3339() const {
  const LocalTime local = to_local_time(unix_millis_, offset_minutes_);
  std::string out;
  append_date(out, local.date);
  out += 'T';
  append_time_of_day(out, local.millis_of_day);
  const std::int32_t magnitude = offset_minutes_ < 0 ? -offset_minutes_ : offset_minutes_;
  out += offset_minutes_ < 0 ? '-' : '+';
  append_padded(out, magnitude / 60, 2);
  out += ':';
  append_padded(out, magnitude % 60, 2);
  return out;
}

bool is_utc_millis(std::string_view text) {
  if (text.size() != 24 || text.back() != 'Z') return false;
  const Result<ClockReading> reading = ClockReading::parse_rfc3339(text, "time");
  return reading && reading->utc_rfc3339_millis() == text;
}

}  // namespace memkit
