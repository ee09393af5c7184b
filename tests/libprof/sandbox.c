/* A program that sandboxes itself with Landlock after start-up, as xz
   (5.6 and later, src/xz/sandbox.c) does, then works and exits normally.
   A runtime that opens gmon.out at exit is then refused (EACCES).

   sandbox [-c] [-s SECONDS] [MODE [DIR]]
     MODE  strict    every filesystem access the kernel's Landlock ABI
                     knows is handled and none is granted: xz's
                     sandbox_enable_strict_if_allowed(), used when it
                     compresses one file or stdin to stdout (xz -c FILE)
           readonly  only reading files and directories is granted: xz's
                     sandbox_enable_read_only() (-c with several files,
                     -t, -l)
           init      writing, reading, listing, removing and creating
                     regular files are granted, everything else (making
                     directories, links across directories, truncating,
                     ...) is not: xz's sandbox_init(), always applied
           allow DIR strict, plus a landlock_add_rule() granting every
                     access beneath DIR
           probe     strict; reports which ways of leaving a file
                     survive it (things opened before vs. after)
     -c    close stdout and stderr before returning from main, as xz's
           tuklib_exit() does (so nothing at exit can print a message)
     -s    CPU seconds spent in spin() after the sandbox is on (0.3)
   Prints on stderr the CPU seconds used from main on.  Exits 77, saying
   so, when the kernel has no Landlock. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset      /* the same numbers on every arch */
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#define LL_VERSION 1u                       /* LANDLOCK_CREATE_RULESET_VERSION */
#define LL_RULE_PATH_BENEATH 1
enum {                                      /* LANDLOCK_ACCESS_FS_* */
  FS_EXECUTE = 1 << 0, FS_WRITE_FILE = 1 << 1, FS_READ_FILE = 1 << 2,
  FS_READ_DIR = 1 << 3, FS_REMOVE_DIR = 1 << 4, FS_REMOVE_FILE = 1 << 5,
  FS_MAKE_CHAR = 1 << 6, FS_MAKE_DIR = 1 << 7, FS_MAKE_REG = 1 << 8,
  FS_MAKE_SOCK = 1 << 9, FS_MAKE_FIFO = 1 << 10, FS_MAKE_BLOCK = 1 << 11,
  FS_MAKE_SYM = 1 << 12, FS_REFER = 1 << 13 /* ABI 2 */,
  FS_TRUNCATE = 1 << 14 /* ABI 3 */, FS_IOCTL_DEV = 1 << 15 /* ABI 5 */
};
struct ll_ruleset_attr { uint64_t handled_access_fs; };
struct ll_path_beneath { uint64_t allowed_access; int32_t parent_fd; } __attribute__((packed));

static volatile unsigned long sink;

static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void spin(double secs)
{
  double end = cpu() + secs;
  while (cpu() < end)
    for (int i = 0; i < 1000000; i++) sink += (unsigned long)i;
}

/* Every filesystem right the running kernel's ABI handles. */
static uint64_t all_fs(int abi)
{
  uint64_t m = (FS_MAKE_SYM << 1) - 1;
  if (abi >= 2) m |= FS_REFER;
  if (abi >= 3) m |= FS_TRUNCATE;
  if (abi >= 5) m |= FS_IOCTL_DEV;
  return m;
}

/* Restricts the process: HANDLED rights are denied except beneath DIR,
   where every handled right is granted. */
static void restrict_self(uint64_t handled, const char *dir)
{
  struct ll_ruleset_attr attr = { handled };
  int rs = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
  if (rs < 0) { perror("landlock_create_ruleset"); exit(1); }
  if (dir) {
    struct ll_path_beneath pb = { handled, open(dir, O_PATH | O_CLOEXEC) };
    if (pb.parent_fd < 0 || syscall(SYS_landlock_add_rule, rs, LL_RULE_PATH_BENEATH, &pb, 0) != 0) {
      perror(dir);
      exit(1);
    }
    close(pb.parent_fd);
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_landlock_restrict_self, rs, 0) != 0) {
    perror("landlock_restrict_self");
    exit(1);
  }
  close(rs);
}

static void report(const char *what, int ok)
{
  fprintf(stderr, "probe: %-58s %s\n", what, ok ? "allowed" : strerror(errno));
}

/* What still works once the strict sandbox is on, for things prepared
   before it: an open file, an O_TMPFILE, a directory fd. */
static void probe(int abi)
{
  unlink("probe.pre"); unlink("probe.link"); unlink("probe.new"); unlink("probe.renamed");
  int pre = open("probe.pre", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  int tmpf = open(".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  int dirfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  restrict_self(all_fs(abi), NULL);
  errno = 0;
  report("write(2) to a file opened before", pre >= 0 && write(pre, "x", 1) == 1);
  report("ftruncate() of a file opened before", pre >= 0 && ftruncate(pre, 0) == 0);
  report("rename() of a file created before (same directory)", rename("probe.pre", "probe.renamed") == 0);
  report("write(2) to an O_TMPFILE opened before", tmpf >= 0 && write(tmpf, "x", 1) == 1);
  report("linkat(AT_EMPTY_PATH) of that O_TMPFILE into its directory",
         tmpf >= 0 && linkat(tmpf, "", AT_FDCWD, "probe.link", AT_EMPTY_PATH) == 0);
  char p[64];
  snprintf(p, sizeof p, "/proc/self/fd/%d", tmpf);
  report("linkat(/proc/self/fd/N, AT_SYMLINK_FOLLOW) of it",
         tmpf >= 0 && linkat(AT_FDCWD, p, AT_FDCWD, "probe.link", AT_SYMLINK_FOLLOW) == 0);
  int fd = openat(dirfd, "probe.new", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  report("openat(directory fd opened before, O_CREAT)", fd >= 0);
  fd = open(".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  report("open(O_TMPFILE) after", fd >= 0);
  fd = open("probe.new", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  report("open(O_CREAT) after", fd >= 0);
  report("write(2) to stderr", 1);
}

int main(int argc, char **argv)
{
  double start = cpu(), secs = 0.3;
  int close_std = 0, i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "-c") == 0) close_std = 1;
    else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) secs = atof(argv[++i]);
    else break;
  }
  const char *mode = i < argc ? argv[i++] : "strict";
  const char *dir = i < argc ? argv[i++] : NULL;
  int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LL_VERSION);
  if (abi <= 0) {
    fprintf(stderr, "sandbox: this kernel has no Landlock (%s): skipped\n", strerror(errno));
    return 77;
  }
  if (strcmp(mode, "strict") == 0) restrict_self(all_fs(abi), NULL);
  else if (strcmp(mode, "readonly") == 0) restrict_self(all_fs(abi) & ~(uint64_t)(FS_READ_FILE | FS_READ_DIR), NULL);
  else if (strcmp(mode, "init") == 0)
    restrict_self(all_fs(abi) & ~(uint64_t)(FS_WRITE_FILE | FS_READ_FILE | FS_READ_DIR | FS_REMOVE_FILE | FS_MAKE_REG), NULL);
  else if (strcmp(mode, "allow") == 0 && dir) restrict_self(all_fs(abi), dir);
  else if (strcmp(mode, "probe") == 0) probe(abi);
  else {
    fprintf(stderr, "usage: sandbox [-c] [-s SECONDS] [strict|readonly|init|allow DIR|probe]\n");
    return 2;
  }
  spin(secs);
  fprintf(stderr, "%.4f\n", cpu() - start);
  if (close_std) { fclose(stdout); fclose(stderr); }
  return 0;
}
