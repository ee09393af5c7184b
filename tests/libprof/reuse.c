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
   without libprof.
   `reuse blind`: libprof cannot read the map before this dlclose (its
   poller is waiting for the loader's lock, which this thread holds in a
   dl_iterate_phdr callback): A is opened, runs 60 ms inside the
   callback -- a load no scan sees -- and is closed there; B, opened at
   its place, runs 20 ms.  Prints "blind same M" (M: 1 when B was loaded
   where A was).
   `reuse stale`: libprof cannot read the map before nor after this
   dlclose (the same callback): A, opened and run 40 ms before (a load
   the poller saw), is closed in the callback, and B, opened there at its
   place, runs 40 ms there too, before any scan.  Prints "stale same M". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static int blind_callback(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)info; (void)size;
  void **h = data;
  void (*work)(unsigned long) = (void (*)(unsigned long))dlsym(*h, "plug_work");
  if (!work) { fprintf(stderr, "%s\n", dlerror()); exit(1); }
  work(60);
  h[1] = (void *)work;
  if (dlclose(*h) != 0) { fprintf(stderr, "dlclose: %s\n", dlerror()); exit(1); }
  return 1;
}

static volatile unsigned long spin_sink;

static int stale_callback(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)info; (void)size;
  void **h = data;
  /* 40 ms of the program's own code: the poller's look at the map waits */
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do {
    for (int i = 0; i < 10000; i++) spin_sink += (unsigned long)i;
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000000ll + t.tv_nsec - t0.tv_nsec < 40000000);
  if (dlclose(h[0]) != 0) { fprintf(stderr, "dlclose: %s\n", dlerror()); exit(1); }
  h[0] = dlopen("./libreuseB.so", RTLD_NOW);
  if (!h[0]) { fprintf(stderr, "%s\n", dlerror()); exit(1); }
  void (*work)(unsigned long) = (void (*)(unsigned long))dlsym(h[0], "plug_work");
  if (!work) { fprintf(stderr, "%s\n", dlerror()); exit(1); }
  work(40);
  h[1] = (void *)work;
  return 1;
}

static int stale(void)
{
  void *h[2] = { dlopen("./libreuseA.so", RTLD_NOW), 0 };
  if (!h[0]) { fprintf(stderr, "%s\n", dlerror()); return 1; }
  void (*work)(unsigned long) = (void (*)(unsigned long))dlsym(h[0], "plug_work");
  if (!work) { fprintf(stderr, "%s\n", dlerror()); return 1; }
  work(40);
  dl_iterate_phdr(stale_callback, h);
  if (dlclose(h[0]) != 0) { fprintf(stderr, "dlclose: %s\n", dlerror()); return 1; }
  printf("stale same %d\n", (void *)work == h[1]);
  return 0;
}

static int blind(void)
{
  void *h[2] = { dlopen("./libreuseA.so", RTLD_NOW), 0 };
  if (!h[0]) { fprintf(stderr, "%s\n", dlerror()); return 1; }
  dl_iterate_phdr(blind_callback, h);
  void *b = run("./libreuseB.so", 20);
  printf("blind same %d\n", b == h[1]);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc > 1 && !strcmp(argv[1], "edges")) return edges();
  if (argc > 1 && !strcmp(argv[1], "blind")) return blind();
  if (argc > 1 && !strcmp(argv[1], "stale")) return stale();
  int rounds = argc > 1 ? atoi(argv[1]) : 60, same = 0;
  unsigned long ms = argc > 2 ? strtoul(argv[2], 0, 10) : 4;
  for (int r = 0; r < rounds; r++) {
    void *a = run("./libreuseA.so", ms), *b = run("./libreuseB.so", ms);
    same += a == b;
  }
  printf("rounds %d same %d\n", rounds, same);
  return 0;
}
