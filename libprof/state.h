/* state.h -- libprof's runtime state, one instance for the process (the
 * runtime is entered from mcount and from signal handlers, which carry no
 * context), and the thread-local marks every module reads.  Part of the
 * single translation unit gmon.c builds (see there). */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#if defined(__has_include)
#if __has_include(<linux/perf_event.h>)
#include <linux/perf_event.h>
#define PROF_PERF 1
#endif
#endif
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "prof.h"
/* libprof defines sigaction and signal for the program (sample.c): its
   own calls go to the C library's.  (A function-like macro: struct
   sigaction keeps its name.) */
extern int __sigaction(int, const struct sigaction *, struct sigaction *);
#define sigaction(sig, act, old) __sigaction(sig, act, old)
#include "../gmon_out.h"

#define HIST_GRANULE 4           /* bytes of text per histogram bin, as glibc */

/* ---- the one object model ----
   Every object of the process that libprof samples is an entry of one
   map (objects.c's O.obj): entry 0 is the program, made at start-up
   (objects_program) whatever the settings; entries 1 and up are the
   other objects (LIBPROF_OBJECTS=1, or LIBPROF_STACKS, whose walk needs
   their unwind tables), made by scans.  An entry is filled, then
   published (O.nobjs raised, release); the signal handler reads entries
   without a lock.  Which entry holds a PC: obj_find (objects.c), whose
   first check is the program's fast test, P.lowpc and P.textsize (the
   program's [lo, hi), copied there at start-up for the handler and the
   counting path, as __prof_lowpc and __prof_textsize are for the
   stubs).  Who writes each field, under which lock: doc/DESIGN.md,
   section 9, "Other objects". */
#define OBJ_MAX (PROF_WORD == 8 ? 65536 : 4096)   /* entries the map's address space holds */
#define OBJ_STEP 128             /* entries made usable at a time */
#define OBJ_PEND 1024            /* samples outside every object kept for the next scan */
#define OBJ_BLIND 256            /* dlclose's reads of the map not made, by epoch (objects.c) */
#define OBJ_ID_MAX 20
#define OBJ_SEGS 8               /* executable segments kept per object */
#define OBJ_PATH 256             /* an entry's path, with its 0 (the program's: P.exe) */

struct uw_tab;                   /* an unwind table (cfi.c) */

/* An executable PT_LOAD segment of a load: [lo, hi) at run time and the
   file offset of lo (its p_offset) -- what the kernel's maps show for
   it, what a profile's mappings need. */
typedef struct {
  uintptr_t lo, hi, off;
} prof_seg;

typedef struct {
  uintptr_t lo, hi;              /* the histogram's text, at run time (granules) */
  uintptr_t base;                /* load bias (dlpi_addr) */
  uint32_t *bins;                /* (hi - lo) / HIST_GRANULE, mapped */
  size_t nbins;
  int loaded, seen;
  int nsegs;                     /* its executable segments (this load's) ... */
  prof_seg seg[OBJ_SEGS];        /* ... in program-header order */
  int patched;                   /* this load's GOT slots were seen */
  int redirect_due;              /* a runtime's mcount it defines still to redirect */
  int put_off;                   /* scans that found it still being relocated */
  uintptr_t slot, slot_val;      /* one of them and its trampoline, or 0 */
  int tramp;                     /* its trampoline + 1, 0: none */
  uint32_t cbase;                /* its codes: [cbase, cbase + csize) ... */
  uint32_t csize;                /* ... 0: none yet (published last; the program: none, its codes are [0, textsize)) */
  uintptr_t link_lo;             /* lo - base: the text's link-time start */
  int idlen;
  unsigned char id[OBJ_ID_MAX];  /* NT_GNU_BUILD_ID, as much as fits */
  const char *path;              /* absolute where it could be resolved: pbuf, or the program's P.exe */
  char pbuf[OBJ_PATH];
  prof_range range;              /* its load as a caller (prof.h) */
  const struct uw_tab *uw;       /* its unwind table (cfi.c; LIBPROF_STACKS), or NULL */
  uint32_t gen;                  /* its current load generation + 1, 0: none */
  unsigned char whas;            /* the writer's: has arcs, or calls an object with arcs */
  char wfile[64];                /* the writer's: its file's name, "" none */
} prof_obj;

/* A load generation (the stack file's `object` and `span` lines): one
   load of an object, alive during map epochs [from, to); generation 0
   is the program's, [0, OBJ_LIVE). */
typedef struct {
  uint32_t obj;                  /* its entry of O.obj */
  uint32_t from, to;             /* to: OBJ_LIVE while loaded */
  uintptr_t base, lo, hi;
} prof_gen;
#define OBJ_LIVE 0xffffffffu

/* Slots of a new thread's table: small, since most threads call few
   distinct arcs and 10,000 live threads must not cost much more than
   under glibc's runtime (a table and its first slots are carved from
   shared chunks, about 1.3 KB per thread); a busy thread's table grows
   by doubling.  Where the program's arcs are raw (PROF_RAW) they are the
   first slots, and the key part, which then holds only other objects'
   arcs (LIBPROF_OBJECTS=1), starts empty and gets KEY_FIRST slots at its
   first arc. */
