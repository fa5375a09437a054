/* A preload library for tests/cli/kill_matrix.py: the process kills itself with SIGKILL just
 * before its Nth durable step (fsync, fdatasync, rename, link, unlink, mkdir, rmdir), counting
 * every such call of any thread, so a test can stop a write at each point where the disk's state
 * changes, deterministically.
 *
 *   MEMKIT_KILL_AT=N      kill before the Nth step (unset or 0: never)
 *   MEMKIT_KILL_COUNT=F   at exit, write the number of steps taken to the file F
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long kill_at = 0;
static long steps = 0;

__attribute__((constructor)) static void kill_at_init(void) {
  const char* at = getenv("MEMKIT_KILL_AT");
  if (at != NULL) kill_at = strtol(at, NULL, 10);
}

__attribute__((destructor)) static void kill_at_report(void) {
  const char* file = getenv("MEMKIT_KILL_COUNT");
  if (file == NULL) return;
  char text[32];
  const int n = snprintf(text, sizeof text, "%ld\n", __atomic_load_n(&steps, __ATOMIC_SEQ_CST));
  const int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (n > 0) (void)!write(fd, text, (size_t)n);
  close(fd);
}

static void step(void) {
  const long n = __atomic_add_fetch(&steps, 1, __ATOMIC_SEQ_CST);
  if (kill_at > 0 && n == kill_at) raise(SIGKILL);
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))
/* Exported whatever the build's visibility preset: interposing is the point. */
#define EXPORT __attribute__((visibility("default")))

EXPORT int fsync(int fd) {
  step();
  return NEXT(fsync)(fd);
}

EXPORT int fdatasync(int fd) {
  step();
  return NEXT(fdatasync)(fd);
}

EXPORT int rename(const char* from, const char* to) {
  step();
  return NEXT(rename)(from, to);
}

EXPORT int link(const char* from, const char* to) {
  step();
  return NEXT(link)(from, to);
}

EXPORT int unlink(const char* path) {
  step();
  return NEXT(unlink)(path);
}

EXPORT int mkdir(const char* path, mode_t mode) {
  step();
  return NEXT(mkdir)(path, mode);
}

EXPORT int rmdir(const char* path) {
  step();
  return NEXT(rmdir)(path);
}
