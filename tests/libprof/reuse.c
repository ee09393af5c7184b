/* reuse.c -- a plugin dlclose'd and another loaded at its address, again
   and again: ROUNDS times (argv[1], 60) ./libreuseA.so is opened, runs
   MS ms of CPU time (argv[2], 4: less than the 20 ms libprof's poller
   waits between looks at the map), is closed, and ./libreuseB.so, opened
   at once, does the same.  Prints "rounds N same M": M rounds had B
   loaded where A was.
   `reuse edges`: dlclose where libprof's own dlclose (libprof/objects.c)
   could go wrong -- with errno set and a failed dlopen's error pending,
   in a dl_iterate_phdr callback, from an atexit handler and from a
   destructor; prints what the program sees, which must be what it sees
   without libprof. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *run(const char *path, unsigned long ms)
{
  void *h = dlopen(path, RTLD_NOW);
  if (!h) { fprintf(stderr, "%s\n", dlerror()); exit(1); }
  void (*work)(unsigned long) = (void (*)(unsigned long))dlsym(h, "plug_work");
  if (!work) { fprintf(stderr, "%s\n", dlerror()); exit(1); }
  work(ms);
  if (dlclose(h) != 0) { fprintf(stderr, "dlclose: %s\n", dlerror()); exit(1); }
  return (void *)work;
}

static void *late_a, *late_b;

static int in_callback(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)info; (void)size;
  printf("callback dlclose %d\n", dlclose(data));
  return 1;
}

static void at_exit(void)
{
  printf("atexit dlclose %d\n", dlclose(late_a));
  fflush(stdout);
}

__attribute__((destructor)) static void destructor(void)
{
  if (late_b) printf("destructor dlclose %d\n", dlclose(late_b));
  fflush(stdout);
}

static int edges(void)
{
  void *h = dlopen("./libreuseA.so", RTLD_NOW);
  if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
  void *none = dlopen("./no-such-plugin.so", RTLD_NOW);
  errno = 4242;
  int r = dlclose(h), e = errno;
  const char *m = dlerror();
  printf("no plugin %s; dlclose %d, errno %d, dlerror %s\n", none ? "opened" : "not opened", r, e, m ? "set" : "clear");
  h = dlopen("./libreuseB.so", RTLD_NOW);
  dl_iterate_phdr(in_callback, h);
  late_a = dlopen("./libreuseA.so", RTLD_NOW);
  late_b = dlopen("./libreuseB.so", RTLD_NOW);
  atexit(at_exit);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc > 1 && !strcmp(argv[1], "edges")) return edges();
  int rounds = argc > 1 ? atoi(argv[1]) : 60, same = 0;
  unsigned long ms = argc > 2 ? strtoul(argv[2], 0, 10) : 4;
  for (int r = 0; r < rounds; r++) {
    void *a = run("./libreuseA.so", ms), *b = run("./libreuseB.so", ms);
    same += a == b;
  }
  printf("rounds %d same %d\n", rounds, same);
  return 0;
}
