/* gmon_facts.c -- libprof's facts records: reading, summing, writing,
 * and the notes they give (gmon_facts.h; the layout is in gmon_out.h). */
#include <stdio.h>
#include <string.h>
#include "gmon/facts.h"

static vma_t base(int addr_size)
{
  return addr_size == 8 ? (vma_t)GMON_FACTS_BASE64 : (vma_t)GMON_FACTS_BASE32;
}

int gmon_facts_is(vma_t lo, vma_t hi, uint32_t n, int addr_size)
{
  vma_t b = base(addr_size);
  return n == 1 && lo >= b && lo - b < 4 * GMON_FACTS_SLOTS && hi == lo + 4;
}

void gmon_facts_take(GmonFacts *f, vma_t lo, int addr_size, const unsigned char *d)
{
  if (d[8] != GMON_FACTS_MARK) {
    f->lost = 1;
    return;
  }
  unsigned slot = (unsigned)((lo - base(addr_size)) / 4), key = slot / 8, chunk = slot % 8;
  uint64_t v = 0;
  for (int i = 0; i < 6; i++) v |= (uint64_t)d[9 + i] << (8 * i);
  f->present = 1;
  if (key == GMON_FACT_CLOCK) {
    for (unsigned i = 0; i < 6; i++) f->clock[chunk * 6 + i] = (char)(v >> (8 * i));
    f->clock[48] = 0;
    return;
  }
  if (key > 0 && key < GMON_FACT_NKEYS) f->v[key] += v;   /* (a file may repeat a key: added) */
}

void gmon_facts_merge(GmonFacts *sum, const GmonFacts *file)
{
  sum->lost |= file->lost;
  if (!file->present) return;
  if (!sum->present) {
    *sum = *file;
    return;
  }
  for (int k = 1; k < GMON_FACT_NKEYS; k++) {
    if (k == GMON_FACT_VERSION) {
      if (file->v[k] > sum->v[k]) sum->v[k] = file->v[k];
    } else if (k == GMON_FACT_HZ) {
      if (file->v[k] != sum->v[k]) sum->hz_mixed = 1;
    } else {
      sum->v[k] += file->v[k];
    }
  }
  sum->hz_mixed |= file->hz_mixed;
  if (strcmp(sum->clock, file->clock) || file->clock_mixed) sum->clock_mixed = 1;
}

static void put_fact(GmonOut *out, unsigned key, unsigned chunk, uint64_t v, uint32_t hz)
{
  vma_t lo = base(out->enc->addr_size) + 4u * (key * 8 + chunk);
  unsigned char d[HIST_DIMEN_LEN] = "seconds";
  d[8] = GMON_FACTS_MARK;
  for (int i = 0; i < 6; i++) d[9 + i] = (unsigned char)(v >> (8 * i));
  genc_put_u8(out, GMON_TAG_TIME_HIST);
  genc_put_addr(out, lo);
  genc_put_addr(out, lo + 4);
  genc_put_u32(out, 1);
  genc_put_u32(out, hz);
  genc_put_bytes(out, d, sizeof d);
  genc_put_u8(out, 's');
  genc_put_n(out, 0, 2);
}

void gmon_facts_write(const GmonFacts *f, GmonOut *out, uint32_t hz)
{
  if (!f->present) return;
  for (unsigned k = 1; k < GMON_FACT_NKEYS; k++)
    if (k != GMON_FACT_CLOCK && (k != GMON_FACT_KERNEL || f->v[k]))
      put_fact(out, k, 0, k == GMON_FACT_HZ && f->hz_mixed ? 0 : f->v[k], hz);
  const char *clk = f->clock_mixed ? "mixed" : f->clock;
  size_t len = strlen(clk);
  for (unsigned c = 0; c * 6 < len && c < 8; c++) {
    uint64_t x = 0;
    for (unsigned i = 0; i < 6 && c * 6 + i < len; i++) x |= (uint64_t)(unsigned char)clk[c * 6 + i] << (8 * i);
    put_fact(out, GMON_FACT_CLOCK, c, x, hz);
  }
}

