// The search index on disk (recall_index.hpp): a catalog of the files it holds and packs of their
// units, brought up to date before every search.
#include "store/recall_index.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <limits>
#include <map>
#include <set>

#include "memkit/digest.hpp"
#include "memkit/version.hpp"
#include "stemming/snowball.hpp"

namespace memkit {
namespace {

using Digest = std::array<std::uint8_t, 16>;

constexpr std::string_view kMagic = "MKRCAT02";
constexpr std::string_view kEnd = "MKRCATND";

// ---- the catalog ----------------------------------------------------------------------------------

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
};

struct CatalogPack {
  std::string name;              // p-<hex>.idx
  // The pack file's stat once written and read back: while it is the same, the file holds those
  // bytes, and they are opened without checking every list again.
  FileStat stat;
  std::uint64_t source_bytes = 0;  // its files' sizes summed
  std::size_t first_file = 0;    // into Catalog::files
  std::size_t files = 0;
};

struct Catalog {
  std::string generation;  // the memkit that wrote it: another cuts units its own way
  std::string custodian_dir;  // what it indexes: the arguments of open_recall_index
  std::optional<recall::Layout> only;
  std::string stem;  // the stemmer's language, or "" for none
  std::int64_t written_ns = 0;  // the lock's time when it was written: files changed since are suspect
  std::vector<CatalogFile> files;  // in path order
  std::vector<CatalogPack> packs;  // in path order of their files
};

class Encoder {
 public:
  void word(std::uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }  // NOLINT
  void text(std::string_view s) {
    word(s.size());
    out_.append(s);
  }
  std::string take() && { return std::move(out_); }

 private:
  std::string out_;
};

class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : rest_(bytes) {}
  bool word(std::uint64_t& v) {
    if (rest_.size() < sizeof v) return false;
    std::memcpy(&v, rest_.data(), sizeof v);
    rest_.remove_prefix(sizeof v);
    return true;
  }
  template <typename T>
  bool number(T& v) {
    std::uint64_t w = 0;
    if (!word(w)) return false;
    v = static_cast<T>(w);
    return true;
  }
  bool text(std::string& s) {
    std::uint64_t n = 0;
    if (!word(n) || n > rest_.size()) return false;
    s.assign(rest_.substr(0, n));
    rest_.remove_prefix(n);
    return true;
  }
  [[nodiscard]] std::string_view rest() const { return rest_; }

 private:
  std::string_view rest_;
};

std::string display(const CatalogFile& f) {
  return recall::display_path(recall::Source{f.layout, f.root, f.path, f.tier});
}

std::string encode(const Catalog& c) {
  Encoder e;
  e.text(kMagic);
  e.text(c.generation);
  e.text(c.custodian_dir);
  e.word(c.only ? static_cast<std::uint64_t>(*c.only) : std::numeric_limits<std::uint64_t>::max());
  e.text(c.stem);
  e.word(static_cast<std::uint64_t>(c.written_ns));
  e.word(c.files.size());
  for (const CatalogFile& f : c.files) {
    e.word(static_cast<std::uint64_t>(f.layout));
    e.text(f.root);
    e.text(f.path);
    e.word(static_cast<std::uint64_t>(f.tier));
    e.word(f.load_order ? *f.load_order : std::numeric_limits<std::uint64_t>::max());
    for (const std::uint64_t v :
         {f.stat.size, static_cast<std::uint64_t>(f.stat.modified_ns),
          static_cast<std::uint64_t>(f.stat.changed_ns), f.stat.device, f.stat.inode}) {
      e.word(v);
    }
    e.text(std::string_view(reinterpret_cast<const char*>(f.digest.data()), f.digest.size()));  // NOLINT
    e.word(f.units);
    e.word(f.findings.size());
    for (const Finding& x : f.findings) {
      e.text(x.code);
      e.word(static_cast<std::uint64_t>(x.severity));
      e.text(x.path);
      e.text(x.message);
    }
  }
  e.word(c.packs.size());
  for (const CatalogPack& p : c.packs) {
    e.text(p.name);
    for (const std::uint64_t v :
         {p.stat.size, static_cast<std::uint64_t>(p.stat.modified_ns),
          static_cast<std::uint64_t>(p.stat.changed_ns), p.stat.device, p.stat.inode,
          p.source_bytes, std::uint64_t{p.first_file}, std::uint64_t{p.files}}) {
      e.word(v);
    }
  }
  e.text(kEnd);
  return std::move(e).take();
}

