// SHA-256's compression function over whole 64-byte blocks (sha256.cpp), for digest.cpp and its
// tests.
#pragma once

#include <cstddef>
#include <cstdint>

namespace memkit::detail {

enum class Sha256Engine : std::uint8_t { fastest, portable };

// Runs the compression function over `blocks` blocks of `data`, updating `state`: with the
// processor's SHA extensions when it has them, unless `engine` is portable.
void sha256_blocks(std::uint32_t state[8], const std::uint8_t* data, std::size_t blocks,
                   Sha256Engine engine = Sha256Engine::fastest) noexcept;

// Whether sha256_blocks() uses the processor's SHA extensions here.
[[nodiscard]] bool sha256_hardware() noexcept;

}  // namespace memkit::detail
