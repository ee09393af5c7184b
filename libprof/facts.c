/* facts.c -- what the histogram cannot hold, counted for the profile's
 * facts records (gmon_out.h; written by write.c): samples whose PC lies
 * outside the program's text, by object where that is cheap (the C
 * library, the dynamic loader and the vDSO, whose code ranges are read
 * once at start-up; anything else is "other"), samples taken while
 * counting was off, and the process's CPU time since profiling began, from
 * which the writer derives the samples owed and not taken (a thread
 * without a timer, a signal blocked or taken away, ...).  Without
 * LIBPROF_OBJECTS=1 the flat profile shows none of that time, and a
 * program whose work is in shared libraries printed "no time
 * accumulated" with nothing said; gprof now tells from these counts.
 * Part of gmon.c's translation unit; uses base.c. */

enum { FO_LIBC, FO_LOADER, FO_VDSO, FO_OTHER, FO_N };

static struct {
  uintptr_t lo[FO_OTHER], hi[FO_OTHER];   /* the named objects' code, [lo, hi); 0, 0: none */
  uint64_t out[FO_N];                     /* samples outside the program's text */
  uint64_t off;                           /* samples while counting was off */
  uint64_t kernel;                        /* samples of kernel time at no PC (sample.c) */
  uint64_t threads;                       /* threads attached (each with its timer) */
  uint64_t own_ns[2];                     /* CPU time of libprof's threads (helper, poller) */
  uint64_t cpu0;                          /* process CPU time (ns) when profiling began */
} F;

/* The sampling clock's name, for the profile (GMON_FACT_CLOCK): what
   sample.c's clock_choose chose. */
static const char *facts_clock(void)
{
  return clock_names[P.clock];
}

static uint64_t facts_cpu_ns(void)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The base name of PATH starts with PREFIX. */
static int base_is(const char *path, const char *prefix)
{
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  return strncmp(b, prefix, strlen(prefix)) == 0;
}

static int facts_scan(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  int *first = data;
  if (*first) { *first = 0; return 0; }   /* the program */
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  int k = base_is(name, "libc.so") ? FO_LIBC
        : base_is(name, "ld-linux") || base_is(name, "ld64.so") ? FO_LOADER
        : base_is(name, "linux-vdso") || base_is(name, "linux-gate") ? FO_VDSO : -1;
  if (k < 0 || F.hi[k]) return 0;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
    uintptr_t a = info->dlpi_addr + ph->p_vaddr;
    if (a < lo) lo = a;
    if (a + ph->p_memsz > hi) hi = a + ph->p_memsz;
  }
  if (lo < hi) {
    F.lo[k] = lo;
    F.hi[k] = hi;
  }
  return 0;
}

/* At start-up (the C library and the loader are mapped before the
   program runs, and stay), and in a forked child (its own counts). */
static void facts_init(void)
{
  int first = 1;
  memset(&F, 0, sizeof F);
  dl_iterate_phdr(facts_scan, &first);
  F.cpu0 = facts_cpu_ns();
}

static void facts_after_fork(void)
{
  memset(F.out, 0, sizeof F.out);
  F.off = F.kernel = 0;
  F.threads = 1;                 /* the thread that forked */
  F.own_ns[0] = F.own_ns[1] = 0; /* (their threads are made again) */
  F.cpu0 = facts_cpu_ns();
}

/* libprof's own thread K (0 the snapshot helper, 1 the objects' poller)
   says how much CPU it has used: it takes no sample, so that time is
   owed nothing. */
static void facts_own(int k)
{
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return;
  __atomic_store_n(&F.own_ns[k], (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec, __ATOMIC_RELAXED);
}

/* From the sampling handler: N samples at PC, outside the program's text
   and outside libprof. */
static void facts_outside(uintptr_t pc, uint32_t n)
{
  int k = FO_OTHER;
  for (int i = 0; i < FO_OTHER; i++)
    if (pc - F.lo[i] < F.hi[i] - F.lo[i]) { k = i; break; }
  __atomic_fetch_add(&F.out[k], n, __ATOMIC_RELAXED);
}

/* From the sampling handler: N samples of the thread's time in the
   kernel, whose PC no sample took (a perf clock of user time only). */
static void facts_kernel(uint32_t n)
{
  __atomic_fetch_add(&F.kernel, n, __ATOMIC_RELAXED);
}

/* From the sampling handler: N samples while counting is off. */
static void facts_off(uint32_t n)
{
  __atomic_fetch_add(&F.off, n, __ATOMIC_RELAXED);
}