// The catalog `bytes` hold, or nullopt for bytes torn, damaged, foreign or of another memkit.
std::optional<Catalog> decode(std::string_view bytes) {
  Decoder d(bytes);
  Catalog c;
  std::string magic;
  std::uint64_t only = 0;
  std::uint64_t count = 0;
  if (!d.text(magic) || magic != kMagic || !d.text(c.generation) ||
      c.generation != version() || !d.text(c.custodian_dir) || !d.word(only) ||
      (only > static_cast<std::uint64_t>(recall::Layout::curated) &&
       only != std::numeric_limits<std::uint64_t>::max()) ||
      !d.text(c.stem) || !d.number(c.written_ns) || !d.word(count) || count > bytes.size()) {
    return std::nullopt;
  }
  if (only != std::numeric_limits<std::uint64_t>::max()) c.only = static_cast<recall::Layout>(only);
  for (std::uint64_t i = 0; i < count; ++i) {
    CatalogFile f;
    std::uint64_t layout = 0;
    std::uint64_t order = 0;
    std::uint64_t findings = 0;
    std::string digest;
    if (!d.word(layout) || layout > static_cast<std::uint64_t>(recall::Layout::curated) ||
        !d.text(f.root) || !d.text(f.path) || !d.number(f.tier) || !d.word(order) ||
        !d.word(f.stat.size) || !d.number(f.stat.modified_ns) || !d.number(f.stat.changed_ns) ||
        !d.word(f.stat.device) || !d.word(f.stat.inode) || !d.text(digest) ||
        digest.size() != f.digest.size() || !d.word(f.units) || !d.word(findings) ||
        findings > bytes.size()) {
      return std::nullopt;
    }
    f.layout = static_cast<recall::Layout>(layout);
    f.stat.type = NodeType::file;
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
    c.files.push_back(std::move(f));
  }
  if (!d.word(count) || count > bytes.size()) return std::nullopt;
  std::size_t next_file = 0;  // packs cover the files in order, each file once
  for (std::uint64_t i = 0; i < count; ++i) {
    CatalogPack p;
    if (!d.text(p.name) || !d.word(p.stat.size) || !d.number(p.stat.modified_ns) ||
        !d.number(p.stat.changed_ns) || !d.word(p.stat.device) || !d.word(p.stat.inode) ||
        !d.word(p.source_bytes) || !d.number(p.first_file) ||
        !d.number(p.files) || p.first_file != next_file || p.files == 0 ||
        p.files > c.files.size() - next_file || p.name.find('/') != std::string::npos ||
        !p.name.starts_with("p-")) {
      return std::nullopt;
    }
    next_file += p.files;
    p.stat.type = NodeType::file;
    c.packs.push_back(std::move(p));
  }
  std::string end;
  if (next_file != c.files.size() || !d.text(end) || end != kEnd || !d.rest().empty()) {
    return std::nullopt;
  }
  return c;
}

// ---- bringing the index up to date ---------------------------------------------------------------

// `path` under the folder `folder`.
std::string inside(const std::string& folder, const std::string& path) { return folder + "/" + path; }

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

bool same_file(const CatalogFile& a, const CatalogFile& b) {
  return a.layout == b.layout && a.root == b.root && a.path == b.path && a.tier == b.tier &&
         a.load_order == b.load_order && a.stat == b.stat;
}

}  // namespace