void gmon_facts_info(const GmonFacts *f)
{
  if (!f->present) return;
  const uint64_t *v = f->v;
  const char *clk = f->clock_mixed ? "mixed" : f->clock[0] ? f->clock : "unknown";
  if (f->hz_mixed || !v[GMON_FACT_HZ])
    printf("\tsampled by libprof: clock %s, rates mixed", clk);
  else
    printf("\tsampled by libprof: clock %s, %llu samples a CPU second", clk,
           (unsigned long long)v[GMON_FACT_HZ]);
  if (v[GMON_FACT_RUNS] > 1) printf(", %llu runs", (unsigned long long)v[GMON_FACT_RUNS]);
  printf("\n");
}

/* A share worth a note: at least a twentieth of the whole and of a
   twentieth of a second (a few samples at the edges of a short run --
   the start, a syscall's return -- are no news). */
static int worth(uint64_t part, uint64_t whole, uint64_t hz)
{
  return part && part * 20 >= whole && part * 20 >= hz;
}

void gmon_facts_note(const GmonFacts *f, const char *what, int objects)
{
  if (!f->present) return;
  const uint64_t *v = f->v;
  uint64_t hz = !f->hz_mixed && v[GMON_FACT_HZ] ? v[GMON_FACT_HZ] : 100;
  uint64_t out = v[GMON_FACT_LIBC] + v[GMON_FACT_LOADER] + v[GMON_FACT_VDSO] + v[GMON_FACT_OTHER]
               + v[GMON_FACT_KERNEL];
  uint64_t all = v[GMON_FACT_TEXT] + out;
  int seen_objects = v[GMON_FACT_OBJECTS] > 0;
  if (worth(out, all, hz) && !(objects && seen_objects)) {
    char by[256] = "";
    static const struct { int key; const char *name; } part[] = {
      { GMON_FACT_LIBC, "the C library" }, { GMON_FACT_LOADER, "the dynamic loader" },
      { GMON_FACT_VDSO, "the vDSO" }, { GMON_FACT_OTHER, "other shared objects" },
      { GMON_FACT_KERNEL, "the kernel" },
    };
    for (size_t i = 0; i < sizeof part / sizeof *part; i++) {
      uint64_t n = v[part[i].key];
      if (!n) continue;
      size_t len = strlen(by);
      snprintf(by + len, sizeof by - len, "%s%s %.1f%%", len ? ", " : "", part[i].name,
               100.0 * (double)n / (double)all);
    }
    msg_warn("%s: %.1f%% of the time sampled (%.2f of %.2f seconds) was outside the program's "
             "code, which the profile leaves out (%s); %s\n",
             what, 100.0 * (double)out / (double)all, (double)out / (double)hz, (double)all / (double)hz,
             by, seen_objects ? "gprof --objects shows where"
                              : "run the program with LIBPROF_OBJECTS=1 and read it with gprof "
                                "--objects to see where");
  } else if (worth(v[GMON_FACT_KERNEL], all, hz)) {
    /* --objects shows every object's samples, but no object holds the
       kernel's (a perf clock of user time only sees no PC there) */
    msg_warn("%s: %.1f%% of the time sampled (%.2f of %.2f seconds) was in the kernel, at no "
             "PC the clock could see, which no report shows\n",
             what, 100.0 * (double)v[GMON_FACT_KERNEL] / (double)all,
             (double)v[GMON_FACT_KERNEL] / (double)hz, (double)all / (double)hz);
  }
  /* each thread may owe up to a sample at its end (less than a period
     left, or no sample to credit it to), and the kernel's tick a few */
  uint64_t owed = v[GMON_FACT_CPU_US] / 1000u * hz / 1000u, lost = v[GMON_FACT_NOT_TAKEN];
  if (worth(lost, owed * 2, hz) && lost > v[GMON_FACT_THREADS] + 2)
    msg_warn("%s: libprof could not take %.1f%% of the samples owed by the CPU time "
             "(%.2f of %.2f seconds): threads it could not sample, or its signal blocked or "
             "taken away\n",
             what, 100.0 * (double)lost / (double)owed, (double)lost / (double)hz,
             (double)owed / (double)hz);
  if (v[GMON_FACT_LOST_CALLS])
    msg_warn("%s: libprof could not count %llu calls (made by a signal handler interrupting libprof, "
             "out of memory, or from code without a frame pointer): the call counts are short by as "
             "many\n", what, (unsigned long long)v[GMON_FACT_LOST_CALLS]);
}
