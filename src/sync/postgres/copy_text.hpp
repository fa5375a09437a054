// COPY's text format (PostgreSQL manual, "COPY", File Formats): how the adapter sends rows.
#pragma once

#include <string>
#include <string_view>

namespace memkit::detail::pg {

// Appends `text` as one field: backslash, tab, LF and CR (the escape character, the column
// delimiter and the two row ends) as \\, \t, \n and \r; every other byte as it is.
// REQUIRES: `text` holds no NUL byte (text columns cannot store one).
void append_copy_field(std::string& out, std::string_view text);

// Appends the field that COPY reads as SQL NULL.
inline void append_copy_null(std::string& out) { out += "\\N"; }

}  // namespace memkit::detail::pg
