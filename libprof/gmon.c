/* gmon.c -- libprof's runtime, built as one translation unit (so that
 * nothing of it but the public entry points has a symbol gprof could
 * list) from modules included in the order their calls point:
 *
 *   state.h    the runtime's state and thread-local marks
 *   base.c     memory, thread ids, locks, masks, messages, names
 *   count.c    counting: the threads' arc tables and the shared one
 *   facts.c    samples outside the program's text, CPU time, for the
 *              profile's facts records
 *   objects.c  the process's other objects and their histograms
 *   stacks.c   real stacks (LIBPROF_STACKS): the walk and their table
 *   sample.c   sampling: timers, the signal handler, masks kept open
 *   exec.c     the exec functions: no signal of libprof's outlives one
 *   write.c    writing: the GNU format, files whole or not at all
 *   gmon.c     (this file) control: settings, start-up, the mcount slow
 *              path, threads' start and end, exit, snapshots, fatal
 *              signals, fork, and the public names
 *
 * Arcs.  Each thread counts in its own table, taken on its first profiled
 * call: no other thread writes it, so no call is lost, no lock is taken
 * on the counting path and threads do not fight over cache lines.  When
 * a thread ends, its counts are added to one shared table and its table,
 * emptied, is kept for the next new thread: memory follows the number of
 * threads alive, not of threads that ever ran.
 *
 * Samples.  A CPU-time timer per thread (made with its table) signals
 * that thread, so threads are sampled in proportion to the CPU they use.
 * A sample in libprof's own code is dropped (LIBPROF_OVERHEAD=charge
 * charges one taken in mcount to mcount's caller), so the profiler never
 * shows in the user's profile and its cost falls on no function.
 *
 * Writing.  The file is written with write(2) from static or mapped
 * memory, so it can be done from a signal handler: fatal signals whose
 * disposition was the default write the profile, restore the default and
 * re-raise.  Snapshots (LIBPROF_DUMP_SIGNAL, LIBPROF_INTERVAL) are
 * written by a helper thread that sleeps on a futex (a pipe's descriptors
 * are the program's to close and reuse; a semaphore would pull glibc code
 * into static programs whose symbols gprof mishandles).
 *
 * Locks.  The list of tables, the free list and the shared table are
 * guarded by a spin lock that records its owner, so code running in a
 * signal handler never waits on its own thread; writers take a second
 * such lock so only one file is written at a time.  Code holding either
 * runs with the thread's `in_libprof` mark set: a profiled signal
 * handler interrupting it is neither counted nor allowed to take a
 * lock. */
#include "state.h"
#include "base.c"
#include "count.c"
#include "facts.c"
#include "cfi.c"
#include "objects.c"
#include "stacks.c"
#include "sample.c"
#include "exec.c"
#include "write.c"

static pthread_key_t tab_key;

/* the signals whose default action ends the process, profiled on the way */
static const int fatal_signals[] = {
  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT
};

/* ---- threads ---- */

/* A thread's first profiled call: its table, and its timer with it. */
static prof_tab *thread_attach(void)
{
  prof_tab *t = __prof_tab;
  if (t) return t;
  t = count_take();
  if (!t) return NULL;
  int k = outside_begin();        /* these may allocate: see base.c */
  pthread_setspecific(tab_key, t);
  stacks_thread_bounds();
  outside_end(k);
  start_thread_timer();
  __atomic_fetch_add(&F.threads, 1, __ATOMIC_RELAXED);
  return t;
}

/* A thread ends (the key's destructor): its counts go to the shared
   table, its table to the free list, its timer away. */
static void thread_done(void *arg)
{
  in_libprof++;
  stop_thread_timer();
  count_fold(arg);
  in_libprof--;
}

/* ---- start-up ---- */

static void child_after_fork(void);
static void fork_prepare(void);
static void fork_parent(void);
static void on_fatal(int sig, siginfo_t *si, void *ctx);
static void on_dump_signal(int sig);
static void *helper_main(void *arg);
static void cleanup(void);
static int parse_signal(const char *s, const char **why);
static void settings(void);