#define TAB_INITIAL 64           /* the key part's first slots (no PROF_RAW) */
#define RAW_INITIAL 32           /* the raw part's (PROF_RAW) */
#define KEY_FIRST 64             /* an empty part's first growth */
static struct {
  int started, enabled, final;
  int final_wanted;              /* the final write waits: snapshots stand aside */
  prof_obj *prog;                /* the program: the map's entry 0, NULL until made (or if it could not be) */
  uintptr_t lowpc, textsize;     /* the fast test: prog's lo and hi - lo, set with it */
  int hz;
  long hz_limit;                 /* LIBPROF_HZ_LIMIT: -1 measured, 0 none, else the highest rate */
  uint64_t signal_ns;            /* a perf signal's cost here, measured over 1 kHz (clock_limit); 0 unknown */
  int sig;                       /* the sampling signal (a real-time one) */
  int psig;                      /* SIGPROF: the own threads' perf clocks signal with it, 0: with sig */
  int overhead;                  /* LIBPROF_OVERHEAD: OV_DROP, OV_CHARGE, OV_REPORT */
  uint64_t overhead_ticks;       /* samples in libprof's code, dropped */
  uint64_t handler_ns;           /* the perf handlers' own time, all threads (perf_done) */
  char *arena, *arena_end;       /* where new tables are carved (under tab_lock) */
  pid_t pid;
  prof_tab *tabs;                /* every table ever made */
  prof_tab *free;                /* tables of finished threads, emptied */
  prof_tab retired;              /* the counts of finished threads */
  uint64_t lost_arcs;
  uint64_t rehomes;              /* count_rehome's rebuilds, for LIBPROF_OVERHEAD=report */
  int tab_lock, write_lock;      /* owner's tid, 0 = free */
  int dump_signal;
  double interval;
  uint32_t wake;                 /* a futex word: raised, it makes the helper write */
  int helper;                    /* the helper thread runs */
  int starting;                  /* our threads made but not yet running (spawn) */
  int objects;                   /* LIBPROF_OBJECTS=1: other objects sampled */
  int stack_depth;               /* LIBPROF_STACKS (stacks.c: S.depth once made) */
  uint64_t stack_slots;          /* LIBPROF_STACKS_MAX, a power of two */
  char exe[1024];                /* the program's path (/proc/self/exe): prog's */
  /* the sampling clock (sample.c): CLK_PERF, CLK_TIMER or CLK_ITIMER,
     chosen at start-up (LIBPROF_CLOCK), and what it could not do */
  int clock;
  int clock_user;                /* perf events count user time only: weighed by the thread's CPU time */
  uint64_t signals, samples;     /* sampling signals taken, and the samples (periods) they carried */
  uint64_t clock_fallbacks;      /* threads given a POSIX timer where the chosen clock failed */
  uint64_t paced;                /* threads whose perf clock perf_pace slowed ... */
  int paced_shift;               /* ... the most: the rate over 2^this */
  int paced_end_shift;           /* the most a thread's clock was slowed when it stopped */
  uint64_t unsampled;            /* threads libprof could give no timer at all */
  pid_t own[8];                  /* libprof's own threads (spawn), never sampled */
  char own_table[8];             /* ... which has a table of descriptors of its own (own_files) */
  int nown;
} P;

static __thread int in_libprof;  /* set while this thread runs our C code */
static __thread pid_t my_tid;
static __thread int have_timer;
/* for the ticks between the kernel's last clock tick and the thread's
   end (see stop_thread_timer): expirations seen, where the timer started, and
   the bin the last sample went to (NO_BIN if it was dropped) */
static __thread uint64_t ticks_seen, timer_cpu0;
static __thread uint64_t cpu_mark;   /* CLK_PERF, user time only: CPU time weighed so far */
static __thread uint64_t rehome_at = 4;   /* ticks_seen of the next count_rehome */
static __thread size_t last_bin;
static __thread uintptr_t slow_self;   /* selfpc, while in the slow path */
#define NO_BIN ((size_t)-1)
enum { OV_DROP, OV_CHARGE, OV_REPORT };
/* the sampling clocks (sample.c) and their names in the profile (the
   stack file's `clock`, the facts records) */
enum { CLK_NONE, CLK_PERF, CLK_TIMER, CLK_ITIMER };
static const char *const clock_names[] = { "none", "perf-event", "posix-timer", "itimer" };

/* What a program that sandboxes itself leaves libprof (see
   before_sandbox): the final file opened before, and a copy of stderr
   for programs that close theirs before exit. */
static struct {
  int fd, err_fd;
  pid_t pid;                     /* the process that opened them */
  dev_t dev;
  ino_t ino;
  char name[4096];
  dev_t err_dev;                 /* what err_fd was: a program that closes */
  ino_t err_ino;                 /* every descriptor may reuse its number */
} early = { -1, -1, 0, 0, 0, "", 0, 0 };

