/* objects.c -- the process's other objects (LIBPROF_OBJECTS=1): every
 * shared object mapped beside the program -- libraries linked at start,
 * objects dlopen'ed later, the dynamic linker, the vDSO -- with its path,
 * build-id, load base and text range, and a histogram over that text, so
 * that the time a program spends in libc or in a library of its own is
 * sampled instead of lost.
 *
 * The map is a fixed array (OBJ_MAX entries) that only grows: an entry is
 * filled, then published by raising `nobjs` (release); the sampling
 * handler reads `nobjs` (acquire) and scans the entries, taking no lock.
 * An object unloaded keeps its entry (marked not loaded, its histogram
 * kept, so its profile is still written); loaded again -- the same path
 * and build-id -- it takes its entry back and its samples add up.
 * Histograms are anonymous mappings: untouched pages cost nothing.
 *
 * Loading is noticed without hooking dlopen (a definition of dlopen in
 * the static archive would take the place of libc's in static programs):
 * the map is read at start-up and again, by a helper thread, whenever
 * dl_iterate_phdr's count of loads and unloads changes (polled every
 * 20 ms) or a sample fell outside every known object; such samples are
 * counted (`lost`).  Part of gmon.c's translation unit; uses base.c. */

#define OBJ_MAX 512
#define OBJ_ID_MAX 20

typedef struct {
  uintptr_t lo, hi;              /* text, at run time */
  uintptr_t base;                /* load bias (dlpi_addr) */
  uint32_t *bins;                /* (hi - lo) / HIST_GRANULE, mapped */
  size_t nbins;
  int loaded, seen;
  int idlen;
  unsigned char id[OBJ_ID_MAX];  /* NT_GNU_BUILD_ID, as much as fits */
  char path[256];
} prof_obj;

static struct {
  prof_obj obj[OBJ_MAX];
  int nobjs;                     /* published entries */
  int lock;                      /* owner's tid: scans are one at a time */
  unsigned long long adds, subs; /* dl_iterate_phdr's counts at the last scan */
  int rescan;                    /* a sample fell outside every object */
  uint64_t lost;                 /* samples outside every object */
} O;

/* The object's build-id, from its PT_NOTE segments. */
static int obj_build_id(const struct dl_phdr_info *info, unsigned char *id)
{
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE) continue;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    const unsigned char *end = p + ph->p_memsz;
    const uint32_t a = ph->p_align == 8 ? 7 : 3;  /* notes are padded to the segment's alignment */
    while (p + 12 <= end) {
      uint32_t nsz, dsz, type;
      memcpy(&nsz, p, 4);
      memcpy(&dsz, p + 4, 4);
      memcpy(&type, p + 8, 4);
      const unsigned char *name = p + 12, *desc = name + ((nsz + a) & ~a);
      if (nsz > (size_t)(end - name) || dsz > (size_t)(end - name) || desc + dsz > end) break;
      if (type == 3 && nsz == 4 && !memcmp(name, "GNU", 4)) {
        int n = dsz < OBJ_ID_MAX ? (int)dsz : OBJ_ID_MAX;
        memcpy(id, desc, (size_t)n);
        return n;
      }
      p = desc + ((dsz + a) & ~a);
    }
  }
  return 0;
}

