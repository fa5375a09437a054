// A real temporary folder per test, removed afterwards, plus the few file helpers shell tests
// need to set up and inspect it without going through memkit.
#pragma once

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace memkit::shell_test {

namespace fs = std::filesystem;

class TempDir final {
 public:
  TempDir() {
    static std::atomic<unsigned> counter{0};
    std::random_device seed;
    for (int attempt = 0; attempt < 100; ++attempt) {
      const fs::path candidate =
          fs::temp_directory_path() /
          ("memkit-shell-" + std::to_string(seed()) + "-" + std::to_string(counter++));
      if (fs::create_directory(candidate)) {
        path_ = candidate;
        return;
      }
    }
    throw std::runtime_error("cannot create a temporary directory");
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const fs::path& path() const noexcept { return path_; }
  [[nodiscard]] std::string str() const { return path_.string(); }
  [[nodiscard]] std::string operator/(const std::string& relative) const {
    return (path_ / relative).string();
  }

 private:
  fs::path path_;
};

inline void write_bytes(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

inline std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::uint32_t mode_of(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + path.string());
  return static_cast<std::uint32_t>(st.st_mode & 07777);
}

inline void set_mode_of(const fs::path& path, std::uint32_t mode) {
  if (::chmod(path.c_str(), static_cast<mode_t>(mode)) != 0) {
    throw std::runtime_error("cannot chmod " + path.string());
  }
}

// Every entry under `root`, relative, sorted; directories end in "/", symbolic links in "@".
inline std::vector<std::string> tree_of(const fs::path& root) {
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    std::string name = fs::relative(it->path(), root).generic_string();
    if (it->is_symlink()) {
      name += "@";
    } else if (it->is_directory()) {
      name += "/";
    }
    out.push_back(std::move(name));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Names in `dir` (not recursive) that look like memkit's temporary files.
inline std::vector<std::string> temporaries_in(const fs::path& dir) {
  std::vector<std::string> out;
  if (!fs::is_directory(dir)) return out;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(".memkit-tmp-", 0) == 0) out.push_back(name);
  }
  return out;
}

// Temporary files anywhere under `root`.
inline std::vector<std::string> temporaries_under(const fs::path& root) {
  std::vector<std::string> out;
  for (const std::string& entry : tree_of(root)) {
    const std::size_t slash = entry.rfind('/', entry.size() - 2);
    const std::string name = slash == std::string::npos ? entry : entry.substr(slash + 1);
    if (name.rfind(".memkit-tmp-", 0) == 0) out.push_back(entry);
  }
  return out;
}

}  // namespace memkit::shell_test