extern int __register_atfork(void (*)(void), void (*)(void), void (*)(void), void *);
extern void *__dso_handle;

/* A setting that cannot be used as documented: one line, and the default. */
static void reject(const char *var, const char *val, const char *why)
{
  say("libprof: ", var, "=");
  say(val, ": ", why);
  say("\n", NULL, NULL);
}

/* The whole of S as a decimal number from 0 to MAX, or -1. */
static long whole_number(const char *s, long max)
{
  long v = 0;
  if (!*s) return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    v = v * 10 + (*s - '0');
    if (v > max) return -1;
  }
  return v;
}

/* The whole of S as a number of seconds written in decimal -- digits, a
   fraction, an exponent (1.5, .25, 2e-3) -- or -1.  As for whole numbers,
   nothing else is taken: no blank before or after, no sign, no hex, no
   "inf" (strtod would take " 1", "0x10" and "inf", and not "1 "). */
static double seconds(const char *s)
{
  const char *p = s;
  int digits = 0;
  for (; *p >= '0' && *p <= '9'; p++) digits++;
  if (*p == '.') for (p++; *p >= '0' && *p <= '9'; p++) digits++;
  if (!digits) return -1;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (*p < '0' || *p > '9') return -1;
    while (*p >= '0' && *p <= '9') p++;
  }
  return *p ? -1 : strtod(s, NULL);
}

/* A variable of the environment the process was started with.  Under
   valgrind a -pg shared library's start-up code calls the program's
   __gmon_start__, so __monstartup, before the C library has set environ
   (measured: NULL there), and getenv would find nothing: the variables
   are then read from /proc/self/environ, that same environment. */
static const char *env(const char *name)
{
  static char *buf;
  static size_t len;
  static int tried;
  if (environ) return getenv(name);
  if (!tried) {
    tried = 1;
    int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
    const size_t cap = 1 << 20;  /* (untouched pages cost nothing) */
    if (fd >= 0 && (buf = map_zero(cap))) {
      ssize_t r;
      while (len < cap - 1 && (r = read(fd, buf + len, cap - 1 - len)) > 0) len += (size_t)r;
    }
    if (fd >= 0) close(fd);
  }
  size_t n = strlen(name);
  for (size_t i = 0; buf && i < len; i += strlen(buf + i) + 1)
    if (!strncmp(buf + i, name, n) && buf[i + n] == '=') return buf + i + n + 1;
  return NULL;
}

/* The environment, each value used as libprof(3) says or rejected with a
   message (and its default used). */
