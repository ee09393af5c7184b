/* write.c -- writing profiles: the GNU format from the histogram and
 * the sum of every thread's table (made by the writer alone, growing as
 * threads find arcs meanwhile), written with write(2) from static or
 * mapped memory (so a signal handler can write), into a regular file
 * whole or not at all, never replacing a link, a device or a FIFO; the
 * file's name; and what a program about to sandbox itself leaves for the
 * final write.  Part of gmon.c's translation unit; uses base.c and the
 * tables of count.c. */

typedef struct {
  int fd, err;
  size_t n;
  unsigned char buf[8192];
} wbuf;

static void wflush(wbuf *w)
{
  size_t off = 0;
  while (off < w->n && !w->err) {
    ssize_t k = write(w->fd, w->buf + off, w->n - off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) w->err = k < 0 ? errno : EIO;
    else off += (size_t)k;
  }
  w->n = 0;
}

static void wbytes(wbuf *w, const void *p, size_t n)
{
  const unsigned char *s = p;
  while (n--) {
    if (w->n == sizeof w->buf) wflush(w);
    w->buf[w->n++] = *s++;
  }
}

static void wint(wbuf *w, uint64_t v, int n)
{
  for (int i = 0; i < n; i++) {
    /* N may exceed 8 (the header's spare bytes): no shift by 64 or more */
    unsigned char c = i < 8 ? (unsigned char)(v >> (8 * i)) : 0;
    wbytes(w, &c, 1);
  }
}

/* The writer's sum of every table: private to the writer, so it grows
   (load kept under 1/2) and frees its old slots at once. */
typedef struct {
  prof_slot *slots;
  uint64_t mask, used;
} sum_tab;

static int sum_init(sum_tab *t, uint64_t n)
{
  t->slots = map_zero(n * sizeof *t->slots);
  t->mask = n - 1;
  t->used = 0;
  return t->slots != NULL;
}

static int sum_add(sum_tab *t, uint64_t key, uint64_t count)
{
  uint64_t k = slot_of(key, t->mask);
  while (t->slots[k].key && t->slots[k].key != key) k = (k + 1) & t->mask;
  if (!t->slots[k].key) {
    if ((t->used + 1) * 2 > t->mask + 1) {
      sum_tab g;
      if (!sum_init(&g, (t->mask + 1) * 2)) return 0;
      for (uint64_t j = 0; j <= t->mask; j++)
        if (t->slots[j].key) {
          uint64_t i = slot_of(t->slots[j].key, g.mask);
          while (g.slots[i].key) i = (i + 1) & g.mask;
          g.slots[i] = t->slots[j];
        }
      g.used = t->used;
      munmap(t->slots, (t->mask + 1) * sizeof *t->slots);
      *t = g;
      return sum_add(t, key, count);
    }
    t->slots[k].key = key;
    t->used++;
  }
  t->slots[k].count += count;
  return 1;
}

/* Histogram records over [LO, HI) (the object's own addresses) from
   BINS.  A bin holds at most 65535 in the file; the rest goes into
   further records of the same range, which gprof adds up. */
static void write_hist(wbuf *w, uintptr_t lo, uintptr_t hi, const uint32_t *bins, size_t nbins)
{
  const int as = (int)sizeof(void *);
  int more = 1;
  for (uint32_t round = 0; more; round++) {
    more = 0;
    wbytes(w, "\0", 1);
    wint(w, lo, as);
    wint(w, hi, as);
    wint(w, nbins, 4);
    wint(w, P.hz ? (uint64_t)P.hz : 100, 4);
    char dim[15] = "seconds";
    wbytes(w, dim, 15);
    wbytes(w, "s", 1);
    for (size_t i = 0; i < nbins; i++) {
      uint64_t b = __atomic_load_n(&bins[i], __ATOMIC_RELAXED);
      uint64_t done = (uint64_t)round * 0xffff;
      uint64_t left = b > done ? b - done : 0;
      if (left > 0xffff) more = 1;
      wint(w, left > 0xffff ? 0xffff : left, 2);
    }
  }
}

/* The header: GNU's, its 12 spare bytes holding the object's build-id
   when it has one (gmon_out.h: a tag and the id's first 8 bytes; GNU
   gprof skips them, ours compares them with the object's). */
static void write_header(wbuf *w, const unsigned char *id, int idlen)
{
  wbytes(w, "gmon", 4);
  wint(w, 1, 4);
  if (idlen > 0) {
    unsigned char b[GMON_BUILD_ID_LEN] = { 0 };
    memcpy(b, id, idlen < GMON_BUILD_ID_LEN ? (size_t)idlen : GMON_BUILD_ID_LEN);
    wbytes(w, GMON_BUILD_ID_TAG, 4);
    wbytes(w, b, GMON_BUILD_ID_LEN);
  } else {
    wint(w, 0, 12);
  }
}

