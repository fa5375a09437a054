// Lenient RFC 4180 CSV (tiers3.md §10): records end in order inside the bytes, the last at the
// end; a scan that keeps fewer fields or stops early finds the same records; csv_head's prefix
// ends where a record ends; a data entry's counts match the parse.
#include <string>

#include "fuzz_support.hpp"
#include "memkit/clock.hpp"
#include "memkit/tiers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view csv = memkit::fuzz::as_text(data, size);
  const memkit::tiers::CsvParse all = memkit::tiers::parse_csv(csv);
  std::size_t at = 0;
  for (const memkit::tiers::CsvRecord& record : all.records) {
    MEMKIT_FUZZ_CHECK(record.end > at && record.end <= csv.size());
    at = record.end;
  }
  // After the last record only blank lines remain (they are no records), or a BOM alone.
  const std::string_view rest = csv.substr(at);
  MEMKIT_FUZZ_CHECK(all.unterminated_line || rest.find_first_not_of("\r\n") == std::string_view::npos ||
                    (at == 0 && rest.starts_with("\xEF\xBB\xBF") &&
                     rest.find_first_not_of("\r\n", 3) == std::string_view::npos));
  const memkit::tiers::CsvParse header = memkit::tiers::parse_csv(csv, {.fields_of = 1});
  MEMKIT_FUZZ_CHECK(header.records.size() == all.records.size());
  MEMKIT_FUZZ_CHECK(header.unterminated_line == all.unterminated_line);
  for (std::size_t i = 0; i < header.records.size(); ++i) {
    MEMKIT_FUZZ_CHECK(header.records[i].end == all.records[i].end);
    MEMKIT_FUZZ_CHECK(i > 0 ? header.records[i].fields.empty()
                            : header.records[i].fields == all.records[i].fields);
  }
  const memkit::tiers::CsvParse two = memkit::tiers::parse_csv(csv, {.max_records = 2});
  MEMKIT_FUZZ_CHECK(two.records.size() <= 2);
  for (std::size_t i = 0; i < two.records.size(); ++i) {
    MEMKIT_FUZZ_CHECK(two.records[i].end == all.records[i].end);
  }
  bool truncated = false;
  const std::string head = memkit::tiers::csv_head(csv, 1, truncated);
  MEMKIT_FUZZ_CHECK(csv.starts_with(head));
  const memkit::Result<memkit::ClockReading> now =
      memkit::ClockReading::create(1'795'000'000'000, 60);
  const memkit::tiers::DataEntry entry = memkit::tiers::data_entry("d", csv, header, *now);
  MEMKIT_FUZZ_CHECK(entry.size_bytes == csv.size());
  return 0;
}
