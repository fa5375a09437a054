// The `memkit` executable: supplies the environment (clock, terminal, cwd) and nothing else.
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/app.hpp"

namespace {

// The system clock and the local zone's offset at this instant: the one clock read in memkit.
memkit::ClockReading read_system_clock() {
  const auto now = std::chrono::system_clock::now();
  const std::int64_t millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const time_t seconds = static_cast<time_t>(millis / 1000);
  struct tm local {};
  localtime_r(&seconds, &local);
  const auto offset_minutes = static_cast<std::int32_t>(local.tm_gmtoff / 60);
  return *memkit::ClockReading::create(millis, offset_minutes);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  memkit::cli::Environment env;
  if (const char* now = std::getenv("MEMKIT_NOW"); now != nullptr && *now != '\0') {
    env.memkit_now = now;
  }
  env.stdout_is_terminal = isatty(STDOUT_FILENO) == 1;
  env.no_colour = std::getenv("NO_COLOR") != nullptr;
  env.system_clock = read_system_clock;
  std::error_code error;
  env.current_directory = std::filesystem::current_path(error).string();
  const int code = memkit::cli::run(args, env, std::cout, std::cerr);
  std::cout.flush();
  return code;
}