/* Every table and the finished threads' one, summed into SUM: the
   program's arcs (LIB 0: the callee's code under the text's size, so
   both are offsets into the program's text), or other objects' (LIB 1).
   Other threads go on counting (and finding new arcs) while this runs,
   so the sum is sized from what is seen, growing as it fills, never from
   a count read before.  Returns 0 or ENOMEM (SUM then holds nothing). */
static int sum_tables(sum_tab *sum, int lib)
{
  int taken = lock_take(&P.tab_lock, 2000);
  uint64_t seen = P.retired.key.used, n = 1024;
  for (prof_tab *t = P.tabs; t; t = t->next)
    seen += __atomic_load_n(&t->key.used, __ATOMIC_RELAXED) + __atomic_load_n(&t->raw.used, __ATOMIC_RELAXED);
  while (n < seen * 2 && n < ((uint64_t)1 << 32)) n *= 2;   /* a guess: it grows if need be */
  int err = sum_init(sum, n) ? 0 : ENOMEM;
  for (prof_tab *t = &P.retired; t && !err; t = t == &P.retired ? P.tabs : t->next) {
    /* (the program's raw arcs are never other objects'; the shared
       table's raw part has no slots) */
    for (int raw = 0; raw <= (PROF_RAW && !lib) && !err; raw++) {
      const prof_part *p = raw ? &t->raw : &t->key;
      const unsigned w = SLOT_WORDS(raw), c = SLOT_COUNT(raw);
      /* the mask before the slots: a part that grows stores its new
         slots first, so these slots have at least mask + 1 entries */
      uint64_t mask = __atomic_load_n(&p->mask, __ATOMIC_ACQUIRE);
      const uint64_t *slots = __atomic_load_n(&p->slots, __ATOMIC_ACQUIRE);
      for (uint64_t i = 0; slots && i <= mask && !err; i++) {
        const uint64_t *o = slots + i * w;
        uint64_t e[4] = { __atomic_load_n(&o[0], __ATOMIC_ACQUIRE), 0, 0, 0 };
        if (!e[0]) continue;
        for (unsigned k = 1; k < w; k++) e[k] = o[k];
        uint64_t key = raw ? raw_key(e) : e[0];
        if (key && ((key & 0xffffffffu) >= P.textsize) == lib && !sum_add(sum, key, e[c]))
          err = ENOMEM;
      }
      /* and the counts left in its older slots (prof_stale) */
      prof_stale rec;
      for (const prof_stale *st = part_old(p, &rec); st && !err; st = st->next)
        for (uint64_t i = 0; i <= st->mask && !err; i++) {
          const uint64_t *o = st->slots + i * w;
          uint64_t key = o[0] && o[c] ? (raw ? raw_key(o) : o[0]) : 0;
          if (key && ((key & 0xffffffffu) >= P.textsize) == lib && !sum_add(sum, key, o[c]))
            err = ENOMEM;
        }
    }
  }
  lock_give(&P.tab_lock, taken);
  if (err && sum->slots) munmap(sum->slots, (sum->mask + 1) * sizeof *sum->slots);
  if (err) sum->slots = NULL;
  return err;
}

static void sum_free(sum_tab *sum)
{
  if (sum->slots) munmap(sum->slots, (sum->mask + 1) * sizeof *sum->slots);
  sum->slots = NULL;
}

/* One arc: counts are 32 bits in the file, so a larger one takes several
   records, which gprof adds up. */
static void write_arc(wbuf *w, uintptr_t from, uintptr_t self, uint64_t c64)
{
  const int as = (int)sizeof(void *);
  while (c64 > 0) {
    uint32_t c = c64 > 0xffffffffu ? 0xffffffffu : (uint32_t)c64;
    wbytes(w, "\1", 1);
    wint(w, from, as);
    wint(w, self, as);
    wint(w, c, 4);
    c64 -= c;
  }
}

/* One facts record (gmon_out.h): key KEY, chunk CHUNK, value V (48 bits). */
static void write_fact(wbuf *w, unsigned key, unsigned chunk, uint64_t v)
{
  const int as = (int)sizeof(void *);
  uint64_t lo = (as == 8 ? GMON_FACTS_BASE64 : GMON_FACTS_BASE32) + 4u * (uint64_t)(key * 8 + chunk);
  unsigned char d[HIST_DIMEN_LEN + 1] = "seconds";
  d[8] = GMON_FACTS_MARK;
  for (int i = 0; i < 6; i++) d[9 + i] = (unsigned char)(v >> (8 * i));
  d[HIST_DIMEN_LEN] = 's';
  wbytes(w, "\0", 1);
  wint(w, lo, as);
  wint(w, lo + 4, as);
  wint(w, 1, 4);
  wint(w, P.hz ? (uint64_t)P.hz : 100, 4);
  wbytes(w, d, sizeof d);
  wint(w, 0, 2);
}

/* The facts records, after the program's histogram: what the histogram
   holds, what it does not (facts.c), and the samples owed by the CPU time
   the process used since profiling began that no count holds. */
