// Snowball's stemmers through libstemmer, loaded with dlopen (snowball.hpp).
#include "stemming/snowball.hpp"

#include <dlfcn.h>

#include <mutex>
#include <optional>

namespace memkit {
namespace {

// libstemmer's C API (libstemmer.h), declared here so that building memkit needs no header of it.
struct sb_stemmer;
using ListFn = const char** (*)();
using NewFn = sb_stemmer* (*)(const char* algorithm, const char* encoding);
using DeleteFn = void (*)(sb_stemmer*);
using StemFn = const unsigned char* (*)(sb_stemmer*, const unsigned char* word, int size);
using LengthFn = int (*)(sb_stemmer*);

struct LibStemmer {
  ListFn list = nullptr;
  NewFn create = nullptr;
  DeleteFn destroy = nullptr;
  StemFn stem = nullptr;
  LengthFn length = nullptr;
};

Result<LibStemmer> open_libstemmer() {
  void* handle = ::dlopen("libstemmer.so.0d", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return Status(Errc::io, std::string("--stem: libstemmer cannot be loaded (") +
                                (why != nullptr ? why : "unknown reason") +
                                "); install it (Debian: libstemmer0d) to stem search terms");
  }
  LibStemmer lib;
  lib.list = reinterpret_cast<ListFn>(::dlsym(handle, "sb_stemmer_list"));
  lib.create = reinterpret_cast<NewFn>(::dlsym(handle, "sb_stemmer_new"));
  lib.destroy = reinterpret_cast<DeleteFn>(::dlsym(handle, "sb_stemmer_delete"));
  lib.stem = reinterpret_cast<StemFn>(::dlsym(handle, "sb_stemmer_stem"));
  lib.length = reinterpret_cast<LengthFn>(::dlsym(handle, "sb_stemmer_length"));
  if (lib.list == nullptr || lib.create == nullptr || lib.destroy == nullptr ||
      lib.stem == nullptr || lib.length == nullptr) {
    ::dlclose(handle);
    return Status(Errc::io, "--stem: libstemmer.so.0d lacks the sb_stemmer functions");
  }
  return lib;  // the handle stays open for the process's life
}

Result<const LibStemmer*> libstemmer() {
  static std::once_flag once;
  static std::optional<Result<LibStemmer>> loaded;
  std::call_once(once, [] { loaded = open_libstemmer(); });
  if (!*loaded) return loaded->status();
  return &**loaded;
}

// One libstemmer stemmer; a stemmer keeps state between calls, so calls take turns.
class Snowball final : public search::Stemmer {
 public:
  Snowball(const LibStemmer& lib, sb_stemmer* stemmer) : lib_(lib), stemmer_(stemmer) {}
  ~Snowball() override { lib_.destroy(stemmer_); }
  Snowball(const Snowball&) = delete;
  Snowball& operator=(const Snowball&) = delete;

  void stem(std::string& term) const override {
    const std::lock_guard<std::mutex> taken(mutex_);
    const unsigned char* out = lib_.stem(
        stemmer_, reinterpret_cast<const unsigned char*>(term.data()),  // NOLINT: C API
        static_cast<int>(term.size()));
    if (out == nullptr) return;  // out of memory in libstemmer: the term as it is
    term.assign(reinterpret_cast<const char*>(out),  // NOLINT: C API
                static_cast<std::size_t>(lib_.length(stemmer_)));
  }

 private:
  const LibStemmer& lib_;
  sb_stemmer* stemmer_;
  mutable std::mutex mutex_;
};

}  // namespace

Result<std::shared_ptr<const search::Stemmer>> load_snowball(std::string_view language,
                                                             std::string_view option) {
  const Result<const LibStemmer*> lib = libstemmer();
  if (!lib) return lib.status();
  std::string known;
  bool found = false;
  for (const char** name = (*lib)->list(); *name != nullptr; ++name) {
    known += (known.empty() ? "" : ", ") + std::string(*name);
    found = found || language == *name;
  }
  if (!found) {
    return Status(Errc::invalid_argument, std::string(option) + ": unknown language '" +
                                              std::string(language) + "'; one of: " + known);
  }
  sb_stemmer* stemmer = (*lib)->create(std::string(language).c_str(), "UTF_8");
  if (stemmer == nullptr) {
    return Status(Errc::io, std::string(option) + ": libstemmer has no UTF-8 stemmer for '" +
                                std::string(language) + "'");
  }
  return std::shared_ptr<const search::Stemmer>(std::make_shared<Snowball>(**lib, stemmer));
}

}  // namespace memkit
