// The synthetic memory generator. Structure and words come from two separate PRNG streams, and
// every word costs one draw whatever the flavour, so the three flavours have the same sections,
// units and line counts: their timings differ by the bytes alone.
#include "synthetic_memory.hpp"

#include <array>
#include <iterator>
#include <map>
#include <mutex>
#include <utility>

#include "split_mix.hpp"

namespace memkit::bench {
namespace {

constexpr std::string_view kAsciiWords[] = {
    "the",       "build",    "cache",    "decided",
    "because",   "test",     "config",   "memory",
    "agent",     "prefer",   "never",    "always",
    "use",       "when",     "file",     "path",
    "CMake",     "release",  "flaky",    "retry",
    "timeout",   "JSON",     "schema",   "parser",
    "token",     "budget",   "limit",    "user",
    "asked",     "for",      "a",        "an",
    "to",        "of",       "in",       "on",
    "with",      "and",      "or",       "not",
    "is",        "was",      "should",   "must",
    "API",       "endpoint", "v2",       "deploy",
    "staging",   "prod",     "rollback", "migration",
    "database",  "index",    "query",    "latency",
    "p99",       "ms",       "GB",       "server",
    "client",    "review",   "PR",       "#1234",
    "merged",    "branch",   "main",     "lint",
    "format",    "clang",    "GCC",      "Debian",
    "install",   "package",  "lockfile", "npm",
    "cargo",     "pip",      "venv",     "python3",
    "script",    "hook",     "commit",   "tag",
    "CHANGELOG", "README",   "docs",     "example",
    "`make`",    "`ctest`",  "**note**", "[link](https://example.com/a)",
    "(see",      "above)",   "e.g.",     "i.e.",
    "TODO:",     "FIXME",    "ok",       "done",
    "later",     "x86_64",
};

constexpr std::string_view kNonAsciiWords[] = {
    "café",   "naïve",  "résumé",   "Zürich", "façade",   "Ångström", "señal",  "über",
    "déjà",   "Straße", "Łódź",     "São",    "Ελληνικά", "память",   "проект", "ß",
    "日本語", "設定",   "ファイル", "中文",   "测试",     "记忆",     "文档",   "検索",
    "데이터", "메모리", "→",        "✓",      "—",        "“quoted”", "½",      "€42",
};

// Per flavour: the share of words drawn from kNonAsciiWords and of lines that end CRLF.
struct Recipe {
  std::uint64_t non_ascii_percent;
  std::uint64_t crlf_percent;
};

Recipe recipe_of(Flavour flavour) noexcept {
  switch (flavour) {
    case Flavour::ascii:
      return {0, 0};
    case Flavour::mixed_utf8:
      return {10, 2};
    case Flavour::crlf:
      return {0, 100};
  }
  return {0, 0};
}

class MemoryWriter final {
 public:
  MemoryWriter(Recipe recipe, std::uint64_t seed, std::string& out) noexcept
      : recipe_(recipe),
        shape_(seed),
        words_(seed ^ 0x5555555555555555ULL),
        ends_(seed ^ 0xAAAAAAAAAAAAAAAAULL),
        out_(out) {}

  void front_matter() {
    text("---");
    end_line();
    text("name: project-memory");
    end_line();
    text("description: ");
    words(6, 12);
    end_line();
    text("---");
    end_line();
  }

  // One H1 per simulated file: a large input reads like many memory files concatenated.
  void file_header() {
    text("# Memory: ");
    words(2, 4);
    end_line();
    blank();
    paragraph(1, 3);
    blank();
  }

  void section(std::size_t index) {
    if (shape_.percent(5)) {
      formal_entry(index);
      return;
    }
    text("## ");
    date(index);
    text(": ");
    words(2, 6);
    end_line();
    blank();
    if (shape_.percent(40)) {
      paragraph(1, 3);
      blank();
    }
    bullet_list(3, 12);
    if (shape_.percent(15)) fence("");
    if (shape_.percent(10)) comment();
    if (shape_.percent(10)) {
      text("### ");
      words(1, 4);
      end_line();
      blank();
      bullet_list(2, 4);
    }
  }

 private:
  void text(std::string_view s) { out_.append(s); }
  void end_line() { out_.append(ends_.percent(recipe_.crlf_percent) ? "\r\n" : "\n"); }
  void blank() { end_line(); }

  void words(std::size_t lo, std::size_t hi) {
    const std::size_t count = shape_.between(lo, hi);
    for (std::size_t i = 0; i < count; ++i) {
      if (i != 0) out_.push_back(' ');
      const std::uint64_t r = words_.next();
      const auto pick = static_cast<std::size_t>(r >> 32);
      if (r % 100 < recipe_.non_ascii_percent) {
        out_.append(kNonAsciiWords[pick % std::size(kNonAsciiWords)]);
      } else {
        out_.append(kAsciiWords[pick % std::size(kAsciiWords)]);
      }
    }
  }

