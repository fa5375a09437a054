// The `memkit` executable: supplies the environment (clock, terminal, cwd) and nothing else.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <new>
#include <utility>

#include "cli/app.hpp"
#include "store/system_clock.hpp"
#if MEMKIT_WITH_POSTGRES
#include "sync/postgres/postgres.hpp"
#endif

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  memkit::cli::Environment env;
  if (const char* now = std::getenv("MEMKIT_NOW"); now != nullptr && *now != '\0') {
    env.memkit_now = now;
  }
  for (const auto& [name, field] :
       {std::pair{"MEMKIT_STORE", &memkit::cli::Environment::memkit_store},
        std::pair{"MEMKIT_WORKSPACE", &memkit::cli::Environment::memkit_workspace},
        std::pair{"MEMKIT_ACTOR", &memkit::cli::Environment::memkit_actor}}) {
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0')
      env.*field = value;
  }
  env.read_stdin = [](std::size_t limit) -> memkit::Result<std::string> {
    // At most limit + 1 bytes: the command refuses anything over its limit without reading on.
    std::string text;
    char chunk[1 << 16];
    while (text.size() <= limit) {
      std::cin.read(chunk,
                    static_cast<std::streamsize>(std::min(sizeof chunk, limit + 1 - text.size())));
      text.append(chunk, static_cast<std::size_t>(std::cin.gcount()));
      if (!std::cin) break;
    }
    if (std::cin.bad()) return memkit::Status(memkit::Errc::io, "standard input: cannot be read");
    return text;
  };
  env.cli = true;
  if (const char* tmp = std::getenv("TMPDIR"); tmp != nullptr) env.temporary_directory = tmp;
  env.stdout_is_terminal = isatty(STDOUT_FILENO) == 1;
  env.stderr_is_terminal = isatty(STDERR_FILENO) == 1;
  env.no_progress =
      std::getenv("NO_PROGRESS") != nullptr || std::getenv("MEMKIT_NO_PROGRESS") != nullptr;
  env.no_colour = std::getenv("NO_COLOR") != nullptr;
  env.system_clock = memkit::read_system_clock;
  env.random_bytes = memkit::read_system_random;
  if (const char* conninfo = std::getenv("MEMKIT_SYNC_CONNINFO"); conninfo != nullptr) {
    env.sync_conninfo = conninfo;
  }
#if MEMKIT_WITH_POSTGRES
  env.open_postgres = memkit::sync::open_postgres_remote;
#endif
  std::error_code error;
  env.current_directory = std::filesystem::current_path(error).string();
  // Commands turn exceptions into findings; this is for what is left (printing the reply).
  try {
    const int code = memkit::cli::run(args, env, std::cout, std::cerr);
    std::cout.flush();
    return code;
  } catch (const std::bad_alloc&) {
    std::cerr << "memkit: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "memkit: internal error: " << e.what() << "\n";
  }
  return 2;
}