Result<std::pair<const RecallFile*, recall::Unit>> RecallIndex::unit(std::size_t document) {
  const auto after = std::upper_bound(
      indexed_.begin(), indexed_.end(), document,
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

  // The catalog on disk, if it is whole and this memkit's.
  std::optional<Catalog> old;
  if (const Result<NodeType> t = fs.node_type(inside(dir, "catalog")); t && *t == NodeType::file) {
    if (const Result<std::string> bytes = fs.read_file(inside(dir, "catalog"))) old = decode(*bytes);
    if (old && (old->custodian_dir != custodian_dir || old->only != only ||
                old->stem != stemming.language)) {
      old.reset();
    }
  }
  Catalog fresh;
  fresh.generation = std::string(version());
  fresh.custodian_dir = custodian_dir;
  fresh.only = only;
  fresh.stem = stemming.language;
  fresh.written_ns = now_ns;

  // What of the old index still holds what the files hold: each file unchanged or not, each pack
  // clean (every file unchanged, none gone, none new among them) or not, and opened where any of
  // its files can be copied from it.
  std::map<std::string, std::size_t> old_file;  // display path -> into old->files
  std::vector<std::size_t> pack_of;             // old file -> its pack
  std::vector<std::size_t> first_of;            // old file -> its first document in its pack
  std::vector<bool> unchanged;                  // by old file
  std::vector<bool> clean;                      // by old pack
  std::vector<std::optional<search::Index>> opened;  // by old pack
  bool dissolve = false;  // too many small packs (each change leaves some): all of them copied anew
  if (old) {
    for (std::size_t p = 0; p < old->packs.size(); ++p) {
      std::size_t document = 0;
      for (std::size_t k = 0; k < old->packs[p].files; ++k) {
        pack_of.push_back(p);
        first_of.push_back(document);
        document += old->files[old->packs[p].first_file + k].units;
      }
    }
    for (std::size_t i = 0; i < old->files.size(); ++i) old_file.emplace(display(old->files[i]), i);
    clean.assign(old->packs.size(), true);
    unchanged.assign(old->files.size(), false);
    for (const std::size_t i : indexable) {
      const RecallFile& file = index.files_[i];
      const auto found = old_file.find(file.file.path);
      if (found == old_file.end()) {
        // A new file inside a pack's run of paths spoils that pack's order.
        const auto next = old_file.upper_bound(file.file.path);
        if (next != old_file.end() && next != old_file.begin() &&
            pack_of[next->second] == pack_of[std::prev(next)->second]) {
          clean[pack_of[next->second]] = false;
        }
        continue;
      }
      const CatalogFile& was = old->files[found->second];
      bool same = same_file(was, recorded(file));
      if (same && was.stat.modified_ns >= old->written_ns) {
        // Changed within the clock tick the index was written in: only the bytes can tell.
        ++index.work_.files_read;
        const Result<std::string> bytes = fs.read_file(inside(root, file.file.path));
        same = bytes && xxh3_128(*bytes) == was.digest;
      }
      unchanged[found->second] = same;
    }
    for (std::size_t i = 0; i < old->files.size(); ++i) {
      if (!unchanged[i]) clean[pack_of[i]] = false;  // changed, gone, or no longer a file
    }
    std::uint64_t source = 0;
    for (const CatalogPack& p : old->packs) source += p.source_bytes;
    dissolve = old->packs.size() > 2 * (source / pack_bytes) + 16;
    opened.resize(old->packs.size());
    for (std::size_t p = 0; p < old->packs.size(); ++p) {
      const CatalogPack& pack = old->packs[p];
      if (std::none_of(unchanged.begin() + static_cast<std::ptrdiff_t>(pack.first_file),
                       unchanged.begin() + static_cast<std::ptrdiff_t>(pack.first_file + pack.files),
                       [](bool b) { return b; })) {
        continue;  // nothing to copy from it
      }
      const std::string path = inside(dir, pack.name);
      const Result<FileStat> stat = fs.stat(path);
      if (!stat || stat->type != NodeType::file) continue;
      Result<MappedFile> mapped = fs.map_file(path);
      if (!mapped) continue;
      // Checked whole unless it is still the file this index wrote and read back.
      Result<search::Index> part =
          search::Index::open(mapped->bytes, mapped->owner, *stat != pack.stat);
      const std::size_t units = first_of[pack.first_file + pack.files - 1] +
                                old->files[pack.first_file + pack.files - 1].units;
      if (part && part->size() == units) opened[p] = std::move(part).value();
    }
  }

  // The packs of the index, in path order: a clean pack kept as it is; the files of the others
  // (and new ones) made into packs of about `pack_bytes`, an unchanged file's documents copied from
  // its old pack, a changed or new file read, cut and indexed.
  struct Pending {
    std::size_t file = 0;  // into files_
    std::optional<std::size_t> old;  // an unchanged file: into old->files
  };
  std::vector<Pending> pending;
  std::uint64_t pending_bytes = 0;
  // A new pack's bytes written under their digest's name, its stat recorded; false on failure.
  bool written_all = true;  // every new pack so far is on disk
  const auto write_pack = [&fs, &dir](const std::string& bytes, CatalogPack& pack) {
    const Digest digest = xxh3_128(bytes);
    static constexpr char kHex[] = "0123456789abcdef";
    pack.name = "p-";
    for (std::size_t k = 0; k < 10; ++k) {
      pack.name += kHex[digest[k] >> 4];
      pack.name += kHex[digest[k] & 15];
    }
    pack.name += ".idx";
    if (!write_file_atomically(fs, inside(dir, pack.name), bytes, false).ok()) return false;
    const Result<FileStat> written = fs.stat(inside(dir, pack.name));
    if (!written || written->size != bytes.size()) return false;
    pack.stat = *written;
    return true;
  };
  const auto add_file = [&](std::size_t i, std::size_t units, const CatalogFile& f) {
    index.indexed_.push_back({i, index.units_, units, f.digest});
    index.units_ += units;
    for (const Finding& x : f.findings) index.findings_.push_back(x);
    fresh.files.push_back(f);
  };
  // A changed or new file read, cut and indexed into `part`.
  const auto index_file = [&](std::size_t i, search::Index& part) {
    RecallFile& file = index.files_[i];
    CatalogFile f = recorded(file);
    // Read after its stat (MemoryBox's were read before: again), so what is indexed is never
    // older than what the catalog says.
    if (!file.file.bytes || file.source.layout == recall::Layout::memorybox) {
      Result<std::string> bytes = fs.read_file(inside(root, file.file.path));
      if (bytes) {
        file.file.bytes = std::make_shared<const std::string>(std::move(bytes).value());
      } else {
        file.file.bytes = std::make_shared<const std::string>();
        std::string why = bytes.status().message();
        if (why.starts_with(root + "/")) why.erase(0, root.size() + 1);
        f.findings.push_back(make_finding("MK-IO-001", Severity::warning, file.file.path,
                                          why + "; not searched"));
      }
    }
    ++index.work_.files_read;
    f.digest = xxh3_128(file.file.text());
    recall::FileUnits read = recall::read_units(file.source, file.file.text());
    for (recall::Unit& unit : read.units) {
      search::Facets facets = std::move(unit.facets);
      facets.emplace_back("layout", std::string(recall::layout_name(file.source.layout)));
      facets.emplace_back("file", file.file.path);
      part.add(unit.text, std::move(facets));
    }
    f.units = read.units.size();
    f.findings.insert(f.findings.end(), read.findings.begin(), read.findings.end());
    add_file(i, f.units, f);
  };
  const auto flush = [&] {
    if (pending.empty()) return;
    CatalogPack pack;
    pack.first_file = fresh.files.size();
    pack.files = pending.size();
    // The pack's documents as runs: copied from an old pack, or from an index of the files read.
    std::deque<search::Index> read;  // one per run of files read next to each other
    std::vector<search::Run> runs;
    for (std::size_t k = 0; k < pending.size();) {
      pack.source_bytes += index.files_[pending[k].file].stat.size;
      if (!pending[k].old) {
        if (runs.empty() || runs.back().index != (read.empty() ? nullptr : &read.back())) {
          runs.push_back({&read.emplace_back(stemming.stemmer.get()), 0,
                          std::numeric_limits<std::size_t>::max()});
        }
        index_file(pending[k].file, read.back());
        ++k;
        continue;
      }
      // Unchanged files next to each other in one old pack: one run.
      const std::size_t first = *pending[k].old;
      std::size_t last = first;
      add_file(pending[k].file, old->files[first].units, old->files[first]);
      for (++k; k < pending.size() && pending[k].old && *pending[k].old == last + 1 &&
                pack_of[last + 1] == pack_of[first];
           ++k) {
        ++last;
        pack.source_bytes += index.files_[pending[k].file].stat.size;
        add_file(pending[k].file, old->files[last].units, old->files[last]);
      }
      runs.push_back({&*opened[pack_of[first]], first_of[first],
                      first_of[last] + old->files[last].units - first_of[first]});
    }
    auto bytes = std::make_shared<const std::string>(search::serialize(runs));
    Result<search::Index> part = search::Index::open(*bytes, bytes, /*checked=*/false);
    if (!part) throw std::logic_error("recall index: " + part.status().message());  // a bug
    // Written now, and read from the page cache after: the new packs are never all in memory.
    if (lock && written_all) {
      written_all = write_pack(*bytes, pack);
      Result<MappedFile> mapped =
          written_all ? fs.map_file(inside(dir, pack.name)) : Result<MappedFile>(Status(Errc::io, ""));
      if (mapped && mapped->bytes.size() == bytes->size()) {  // read back by the write
        Result<search::Index> again = search::Index::open(mapped->bytes, mapped->owner, false);
        if (again) part = std::move(again);
      }
    }
    fresh.packs.push_back(std::move(pack));
    index.packs_.push_back(std::move(part).value());
    ++index.work_.packs_built;
    pending.clear();
    pending_bytes = 0;
  };
  std::optional<std::size_t> last_kept;
  for (const std::size_t i : indexable) {
    const RecallFile& file = index.files_[i];
    const auto found = old ? old_file.find(file.file.path) : old_file.end();
    const bool copyable = found != old_file.end() && unchanged[found->second] &&
                          opened[pack_of[found->second]].has_value();
    const std::optional<std::size_t> pack =
        copyable ? std::optional<std::size_t>(pack_of[found->second]) : std::nullopt;
    if (pack && pack == last_kept) {  // the rest of a pack kept
      add_file(i, old->files[found->second].units, old->files[found->second]);
      continue;
    }
    // At a clean pack's first file: kept as it is, unless it is small and something is pending,
    // which it then joins.
    const bool small = pack && old->packs[*pack].source_bytes < pack_bytes / 4;
    if (pack && clean[*pack] && !dissolve && !(small && !pending.empty()) &&
        found->second == old->packs[*pack].first_file) {
      flush();
      last_kept = pack;
      CatalogPack was = old->packs[*pack];
      was.first_file = fresh.files.size();
      fresh.packs.push_back(std::move(was));
      index.packs_.push_back(std::move(*opened[*pack]));
      ++index.work_.packs_kept;
      add_file(i, old->files[found->second].units, old->files[found->second]);
      continue;
    }
    pending.push_back({i, copyable ? std::optional<std::size_t>(found->second) : std::nullopt});
    pending_bytes += file.stat.size;
    if (pending_bytes >= pack_bytes) flush();
  }
  flush();
  for (const search::Index& part : index.packs_) index.views_.push_back(&part);

  // On disk: the new packs (written as they were made), then the catalog that names them, then
  // nothing else in the folder. Any failure leaves an index the next search repairs; this one
  // answers from memory.
  const bool changed = !old || index.work_.packs_built > 0 || old->packs.size() != fresh.packs.size();
  if (lock && changed && written_all &&
      write_file_atomically(fs, inside(dir, "catalog"), encode(fresh), false).ok()) {
    index.work_.written = true;
    std::set<std::string> keep = {"catalog", "lock"};
    for (const CatalogPack& p : fresh.packs) keep.insert(p.name);
    // Deletion is real: a pack no longer named, and the bytes of what it held, go.
    if (const Result<std::vector<std::string>> names = fs.list_directory(dir)) {
      for (const std::string& name : *names) {
        if (!keep.contains(name)) (void)fs.remove_file(inside(dir, name));
      }
    }
  }
  return index;
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
        Result<std::shared_ptr<const search::Stemmer>> loaded = load_snowball(catalog->stem, "--stem");
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