static int obj_scan_one(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  int *index = data;
  if ((*index)++ == 0) return 0;             /* the program: gmon.out's */
  uintptr_t lo = 0, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      lo = info->dlpi_addr + ph->p_vaddr;
      hi = lo + ph->p_memsz;
      break;
    }
  }
  lo &= ~(uintptr_t)(HIST_GRANULE - 1);
  hi = (hi + HIST_GRANULE - 1) & ~(uintptr_t)(HIST_GRANULE - 1);
  if (hi <= lo || hi - lo > 0xffffffffu) return 0;
  /* libprof.so itself: its samples are dropped, it has no profile */
  if ((uintptr_t)prof_text_begin >= lo && (uintptr_t)prof_text_begin < hi) return 0;
  const char *path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "?";
  unsigned char id[OBJ_ID_MAX];
  int idlen = obj_build_id(info, id);
  int n = __atomic_load_n(&O.nobjs, __ATOMIC_ACQUIRE), free_ = -1;
  for (int k = 0; k < n; k++) {
    prof_obj *o = &O.obj[k];
    if (o->loaded && o->lo == lo && o->hi == hi && !strncmp(o->path, path, sizeof o->path - 1)) {
      o->seen = 1;                           /* still there */
      return 0;
    }
    if (!o->loaded && free_ < 0 && o->hi - o->lo == hi - lo && o->idlen == idlen
        && !memcmp(o->id, id, (size_t)idlen) && !strncmp(o->path, path, sizeof o->path - 1))
      free_ = k;                             /* loaded again */
  }
  if (free_ >= 0) {
    prof_obj *o = &O.obj[free_];
    o->lo = lo;
    o->hi = hi;
    o->base = info->dlpi_addr;
    o->seen = 1;
    __atomic_store_n(&o->loaded, 1, __ATOMIC_RELEASE);
    return 0;
  }
  if (n == OBJ_MAX) return 0;
  prof_obj *o = &O.obj[n];
  o->nbins = (hi - lo) / HIST_GRANULE;
  o->bins = map_zero(o->nbins * sizeof *o->bins);
  if (!o->bins) return 0;
  o->lo = lo;
  o->hi = hi;
  o->base = info->dlpi_addr;
  o->idlen = idlen;
  memcpy(o->id, id, (size_t)idlen);
  make_name(o->path, sizeof o->path, path, NULL, -1);
  o->seen = 1;
  o->loaded = 1;
  __atomic_store_n(&O.nobjs, n + 1, __ATOMIC_RELEASE);
  return 0;
}

/* dl_iterate_phdr's counts of objects loaded and unloaded. */
static int obj_counts(struct dl_phdr_info *info, size_t size, void *data)
{
  unsigned long long *c = data;
  if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
    c[0] = info->dlpi_adds;
    c[1] = info->dlpi_subs;
  }
  return 1;
}

/* Reads the map again if anything was loaded or unloaded since the last
   time (or FORCE).  Not from a signal handler: dl_iterate_phdr locks. */
static void objects_scan(int force)
{
  if (!P.objects && !P.stack_depth) return;   /* the stacks' walk reads the map too */
  int taken = lock_take(&O.lock, -1);
  unsigned long long c[2] = { 0, 0 };
  dl_iterate_phdr(obj_counts, c);
  if (force || O.rescan || c[0] != O.adds || c[1] != O.subs) {
    O.rescan = 0;
    O.adds = c[0];
    O.subs = c[1];
    int n = __atomic_load_n(&O.nobjs, __ATOMIC_ACQUIRE);
    for (int k = 0; k < n; k++) O.obj[k].seen = 0;
    int index = 0;
    dl_iterate_phdr(obj_scan_one, &index);
    for (int k = 0; k < n; k++)
      if (!O.obj[k].seen) __atomic_store_n(&O.obj[k].loaded, 0, __ATOMIC_RELEASE);
  }
  lock_give(&O.lock, taken);
}

/* A sample outside the program's text (from the signal handler). */
static void objects_credit(uintptr_t pc, uint32_t n)
{
  int k = __atomic_load_n(&O.nobjs, __ATOMIC_ACQUIRE);
  while (k--) {
    prof_obj *o = &O.obj[k];
    if (pc >= o->lo && pc < o->hi && __atomic_load_n(&o->loaded, __ATOMIC_ACQUIRE)) {
      __atomic_fetch_add(&o->bins[(pc - o->lo) / HIST_GRANULE], n, __ATOMIC_RELAXED);
      return;
    }
  }
  __atomic_fetch_add(&O.lost, n, __ATOMIC_RELAXED);
  O.rescan = 1;
}

/* The poller: a thread that takes no signal and runs no profiled code. */
static void *objects_poller(void *arg)
{
  (void)arg;
  in_libprof = 1;
  struct timespec ms20 = { 0, 20 * 1000000 };
  while (!__atomic_load_n(&P.final, __ATOMIC_ACQUIRE)) {
    nanosleep(&ms20, NULL);
    objects_scan(0);
  }
  return NULL;
}

static int objects_any_samples(const prof_obj *o)
{
  for (size_t i = 0; i < o->nbins; i++)
    if (__atomic_load_n(&o->bins[i], __ATOMIC_RELAXED)) return 1;
  return 0;
}
