/* gmon.c -- libprof's runtime: start-up, arc counting, PC sampling of
 * every thread, and writing gmon.out.
 *
 * Each thread counts its arcs in its own open-addressing table of {key,
 * count} slots, created on its first profiled call and grown by doubling:
 * no other thread writes it, so no call is lost, no lock is taken and
 * threads do not fight over cache lines.  Tables are never freed (a
 * finished thread's counts still count) and are summed when the file is
 * written.  Samples come from a CPU-time timer per thread (created when a
 * thread first enters profiled code), each delivering SIGPROF to its own
 * thread, so threads are sampled in proportion to the CPU they use; the
 * handler adds to the histogram atomically.  Both are plain memory
 * operations, safe in a signal handler. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "prof.h"

uintptr_t __prof_lowpc;
uintptr_t __prof_textsize;
__thread prof_tab *__prof_tab;

#define HIST_GRANULE 4           /* bytes of text per histogram bin, as glibc */
#define TAB_INITIAL 1024         /* slots of a thread's first table */

static struct {
  int started, enabled, writing;
  uintptr_t lowpc, highpc, textsize, bias;
  uint32_t *bins;
  size_t nbins;
  prof_tab *tabs;                /* every thread's table */
  uint64_t lost_arcs;
  int hz;
  pid_t pid;
} P;

static pthread_key_t timer_key;

static void *map_zero(size_t n)
{
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* ---- sampling ---- */

static void on_sigprof(int sig, siginfo_t *si, void *ctx)
{
  (void)sig; (void)si;
  ucontext_t *uc = ctx;
  uintptr_t pc;
#if defined(__x86_64__)
  pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
  pc = (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
  pc = (uintptr_t)uc->uc_mcontext.pc;
#else
  pc = 0;
#endif
  if (!P.enabled || !P.bins) return;
  uintptr_t off = pc - P.lowpc;
  if (off < P.textsize)
    __atomic_fetch_add(&P.bins[off / HIST_GRANULE], 1, __ATOMIC_RELAXED);
}

static void drop_timer(void *t)
{
  timer_delete((timer_t)t);
}

/* A CPU-time timer for the calling thread, signalling only this thread. */
static void start_thread_timer(void)
{
  if (!P.hz) return;
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGPROF;
  ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  timer_t t;
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &t) != 0) return;
  struct itimerspec its;
  long ns = 1000000000L / P.hz;
  its.it_interval.tv_sec = ns / 1000000000L;
  its.it_interval.tv_nsec = ns % 1000000000L;
  its.it_value = its.it_interval;
  timer_settime(t, 0, &its, NULL);
  pthread_setspecific(timer_key, (void *)t);
}

/* ---- start-up ---- */

static int find_main(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  uintptr_t *out = data;
  out[0] = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      out[1] = info->dlpi_addr + ph->p_vaddr;
      out[2] = out[1] + ph->p_memsz;
      break;
    }
  }
  return 1;                      /* the first object is the program */
}

static void write_gmon(void);
static void child_after_fork(void);
void _mcleanup(void);

void __monstartup(unsigned long lowpc, unsigned long highpc)
{
  uintptr_t info[3] = { 0, 0, 0 };
  if (P.started) return;
  P.started = 1;
  dl_iterate_phdr(find_main, info);
  P.bias = info[0];
  if (lowpc >= highpc) { lowpc = info[1]; highpc = info[2]; }
  P.lowpc = lowpc & ~(uintptr_t)(HIST_GRANULE - 1);
  P.highpc = (highpc + HIST_GRANULE - 1) & ~(uintptr_t)(HIST_GRANULE - 1);
  P.textsize = P.highpc - P.lowpc;
  if (P.textsize == 0 || P.textsize > 0xffffffffu) {
    fprintf(stderr, "libprof: cannot profile a text of %lu bytes\n", (unsigned long)P.textsize);
    return;
  }
  P.nbins = P.textsize / HIST_GRANULE;
  P.bins = map_zero(P.nbins * sizeof *P.bins);
  if (!P.bins) {
    fprintf(stderr, "libprof: out of memory; not profiling\n");
    return;
  }
  __prof_lowpc = P.lowpc;

  const char *r = getenv("LIBPROF_HZ");
  P.hz = r ? atoi(r) : 100;
  if (P.hz < 0) P.hz = 0;
  if (P.hz > 100000) P.hz = 100000;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPROF, &sa, NULL);
  pthread_key_create(&timer_key, drop_timer);
  pthread_atfork(NULL, NULL, child_after_fork);
  P.pid = getpid();
  P.enabled = 1;
  __prof_textsize = P.textsize;
}