static void settings(void)
{
  const char *v = env("LIBPROF_HZ");
  P.hz = 100;
  if (v) {
    long hz = whole_number(v, 100000);
    if (hz < 0) reject("LIBPROF_HZ", v, "not a whole number from 0 to 100000; sampling at 100 Hz");
    else P.hz = (int)hz;
  }
  v = env("LIBPROF_HZ_LIMIT");
  P.hz_limit = -1;
  if (v) {
    long m = whole_number(v, 100000);
    if (m < 0) reject("LIBPROF_HZ_LIMIT", v, "not a whole number from 0 to 100000; measured");
    else P.hz_limit = m;
  }
  v = env("LIBPROF_OVERHEAD");
  P.overhead = OV_DROP;
  if (v) {
    if (!strcmp(v, "drop")) P.overhead = OV_DROP;
    else if (!strcmp(v, "charge")) P.overhead = OV_CHARGE;
    else if (!strcmp(v, "report")) P.overhead = OV_REPORT;
    else reject("LIBPROF_OVERHEAD", v, "not drop, charge or report; dropping");
  }
  v = env("LIBPROF_DUMP_SIGNAL");
  P.dump_signal = 0;
  if (v) {
    const char *why;
    P.dump_signal = parse_signal(v, &why);
    if (why) {
      say("libprof: LIBPROF_DUMP_SIGNAL=", v, ": ");
      say(why, "; no snapshots on a signal\n", NULL);
    }
  }
  v = env("LIBPROF_INTERVAL");
  P.interval = 0;
  if (v) {
    double d = seconds(v);
    if (!(d == 0 || (d >= 0.001 && d <= 1e9)))
      reject("LIBPROF_INTERVAL", v, "not 0 or a number of seconds from 0.001 to 1e9; no periodic snapshots");
    else P.interval = d;
  }
  v = env("LIBPROF_OBJECTS");
  P.objects = 0;
  if (v) {
    if (!strcmp(v, "1")) P.objects = 1;
    else if (strcmp(v, "0")) reject("LIBPROF_OBJECTS", v, "not 0 or 1; the program's own code only");
  }
  v = env("LIBPROF_STACKS");
  P.stack_depth = 0;
  if (v) {
    long d = whole_number(v, STK_MAX_DEPTH);
    if (d < 0) reject("LIBPROF_STACKS", v, "not a whole number from 0 to 256; no stacks");
    else P.stack_depth = (int)d;
  }
  v = env("LIBPROF_CLOCK");
  P.clock = CLK_NONE;            /* the best there is (sample.c clock_choose) */
  if (v) {
    if (!strcmp(v, "perf")) P.clock = CLK_PERF;
    else if (!strcmp(v, "timer")) P.clock = CLK_TIMER;
    else if (!strcmp(v, "itimer")) P.clock = CLK_ITIMER;
    else reject("LIBPROF_CLOCK", v, "not perf, timer or itimer; the best there is");
  }
  v = env("LIBPROF_STACKS_MAX");
  P.stack_slots = STK_DEFAULT_SLOTS;
  if (v) {
    long m = whole_number(v, 1L << 24);
    if (m < 64) reject("LIBPROF_STACKS_MAX", v, "not a whole number from 64 to 16777216; 32768 stacks");
    else for (P.stack_slots = 64; P.stack_slots < (uint64_t)m; P.stack_slots *= 2) {}
  }
}

/* Counting and sampling on (1) or off (0): the stubs see the text's
   size, or 0, which sends every call back at once; other objects' calls
   likewise (objects.c). */
static void counting(int on)
{
  P.enabled = on;
  count_gate(on);
  objects_counting(on && P.objects);
}

/* LIBPROF_OBJECTS: the map read now, and a thread that reads it again
   when objects come and go (objects.c); it takes no signal. */
static void start_poller(void)
{
  objects_scan(1);
  spawn(objects_poller);
}

static void start(unsigned long lowpc, unsigned long highpc)
{
  if (P.started) return;
  P.started = 1;
  in_libprof++;
  settings();                    /* (first: the map's size follows them) */
  /* the program: the map's entry 0 (objects.c) */
  int made = objects_program(lowpc, highpc);
  if (made < 0) {
    say("libprof: cannot profile a text of this size\n", NULL, NULL);
    count_gate(0);
    in_libprof--;
    return;
  }
  if (!made || !part_init(&P.retired.key, 0, TAB_INITIAL)) {
    say("libprof: out of memory; not profiling\n", NULL, NULL);
    count_gate(0);
    P.prog = NULL;
    in_libprof--;
    return;
  }
  __prof_lowpc = P.lowpc;

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  clock_choose();
  if (P.hz && P.clock == CLK_ITIMER) {
    sigaction(SIGPROF, &sa, NULL);
    P.sig = SIGPROF;
  } else {
    P.sig = pick_signal(&sa);
    perf_signal_take();
  }
  pthread_key_create(&tab_key, thread_done);
  /* glibc's own registration, which pthread_atfork calls: pthread_atfork
     would bring a function of libc_nonshared.a into the program, listed
     by gprof -z as glibc's runtime never is */
  __register_atfork(fork_prepare, fork_parent, child_after_fork, __dso_handle);

  /* A stack overflow ends in SIGSEGV with no stack left to handle it:
     unless the program has one, the main thread gets an alternate
     signal stack (the handlers run on it, SA_ONSTACK). */
  stack_t ss;
  if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_DISABLE)) {
    ss.ss_size = 64 * 1024;
    ss.ss_sp = map_zero(ss.ss_size);
    ss.ss_flags = 0;
    if (ss.ss_sp) sigaltstack(&ss, NULL);
  }
  /* a profile whatever the ending: only signals left at their default */
  for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++) {
    struct sigaction old;
    if (fatal_signals[i] == P.dump_signal) continue;
    if (sigaction(fatal_signals[i], NULL, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
      memset(&sa, 0, sizeof sa);
      sa.sa_sigaction = on_fatal;
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&sa.sa_mask);
      sigaction(fatal_signals[i], &sa, NULL);
    }
  }
  if (P.dump_signal) {
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_dump_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(P.dump_signal, &sa, NULL);
  }
  if (P.stack_depth && !stacks_init(P.stack_depth, P.stack_slots))
    say("libprof: out of memory for LIBPROF_STACKS; no stacks\n", NULL, NULL);
  P.pid = getpid();
  facts_init();
  sample_prebind();
  timers_start();
  counting(1);
  if (P.dump_signal || P.interval) P.helper = spawn(helper_main);
  if (P.objects || S.depth) start_poller();
  in_libprof--;
}

