// The `memkit` executable: supplies the environment (clock, terminal, cwd) and nothing else.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/app.hpp"
#include "memkit/system_clock.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  memkit::cli::Environment env;
  if (const char* now = std::getenv("MEMKIT_NOW"); now != nullptr && *now != '\0') {
    env.memkit_now = now;
  }
  env.stdout_is_terminal = isatty(STDOUT_FILENO) == 1;
  env.no_colour = std::getenv("NO_COLOR") != nullptr;
  env.system_clock = memkit::read_system_clock;
  std::error_code error;
  env.current_directory = std::filesystem::current_path(error).string();
  const int code = memkit::cli::run(args, env, std::cout, std::cerr);
  std::cout.flush();
  return code;
}
