#include "memkit/digest.hpp"

#include <openssl/evp.h>
#include <xxhash.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <new>

namespace memkit {

namespace {

// SHA-256 fetched from OpenSSL's provider once: EVP_sha256() with EVP_Digest fetches it again on
// every call, which costs more than hashing an entry (sync hashes 100,000 of them per command).
// Fetching fails only when OpenSSL itself is broken (no SHA-256 provider); that is a bug in the
// installation, not an input error, so it terminates rather than returning a wrong hash.
const EVP_MD* sha256_md() noexcept {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  if (md == nullptr) std::terminate();
  return md;
}

struct ContextFree {
  void operator()(EVP_MD_CTX* context) const noexcept { EVP_MD_CTX_free(context); }
};

}  // namespace

Sha256 sha256(std::string_view bytes) noexcept {
  thread_local const std::unique_ptr<EVP_MD_CTX, ContextFree> context(EVP_MD_CTX_new());
  Sha256 out{};
  unsigned int size = 0;
  if (!context || EVP_DigestInit_ex2(context.get(), sha256_md(), nullptr) != 1 ||
      EVP_DigestUpdate(context.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(context.get(), out.data(), &size) != 1 || size != out.size()) {
    std::terminate();
  }
  return out;
}

Sha256Hasher::Sha256Hasher() : context_(EVP_MD_CTX_new()) {
  if (context_ == nullptr) throw std::bad_alloc();
  if (EVP_DigestInit_ex2(static_cast<EVP_MD_CTX*>(context_), sha256_md(), nullptr) != 1) {
    std::terminate();  // no SHA-256 provider: a broken installation, as in sha256()
  }
}

Sha256Hasher::~Sha256Hasher() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(context_)); }

void Sha256Hasher::update(std::string_view bytes) noexcept {
  if (EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(context_), bytes.data(), bytes.size()) != 1) {
    std::terminate();
  }
}

void Sha256Hasher::restart() noexcept {
  if (EVP_DigestInit_ex2(static_cast<EVP_MD_CTX*>(context_), sha256_md(), nullptr) != 1) {
    std::terminate();
  }
}

Sha256 Sha256Hasher::finish() noexcept {
  Sha256 out{};
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(context_), out.data(), &size) != 1 ||
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
