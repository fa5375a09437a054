// Snowball's stemmers (issue 28, `--stem LANGUAGE`): Debian's libstemmer (libstemmer.so.0d),
// loaded when a search first asks for one, so that nothing else needs it to start. Shell: it
// loads a library; the search module only sees a search::Stemmer.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "memkit/result.hpp"
#include "memkit/search.hpp"

namespace memkit {

// The stemmer of `language` ("english", "french", ... as libstemmer names its algorithms).
// Fails with Errc::invalid_argument naming `option` ("--stem: unknown language 'klingon'; one of:
// ...") for a language libstemmer lacks, and Errc::io when libstemmer cannot be loaded (install
// Debian's libstemmer0d). Safe to use from several threads.
[[nodiscard]] Result<std::shared_ptr<const search::Stemmer>> load_snowball(std::string_view language,
                                                                           std::string_view option);

}  // namespace memkit
