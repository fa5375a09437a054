// The real Markdown corpora as one benchmark input: every *.md file under $MEMKIT_CORPORA_DIR
// (for example /work/shared/corpora), read once, before any timing starts.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace memkit::bench {

struct Corpus {
  std::shared_ptr<const std::string> bytes;  // null when unavailable; then `error` says why
  std::size_t files = 0;
  std::string error;
};

// Returns the concatenation of every *.md file under $MEMKIT_CORPORA_DIR, searched recursively
// and joined in path order so the buffer is the same on every run. A file that does not end in
// LF gets one, so no line runs into the next file's first line. Loaded on first use and kept for
// the life of the process.
[[nodiscard]] const Corpus& corpus_from_environment();

}  // namespace memkit::bench
