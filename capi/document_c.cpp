// Section - Document of memkit.h: parse bytes, walk the units, or read them as the CLI's JSON.
#include <string>

#include "capi/convert.hpp"
#include "capi/handles.hpp"
#include "guard.hpp"
#include "json/json.hpp"

extern "C" {

mk_status mk_document_parse(mk_document** out, const char* data, size_t size) {
  return memkit::capi::guard([&]() -> memkit::Status {
    if (out == nullptr) return memkit::Status(memkit::Errc::invalid_argument, "out: NULL");
    if (data == nullptr && size != 0) {
      return memkit::Status(memkit::Errc::invalid_argument, "data: NULL with a size");
    }
    std::string bytes = size == 0 ? std::string() : std::string(data, size);
    *out = new mk_document{memkit::parse_markdown(std::move(bytes))};
    return memkit::Status();
  });
}

void mk_document_destroy(mk_document* doc) { delete doc; }

uint64_t mk_document_unit_count(const mk_document* doc) {
  return doc == nullptr ? 0 : doc->doc.units().size();
}

mk_status mk_document_unit(mk_unit* out, const mk_document* doc, uint64_t index) {
  return memkit::capi::guard([&]() -> memkit::Status {
    if (out == nullptr) return memkit::Status(memkit::Errc::invalid_argument, "out: NULL");
    if (doc == nullptr) return memkit::Status(memkit::Errc::invalid_argument, "doc: NULL");
    const auto units = doc->doc.units();
    if (index >= units.size()) {
      return memkit::Status(
          memkit::Errc::invalid_argument,
          "index: " + std::to_string(index) + " is not below " + std::to_string(units.size()));
    }
    const memkit::Unit& unit = units[index];
    *out = mk_unit{static_cast<mk_unit_kind>(unit.kind),
                   unit.heading_level,
                   unit.first_line,
                   unit.last_line,
                   unit.begin,
                   unit.end};
    return memkit::Status();
  });
}

mk_status mk_document_json(mk_buf* out, const mk_document* doc) {
  return memkit::capi::guard([&]() -> memkit::Status {
    if (out == nullptr) return memkit::Status(memkit::Errc::invalid_argument, "out: NULL");
    if (doc == nullptr) return memkit::Status(memkit::Errc::invalid_argument, "doc: NULL");
    if (memkit::capi::fill_buffer(out, memkit::document_json(doc->doc)) != MK_OK) {
      return memkit::Status(memkit::Errc::out_of_memory, "out of memory");
    }
    return memkit::Status();
  });
}

}  // extern "C"