static void write_facts(wbuf *w)
{
  uint64_t hz = P.hz ? (uint64_t)P.hz : 100, cpu = facts_cpu_ns();
  uint64_t own = __atomic_load_n(&F.own_ns[0], __ATOMIC_RELAXED) + __atomic_load_n(&F.own_ns[1], __ATOMIC_RELAXED);
  cpu = cpu > F.cpu0 + own ? cpu - F.cpu0 - own : 0;   /* libprof's threads' time owes no sample */
  uint64_t text = 0;
  for (size_t i = 0; i < P.prog->nbins; i++) text += __atomic_load_n(&P.prog->bins[i], __ATOMIC_RELAXED);
  uint64_t v[GMON_FACT_NKEYS] = { 0 };
  v[GMON_FACT_VERSION] = 1;
  v[GMON_FACT_HZ] = hz;
  v[GMON_FACT_TEXT] = text;
  v[GMON_FACT_LIBC] = __atomic_load_n(&F.out[FO_LIBC], __ATOMIC_RELAXED);
  v[GMON_FACT_LOADER] = __atomic_load_n(&F.out[FO_LOADER], __ATOMIC_RELAXED);
  v[GMON_FACT_VDSO] = __atomic_load_n(&F.out[FO_VDSO], __ATOMIC_RELAXED);
  v[GMON_FACT_OTHER] = __atomic_load_n(&F.out[FO_OTHER], __ATOMIC_RELAXED);
  v[GMON_FACT_LIBPROF] = __atomic_load_n(&P.overhead_ticks, __ATOMIC_RELAXED);
  v[GMON_FACT_OFF] = __atomic_load_n(&F.off, __ATOMIC_RELAXED);
  v[GMON_FACT_CPU_US] = cpu / 1000u;
  v[GMON_FACT_KERNEL] = __atomic_load_n(&F.kernel, __ATOMIC_RELAXED);
  uint64_t owed = cpu / 1000000u * hz / 1000u, seen = v[GMON_FACT_KERNEL];
  for (int k = GMON_FACT_TEXT; k <= GMON_FACT_OFF; k++) seen += v[k];
  v[GMON_FACT_NOT_TAKEN] = owed > seen ? owed - seen : 0;
  v[GMON_FACT_OBJECTS] = P.objects ? 1 : 0;
  v[GMON_FACT_RUNS] = 1;
  v[GMON_FACT_THREADS] = __atomic_load_n(&F.threads, __ATOMIC_RELAXED);
  /* calls not counted: said at exit too (report_lost); in the file so
     that gprof says it where the profile is read */
  v[GMON_FACT_LOST_CALLS] = __atomic_load_n(&P.lost_arcs, __ATOMIC_RELAXED)
                          + __atomic_load_n(&__prof_nofp, __ATOMIC_RELAXED);
  for (unsigned k = GMON_FACT_VERSION; k < GMON_FACT_NKEYS; k++)
    if (k != GMON_FACT_CLOCK && ((k != GMON_FACT_LOST_CALLS && k != GMON_FACT_KERNEL) || v[k]))
      write_fact(w, k, 0, v[k]);
  const char *clk = facts_clock();
  size_t len = strlen(clk);
  for (unsigned c = 0; c * 6 < len && c < 8; c++) {
    uint64_t x = 0;
    for (unsigned i = 0; i < 6 && c * 6 + i < len; i++) x |= (uint64_t)(unsigned char)clk[c * 6 + i] << (8 * i);
    write_fact(w, GMON_FACT_CLOCK, c, x);
  }
}

static void write_data(wbuf *w)
{
  const prof_obj *prog = P.prog;
  write_header(w, prog->id, prog->idlen);
  /* addresses as the object has them (PIE load bias removed) */
  write_hist(w, prog->lo - prog->base, prog->hi - prog->base, prog->bins, prog->nbins);
  write_facts(w);
  sum_tab sum = { NULL, 0, 0 };
  if ((w->err = sum_tables(&sum, 0))) return;
  for (uint64_t i = 0; i <= sum.mask; i++) {
    uint64_t key = sum.slots[i].key;
    if (key)
      write_arc(w, prog->link_lo + (uintptr_t)(key >> 32),
                prog->link_lo + (uintptr_t)(key & 0xffffffffu), sum.slots[i].count);
  }
  sum_free(&sum);
}

/* ---- other objects' arcs (objects.c's codes) ---- */

/* The writer's sum of other objects' arcs, and how many objects had
   codes when it was made (O.code_order's first entries: by their first
   code, since codes are given in order) (by write_objects, under
   write_lock). */
static sum_tab osum;
static int ncodes;

static void codes_index(void)
{
  ncodes = __atomic_load_n(&O.ncodes, __ATOMIC_ACQUIRE);
}

/* The object whose codes hold CODE, or -1 (the program's, or none). */
static int code_owner(uint64_t code)
{
  int lo = 0, hi = ncodes;
  while (lo < hi) {
    int mid = (lo + hi) / 2, k = O.code_order[mid];
    if (code < O.obj[k].cbase) hi = mid;
    else if (code - O.obj[k].cbase >= O.obj[k].csize) lo = mid + 1;
    else return k;
  }
  return -1;
}