/* Counting waits until the process is ready for it: the stubs' switch
   is off from the start (count.c) and turned on here, where the
   thread's TLS exists, unless __monstartup (gcrt1.o's start-up, in the
   program's _init) has started profiling already; then a program
   without gcrt1.o starts profiling on its first profiled call, as
   before.  Earlier calls return at once and are not counted: the IFUNC
   resolvers the loader calls while it relocates (GCC's target_clones
   makes one; a -pg one used to crash the program at start-up, its
   mcount reading a TLS block not yet set up, or %fs not yet set at all
   when statically linked), and what runs before this point in the
   program's .preinit_array.  glibc's runtime counts none of these
   either: it starts in _init.  In the static archive the hook is an
   entry of the program's .preinit_array, the first start-up code to run
   (before the program's _init and constructors and before every shared
   library's constructor), after relocation and the C library's TLS
   set-up, static programs included; libprof.so cannot have one (the
   loader runs only the executable's) and uses a constructor, run
   before those of every object that depends on it. */
static void ready(void)
{
  if (!P.started) count_arm();
}
#ifdef LIBPROF_STATIC
__attribute__((used, section(".preinit_array"))) static void (*ready_entry)(void) = ready;
#else
__attribute__((constructor)) static void ready_ctor(void)
{
  ready();
}
#endif

/* LIBPROF_DUMP_SIGNAL: a number, or a name with or without "SIG"; 0
   with *WHY set when it is none, or one libprof must not take: a signal
   the kernel sends for the program's own faults or failed writes (a
   handler that returns runs the faulting instruction again, for ever:
   SEGV, BUS, FPE, ILL, TRAP, SYS; or turns the program's end into an
   error it may never check: PIPE, XFSZ), abort's (the profile at exit
   would be lost), the uncatchable ones, SIGPROF (the program's profiling
   timer), and the C library's own (32 and 33, under SIGRTMIN).  Numbers
   as names: before, "SIGSEGV" was refused and "11" taken. */
