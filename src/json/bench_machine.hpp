// The "machine" object of `memkit bench`'s JSON (docs/schemas/bench-*.schema.json).
#pragma once

#include <nlohmann/json.hpp>

#include "codec/canonical.hpp"
#include "memkit/bench.hpp"

namespace memkit::json_detail {

[[nodiscard]] inline nlohmann::json bench_machine_json(const bench::Machine& m) {
  return {{"cpu", detail::utf8(m.cpu)},
          {"cores", m.cores},
          {"memory_bytes", m.memory_bytes},
          {"kernel", detail::utf8(m.kernel)},
          {"compiler", m.compiler},
          {"build_type", m.build_type},
          {"memkit_version", m.memkit_version}};
}

}  // namespace memkit::json_detail