/* A caller outside the object whose file is written, as that file has
   it: outside every object's text (GNU gprof drops the arc), the
   caller's object and link-time address encoded for --objects --
   0x4000000000000000 | N << 40 | address, N = 0 the program, k map
   entry k (its file's N), 0x3fffff none; in a 32-bit file 0x80000000 |
   N << 23 | address, N up to 254, 255 none (and for a caller whose N or
   address does not fit) (doc/DESIGN.md). */
static uint64_t outside_caller(uint64_t code)
{
  const int wide = sizeof(uintptr_t) == 8;
  uint64_t n = wide ? 0x3fffff : 0xff, addr = 0;
  if (code < P.textsize) {
    n = 0;
    addr = P.prog->link_lo + code;
  } else {
    int j = code_owner(code);
    if (j >= 0) {
      n = (uint64_t)j;
      addr = code - O.obj[j].cbase + O.obj[j].link_lo;
    }
  }
  if (wide) return (uint64_t)1 << 62 | n << 40 | (addr & (((uint64_t)1 << 40) - 1));
  if (n >= 0xff || addr >= (uint64_t)1 << 23) n = 0xff, addr = 0;
  return 0x80000000u | n << 23 | addr;
}

/* O's arcs: those whose callee has one of its codes. */
static void write_obj_arcs(wbuf *w, const prof_obj *o)
{
  for (uint64_t i = 0; osum.slots && i <= osum.mask; i++) {
    uint64_t key = osum.slots[i].key, from = key >> 32, self = key & 0xffffffffu;
    if (!key || self - o->cbase >= o->csize) continue;
    from = from - o->cbase < o->csize ? from - o->cbase + o->link_lo : outside_caller(from);
    write_arc(w, (uintptr_t)from, (uintptr_t)(self - o->cbase + o->link_lo), osum.slots[i].count);
  }
}

/* What write_fd writes (under write_lock): the program's profile, an
   object's (objects.c), or the manifest of a profile's objects. */
static const prof_obj *writing_obj;
static int writing_manifest;                   /* (the files: each object's wfile) */
static int writing_stacks;

static void whex(wbuf *w, uint64_t v)
{
  char d[19];
  int k = 0;
  do d[k++] = "0123456789abcdef"[v & 15]; while ((v >>= 4) > 0);
  wbytes(w, "0x", 2);
  while (k) wbytes(w, &d[--k], 1);
}

static void wdec(wbuf *w, uint64_t v);

/* The manifest: a line per object file, then what could not be counted
   ("lost samples N": samples in no object of the map; "lost calls N":
   calls into none; "lost objects N": the most objects found at once that
   the map could not hold), each only when not 0. */
static void write_manifest(wbuf *w)
{
  const char *head = "libprof-objects 1\n"
                     "# file build-id load-base text-start text-end path\n";
  wbytes(w, head, strlen(head));
  int n = __atomic_load_n(&O.nobjs, __ATOMIC_ACQUIRE);
  for (int k = 1; k < n; k++) {            /* (entry 0, the program: gmon.out) */
    const prof_obj *o = &O.obj[k];
    if (!o->wfile[0]) continue;
    wbytes(w, o->wfile, strlen(o->wfile));
    wbytes(w, " ", 1);
    for (int i = 0; i < o->idlen; i++) {
      char hx[2] = { "0123456789abcdef"[o->id[i] >> 4], "0123456789abcdef"[o->id[i] & 15] };
      wbytes(w, hx, 2);
    }
    if (!o->idlen) wbytes(w, "-", 1);
    wbytes(w, " ", 1);
    whex(w, o->base);
    wbytes(w, " ", 1);
    whex(w, o->lo - o->base);
    wbytes(w, " ", 1);
    whex(w, o->hi - o->base);
    wbytes(w, " ", 1);
    wbytes(w, o->path, strlen(o->path));
    wbytes(w, "\n", 1);
  }
  const char *what[4] = { "samples ", "calls ", "objects ", "dlmopen-objects " };
  uint64_t lost[4] = { __atomic_load_n(&O.lost, __ATOMIC_RELAXED),
                       __atomic_load_n(&O.lost_calls, __ATOMIC_RELAXED), O.lost_objects, O.late_objects };
  /* (and the samples still waiting for a scan: no scan here, this may
     run in a fatal signal's handler) */
  uint64_t t = __atomic_load_n(&O.pend_tail, __ATOMIC_ACQUIRE), h = __atomic_load_n(&O.pend_head, __ATOMIC_ACQUIRE);
  for (; t != h; t++)
    if (__atomic_load_n(&O.pend[t % OBJ_PEND].pc, __ATOMIC_ACQUIRE)) lost[0] += O.pend[t % OBJ_PEND].n;
  for (int i = 0; i < 4; i++) {
    if (!lost[i]) continue;
    wbytes(w, "lost ", 5);
    wbytes(w, what[i], strlen(what[i]));
    wdec(w, lost[i]);
    wbytes(w, "\n", 1);
  }
}

