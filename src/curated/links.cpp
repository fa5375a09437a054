// Links (curated.md §7): a `Link:` line on src. Creating one needs two live, different endpoints
// (MK-CUR-010); removing one needs neither. Both are idempotent: an existing (kind, dst) pair, or
// a missing one for unlink, is "unchanged". A link change keeps `Updated` and appends one history
// record {link: {kind, dst}} named after src.
#include <algorithm>
#include <string>
#include <string_view>

#include "curated/write_plan.hpp"
#include "memkit/curated.hpp"
#include "memkit/curated/log.hpp"
#include "memkit/curated/write.hpp"
#include "memkit/text.hpp"

namespace memkit::curated {
namespace {

using write_detail::Located;
using write_detail::Planner;

Finding bad_endpoint(std::string message) {
  return make_finding("MK-CUR-010", Severity::error, "", std::move(message),
                      "link two different live rows of the workspace");
}

// The endpoint `name` as a live row for a new link, or nullopt with MK-CUR-010.
std::optional<Located> endpoint(Planner& planner, std::string_view role, std::string_view name) {
  const std::optional<Located> at = planner.find(name);
  if (planner.refused()) return std::nullopt;
  if (!at) {
    planner.write().findings.push_back(
        bad_endpoint(std::string(role) + " " + std::string(name) + " does not exist"));
    return std::nullopt;
  }
  if (at->entry->row.deleted) {
    planner.write().findings.push_back(
        bad_endpoint(std::string(role) + " " + std::string(name) + " is soft-deleted"));
    return std::nullopt;
  }
  return at;
}

// The history record of a link change (§6): the link's src is its name, no before or after.
HistoryRecord link_record(const WriteContext& context, const std::string& src, HistoryOp op,
                          LinkKind kind, std::string_view dst) {
  return HistoryRecord{.ts = context.now,
                       .name = src,
                       .op = op,
                       .before = std::nullopt,
                       .after = std::nullopt,
                       .link_kind = kind,
                       .link_dst = std::string(dst),
                       .actor = context.actor};
}

}  // namespace

Write plan_link(const Snapshot& files, const WriteContext& context, std::string_view src,
                std::string_view dst, std::string_view kind, bool remove) {
  Planner planner(files, context);
  Write& write = planner.write();
  const std::optional<LinkKind> link_kind = write_detail::parse_argument<LinkKind>(
      "--kind", std::optional<std::string>(kind), parse_link_kind,
      "relates_to, supersedes, derived_from or graduated_to", write.findings);
  write_detail::check_slug("src", src, write.findings);
  write_detail::check_slug("dst", dst, write.findings);
  if (!remove && src == dst && !write.refused()) {
    write.findings.push_back(
        bad_endpoint("a row cannot link to itself (" + std::string(src) + ")"));
  }
  if (planner.refused()) return planner.finish();

  const auto same = [&](const Link& link) { return link.kind == *link_kind && link.dst == dst; };
  if (remove) {
    // Unlink: the endpoints need not be live, or even exist (§7).
    const std::optional<Located> at = planner.find(src);
    if (planner.refused()) return planner.finish();
    const std::vector<Link>* links = at ? &at->entry->row.links : nullptr;
    const auto it = links ? std::find_if(links->begin(), links->end(), same)
                          : std::vector<Link>::const_iterator();
    if (!links || it == links->end()) return planner.finish();  // unchanged, created_at null
    const std::string created_at = it->created_at;
    Row row = at->entry->row;
    std::erase_if(row.links, same);
    planner.edit(*at, row);
    planner.record(link_record(context, row.name, HistoryOp::unlink, *link_kind, dst));
    Write out = planner.finish();
    if (!out.refused()) out.link_created_at = created_at;
    return out;
  }

  const std::optional<Located> from = endpoint(planner, "src", src);
  const std::optional<Located> to = endpoint(planner, "dst", dst);
  if (!from || !to) return planner.finish();
  const std::vector<Link>& links = from->entry->row.links;
  if (const auto it = std::find_if(links.begin(), links.end(), same); it != links.end()) {
    Write out = planner.finish();  // idempotent: the existing link, unchanged
    if (!out.refused()) {
      out.link_created_at = it->created_at;
      out.entries[from->entry->row.name] = planner.entry_text(*from);
    }
    return out;
  }
  Row row = from->entry->row;
  row.links.push_back(Link{.kind = *link_kind, .dst = std::string(dst), .created_at = context.now});
  planner.edit(*from, row);
  planner.record(link_record(context, row.name, HistoryOp::link, *link_kind, dst));
  Write out = planner.finish();
  if (!out.refused()) out.link_created_at = context.now;
  return out;
}

}  // namespace memkit::curated
