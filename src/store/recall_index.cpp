// The search index on disk (recall_index.hpp): a catalog of the files it holds and packs of their
// units, brought up to date before every search.
#include "store/recall_index.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "codec/binary.hpp"
#include "files/progress.hpp"
#include "memkit/digest.hpp"
#include "memkit/version.hpp"
#include "stemming/snowball.hpp"

namespace memkit {
namespace {

using Digest = std::array<std::uint8_t, 16>;

constexpr std::string_view kMagic = "MKRCAT03";
constexpr std::string_view kEnd = "MKRCATND";

// ---- the catalog
// ----------------------------------------------------------------------------------

constexpr std::size_t kNoPack = std::numeric_limits<std::size_t>::max();  // a file of no units

struct CatalogFile {
  recall::Layout layout = recall::Layout::custodian;
  std::string root;
  std::string path;
  int tier = 0;
  std::optional<std::size_t> load_order;
  FileStat stat;
  Digest digest{};
  std::uint64_t units = 0;
  std::vector<Finding> findings;
  std::size_t pack = 0;     // into Catalog::packs: the pack that holds its units (kNoPack: none)
  std::uint64_t first = 0;  // its first document there
};

// Documents of a pack that no longer count: a file's units before it grew (the file, by its path,
// then holds them in another pack).
struct GoneRange {
  std::string path;
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

struct CatalogPack {
  std::string name;  // p-<hex>.idx
  // The pack file's stat once written and read back: while it is the same, the file holds those
  // bytes, and they are opened without checking every list again.
  FileStat stat;
  std::uint64_t documents = 0;
  std::uint64_t source_bytes = 0;  // the sizes of the files it was made from, summed
  std::vector<GoneRange> gone;     // in order of `first`
};

struct Catalog {
  std::string generation;     // the memkit that wrote it: another cuts units its own way
  std::string custodian_dir;  // what it indexes: the arguments of open_recall_index
  std::optional<recall::Layout> only;
  std::string stem;  // the stemmer's language, or "" for none
  std::int64_t written_ns =
      0;  // the lock's time when it was written: files changed since are suspect
  std::vector<CatalogFile> files;  // in path order
  std::vector<CatalogPack> packs;  // in the order they were written
};

using codec::BinaryReader;
using codec::BinaryWriter;

std::string display(const CatalogFile& f) {
  return recall::display_path(recall::Source{f.layout, f.root, f.path, f.tier});
}

void encode_stat(BinaryWriter& e, const FileStat& stat) {
  for (const std::uint64_t v :
       {stat.size, static_cast<std::uint64_t>(stat.modified_ns),
        static_cast<std::uint64_t>(stat.changed_ns), stat.device, stat.inode}) {
    e.word(v);
  }
}

bool decode_stat(BinaryReader& d, FileStat& stat) {
  stat.type = NodeType::file;
  return d.word(stat.size) && d.number(stat.modified_ns) && d.number(stat.changed_ns) &&
         d.word(stat.device) && d.word(stat.inode);
}

std::string encode(const Catalog& c) {
  BinaryWriter e;
  e.text(kMagic);
  e.text(c.generation);
  e.text(c.custodian_dir);
  e.word(c.only ? static_cast<std::uint64_t>(*c.only) : std::numeric_limits<std::uint64_t>::max());
  e.text(c.stem);
  e.word(static_cast<std::uint64_t>(c.written_ns));
  e.word(c.packs.size());
  for (const CatalogPack& p : c.packs) {
    e.text(p.name);
    encode_stat(e, p.stat);
    e.word(p.documents);
    e.word(p.source_bytes);
    e.word(p.gone.size());
    for (const GoneRange& g : p.gone) {
      e.text(g.path);
      e.word(g.first);
      e.word(g.count);
    }
  }
  e.word(c.files.size());
  for (const CatalogFile& f : c.files) {
    e.word(static_cast<std::uint64_t>(f.layout));
    e.text(f.root);
    e.text(f.path);
    e.word(static_cast<std::uint64_t>(f.tier));
    e.word(f.load_order ? *f.load_order : std::numeric_limits<std::uint64_t>::max());
    encode_stat(e, f.stat);
    e.text(std::string_view(reinterpret_cast<const char*>(f.digest.data()),
                            f.digest.size()));  // NOLINT
    e.word(f.units);
    e.word(f.pack);
    e.word(f.first);
    e.word(f.findings.size());
    for (const Finding& x : f.findings) {
      e.text(x.code);
      e.word(static_cast<std::uint64_t>(x.severity));
      e.text(x.path);
      e.text(x.message);
    }
  }
  e.text(kEnd);
  return std::move(e).take();
}

// The catalog `bytes` hold, or nullopt for bytes torn, damaged, foreign or of another memkit: every
// pack's documents are its files' units and its gone ranges, each once, and every pack holds a
// file.
std::optional<Catalog> decode(std::string_view bytes) {
  BinaryReader d(bytes);
  Catalog c;
  std::string magic;
  std::uint64_t only = 0;
  std::uint64_t count = 0;
  if (!d.text(magic) || magic != kMagic || !d.text(c.generation) || c.generation != version() ||
      !d.text(c.custodian_dir) || !d.word(only) ||
      (only > static_cast<std::uint64_t>(recall::Layout::curated) &&
       only != std::numeric_limits<std::uint64_t>::max()) ||
      !d.text(c.stem) || !d.number(c.written_ns) || !d.word(count) || count > bytes.size()) {
    return std::nullopt;
  }
  if (only != std::numeric_limits<std::uint64_t>::max()) c.only = static_cast<recall::Layout>(only);
  // Per pack, the ranges of its documents: (first, count), to be checked to tile it.
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> ranges;
  for (std::uint64_t i = 0; i < count; ++i) {
    CatalogPack p;
    std::uint64_t gone = 0;
    if (!d.text(p.name) || !decode_stat(d, p.stat) || !d.word(p.documents) ||
        !d.word(p.source_bytes) || !d.word(gone) || gone > bytes.size() ||
        p.name.find('/') != std::string::npos || !p.name.starts_with("p-")) {
      return std::nullopt;
    }
    ranges.emplace_back();
    for (std::uint64_t k = 0; k < gone; ++k) {
      GoneRange g;
      if (!d.text(g.path) || !d.word(g.first) || !d.word(g.count)) return std::nullopt;
      ranges.back().emplace_back(g.first, g.count);
      p.gone.push_back(std::move(g));
    }
    c.packs.push_back(std::move(p));
  }
  std::vector<bool> holds_a_file(c.packs.size(), false);
  if (!d.word(count) || count > bytes.size()) return std::nullopt;
  for (std::uint64_t i = 0; i < count; ++i) {
    CatalogFile f;
    std::uint64_t layout = 0;
    std::uint64_t order = 0;
    std::uint64_t findings = 0;
    std::string digest;
    if (!d.word(layout) || layout > static_cast<std::uint64_t>(recall::Layout::curated) ||
        !d.text(f.root) || !d.text(f.path) || !d.number(f.tier) || !d.word(order) ||
        !decode_stat(d, f.stat) || !d.text(digest) || digest.size() != f.digest.size() ||
        !d.word(f.units) || !d.number(f.pack) || !d.word(f.first) || !d.word(findings) ||
        findings > bytes.size() || (f.pack == kNoPack ? f.units != 0 : f.pack >= c.packs.size())) {
      return std::nullopt;
    }
    f.layout = static_cast<recall::Layout>(layout);
    if (order != std::numeric_limits<std::uint64_t>::max()) f.load_order = order;
    std::memcpy(f.digest.data(), digest.data(), f.digest.size());
    for (std::uint64_t k = 0; k < findings; ++k) {
      Finding x;
      std::uint64_t severity = 0;
      if (!d.text(x.code) || !d.word(severity) || severity > 3 || !d.text(x.path) ||
          !d.text(x.message)) {
        return std::nullopt;
      }
      x.severity = static_cast<Severity>(severity);
      f.findings.push_back(std::move(x));
    }
    if (!c.files.empty() && !(display(c.files.back()) < display(f))) return std::nullopt;
    if (f.pack != kNoPack) {
      holds_a_file[f.pack] = true;
      ranges[f.pack].emplace_back(f.first, f.units);
    }
    c.files.push_back(std::move(f));
  }
  for (std::size_t p = 0; p < c.packs.size(); ++p) {
    std::sort(ranges[p].begin(), ranges[p].end());
    std::uint64_t next = 0;
    for (const auto& [first, units] : ranges[p]) {
      if (first != next || units > c.packs[p].documents - next) return std::nullopt;
      next += units;
    }
    if (!holds_a_file[p] || next != c.packs[p].documents) return std::nullopt;
  }
  std::string end;
  if (!d.text(end) || end != kEnd || !d.done()) return std::nullopt;
  return c;
}

// ---- bringing the index up to date
// ---------------------------------------------------------------

// `path` under the folder `folder`.
std::string inside(const std::string& folder, const std::string& path) {
  return folder + "/" + path;
}

// The folder of this variant of the index: every layout, or the one a command reads, with the
// custodian's folder when it is not the usual one, and the stemmer's language.
std::string variant_of(const std::string& custodian_dir, std::optional<recall::Layout> only,
                       const std::string& stem) {
  std::string name = only ? std::string(recall::layout_name(*only)) : "all";
  if (custodian_dir != "docs/memory") name += "-" + sha256_hex(custodian_dir).substr(0, 16);
  if (!stem.empty()) name += "-stem-" + sha256_hex(stem).substr(0, 8);  // any name, a safe folder
  return name;
}

// Makes `folder` (under `root`) and the ones on its way, never through a link; false when any of
// them cannot be made or is not a folder.
bool make_folders(FileSystem& fs, const std::string& root, const std::string& folder) {
  std::string at = root;
  std::size_t from = 0;
  while (from <= folder.size()) {
    const std::size_t slash = std::min(folder.find('/', from), folder.size());
    at = inside(at, folder.substr(from, slash - from));
    const Result<NodeType> type = fs.node_type(at);
    if (!type || (*type != NodeType::none && *type != NodeType::directory)) return false;
    if (*type == NodeType::none && !fs.create_directory(at).ok()) return false;
    from = slash + 1;
  }
  return true;
}

// A file of the walk as the catalog records it, before its bytes are read.
CatalogFile recorded(const RecallFile& file) {
  CatalogFile f;
  f.layout = file.source.layout;
  f.root = file.source.root;
  f.path = file.source.path;
  f.tier = file.source.tier;
  f.load_order = file.load_order;
  f.stat = file.stat;
  return f;
}

// Whether two records are of the same source of the same layout (their stats aside).
bool same_source(const CatalogFile& a, const CatalogFile& b) {
  return a.layout == b.layout && a.root == b.root && a.path == b.path && a.tier == b.tier &&
         a.load_order == b.load_order;
}

// What became of a file since the catalog was written: the same; grown (appended to: it still
// holds what it held); or changed otherwise, or new.
enum class Change { none, grown, other };

// Small packs (files of less than half a pack that count) that, this many or more, are copied
// into fewer.
constexpr std::size_t kSmallPacks = 8;

// Which old packs are kept as they are: not one that holds text a file no longer holds (deletion is
// real: a file gone or changed other than by growing, whether its documents there count or not),
// nor one that could not be opened, nor one whose documents mostly no longer count, nor, when
// there are kSmallPacks of them or more, a small one. `now`: by old file, what became of it,
// nullopt for a file gone.
std::vector<bool> packs_to_keep(const Catalog& old, const std::vector<std::optional<Change>>& now,
                                const std::vector<bool>& opened, std::uint64_t pack_bytes) {
  std::map<std::string, bool> removed;  // by path: whether the text of the file is partly gone
  for (std::size_t j = 0; j < old.files.size(); ++j) {
    removed.emplace(display(old.files[j]), !now[j] || *now[j] == Change::other);
  }
  std::vector<bool> keep = opened;
  std::vector<std::uint64_t> units(old.packs.size(), 0);  // of the files still in place
  std::vector<std::uint64_t> bytes(old.packs.size(), 0);
  for (std::size_t j = 0; j < old.files.size(); ++j) {
    const std::size_t p = old.files[j].pack;
    if (p == kNoPack) continue;
    if (now[j] == Change::none) {
      units[p] += old.files[j].units;
      bytes[p] += old.files[j].stat.size;
    } else if (now[j] != Change::grown) {
      keep[p] = false;
    }
  }
  std::size_t small = 0;
  for (std::size_t p = 0; p < old.packs.size(); ++p) {
    for (const GoneRange& g : old.packs[p].gone) {
      const auto found = removed.find(g.path);
      if (found == removed.end() || found->second) keep[p] = false;
    }
    if (units[p] * 2 < old.packs[p].documents) keep[p] = false;
    small += keep[p] && bytes[p] < pack_bytes / 2 ? 1 : 0;
  }
  if (small >= kSmallPacks) {
    for (std::size_t p = 0; p < old.packs.size(); ++p) {
      if (bytes[p] < pack_bytes / 2) keep[p] = false;
    }
  }
  return keep;
}

}  // namespace

Result<std::pair<const RecallFile*, recall::Unit>> RecallIndex::unit(std::size_t document) {
  const auto after =
      std::upper_bound(indexed_.begin(), indexed_.end(), document,
                       [](std::size_t d, const Indexed& x) { return d < x.first_document; });
  if (after == indexed_.begin() || document >= units_) {
    return Status(Errc::invalid_argument, "no document " + std::to_string(document));
  }
  const Indexed& at = *(after - 1);
  RecallFile& file = files_[at.file];
  if (!file.file.bytes) {
    Result<std::string> bytes = fs_->read_file(inside(root_, file.file.path));
    if (!bytes) return bytes.status();
    file.file.bytes = std::make_shared<const std::string>(std::move(bytes).value());
  }
  const auto changed = [&file] {
    return Status(Errc::io, file.file.path + ": changed while the search ran; search again");
  };
  auto cut = cut_.find(at.file);  // a file's units are cut once, however many hits it has
  if (cut == cut_.end()) {
    if (xxh3_128(file.file.text()) != at.digest) return changed();
    cut = cut_.emplace(at.file, recall::read_units(file.source, file.file.text()).units).first;
  }
  if (cut->second.size() != at.units) return changed();
  return std::pair<const RecallFile*, recall::Unit>(&file,
                                                    cut->second[document - at.first_document]);
}

Result<RecallIndex> open_recall_index(FileSystem& fs, const std::string& root_text,
                                      const std::string& option, const std::string& custodian_dir,
                                      std::optional<recall::Layout> only,
                                      const IndexStemming& stemming, std::uint64_t pack_bytes) {
  std::string root = root_text;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  const std::string folder = ".memkit/index/" + variant_of(custodian_dir, only, stemming.language);
  const std::string dir = inside(root, folder);
  const auto walk = [&] {
    return read_recall_files(fs, root, option, custodian_dir, only, /*read_bytes=*/false);
  };
  // A root with no memory gets no index: the first search at a root walks it once before it
  // makes .memkit/index/.
  Result<std::vector<RecallFile>> walked = std::vector<RecallFile>();
  const Result<NodeType> made = fs.node_type(dir);
  if (!made || *made != NodeType::directory) {
    walked = walk();
    if (!walked) return walked.status();
    if (std::none_of(walked->begin(), walked->end(),
                     [](const RecallFile& f) { return f.file.exists(); })) {
      RecallIndex none;
      none.fs_ = &fs;
      none.root_ = root;
      none.stemming_ = stemming;
      none.files_ = std::move(walked).value();
      return none;
    }
  }
  // The lock, and its time read, before the files are: a file changed after it has a time no
  // earlier, and the next search reads it again (a change within the clock's tick included).
  std::unique_ptr<LockHandle> lock;
  std::int64_t now_ns = 0;
  const Result<NodeType> root_type = fs.node_type(root + "/.");
  if (root_type && *root_type == NodeType::directory && make_folders(fs, root, folder)) {
    // As every .memkit/ memkit makes: ignored by the project's version control.
    if (const Result<NodeType> ignore = fs.node_type(inside(root, ".memkit/.gitignore"));
        ignore && *ignore == NodeType::none) {
      (void)write_file_atomically(fs, inside(root, ".memkit/.gitignore"), "*\n", true);
    }
    Result<std::unique_ptr<LockHandle>> taken = fs.lock_exclusive(inside(dir, "lock"), 10.0);
    const Result<FileStat> lock_stat =
        taken ? fs.stat(inside(dir, "lock")) : Result<FileStat>(taken.status());
    if (taken && lock_stat) {
      lock = std::move(taken).value();
      now_ns = lock_stat->modified_ns;
    }
  }
  walked = walk();
  if (!walked) return walked.status();

  RecallIndex index;
  index.fs_ = &fs;
  index.root_ = root;
  index.stemming_ = stemming;
  index.files_ = std::move(walked).value();
  std::vector<std::size_t> indexable;  // into files_, in path order
  for (std::size_t i = 0; i < index.files_.size(); ++i) {
    if (index.files_[i].file.exists()) indexable.push_back(i);
  }

  // The catalog on disk, if it is whole and this memkit's; else an empty one.
  std::optional<Catalog> read_catalog;
  if (const Result<NodeType> t = fs.node_type(inside(dir, "catalog")); t && *t == NodeType::file) {
    if (const Result<std::string> bytes = fs.read_file(inside(dir, "catalog"))) {
      read_catalog = decode(*bytes);
    }
    if (read_catalog && (read_catalog->custodian_dir != custodian_dir ||
                         read_catalog->only != only || read_catalog->stem != stemming.language)) {
      read_catalog.reset();
    }
  }
  const Catalog old = read_catalog.value_or(Catalog{});

  // A file's bytes, read (once) after its stat, so what is indexed is never older than what the
  // catalog says; a file that cannot be read is indexed empty, with a finding.
  std::vector<std::optional<Finding>> unreadable(index.files_.size());
  std::vector<bool> read(index.files_.size(), false);
  const auto bytes_of = [&](std::size_t i) -> std::string_view {
    RecallFile& file = index.files_[i];
    if (!read[i]) {
      read[i] = true;
      ++index.work_.files_read;
      Result<std::string> bytes = fs.read_file(inside(root, file.file.path));
      if (bytes) {
        file.file.bytes = std::make_shared<const std::string>(std::move(bytes).value());
      } else {
        file.file.bytes = std::make_shared<const std::string>();
        std::string why = bytes.status().message();
        if (why.starts_with(root + "/")) why.erase(0, root.size() + 1);
        unreadable[i] =
            make_finding("MK-IO-001", Severity::warning, file.file.path, why + "; not searched");
      }
    }
    return file.file.text();
  };

  // What became of each file the catalog holds: the same, grown, changed otherwise, or gone.
  std::map<std::string, std::size_t> old_file;  // display path -> into old.files
  for (std::size_t j = 0; j < old.files.size(); ++j) old_file.emplace(display(old.files[j]), j);
  std::vector<std::optional<std::size_t>> was(index.files_.size());  // into old.files
  std::vector<std::optional<Change>> now(old.files.size());          // by old file; nullopt: gone
  std::vector<Change> change(index.files_.size(), Change::other);    // by file
  for (const std::size_t i : indexable) {
    const auto found = old_file.find(index.files_[i].file.path);
    if (found == old_file.end()) continue;  // new
    const CatalogFile& before = old.files[found->second];
    const CatalogFile is = recorded(index.files_[i]);
    was[i] = found->second;
    if (!same_source(before, is)) {
      change[i] = Change::other;
    } else if (before.stat == is.stat && before.stat.modified_ns < old.written_ns) {
      change[i] = Change::none;
    } else {
      // Its stat changed, or it changed within the clock tick the index was written in: the
      // bytes tell whether it did, and whether only by growing.
      const std::string_view bytes = bytes_of(i);
      if (unreadable[i]) {
        change[i] = Change::other;
      } else if (xxh3_128(bytes) == before.digest) {
        change[i] = Change::none;
      } else if (bytes.size() > before.stat.size &&
                 xxh3_128(bytes.substr(0, before.stat.size)) == before.digest) {
        change[i] = Change::grown;
      }
    }
    now[found->second] = change[i];
  }

  // The old packs that hold a file still in place: opened (checked whole unless still the file
  // this index wrote and read back).
  std::vector<std::optional<search::Index>> opened(old.packs.size());
  std::vector<std::optional<FileStat>> opened_stat(old.packs.size());
  for (std::size_t j = 0; j < old.files.size(); ++j) {
    const std::size_t p = old.files[j].pack;
    if (now[j] != Change::none || p == kNoPack || opened_stat[p]) continue;
    const std::string path = inside(dir, old.packs[p].name);
    const Result<FileStat> stat = fs.stat(path);
    opened_stat[p] = stat ? *stat : FileStat{};
    if (!stat || stat->type != NodeType::file) continue;
    Result<MappedFile> mapped = fs.map_file(path);
    if (!mapped) continue;
    Result<search::Index> part =
        search::Index::open(mapped->bytes, mapped->owner, *stat != old.packs[p].stat);
    if (part && part->size() == old.packs[p].documents) opened[p] = std::move(part).value();
  }
  std::vector<bool> can_open(old.packs.size());
  for (std::size_t p = 0; p < old.packs.size(); ++p) can_open[p] = opened[p].has_value();
  const std::vector<bool> keep = packs_to_keep(old, now, can_open, pack_bytes);

  // The packs of the index: the old ones kept as they are (a grown file's old documents in them
  // no longer counting), then new ones, in path order, of the files to place: a changed or new
  // file read, cut and indexed, a file of a pack not kept copied from it (unless that pack could
  // not be opened: read again).
  Catalog fresh;
  fresh.generation = std::string(version());
  fresh.custodian_dir = custodian_dir;
  fresh.only = only;
  fresh.stem = stemming.language;
  fresh.written_ns = now_ns;
  std::vector<std::size_t> kept_as(old.packs.size(), kNoPack);  // old pack -> into fresh.packs
  for (std::size_t p = 0; p < old.packs.size(); ++p) {
    if (!keep[p]) continue;
    kept_as[p] = fresh.packs.size();
    CatalogPack pack = old.packs[p];
    if (*opened_stat[p] != pack.stat) pack.stat = *opened_stat[p];  // checked whole: sound
    fresh.packs.push_back(std::move(pack));
    index.packs_.push_back(std::move(*opened[p]));
    ++index.work_.packs_kept;
  }
  for (std::size_t j = 0; j < old.files.size(); ++j) {  // a grown file's old documents
    const std::size_t p = old.files[j].pack;
    if (now[j] == Change::grown && p != kNoPack && keep[p]) {
      fresh.packs[kept_as[p]].gone.push_back(
          {display(old.files[j]), old.files[j].first, old.files[j].units});
    }
  }
  for (CatalogPack& pack : fresh.packs) {
    std::sort(pack.gone.begin(), pack.gone.end(),
              [](const GoneRange& a, const GoneRange& b) { return a.first < b.first; });
  }
  fresh.files.resize(index.files_.size());  // by file for now; those not indexable left out below
  bool written_all = true;                  // every new pack so far is on disk
  // A new pack's bytes written under their digest's name, its stat recorded; false on failure.
  const auto write_pack = [&fs, &dir](const std::string& bytes, CatalogPack& pack) {
    const Digest digest = xxh3_128(bytes);
    pack.name = "p-" + to_hex(std::span<const std::uint8_t>(digest).first(10)) + ".idx";
    if (!write_file_atomically(fs, inside(dir, pack.name), bytes, false).ok()) return false;
    const Result<FileStat> written = fs.stat(inside(dir, pack.name));
    if (!written || written->size != bytes.size()) return false;
    pack.stat = *written;
    return true;
  };
  // A file read, cut and indexed into `part`, its catalog entry made.
  const auto index_file = [&](std::size_t i, search::Index& part) {
    const RecallFile& file = index.files_[i];
    const std::string_view text = bytes_of(i);
    CatalogFile& f = fresh.files[i];
    f = recorded(file);
    f.digest = xxh3_128(text);
    recall::FileUnits units = recall::read_units(file.source, text);
    f.first = part.size();
    for (recall::Unit& unit : units.units) {
      search::Facets facets = std::move(unit.facets);
      facets.emplace_back("layout", std::string(recall::layout_name(file.source.layout)));
      facets.emplace_back("file", file.file.path);
      part.add(unit.text, std::move(facets));
    }
    f.units = units.units.size();
    progress::advance(file.stat.size);
    if (unreadable[i]) f.findings.push_back(*unreadable[i]);
    f.findings.insert(f.findings.end(), units.findings.begin(), units.findings.end());
  };
  std::vector<std::size_t> pending;  // into files_: the files of the next new pack
  std::uint64_t pending_bytes = 0;
  const auto flush = [&] {
    if (pending.empty()) return;
    CatalogPack pack;
    // The pack's documents as runs: copied from an old pack, or from an index of the files read.
    std::deque<search::Index> indexed;  // one per run of files read next to each other
    std::vector<search::Run> runs;
    std::size_t documents = 0;
    for (const std::size_t i : pending) {
      pack.source_bytes += index.files_[i].stat.size;
      const std::optional<std::size_t> j = was[i];
      const bool copied = j && change[i] == Change::none && old.files[*j].pack != kNoPack &&
                          opened[old.files[*j].pack].has_value();
      if (!copied) {
        if (runs.empty() || indexed.empty() || runs.back().index != &indexed.back()) {
          runs.push_back({&indexed.emplace_back(stemming.stemmer.get()), 0,
                          std::numeric_limits<std::size_t>::max()});
        }
        const std::size_t before = indexed.back().size();
        index_file(i, indexed.back());
        fresh.files[i].first = documents;
        documents += indexed.back().size() - before;
        continue;
      }
      const CatalogFile& from = old.files[*j];
      fresh.files[i] = from;
      fresh.files[i].stat = recorded(index.files_[i]).stat;
      fresh.files[i].first = documents;
      documents += from.units;
      const search::Index* source = &*opened[from.pack];
      if (!runs.empty() && runs.back().index == source &&
          runs.back().first + runs.back().count == from.first) {
        runs.back().count += from.units;  // next to the one before in its old pack: one run
      } else {
        runs.push_back({source, from.first, from.units});
      }
    }
    const std::size_t at = fresh.packs.size();
    for (const std::size_t i : pending) {
      fresh.files[i].pack = fresh.files[i].units > 0 ? at : kNoPack;
      if (fresh.files[i].units == 0) fresh.files[i].first = 0;
    }
    pending.clear();
    pending_bytes = 0;
    if (documents == 0) return;
    pack.documents = documents;
    auto bytes = std::make_shared<const std::string>(search::serialize(runs));
    Result<search::Index> part = search::Index::open(*bytes, bytes, /*checked=*/false);
    if (!part) throw std::logic_error("recall index: " + part.status().message());  // a bug
    // Written now, and read from the page cache after: the new packs are never all in memory.
    if (lock && written_all) {
      written_all = write_pack(*bytes, pack);
      Result<MappedFile> mapped = written_all ? fs.map_file(inside(dir, pack.name))
                                              : Result<MappedFile>(Status(Errc::io, ""));
      if (mapped && mapped->bytes.size() == bytes->size()) {  // read back by the write
        Result<search::Index> again = search::Index::open(mapped->bytes, mapped->owner, false);
        if (again) part = std::move(again);
      }
    }
    fresh.packs.push_back(std::move(pack));
    index.packs_.push_back(std::move(part).value());
    ++index.work_.packs_built;
  };
  // A file of no units, the same as before, stays in no pack; an unchanged file of a kept pack
  // stays in it; every other one is read, cut and indexed again.
  const auto no_units_still = [&](std::size_t i) {
    const std::optional<std::size_t> j = was[i];
    return j && change[i] == Change::none && old.files[*j].pack == kNoPack && !unreadable[i];
  };
  const auto in_kept_pack = [&](std::size_t i) {
    const std::optional<std::size_t> j = was[i];
    return j && change[i] == Change::none && keep[old.files[*j].pack];
  };
  // Long work is told as it goes (issue 31): the bytes of the files indexed again, of their sum.
  std::uint64_t to_index = 0;
  for (const std::size_t i : indexable) {
    if (!no_units_still(i) && !in_kept_pack(i)) to_index += index.files_[i].stat.size;
  }
  const progress::Stage stage("indexing " + root, to_index, progress::Unit::bytes);
  for (const std::size_t i : indexable) {
    const std::optional<std::size_t> j = was[i];
    if (no_units_still(i)) {
      fresh.files[i] = old.files[*j];  // a file of no units: the same, in no pack
      fresh.files[i].stat = recorded(index.files_[i]).stat;
      continue;
    }
    if (in_kept_pack(i)) {
      fresh.files[i] = old.files[*j];
      fresh.files[i].stat = recorded(index.files_[i]).stat;
      fresh.files[i].pack = kept_as[old.files[*j].pack];
      continue;
    }
    pending.push_back(i);
    pending_bytes += index.files_[i].stat.size;
    if (pending_bytes >= pack_bytes) flush();
  }
  flush();

  // The files in path order, numbered so: each pack's documents that count are its files' units.
  std::vector<CatalogFile> in_order;
  index.segments_.resize(fresh.packs.size());
  for (const std::size_t i : indexable) {
    CatalogFile& f = fresh.files[i];
    index.indexed_.push_back({i, index.units_, f.units, f.digest});
    if (f.units > 0) index.segments_[f.pack].push_back({f.first, f.units, index.units_});
    index.units_ += f.units;
    for (const Finding& x : f.findings) index.findings_.push_back(x);
    in_order.push_back(std::move(f));
  }
  fresh.files = std::move(in_order);
  for (std::size_t p = 0; p < index.packs_.size(); ++p) {
    std::vector<search::Segment>& segments = index.segments_[p];
    std::sort(segments.begin(), segments.end(),
              [](const search::Segment& a, const search::Segment& b) { return a.first < b.first; });
    index.parts_.push_back({&index.packs_[p], segments});
  }

  // On disk: the new packs (written as they were made), then the catalog that names them, then
  // nothing else in the folder. Any failure leaves an index the next search repairs; this one
  // answers from memory. A catalog that says what the one on disk says is not written again (a
  // file the index's tick made suspect stays so).
  Catalog unchanged = fresh;
  unchanged.written_ns = old.written_ns;
  if (lock && written_all && (!read_catalog || encode(unchanged) != encode(old)) &&
      write_file_atomically(fs, inside(dir, "catalog"), encode(fresh), false).ok()) {
    index.work_.written = true;
    std::set<std::string> names = {"catalog", "lock"};
    for (const CatalogPack& p : fresh.packs) names.insert(p.name);
    // Deletion is real: a pack no longer named, and the bytes of what it held, go.
    if (const Result<std::vector<std::string>> listed = fs.list_directory(dir)) {
      for (const std::string& name : *listed) {
        if (!names.contains(name)) (void)fs.remove_file(inside(dir, name));
      }
    }
  }
  return index;
}

Result<RecallSearch> search_recall_index(FileSystem& fs, const std::string& root,
                                         const std::string& option,
                                         const std::string& custodian_dir,
                                         std::optional<recall::Layout> only,
                                         const IndexStemming& stemming, const search::Query& query,
                                         std::size_t limit) {
  for (int attempt = 1;; ++attempt) {
    Result<RecallIndex> index = open_recall_index(fs, root, option, custodian_dir, only, stemming);
    if (!index) return index.status();
    RecallSearch out{std::move(index).value(), {}};
    Status changed;
    for (const search::Hit& hit : search::search(out.index.parts(), query, limit)) {
      Result<std::pair<const RecallFile*, recall::Unit>> found = out.index.unit(hit.document);
      if (!found) {
        changed = found.status();
        break;
      }
      out.hits.push_back({found->first, std::move(found->second), hit.score});
    }
    if (changed.ok()) return out;
    if (attempt == 3) return changed;
  }
}

void refresh_recall_indexes(FileSystem& fs, const std::string& root) {
  const std::string indexes = root + "/.memkit/index";
  const Result<NodeType> type = fs.node_type(indexes);
  if (!type || *type != NodeType::directory) return;
  const Result<std::vector<std::string>> variants = fs.list_directory(indexes);
  if (!variants) return;
  for (const std::string& variant : *variants) {
    const std::string dir = inside(indexes, variant);
    if (const Result<NodeType> t = fs.node_type(dir); !t || *t != NodeType::directory) continue;
    std::optional<Catalog> catalog;
    if (const Result<std::string> bytes = fs.read_file(inside(dir, "catalog"))) {
      catalog = decode(*bytes);
    }
    if (catalog) {
      IndexStemming stemming{catalog->stem, nullptr};
      if (!catalog->stem.empty()) {
        Result<std::shared_ptr<const search::Stemmer>> loaded =
            load_snowball(catalog->stem, "--stem");
        if (loaded) stemming.stemmer = std::move(loaded).value();
      }
      if ((catalog->stem.empty() || stemming.stemmer) &&
          open_recall_index(fs, root, "--root", catalog->custodian_dir, catalog->only, stemming)
              .ok()) {
        continue;
      }
    }
    // An index that cannot be brought up to date goes whole: it may hold what was removed.
    if (const Result<std::vector<std::string>> names = fs.list_directory(dir)) {
      for (const std::string& name : *names) (void)fs.remove_file(inside(dir, name));
    }
  }
}

}  // namespace memkit