static void wdec(wbuf *w, uint64_t v)
{
  char d[24];
  int k = 0;
  do d[k++] = (char)('0' + v % 10); while ((v /= 10) > 0);
  while (k) wbytes(w, &d[--k], 1);
}

static void wid(wbuf *w, const unsigned char *id, int idlen)
{
  for (int i = 0; i < idlen; i++) {
    char hx[2] = { "0123456789abcdef"[id[i] >> 4], "0123456789abcdef"[id[i] & 15] };
    wbytes(w, hx, 2);
  }
  if (!idlen) wbytes(w, "-", 1);
}

static void wobject(wbuf *w, int k, uintptr_t base, uintptr_t lo, uintptr_t hi,
                    const unsigned char *id, int idlen, const char *path)
{
  wbytes(w, "object ", 7);
  wdec(w, (uint64_t)k);
  wbytes(w, " ", 1);
  whex(w, base);
  wbytes(w, " ", 1);
  whex(w, lo);
  wbytes(w, " ", 1);
  whex(w, hi);
  wbytes(w, " ", 1);
  wid(w, id, idlen);
  wbytes(w, " ", 1);
  wbytes(w, path, strlen(path));
  wbytes(w, "\n", 1);
}

/* PROFILE.stacks, version 2 (stacks.c; the format is in doc/DESIGN.md,
   "Stacks", and the session contract): object 0 the program, then an object
   per load generation of the map (objects.c), each with its span of map
   epochs; each stack with the epoch it was sampled in.  Entries still
   being filled by a sampling thread are left out. */
static void wspan(wbuf *w, int k, uint32_t from, uint32_t to)
{
  wbytes(w, "span ", 5);
  wdec(w, (uint64_t)k);
  wbytes(w, " ", 1);
  wdec(w, from);
  if (to == OBJ_LIVE) wbytes(w, " -\n", 3);
  else {
    wbytes(w, " ", 1);
    wdec(w, to);
    wbytes(w, "\n", 1);
  }
}

static void write_stacks(wbuf *w)
{
  const char *head = "libprof-stacks 2\nhz ";
  wbytes(w, head, strlen(head));
  wdec(w, P.hz ? (uint64_t)P.hz : 100);
  if (P.clock) {                 /* the sampling clock (sample.c) */
    wbytes(w, "\nclock ", 7);
    wbytes(w, clock_names[P.clock], strlen(clock_names[P.clock]));
  }
  wbytes(w, "\ndepth ", 7);
  wdec(w, (uint64_t)S.depth);
  wbytes(w, "\nsamples ", 9);
  wdec(w, __atomic_load_n(&S.samples, __ATOMIC_RELAXED));
  wbytes(w, "\ndropped ", 9);
  wdec(w, __atomic_load_n(&S.dropped, __ATOMIC_RELAXED));
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  wbytes(w, "\nstart ", 7);
  wdec(w, S.start_ns);
  wbytes(w, "\nduration ", 10);
  wdec(w, now > S.start_mono ? now - S.start_mono : 0);
  wbytes(w, "\n", 1);
  /* each load generation: the program's is generation 0, object 0 */
  const prof_obj *prog = P.prog;
  wobject(w, 0, prog->base, prog->lo, prog->hi, prog->id, prog->idlen, prog->path);
  wspan(w, 0, 0, OBJ_LIVE);
  uint32_t ng = O.gen ? __atomic_load_n(&O.ngens, __ATOMIC_ACQUIRE) : 0;
  for (uint32_t k = 1; k < ng; k++) {
    const prof_gen *g = &O.gen[k];
    const prof_obj *o = &O.obj[g->obj];
    wobject(w, (int)k, g->base, g->lo, g->hi, o->id, o->idlen, o->path);
    wspan(w, (int)k, g->from, __atomic_load_n(&g->to, __ATOMIC_ACQUIRE));
  }
  /* the blind marks (objects.c, objects_blind): one of the first not
     yet stored is left out, as a mark taken after this write began */
  uint32_t nb = __atomic_load_n(&O.nblind, __ATOMIC_ACQUIRE);
  for (uint32_t k = 0; k < nb && k < OBJ_BLIND; k++) {
    uint32_t e = __atomic_load_n(&O.blind[k], __ATOMIC_ACQUIRE);
    if (!e) continue;
    wbytes(w, "blind ", 6);
    wdec(w, e);
    wbytes(w, "\n", 1);
  }
  uint32_t over = __atomic_load_n(&O.blind_over, __ATOMIC_ACQUIRE);
  if (over) {
    wbytes(w, "blind ", 6);
    wdec(w, over);
    wbytes(w, " -\n", 3);
  }
  uint32_t nn = __atomic_load_n(&S.nnames, __ATOMIC_RELAXED);
  for (uint32_t k = 0; k < nn && k < STK_NAMES; k++) {
    uint32_t t = __atomic_load_n(&S.names[k].tid, __ATOMIC_ACQUIRE);
    if (!t) continue;
    char name[17];
    memcpy(name, S.names[k].name, 16);
    name[16] = 0;
    for (char *c = name; *c; c++) if (*c == '\n') *c = ' ';
    wbytes(w, "thread ", 7);
    wdec(w, t);
    wbytes(w, " ", 1);
    wbytes(w, name, strlen(name));
    wbytes(w, "\n", 1);
  }
  for (uint64_t k = 0; k <= S.mask; k++) {
    const stk_entry *e = &S.e[k];
    if (__atomic_load_n(&e->state, __ATOMIC_ACQUIRE) != STK_READY) continue;
    wbytes(w, "stack ", 6);
    wdec(w, e->tid);
    wbytes(w, " ", 1);
    wdec(w, __atomic_load_n(&e->count, __ATOMIC_RELAXED));
    wbytes(w, " ", 1);
    wbytes(w, &e->end, 1);
    wbytes(w, " ", 1);
    wdec(w, e->epoch);
    const uintptr_t *pcs = &S.pcs[k * (uint64_t)S.depth];
    for (uint32_t i = 0; i < e->n; i++) {
      wbytes(w, " ", 1);
      whex(w, pcs[i]);
    }
    wbytes(w, "\n", 1);
  }
}