  void paragraph(std::size_t lo, std::size_t hi) {
    const std::size_t lines = shape_.between(lo, hi);
    for (std::size_t i = 0; i < lines; ++i) {
      words(6, 16);
      end_line();
    }
  }

  // YYYY-MM-DD from the section index; not a calendar, but always a valid date.
  void date(std::size_t index) {
    number(2020 + (index / 336) % 10, 4);
    text("-");
    number(1 + (index / 28) % 12, 2);
    text("-");
    number(1 + index % 28, 2);
  }

  // Appends value in decimal, zero-padded to width digits (value < 10^width).
  void number(std::size_t value, std::size_t width) {
    std::array<char, 20> digits{};
    for (std::size_t i = width; i-- > 0; value /= 10)
      digits[i] = static_cast<char>('0' + value % 10);
    out_.append(digits.data(), width);
  }

  // §2.5: in an MC- section the bullets are fields, not units.
  void formal_entry(std::size_t index) {
    text("## MC-DEC-");
    number(index % 10000, 4);
    text(": ");
    words(2, 5);
    end_line();
    blank();
    text("- **Status:** accepted");
    end_line();
    text("- **Decision:** ");
    words(6, 14);
    end_line();
    text("- **Why:** ");
    words(6, 14);
    end_line();
    blank();
  }

  void bullet_list(std::size_t lo, std::size_t hi) {
    const std::size_t count = shape_.between(lo, hi);
    for (std::size_t i = 0; i < count; ++i) bullet_unit();
    blank();
  }

  void bullet_unit() {
    const std::uint64_t marker = shape_.next() % 100;
    text(marker < 80 ? "- " : marker < 95 ? "* " : "+ ");
    if (shape_.percent(20)) text("**Why:** ");
    words(5, 20);
    end_line();
    const std::size_t continuations = shape_.between(0, 3) == 3 ? shape_.between(1, 2) : 0;
    for (std::size_t i = 0; i < continuations; ++i) {
      text("  ");
      words(4, 14);
      end_line();
    }
    if (shape_.percent(30)) {
      const std::size_t nested = shape_.between(1, 3);
      for (std::size_t i = 0; i < nested; ++i) {
        text("  - ");
        words(3, 12);
        end_line();
        if (shape_.percent(20)) {
          text("    ");
          words(3, 10);
          end_line();
        }
      }
    }
    if (shape_.percent(3)) fence("  ");  // an indented fence belongs to the unit
    if (shape_.percent(8)) blank();      // a loose list: the blank line before the next bullet
  }

  void fence(std::string_view indent) {
    static constexpr std::array<std::string_view, 4> kLanguages = {"sh", "json", "python", ""};
    text(indent);
    text("```");
    text(kLanguages[shape_.between(0, kLanguages.size() - 1)]);
    end_line();
    const std::size_t lines = shape_.between(2, 8);
    for (std::size_t i = 0; i < lines; ++i) {
      text(indent);
      text(shape_.percent(50) ? "    " : "");
      words(2, 8);
      end_line();
    }
    text(indent);
    text("```");
    end_line();
    blank();
  }

  void comment() {
    text("<!-- ");
    if (shape_.percent(50)) {
      words(3, 8);
      text(" -->");
      end_line();
    } else {
      end_line();
      paragraph(1, 3);
      text("-->");
      end_line();
    }
    blank();
  }

  Recipe recipe_;
  SplitMix64 shape_;  // structure: the same for every flavour
  SplitMix64 words_;  // one draw per word
  SplitMix64 ends_;   // one draw per line terminator
  std::string& out_;
};

constexpr std::size_t kSectionsPerFile = 250;

}  // namespace

std::string_view flavour_name(Flavour flavour) noexcept {
  switch (flavour) {
    case Flavour::ascii:
      return "ascii";
    case Flavour::mixed_utf8:
      return "mixed_utf8";
    case Flavour::crlf:
      return "crlf";
  }
  return "ascii";
}

std::optional<Flavour> flavour_from_name(std::string_view name) noexcept {
  for (Flavour f : {Flavour::ascii, Flavour::mixed_utf8, Flavour::crlf}) {
    if (flavour_name(f) == name) return f;
  }
  return std::nullopt;
}

std::string synthetic_memory(Flavour flavour, std::size_t min_bytes, std::uint64_t seed) {
  std::string out;
  out.reserve(min_bytes + 64 * 1024);
  MemoryWriter writer(recipe_of(flavour), seed, out);
  writer.front_matter();
  for (std::size_t index = 0; index == 0 || out.size() < min_bytes; ++index) {
    if (index % kSectionsPerFile == 0) writer.file_header();
    writer.section(index);
  }
  return out;
}

std::shared_ptr<const std::string> shared_synthetic_memory(Flavour flavour, std::size_t mib) {
  static std::mutex mutex;
  static std::map<std::pair<Flavour, std::size_t>, std::shared_ptr<const std::string>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[{flavour, mib}];
  if (!slot) slot = std::make_shared<const std::string>(synthetic_memory(flavour, mib << 20));
  return slot;
}

}  // namespace memkit::bench
