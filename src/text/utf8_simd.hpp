// A vectorised UTF-8 validator (the lookup algorithm of Keiser and Lemire, "Validating UTF-8 In
// Less Than One Instruction Per Byte", 2021) that the scalar find_invalid_utf8 uses to skip the
// valid prefix of mixed-script text at memory speed.
#pragma once

#include <cstddef>

namespace memkit::detail {

// Returns an offset t such that bytes [0, t) hold only complete, well-formed sequences and no
// sequence starting before t is left incomplete at t. Validation continues from t with the scalar
// decoder, which finds the exact offset of any error. Returns 0 where no vector unit is available.
[[nodiscard]] std::size_t valid_utf8_prefix(const unsigned char* p, std::size_t n) noexcept;

}  // namespace memkit::detail