/* Writes the profile into the open file FD.  Returns 0 or an errno value. */
static int write_fd(int fd)
{
  static wbuf w;                 /* under write_lock; kept off the stack */
  w.fd = fd;
  w.err = 0;
  w.n = 0;
  if (writing_stacks) {
    write_stacks(&w);
  } else if (writing_manifest) {
    write_manifest(&w);
  } else if (writing_obj) {
    write_header(&w, writing_obj->id, writing_obj->idlen);
    write_hist(&w, writing_obj->lo - writing_obj->base, writing_obj->hi - writing_obj->base,
               writing_obj->bins, writing_obj->nbins);
    if (__atomic_load_n(&writing_obj->csize, __ATOMIC_ACQUIRE)) write_obj_arcs(&w, writing_obj);
  } else {
    write_data(&w);
  }
  wflush(&w);
  return w.err;
}

static int close_keep(int fd, int err)
{
  int e = errno;
  if (close(fd) != 0 && !err) err = errno;
  errno = e;
  return err;
}

/* Writes the profile to PATH.  Returns 0 or an errno value.
   - A symbolic link is refused (ELOOP), as glibc's runtime refuses it, so
     a link the user made (to /dev/null, say) stays what it is.
   - Anything that is not a regular file (a device, a FIFO) is written
     into, as glibc does, never replaced; a FIFO with no reader is an
     error (ENXIO), not a wait without end.
   - A regular file, or none: the profile goes to an unnamed file in the
     same directory (O_TMPFILE), linked into place when whole (an old
     file of that name removed just before), so neither a reader nor a
     kill ever meets half a profile or a temporary name.  Where the file
     system has no O_TMPFILE or /proc is missing, a named temporary file
     is renamed into place;
     where the directory cannot be written but the file can, the file is
     written in place, as glibc would. */
static int write_to(const char *path)
{
  static char dir[4096], tmp[4096 + 64], proc[64];
  struct stat st;
  int exists = lstat(path, &st) == 0;
  if (exists && S_ISLNK(st.st_mode)) return ELOOP;
  if (exists && S_ISDIR(st.st_mode)) return EISDIR;
  if (exists && !S_ISREG(st.st_mode)) {
    int fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return errno;
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return close_keep(fd, write_fd(fd));
  }
  /* the directory, and a short name in it for file systems without O_TMPFILE */
  const char *slash = strrchr(path, '/');
  size_t dn = slash ? (size_t)(slash - path) : 0;
  if (dn >= sizeof dir) return ENAMETOOLONG;
  if (slash) { memcpy(dir, path, dn); dir[dn] = 0; if (!dn) { dir[0] = '/'; dir[1] = 0; } }
  else { dir[0] = '.'; dir[1] = 0; }
  make_name(tmp, sizeof tmp, dir, "/.gmon.tmp.", (long)tid());

  int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd >= 0) {
    int err = write_fd(fd);
    make_name(proc, sizeof proc, "/proc/thread-self/fd/", NULL, fd);
    /* linked to the name; an old file there is removed first (no system
       call links over a name, and a temporary name renamed over it
       could be left behind by a kill between the two calls: one run in
       a hundred of tests' 20 kills did) -- a kill between these two
       leaves no file, never a temporary one */
    for (int tries = 0; !err; tries++) {
      if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0) return close_keep(fd, 0);
      if (errno != EEXIST || tries == 8) { err = errno; break; }
      if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) { err = EEXIST; break; }
      if (unlink(path) != 0 && errno != ENOENT) err = errno;
    }
    err = close_keep(fd, err);
    if (err != ENOENT) return err;          /* ENOENT: no /proc; try by name */
  } else if (errno == EACCES || errno == EPERM || errno == EROFS) {
    if (!exists) return errno;
    /* the directory is closed to us, the file perhaps not: in place */
    fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno;
    return close_keep(fd, write_fd(fd));
  } else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    return errno;                           /* a missing directory, ... */
  }
  /* by name: a temporary file renamed into place */
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return errno;
  int err = close_keep(fd, write_fd(fd));
  if (!err && rename(tmp, path) != 0) err = errno;
  if (err) unlink(tmp);
  return err;
}