static int parse_signal(const char *s, const char **why)
{
  static const struct { const char *name; int sig; } names[] = {
    { "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "ILL", SIGILL },
    { "TRAP", SIGTRAP }, { "ABRT", SIGABRT }, { "IOT", SIGABRT }, { "BUS", SIGBUS },
    { "FPE", SIGFPE }, { "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "SEGV", SIGSEGV },
    { "USR2", SIGUSR2 }, { "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
    { "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP }, { "TSTP", SIGTSTP },
    { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU }, { "URG", SIGURG }, { "XCPU", SIGXCPU },
    { "XFSZ", SIGXFSZ }, { "VTALRM", SIGVTALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH },
    { "IO", SIGIO }, { "POLL", SIGIO }, { "PWR", SIGPWR }, { "SYS", SIGSYS },
  };
  long n = whole_number(s, NSIG - 1);
  if (n < 0) {
    const char *name = strncmp(s, "SIG", 3) ? s : s + 3;
    for (size_t i = 0; n < 0 && i < sizeof names / sizeof *names; i++)
      if (!strcmp(name, names[i].name)) n = names[i].sig;
    if (n < 0 && !strncmp(name, "RTMIN+", 6) && (n = whole_number(name + 6, SIGRTMAX - SIGRTMIN)) >= 0)
      n += SIGRTMIN;
    if (n < 0 && !strncmp(name, "RTMAX-", 6) && (n = whole_number(name + 6, SIGRTMAX - SIGRTMIN)) >= 0)
      n = SIGRTMAX - n;
    if (!strcmp(name, "RTMIN")) n = SIGRTMIN;
    if (!strcmp(name, "RTMAX")) n = SIGRTMAX;
  }
  *why = NULL;
  switch (n) {
  case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGTRAP: case SIGSYS:
    *why = "a signal of the program's own faults (a handler that returns runs the fault again)";
    break;
  case SIGPIPE: case SIGXFSZ:
    *why = "a signal of the program's own failed writes";
    break;
  case SIGABRT: *why = "abort's signal (the profile at exit would be lost)"; break;
  case SIGKILL: case SIGSTOP: *why = "a signal no handler can take"; break;
  case SIGPROF: *why = "the program's profiling timer's signal"; break;
  default:
    if (n <= 0) *why = "not a signal number or name";
    else if (n < SIGRTMIN && n > 31) *why = "one of the C library's own signals";
  }
  return *why ? 0 : (int)n;
}

__attribute__((used)) static void do_monstartup(unsigned long lowpc, unsigned long highpc)
  PROF_SYM(monstartup);
static void do_monstartup(unsigned long lowpc, unsigned long highpc)
{
  start(lowpc, highpc);
}

/* Turns counting and sampling off (0) or on again (1). */
__attribute__((used)) static void do_moncontrol(int mode) PROF_SYM(moncontrol);
static void do_moncontrol(int mode)
{
  if (!P.started || !P.prog || P.final) return;
  counting(mode != 0);
}

/* ---- the slow path ---- */

/* One call of the arc KEY (0: none, but the thread is attached: it is
   still to be sampled), in the calling thread's table. */
static void count_call(uint64_t key)
{
  prof_tab *t = thread_attach();
  if (key && (!t || !tab_add(t, key, 1)))
    __atomic_fetch_add(&P.lost_arcs, 1, __ATOMIC_RELAXED);
}

/* One call of the raw pair FROMPC, SELFPC in the calling thread's raw
   part (PROF_RAW): a new slot, which the stub finds from then on; one
   that is no arc of the text (NOT_ARC: a call from outside it, or into
   another object while other objects are not counted) is flagged, never
   written out, and keeps such calls on the fast path too.  A callee in
   another object while they are counted gets no slot: each call comes
   back here (objects_key). */
static void count_raw(uintptr_t frompc, uintptr_t selfpc, int not_arc)
{
  prof_tab *t = thread_attach();
  uint64_t id[2] = { frompc, selfpc };
  if ((!t || !part_add(&t->raw, 1, id, 1, (uint64_t)not_arc)) && !not_arc)
    __atomic_fetch_add(&P.lost_arcs, 1, __ATOMIC_RELAXED);
}

/* Whether the -mfentry function whose __fentry__ call returns to SELFPC
   pushed %r10 just before the call: gcc does so in a GNU C nested
   function, whose static chain %r10 is, so that the word the stub took
   for frompc is the saved chain (a stack address) and the caller's
   return address is the word above it.  Without this, every call of a
   nested function was lost (counted as a call from outside the text,
   never written out); glibc's runtime loses them too.  The code read:
   the call (e8 rel32; ff 15 through the GOT; 67 e8, the GOT call the
   linker made direct), and before it `push %r10` (41 52), or that and
   an endbr64 (f3 0f 1e fa; gcc puts the push first).  At most 12 bytes
   below SELFPC are read: on the page of the call itself or inside the
   program's text, else the function is taken as not nested. */
static int fentry_pushed_r10(uintptr_t selfpc)
{
  const unsigned char *c = (const unsigned char *)selfpc;
  if (((selfpc - 12) >> 12) != ((selfpc - 1) >> 12)
      && !(selfpc - 12 >= P.lowpc && selfpc - P.lowpc <= P.textsize))
    return 0;
  const unsigned char *at[2] = { NULL, NULL };
  if (c[-5] == 0xe8) at[0] = c - 5;
  if ((c[-6] == 0xff && c[-5] == 0x15) || (c[-6] == 0x67 && c[-5] == 0xe8)) at[1] = c - 6;
  for (int i = 0; i < 2; i++) {
    const unsigned char *s = at[i];
    if (!s) continue;
    if (s[-4] == 0xf3 && s[-3] == 0x0f && s[-2] == 0x1e && s[-1] == 0xfa) s -= 4;
    if (s[-2] == 0x41 && s[-1] == 0x52) return 1;
  }
  return 0;
}

/* The stubs' slow path: a thread's first call, or an arc's first call.
   A profiled signal handler that interrupts this thread inside libprof
   would find its table half-updated or a lock held: such a nested call
   is not counted (it is reported at exit with the other lost calls). */
static void count_slow(uintptr_t frompc, uintptr_t selfpc, int nested)
{
  if (in_libprof) {
    if (P.enabled) __atomic_fetch_add(&P.lost_arcs, 1, __ATOMIC_RELAXED);
    return;
  }
  slow_self = selfpc;            /* samples from here on are selfpc's */
  if (!P.started) {              /* no start-up file called it */
    start(0, 0);
    atexit(cleanup);
  }
  if (!P.enabled) { slow_self = 0; return; }
  in_libprof++;
  uintptr_t f = frompc - P.lowpc, s = selfpc - P.lowpc;
  int arc = f < P.textsize && s < P.textsize;   /* as glibc: text only */
  if (__prof_other && s >= P.textsize)          /* LIBPROF_OBJECTS=1 */
    count_call(objects_key(frompc, selfpc, NULL));
  else if (PROF_RAW && frompc && !nested)
    count_raw(frompc, selfpc, !arc);
  else if (arc)
    count_call(((uint64_t)f << 32) | s);
  else
    thread_attach();             /* the thread is still to be sampled */
  in_libprof--;
  slow_self = 0;
}

void prof_mcount_slow(uintptr_t frompc, uintptr_t selfpc)
{
  count_slow(frompc, selfpc, 0);
}

/* __fentry__'s: a nested function's calls are counted by key, never in a
   raw slot, whose pair (saved chain, selfpc) would hide the caller: each
   of them comes here (the chain differs from call to call anyway). */
void prof_fentry_slow(uintptr_t frompc, uintptr_t selfpc, uintptr_t next)
{
  if (!in_libprof && fentry_pushed_r10(selfpc))
    count_slow(next, selfpc, 1);
  else
    count_slow(frompc, selfpc, 0);
}

/* The library path's slow path (arch/x86_64/mcount.S): a new arc of another
   object (KEY), or a call from a caller the stub could not place (KEY 0,
   ENT the callee's object). */
void prof_lib_slow(uintptr_t frompc, uintptr_t selfpc, uint64_t key, prof_libent *ent,
                   uintptr_t next)
{
  if (in_libprof) {
    if (P.enabled) __atomic_fetch_add(&P.lost_arcs, 1, __ATOMIC_RELAXED);
    return;
  }
  if (!P.enabled) return;
  if (!key && next && fentry_pushed_r10(selfpc)) frompc = next;   /* nested */
  slow_self = selfpc;
  in_libprof++;
  count_call(key ? key : objects_key(frompc, selfpc, ent));
  in_libprof--;
  slow_self = 0;
}

/* ---- exit, snapshots, signals ---- */

/* The final profile: profiling stops, the file is written once. */
static void write_final(int patience_ms)
{
  if (!P.started || !P.prog) return;
  in_libprof++;
  /* snapshots back to back (a short LIBPROF_INTERVAL, a program calling
     libprof_dump in a loop) must not keep the lock from the final write */
  __atomic_store_n(&P.final_wanted, 1, __ATOMIC_RELEASE);
  int taken = lock_take(&P.write_lock, patience_ms);
  if (!P.final) {
    P.final = 1;
    counting(0);
    write_default(1);
    report_lost();
    report_signal(P.overhead == OV_REPORT);
    report_clock(P.overhead == OV_REPORT);
  }
  lock_give(&P.write_lock, taken);
  in_libprof--;
}

static void cleanup(void)
{
  stop_thread_timer();
  write_final(-1);
}

__attribute__((used)) static void do_mcleanup(void) PROF_SYM(mcleanup);
static void do_mcleanup(void)
{
  cleanup();
}

/* A snapshot: the profile so far, profiling goes on. */
static int snapshot(const char *path)
{
  if (!P.started || !P.prog) { errno = EINVAL; return -1; }
  in_libprof++;
  if (__atomic_load_n(&P.final_wanted, __ATOMIC_ACQUIRE)) { in_libprof--; return 0; }
  int taken = lock_take(&P.write_lock, -1);
  int err = P.final || P.final_wanted ? 0 : path ? write_profile(path) : write_default(0);
  lock_give(&P.write_lock, taken);
  in_libprof--;
  if (err) { errno = err; return -1; }
  return 0;
}

__attribute__((used)) static int do_dump(const char *path) PROF_SYM(dump);
static int do_dump(const char *path)
{
  return snapshot(path);
}

/* The helper sleeps on a futex word, P.wake, which LIBPROF_DUMP_SIGNAL's
   handler raises (a raw system call: no descriptor, and no sem_* code in
   static programs).  A pipe was used before: its two descriptors were
   ordinary ones, so a program that closes every descriptor and opens its
   own (a daemon) had its input read dry by the helper and a NUL byte
   written into its output, and with the read end closed the helper's
   poll returned at once, a snapshot each time. */
static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *t)
{
  return syscall(SYS_futex, word, op, val, t, NULL, FUTEX_BITSET_MATCH_ANY);
}

static void on_dump_signal(int sig)
{
  (void)sig;
  int e = errno;
  __atomic_add_fetch(&P.wake, 1, __ATOMIC_RELEASE);
  futex(&P.wake, FUTEX_WAKE_PRIVATE, 1, NULL);
  errno = e;
}

static void *helper_main(void *arg)
{
  (void)arg;
  in_libprof = 1;
  spawned();
  /* from 0, where the word starts (start, fork): a signal that came
     before this thread ran is still seen as one */
  uint32_t seen = 0;
  /* the next periodic snapshot, an absolute time (CLOCK_MONOTONIC) */
  struct timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  const long long step = P.interval ? (long long)(P.interval * 1e9 + 0.5) : 0;
  for (;;) {
    if (step) {
      long long ns = next.tv_nsec + step % 1000000000LL;
      next.tv_sec += (time_t)(step / 1000000000LL + ns / 1000000000LL);
      next.tv_nsec = (long)(ns % 1000000000LL);
    }
    for (;;) {
      long r = futex(&P.wake, FUTEX_WAIT_BITSET_PRIVATE, seen, step ? &next : NULL);
      uint32_t now = __atomic_load_n(&P.wake, __ATOMIC_ACQUIRE);
      if (now != seen) { seen = now; break; }          /* the signal */
      if (r < 0 && errno == ETIMEDOUT) break;           /* the interval */
    }
    if (P.final) return NULL;
    snapshot(NULL);
    facts_own(0);
    if (step) {
      /* a snapshot longer than the interval: the next one an interval
         after it ends, not at once to catch up */
      struct timespec t;
      clock_gettime(CLOCK_MONOTONIC, &t);
      if (t.tv_sec > next.tv_sec || (t.tv_sec == next.tv_sec && t.tv_nsec > next.tv_nsec)) next = t;
    }
  }
}

/* A fatal signal left at its default: write the profile, restore the
   default and raise the signal again, so the process ends (status, core
   dump) as it would have without profiling.  The signal is blocked while
   this runs, so the raised one is taken when the handler returns. */
static void on_fatal(int sig, siginfo_t *si, void *ctx)
{
  (void)si; (void)ctx;
  int e = errno;
  write_final(2000);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
  raise(sig);
  errno = e;
}

/* The child of a fork starts empty and writes its own file.  Only the
   forking thread lives on; the others' tables are emptied too, and put
   back on the free list.  The table lock is held across fork so the
   child never inherits it half-way through a change. */
static int fork_lock_taken;
static void fork_prepare(void)
{
  in_libprof++;
  /* our threads still being set up: a second at most (see spawn) */
  struct timespec ms = { 0, 1000000 };
  for (int i = 0; i < 1000 && __atomic_load_n(&P.starting, __ATOMIC_ACQUIRE) > 0; i++)
    nanosleep(&ms, NULL);
  fork_lock_taken = lock_take(&P.tab_lock, -1);
}

static void fork_parent(void)
{
  lock_give(&P.tab_lock, fork_lock_taken);
  in_libprof--;
}

static void child_after_fork(void)
{
  my_tid = 0;                    /* a new thread id, and the lock's owner gone */
  P.starting = 0;                /* the parent's threads are not ours */
  P.nown = 0;
  __atomic_store_n(&P.tab_lock, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&P.write_lock, 0, __ATOMIC_RELEASE);
  if (P.started && P.prog) {
    memset(P.prog->bins, 0, P.prog->nbins * sizeof *P.prog->bins);
    P.overhead_ticks = 0;
    facts_after_fork();
    count_after_fork();
    __prof_nofp = 0;
    stacks_after_fork();
    if (P.objects || S.depth) {             /* the objects' counts too, and a poller of its own */
      int n = __atomic_load_n(&O.nobjs, __ATOMIC_ACQUIRE);
      for (int k = 0; k < n; k++) memset(O.obj[k].bins, 0, O.obj[k].nbins * sizeof *O.obj[k].bins);
      O.lock = 0;
      O.lost = 0;
      O.lost_calls = 0;
      O.late_objects = 0;
      memset(O.pend, 0, sizeof O.pend);
      O.pend_head = O.pend_tail = 0;
      start_poller();
    }
    have_timer = 0;              /* timers are not inherited */
    clock_state = 0;
    timers_after_fork();
    if (__prof_tab) start_thread_timer();
    if (P.helper) {
      P.wake = 0;                /* the parent's signals were the parent's */
      P.helper = spawn(helper_main);
    }
  }
  in_libprof--;
}

/* ---- public names ----
   Each is a jump to the static function that does the work.  In the
   static archive they are weak objects, invisible to gprof (see prof.h);
   in libprof.so ordinary functions.  (An alias made with .set would take
   the function type of its target.) */
#ifdef LIBPROF_STATIC
#define PROF_BIND(name) ".weak " #name "\n\t.type " #name ", %object\n"
#else
#define PROF_BIND(name) ".globl " #name "\n\t.type " #name ", %function\n"
#endif
#define PUBLIC(name, impl) \
  __asm__(".text\n\t" PROF_BIND(name) #name ":\n\t" ARCH_JUMP_INSN " libprof$" #impl "\n\t.size " #name ", .-" #name);
PUBLIC(__monstartup, monstartup)
PUBLIC(monstartup, monstartup)
PUBLIC(moncontrol, moncontrol)
PUBLIC(_mcleanup, mcleanup)
PUBLIC(mcleanup, mcleanup)
PUBLIC(libprof_dump, dump)
PUBLIC(pthread_sigmask, pthread_sigmask)
PUBLIC(sigprocmask, sigprocmask)
PUBLIC(sigaction, sigaction)
PUBLIC(signal, signal)
PUBLIC(prctl, prctl)
PUBLIC(dlclose, dlclose)
PUBLIC(execve, execve)
PUBLIC(execv, execv)
PUBLIC(execvp, execvp)
PUBLIC(execvpe, execvpe)
PUBLIC(execveat, execveat)
PUBLIC(fexecve, fexecve)
PUBLIC(execl, execl)
PUBLIC(execlp, execlp)
PUBLIC(execle, execle)

