// SHA-256 is OpenSSL's, loaded when first used (dlopen of libcrypto.so.3, the soname of every
// OpenSSL 3) instead of when a program starts. Linked, libcrypto cost every start of `memkit`
// about 3 ms (some 120 page faults and its initialisation on a VM whose faults are slow), and
// most commands never hash with SHA-256: reports, sync, reads. The header gives the functions'
// types only; XXH3 is linked as usual.
#include "memkit/digest.hpp"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <xxhash.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

namespace memkit {

namespace {

constexpr const char* kCryptoName = "libcrypto.so.3";

// Every libcrypto function SHA-256 calls.
// clang-format off
#define MEMKIT_CRYPTO_FUNCTIONS(X)                                                               \
  X(EVP_MD_fetch) X(EVP_MD_CTX_new) X(EVP_MD_CTX_free) X(EVP_DigestInit_ex2)                     \
  X(EVP_DigestUpdate) X(EVP_DigestFinal_ex)
// clang-format on

// libcrypto's functions and its SHA-256, fetched from OpenSSL's provider once: EVP_sha256() with
// EVP_Digest fetches it again on every call, which costs more than hashing an entry (sync hashed
// 100,000 of them per command).
struct Crypto {
#define MEMKIT_CRYPTO_MEMBER(name) decltype(&::name) name = nullptr;
  MEMKIT_CRYPTO_FUNCTIONS(MEMKIT_CRYPTO_MEMBER)
#undef MEMKIT_CRYPTO_MEMBER
  EVP_MD* sha256 = nullptr;
};

// An installation without a working OpenSSL 3 (no libcrypto.so.3, or no SHA-256 provider) is
// broken, not an input error: thrown out of the noexcept crypto(), this terminates memkit with the
// reason (libstdc++'s terminate handler prints it) rather than return a wrong hash.
[[noreturn]] void broken(const char* what, const char* reason) {
  throw std::runtime_error(std::string("memkit: SHA-256 is unavailable: ") + what + " (" +
                           (reason != nullptr ? reason : "unknown reason") +
                           "); install OpenSSL 3 (Debian: libssl3)");
}

const Crypto& crypto() noexcept {
  static const Crypto loaded = [] {
    void* handle = ::dlopen(kCryptoName, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) broken("libcrypto.so.3 cannot be loaded", ::dlerror());
    Crypto functions;
#define MEMKIT_CRYPTO_LOOKUP(function)                                                             \
  functions.function = reinterpret_cast<decltype(functions.function)>(::dlsym(handle, #function)); \
  if (functions.function == nullptr) broken("libcrypto.so.3 has no " #function, ::dlerror());
    MEMKIT_CRYPTO_FUNCTIONS(MEMKIT_CRYPTO_LOOKUP)
#undef MEMKIT_CRYPTO_LOOKUP
    functions.sha256 = functions.EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (functions.sha256 == nullptr) broken("OpenSSL has no SHA-256 provider", nullptr);
    return functions;
  }();
  return loaded;
}

struct ContextFree {
  void operator()(EVP_MD_CTX* context) const noexcept { crypto().EVP_MD_CTX_free(context); }
};

}  // namespace

Sha256 sha256(std::string_view bytes) noexcept {
  const Crypto& c = crypto();
  thread_local const std::unique_ptr<EVP_MD_CTX, ContextFree> context(c.EVP_MD_CTX_new());
  Sha256 out{};
  unsigned int size = 0;
  if (!context || c.EVP_DigestInit_ex2(context.get(), c.sha256, nullptr) != 1 ||
      c.EVP_DigestUpdate(context.get(), bytes.data(), bytes.size()) != 1 ||
      c.EVP_DigestFinal_ex(context.get(), out.data(), &size) != 1 || size != out.size()) {
    std::terminate();
  }
  return out;
}

Sha256Hasher::Sha256Hasher() : context_(crypto().EVP_MD_CTX_new()) {
  if (context_ == nullptr) throw std::bad_alloc();
  restart();
}

Sha256Hasher::~Sha256Hasher() { crypto().EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(context_)); }

void Sha256Hasher::update(std::string_view bytes) noexcept {
  if (crypto().EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(context_), bytes.data(), bytes.size()) !=
      1) {
    std::terminate();
  }
}

void Sha256Hasher::restart() noexcept {
  const Crypto& c = crypto();
  if (c.EVP_DigestInit_ex2(static_cast<EVP_MD_CTX*>(context_), c.sha256, nullptr) != 1) {
    std::terminate();
  }
}

Sha256 Sha256Hasher::finish() noexcept {
  Sha256 out{};
  unsigned int size = 0;
  if (crypto().EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(context_), out.data(), &size) != 1 ||
      size != out.size()) {
    std::terminate();
  }
  return out;
}

std::string to_hex(const Sha256& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(digest.size() * 2, '0');
  for (std::size_t i = 0; i < digest.size(); ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 0x0F];
  }
  return out;
}

std::string sha256_hex(std::string_view bytes) { return to_hex(sha256(bytes)); }

std::uint64_t fast_hash(std::string_view bytes) noexcept {
  return XXH3_64bits(bytes.data(), bytes.size());
}

std::array<std::uint8_t, 16> xxh3_128(std::string_view bytes) noexcept {
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits(bytes.data(), bytes.size()));
  std::array<std::uint8_t, 16> out{};
  std::copy_n(canonical.digest, out.size(), out.begin());
  return out;
}

}  // namespace memkit