/* Which objects have arcs (1) or call into one that has (2): each gets a
   file, so that the N of a caller written by outside_caller names one. */
static void objects_with_arcs(void)
{
  for (uint64_t i = 0; osum.slots && i <= osum.mask; i++) {
    uint64_t key = osum.slots[i].key, from = key >> 32;
    int k = key ? code_owner(key & 0xffffffffu) : -1;
    if (k < 0) continue;
    O.obj[k].whas |= 1;
    if (from - O.obj[k].cbase >= O.obj[k].csize && from >= P.textsize) {
      int j = code_owner(from);
      if (j >= 0) O.obj[j].whas |= 2;
    }
  }
}

/* The profiles of the other objects (LIBPROF_OBJECTS=1), beside PATH: a
   directory PATH.objects holding one GNU-format file per object with
   samples or arcs, N-NAME (N its place in the map, NAME its file name),
   and a manifest naming each file's object, written last.  Each file is
   written whole or not at all (write_to).  Returns 0 or an errno value. */
static int write_objects(const char *path)
{
  static char dir[4200], file[4600];
  /* no rescan here: this may run in a fatal signal's handler, and
     dl_iterate_phdr takes the loader's lock; the poller keeps the map */
  if (make_name(dir, sizeof dir, path, ".objects", -1)) return ENAMETOOLONG;
  struct stat st;
  if (mkdir(dir, 0777) != 0 && (errno != EEXIST || lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
    return errno ? errno : ENOTDIR;
  int err = sum_tables(&osum, 1), n = __atomic_load_n(&O.nobjs, __ATOMIC_ACQUIRE);
  for (int k = 0; k < n; k++) {
    O.obj[k].whas = 0;
    O.obj[k].wfile[0] = 0;
  }
  codes_index();
  objects_with_arcs();
  static char name[64];
  for (int k = 1; k < n; k++) {            /* (entry 0, the program: gmon.out) */
    prof_obj *o = &O.obj[k];
    if (!o->whas && !objects_any_samples(o)) continue;
    const char *base = strrchr(o->path, '/');
    base = base ? base + 1 : o->path;
    make_name(name, sizeof name, NULL, NULL, k);
    size_t len = strlen(name);
    make_name(name + len, sizeof name - len, "-", base, -1);
    make_name(file, sizeof file, dir, "/", -1);
    make_name(file + strlen(file), sizeof file - strlen(file), name, NULL, -1);
    writing_obj = o;
    int e = write_to(file);
    writing_obj = NULL;
    if (e) err = e; else memcpy(o->wfile, name, sizeof name);
  }
  sum_free(&osum);
  make_name(file, sizeof file, dir, "/manifest", -1);
  writing_manifest = 1;
  int e = write_to(file);
  writing_manifest = 0;
  return err ? err : e;
}

/* A file beside the profile that could not be written: said once per
   kind and error, not at every snapshot (LIBPROF_INTERVAL=0.01 repeated
   the same line a hundred times a second). */
static void say_beside(int *said, const char *path, const char *what, int e)
{
  if (*said == e) return;
  *said = e;
  say("libprof: ", path, what);
  say(": ", strerror(e), "\n");
}

/* The program's profile at PATH, then its objects' and its stacks
   beside it. */
static int write_profile(const char *path)
{
  static int said_objects, said_stacks;   /* under write_lock */
  int err = write_to(path);
  if (!err && P.objects) {
    int e = write_objects(path);
    if (e) say_beside(&said_objects, path, ".objects", e);
  }
  if (!err && S.depth) {
    static char file[4200];
    int e = make_name(file, sizeof file, path, ".stacks", -1) ? ENAMETOOLONG : 0;
    if (!e) {
      writing_stacks = 1;
      e = write_to(file);
      writing_stacks = 0;
    }
    if (e) say_beside(&said_stacks, path, ".stacks", e);
  }
  return err;
}

/* The file the program writes at exit: $GMON_OUT_PREFIX.PID (FIRST), or
   gmon.out -- gmon.out.PID in a process forked after start-up, so it
   does not overwrite its parent's.  Returns 0, or ENAMETOOLONG. */
static int default_name(char *name, size_t cap, int first)
{
  const char *prefix = getenv("GMON_OUT_PREFIX");
  long pid = (long)getpid();
  if (first && prefix) return make_name(name, cap, prefix, ".", pid) ? ENAMETOOLONG : 0;
  if (pid != (long)P.pid && !prefix) return make_name(name, cap, "gmon.out.", NULL, pid) ? ENAMETOOLONG : 0;
  return make_name(name, cap, "gmon.out", NULL, -1) ? ENAMETOOLONG : 0;
}

/* Writes the file the program writes at exit.  As with glibc, a prefix
   naming a place that cannot be written falls back to gmon.out.  In a
   process that has sandboxed itself since (before_sandbox), the file
   opened before is written through when nothing else can be.  Returns 0
   or errno. */
static int write_default(int report)
{
  char name[4096];
  int err = -1;
  if (getenv("GMON_OUT_PREFIX"))
    err = default_name(name, sizeof name, 1) ? ENAMETOOLONG : write_profile(name);
  if (err) {
    default_name(name, sizeof name, 0);
    err = write_profile(name);
  }
  if (err && early.fd >= 0 && early.pid == getpid()) {
    struct stat st;
    if (fstat(early.fd, &st) == 0 && st.st_dev == early.dev && st.st_ino == early.ino
        && ftruncate(early.fd, 0) == 0 && lseek(early.fd, 0, SEEK_SET) == 0) {
      err = write_fd(early.fd);
      make_name(name, sizeof name, early.name, NULL, -1);
    }
  }
  if (err && report) {             /* worded as glibc's */
    say("_mcleanup: ", name, ": ");
    say(strerror(err), "\n", NULL);
  }
  return err;
}

/* A program about to sandbox itself (Landlock and seccomp both need
   PR_SET_NO_NEW_PRIVS first; xz does it at start-up) may no longer be
   allowed to create files, or even to print (xz closes stderr before it
   exits).  So at that moment libprof opens the file it will write at
   exit -- creating it empty if need be -- and keeps a copy of stderr;
   write_default uses them only if the usual way fails. */
static void before_sandbox(void)
{
  if (!P.started || !P.prog || early.fd >= 0) return;
  in_libprof++;
  if (default_name(early.name, sizeof early.name, 1) == 0) {
    int fd = open(early.name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0666);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      early.dev = st.st_dev;
      early.ino = st.st_ino;
      early.fd = fd;
      early.pid = getpid();
    } else if (fd >= 0) {
      close(fd);
    }
  }
  if (early.err_fd < 0) {
    struct stat st;
    early.err_fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (early.err_fd >= 0 && fstat(early.err_fd, &st) == 0) {
      early.err_dev = st.st_dev;
      early.err_ino = st.st_ino;
    } else if (early.err_fd >= 0) {
      close(early.err_fd);
      early.err_fd = -1;
    }
  }
  in_libprof--;
}

__attribute__((used)) static int do_prctl(int option, unsigned long a2, unsigned long a3,
                                             unsigned long a4, unsigned long a5) PROF_SYM(prctl);
static int do_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
  if ((option == PR_SET_NO_NEW_PRIVS && a2) || option == PR_SET_SECCOMP) before_sandbox();
  return (int)syscall(SYS_prctl, option, a2, a3, a4, a5);
}