void monstartup(unsigned long lowpc, unsigned long highpc)
{
  __monstartup(lowpc, highpc);
}

/* Turns counting and sampling off (0) or on again (1). */
void moncontrol(int mode)
{
  if (!P.started || !P.bins) return;
  P.enabled = mode != 0;
  __prof_textsize = P.enabled ? P.textsize : 0;
}

/* ---- counting ---- */

static inline uint64_t slot_of(uint64_t key, uint64_t mask)
{
  return ((key * (uint64_t)PROF_HASH_MULT) >> 32) & mask;
}

/* The calling thread's table, created (with its timer) on first use. */
static prof_tab *thread_table(void)
{
  prof_tab *t = __prof_tab;
  if (t) return t;
  t = map_zero(sizeof *t);
  prof_slot *slots = map_zero(TAB_INITIAL * sizeof *slots);
  if (!t || !slots) return NULL;
  t->mask = TAB_INITIAL - 1;
  t->slots = slots;
  prof_tab *head = __atomic_load_n(&P.tabs, __ATOMIC_ACQUIRE);
  do t->next = head;
  while (!__atomic_compare_exchange_n(&P.tabs, &head, t, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  __prof_tab = t;
  start_thread_timer();
  return t;
}

/* Doubles a thread's table.  The old slots stay mapped: the writer may be
   reading them from another thread at exit.  Signals are blocked meanwhile
   so a handler's fast path never sees the slots and mask disagree. */
static int grow(prof_tab *t)
{
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  uint64_t n = (t->mask + 1) * 2;
  prof_slot *ns = map_zero(n * sizeof *ns);
  if (!ns) {
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return 0;
  }
  for (uint64_t i = 0; i <= t->mask; i++) {
    prof_slot *o = &t->slots[i];
    if (!o->key) continue;
    uint64_t k = slot_of(o->key, n - 1);
    while (ns[k].key) k = (k + 1) & (n - 1);
    ns[k] = *o;
  }
  __atomic_store_n(&t->slots, ns, __ATOMIC_RELEASE);
  __atomic_store_n(&t->mask, n - 1, __ATOMIC_RELEASE);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return 1;
}

static __thread int in_slow;     /* set while this thread is in count_slow */

static void count_slow(uintptr_t frompc, uintptr_t selfpc)
{
  prof_tab *t = thread_table();
  if (!t) { __atomic_fetch_add(&P.lost_arcs, 1, __ATOMIC_RELAXED); return; }
  uintptr_t f = frompc - P.lowpc, s = selfpc - P.lowpc;
  if (f >= P.textsize || s >= P.textsize) return;   /* as glibc: text only */
  uint64_t key = ((uint64_t)f << 32) | s;
  if (key == 0) return;
  for (uint64_t i = slot_of(key, t->mask);; i = (i + 1) & t->mask) {
    prof_slot *sl = &t->slots[i];
    if (sl->key == key) { sl->count++; return; }
    if (sl->key == 0) {
      if ((t->used + 1) * 2 > t->mask + 1) {      /* keep the load under 1/2 */
        if (!grow(t)) { __atomic_fetch_add(&P.lost_arcs, 1, __ATOMIC_RELAXED); return; }
        count_slow(frompc, selfpc);
        return;
      }
      sl->count = 1;
      __atomic_store_n(&sl->key, key, __ATOMIC_RELEASE);
      t->used++;
      return;
    }
  }
}

/* The stubs' slow path.  A profiled signal handler that interrupts this
   thread here would find its table half-updated: such a nested call is
   not counted (it is reported at exit with the other lost calls). */
void __prof_mcount_slow(uintptr_t frompc, uintptr_t selfpc)
{
  if (!P.started) {              /* no start-up file called it */
    __monstartup(0, 0);
    atexit(_mcleanup);
  }
  if (!P.enabled || P.writing) return;
  if (in_slow) {
    __atomic_fetch_add(&P.lost_arcs, 1, __ATOMIC_RELAXED);
    return;
  }
  in_slow = 1;
  count_slow(frompc, selfpc);
  in_slow = 0;
}

/* ---- writing ---- */

static void put(FILE *f, uint64_t v, int n)
{
  for (int i = 0; i < n; i++) fputc(i < 8 ? (int)((v >> (8 * i)) & 0xff) : 0, f);  /* n may exceed 8 (spare bytes) */
}

static void write_gmon(void)
{
  char name[4096];
  const char *prefix = getenv("GMON_OUT_PREFIX");
  pid_t pid = getpid();
  if (prefix) snprintf(name, sizeof name, "%s.%d", prefix, (int)pid);
  else if (pid != P.pid) snprintf(name, sizeof name, "gmon.out.%d", (int)pid);
  else snprintf(name, sizeof name, "gmon.out");
  int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    fprintf(stderr, "_mcleanup: %s: %s\n", name, strerror(errno));
    return;
  }
  FILE *f = fdopen(fd, "wb");
  if (!f) { close(fd); return; }
  const int as = (int)sizeof(void *);
  fwrite("gmon", 1, 4, f);
  put(f, 1, 4);
  put(f, 0, 12);
  /* histogram: addresses as the object has them (PIE load bias removed) */
  fputc(0, f);
  put(f, P.lowpc - P.bias, as);
  put(f, P.highpc - P.bias, as);
  put(f, P.nbins, 4);
  put(f, P.hz ? (uint64_t)P.hz : 100, 4);
  char dim[15] = "seconds";
  fwrite(dim, 1, 15, f);
  fputc('s', f);
  for (size_t i = 0; i < P.nbins; i++) {
    uint32_t b = __atomic_load_n(&P.bins[i], __ATOMIC_RELAXED);
    put(f, b > 0xffff ? 0xffff : b, 2);
  }
  /* sum every thread's table into one, then write an arc record each */
  uint64_t total = 0;
  for (prof_tab *t = P.tabs; t; t = t->next) total += t->used;
  uint64_t n = 16;
  while (n < total * 2 + 2) n *= 2;
  prof_slot *sum = map_zero(n * sizeof *sum);
  for (prof_tab *t = P.tabs; t && sum; t = t->next)
    for (uint64_t i = 0; i <= t->mask; i++) {
      prof_slot *o = &t->slots[i];
      if (!o->key) continue;
      uint64_t k = slot_of(o->key, n - 1);
      while (sum[k].key && sum[k].key != o->key) k = (k + 1) & (n - 1);
      sum[k].key = o->key;
      sum[k].count += o->count;
    }
  for (uint64_t i = 0; sum && i < n; i++) {
    uint64_t key = sum[i].key, c64 = sum[i].count;
    if (!key) continue;
    uintptr_t from = P.lowpc + (uintptr_t)(key >> 32) - P.bias;
    uintptr_t self = P.lowpc + (uintptr_t)(key & 0xffffffffu) - P.bias;
    while (c64 > 0) {            /* counts are 32 bits in the file */
      uint32_t c = c64 > 0xffffffffu ? 0xffffffffu : (uint32_t)c64;
      fputc(1, f);
      put(f, from, as);
      put(f, self, as);
      put(f, c, 4);
      c64 -= c;
    }
  }
  fclose(f);
  if (P.lost_arcs)
    fprintf(stderr, "libprof: out of memory for arcs, %llu calls not counted\n",
            (unsigned long long)P.lost_arcs);
}

void _mcleanup(void)
{
  if (!P.started || !P.bins || P.writing) return;
  P.writing = 1;
  P.enabled = 0;
  __prof_textsize = 0;
  signal(SIGPROF, SIG_IGN);
  write_gmon();
}

void mcleanup(void) { _mcleanup(); }

/* The child of a fork starts empty and writes its own file.  Only the
   forking thread lives on; the others' tables are emptied too. */
static void child_after_fork(void)
{
  if (!P.started || !P.bins) return;
  memset(P.bins, 0, P.nbins * sizeof *P.bins);
  for (prof_tab *t = P.tabs; t; t = t->next) {
    memset(t->slots, 0, (t->mask + 1) * sizeof *t->slots);
    t->used = 0;
  }
  P.lost_arcs = 0;
  pthread_setspecific(timer_key, NULL);   /* timers are not inherited */
  if (__prof_tab) start_thread_timer();
}
