// Reading the corpora happens here, in the benchmark programs' shell, and never inside a timed
// loop: the benchmarks time the pure core on bytes already in memory (STYLE BM1).
#include "corpus.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

namespace memkit::bench {
namespace {

Corpus load_corpus() {
  Corpus corpus;
  const char* dir = std::getenv("MEMKIT_CORPORA_DIR");
  if (dir == nullptr || *dir == '\0') {
    corpus.error = "MEMKIT_CORPORA_DIR is not set (point it at a folder of Markdown files)";
    return corpus;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> paths;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".md") paths.push_back(it->path());
  }
  if (ec) {
    corpus.error = "cannot list MEMKIT_CORPORA_DIR=" + std::string(dir) + ": " + ec.message();
    return corpus;
  }
  if (paths.empty()) {
    corpus.error = "no *.md file under MEMKIT_CORPORA_DIR=" + std::string(dir);
    return corpus;
  }
  std::sort(paths.begin(), paths.end());
  std::string bytes;
  for (const fs::path& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      corpus.error = "cannot read " + path.string();
      return corpus;
    }
    bytes.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!bytes.empty() && bytes.back() != '\n') bytes.push_back('\n');
  }
  corpus.files = paths.size();
  corpus.bytes = std::make_shared<const std::string>(std::move(bytes));
  return corpus;
}

}  // namespace

const Corpus& corpus_from_environment() {
  static const Corpus corpus = load_corpus();  // thread-safe initialisation, read once
  return corpus;
}

}  // namespace memkit::bench