static void report_lost(void)
{
  if (P.overhead == OV_REPORT) {
    char n[32], t[32];
    uint64_t k = P.overhead_ticks, hz = P.hz ? (uint64_t)P.hz : 100;
    make_name(n, sizeof n, NULL, NULL, (long)k);
    make_name(t, sizeof t, NULL, NULL, (long)(k * 1000 / hz));
    say("libprof: ", n, " samples (");
    say(t, " ms of CPU time) in libprof's own code, not in the profile\n", NULL);
    make_name(n, sizeof n, NULL, NULL, (long)P.rehomes);
    say("libprof: arc tables rebuilt busiest-first ", n, " times\n");
    count_probes();
    if (probe_calls) {
      uint64_t h = probe_slots * 100 / probe_calls;
      char f[8];
      make_name(n, sizeof n, NULL, NULL, (long)(h / 100));
      make_name(f, sizeof f, h % 100 < 10 ? ".0" : ".", NULL, (long)(h % 100));
      make_name(t, sizeof t, NULL, NULL, (long)probe_max);
      say("libprof: arc lookups probed ", n, f);
      say(" slots per counted call on average, at most ", t, "\n");
    }
  }
  uint64_t nofp = __atomic_load_n(&__prof_nofp, __ATOMIC_RELAXED);
  if (nofp) {
    char n[32];
    make_name(n, sizeof n, NULL, NULL, (long)nofp);
    say("libprof: ", n, " calls not counted (from functions without a frame pointer: clang's IFUNC resolvers)\n");
  }
  uint64_t lost = P.lost_arcs;
  if (!lost) return;
  char n[32];
  make_name(n, sizeof n, NULL, NULL, (long)lost);
  say("libprof: ", n, " calls not counted (out of memory, or made by a signal handler interrupting libprof)\n");
}

