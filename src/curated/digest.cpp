// get-relevant and kernel (spec curated.md §8): the blocks a host injects into a context. The
// digest is the window picked for this occasion (one line per initiative, under a code-point
// budget), initiative mode the uncapped sweep of one initiative, and the kernel the one fixed
// corpus. Blocks are LF-joined lines without a final LF: the §14 digest vector's block is 163
// code points, which counts no final LF.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "memkit/curated/read.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

constexpr std::string_view kDigestHeading = "## Memory — live pending by initiative";
constexpr std::string_view kInitiativeHeading = "## Memory — live pending in ";
constexpr std::string_view kKernelHeading = "## Memory — how the user works";
constexpr std::string_view kEllipsis = "…";
constexpr std::size_t kShownBuckets = 10;
constexpr std::size_t kDigestDescription = 60;

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += '\n';
    out += lines[i];
  }
  return out;
}

// The row's bucket key. memkit writes normalised keys; a hand-written `Initiative:` is read
// through the same normalisation, so "Gaia" and "gaia" share a bucket and `--initiative gaia`
// finds both. A value that normalises to nothing is the no-initiative bucket.
std::string bucket_key(const Row& row) {
  if (!row.initiative) return std::string(kNoInitiative);
  std::optional<std::string> key = normalize_initiative(*row.initiative);
  return key ? std::move(*key) : std::string(kNoInitiative);
}

// collapse(description); "" without one. A description of W only collapses to "" too, and is
// rendered like none (no ": " with nothing after it).
std::string collapsed_description(const Row& row) {
  return row.description ? collapse_w(*row.description) : std::string();
}

// The digest's <desc>: collapsed, cut to 60 code points; a cut one is right-stripped and ends "…".
std::string digest_description(const Row& row) {
  const std::string collapsed = collapsed_description(row);
  const std::string_view head = first_code_points(collapsed, kDigestDescription);
  if (head.size() == collapsed.size()) return collapsed;
  std::string cut(rstrip_w(head));
  cut += kEllipsis;
  return cut;
}

// "- <name>: <description>", or "- <name>" without one.
std::string row_line(const Row& row, std::string_view description) {
  std::string line = "- " + row.name;
  if (!description.empty()) {
    line += ": ";
    line += description;
  }
  return line;
}

void add_footer(std::vector<std::string>& lines, const std::optional<std::string>& footer) {
  if (!footer) return;
  lines.emplace_back();
  lines.push_back(*footer);
}

struct Bucket {
  std::string key;
  std::vector<const Row*> rows;  // in live-pending order: the first is the freshest
};

// §8 digest step 3 for the first `shown` buckets.
std::string digest_block(const std::vector<Bucket>& buckets, const std::vector<std::string>& descs,
                         std::size_t shown, const std::optional<std::string>& footer) {
  std::vector<std::string> lines{std::string(kDigestHeading), std::string()};
  for (std::size_t i = 0; i < shown; ++i) {
    const Bucket& bucket = buckets[i];
    std::string line = "- " + bucket.rows.front()->name + " [" + bucket.key + "]";
    if (!descs[i].empty()) line += ": " + descs[i];
    lines.push_back(std::move(line));
    if (bucket.rows.size() > 1) {
      lines.push_back("  +" + std::to_string(bucket.rows.size() - 1) + " more in " + bucket.key);
    }
  }
  if (shown < buckets.size()) {
    lines.emplace_back();
    lines.push_back("+" + std::to_string(buckets.size() - shown) + " more initiatives");
  }
  add_footer(lines, footer);
  return join_lines(lines);
}

}  // namespace

Digest digest(const std::vector<Row>& rows, std::uint64_t max_chars,
              const std::optional<std::string>& footer) {
  std::vector<Bucket> buckets;  // in order of first appearance, until the sort below
  // Each key's bucket by hash: with many initiatives a scan of the buckets per row is quadratic.
  std::unordered_map<std::string, std::size_t> bucket_of;
  for (const Row* row : live_pending(rows)) {
    std::string key = bucket_key(*row);
    const auto [it, fresh] = bucket_of.try_emplace(key, buckets.size());
    if (fresh) buckets.push_back({.key = std::move(key), .rows = {}});
    buckets[it->second].rows.push_back(row);
  }
  if (buckets.empty()) return {};
  // Freshest row's Updated descending (a bucket without one is the oldest), then key ascending.
  std::stable_sort(buckets.begin(), buckets.end(), [](const Bucket& a, const Bucket& b) {
    const std::optional<std::string>& ua = a.rows.front()->updated;
    const std::optional<std::string>& ub = b.rows.front()->updated;
    if (ua != ub) return ua > ub;
    return a.key < b.key;
  });
  std::vector<std::string> descs;
  descs.reserve(buckets.size());
  for (const Bucket& bucket : buckets) descs.push_back(digest_description(*bucket.rows.front()));

  std::size_t shown = std::min(buckets.size(), kShownBuckets);
  std::string block = digest_block(buckets, descs, shown, footer);
  // Step 4: the budget bounds the whole block; the first bucket stays even over it.
  while (shown > 1 && count_code_points(block) > max_chars) {
    --shown;
    block = digest_block(buckets, descs, shown, footer);
  }
  Digest out{
      .items = {}, .block = std::move(block), .overflow_initiatives = buckets.size() - shown};
  for (std::size_t i = 0; i < shown; ++i) {
    out.items.push_back({.row = buckets[i].rows.front(),
                         .initiative = buckets[i].key,
                         .description = descs[i],
                         .pending_count = buckets[i].rows.size()});
  }
  return out;
}

InitiativeRows initiative_rows(const std::vector<Row>& rows, std::string_view key,
                               const std::optional<std::string>& footer) {
  InitiativeRows out;
  for (const Row* row : live_pending(rows)) {
    if (bucket_key(*row) == key) out.rows.push_back(row);
  }
  if (out.rows.empty()) return out;
  std::vector<std::string> lines{std::string(kInitiativeHeading) + std::string(key), std::string()};
  for (const Row* row : out.rows) lines.push_back(row_line(*row, collapsed_description(*row)));
  add_footer(lines, footer);
  out.block = join_lines(lines);
  return out;
}

Kernel kernel(const std::vector<Row>& rows, const KernelFilter& filter,
              std::optional<std::uint64_t> max_chars) {
  Kernel out;
  for (const Row& row : rows) {
    if (row.deleted) continue;
    if (filter.type && row.type != *filter.type) continue;
    if (filter.audience && row.audience != *filter.audience) continue;
    out.rows.push_back(&row);
  }
  std::stable_sort(out.rows.begin(), out.rows.end(), [](const Row* a, const Row* b) {
    if (a->updated != b->updated) return a->updated > b->updated;
    return a->name < b->name;
  });
  std::vector<std::string> lines{std::string(kKernelHeading), std::string()};
  for (const Row* row : out.rows) lines.push_back(row_line(*row, collapsed_description(*row)));
  // The block's code points, kept as rows are dropped rather than counted again over the whole
  // block each time: each line's own, plus the LFs that join them (an LF never joins an
  // ill-formed sequence, so the lines count apart as they count together).
  std::uint64_t total = lines.size() - 1;
  for (const std::string& line : lines) total += count_code_points(line);
  while (!out.rows.empty()) {
    if (!max_chars || total <= *max_chars) {
      out.block = join_lines(lines);
      break;
    }
    total -= count_code_points(lines.back()) + 1;
    out.rows.pop_back();
    lines.pop_back();
  }
  return out;
}

}  // namespace memkit::curated
