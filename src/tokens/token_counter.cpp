#include "memkit/tokens.hpp"

namespace memkit {

const TokenCounter& default_token_counter() noexcept {
  // Stateless, so one shared instance is safe across threads and keeps no hidden state.
  static const EstimateTokenCounter counter;
  return counter;
}

}  // namespace memkit
