/* objects.c -- the process's other objects (LIBPROF_OBJECTS=1): every
 * shared object mapped beside the program -- libraries linked at start,
 * objects dlopen'ed later, the dynamic linker, the vDSO -- with its path,
 * build-id, load base and text range, and a histogram over that text, so
 * that the time a program spends in libc or in a library of its own is
 * sampled instead of lost.
 *
 * The map is an array that only grows: an entry is filled, then
 * published by raising `nobjs` (release); the sampling handler reads
 * `nobjs` (acquire) and scans the entries, taking no lock.  Its address
 * space (OBJ_MAX entries) is reserved at the first scan and made
 * usable OBJ_STEP entries at a time, so the array never moves; objects
 * past OBJ_MAX are counted and the count written (`lost objects`).
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
 * counted (`lost`).
 *
 * Calls (LIBPROF_OBJECTS=1, x86-64; doc/DESIGN.md, "Calls into and
 * inside other objects").  A -pg object calls mcount through a GOT slot
 * of its own: each one seen gets a trampoline (arch/x86_64/mcount.S) that its
 * slots are pointed at, which names the object to the library path with
 * no search, and a range of codes for its addresses in the keys.  Calls
 * that come before (through libprof's own entry, or through the C
 * library's mcount, made at start-up to jump to it) reach C, which finds
 * the object in a map made current first.  Part of gmon.c's translation
 * unit; uses base.c.
 *
 * The map is the one object model (state.h): its entry 0 is the program,
 * made at start-up whatever the settings (objects_program); the scans
 * make and keep entries 1 and up. */

static struct {
  prof_obj *obj;                 /* O.cap entries' space, NULL before start-up */
  int cap;                       /* OBJ_MAX, or 1 (the program) without objects or stacks */
  prof_gen *gen;                 /* O.cap generations' space ... */
  uint32_t ngens;                /* ... published ones */
  uint32_t epoch;                /* the map epoch: +1 at each load and unload a scan finds */
  int scanned;                   /* a scan was made: the objects of the first were loaded at epoch 0 */
  uint64_t lost_gens;            /* generations the space had no room for */
  int nobjs;                     /* published entries */
  int usable;                    /* entries made usable */
  int *code_order;               /* the entries with codes, by their first code ... */
  int ncodes;                    /* ... (published by raising this) */
  uint64_t lost_objects;         /* the most objects one scan found no entry for */
  uint64_t lost_calls;           /* calls into no object of the map */
  int lock;                      /* owner's tid: scans are one at a time */
  unsigned long long adds, subs; /* dl_iterate_phdr's counts at the last scan */
  int rescan;                    /* a sample fell outside every object */
  uint64_t lost;                 /* samples outside every object */
  struct { uintptr_t pc; uint32_t n, epoch; } pend[OBJ_PEND];   /* samples awaiting the next scan ... */
  uint64_t pend_head, pend_tail; /* ... [tail, head): taken by the handler, given back by scans */
  uint64_t code_next;            /* the first code no object has */
  int ntramps;                   /* trampolines given out */
  int pending;                   /* a load's slots put off: the loader was relocating it */
  unsigned long long ns_adds;    /* dlpi_adds at the last walk of the other namespaces ... */
  int ns_objs;                   /* ... and the objects it found there */
  int nocode_said, notramp_said;
  uint64_t redirects;            /* runtimes' mcounts found (the first scan's redirected), and ... */
  uint64_t pg_found;             /* ... loads calling mcount found: by scans so far */
  uint64_t late_objects;         /* -pg objects found in a namespace whose mcount a later scan redirected */
  /* the blind marks: epochs at which a dlclose could not read the map
     (objects_blind) */
  uint32_t blind[OBJ_BLIND];     /* the first OBJ_BLIND, in the order taken ... */
  uint32_t nblind;               /* ... (their count: more, and every epoch from blind_over on is one) */
  uint32_t blind_over;
  uint32_t blind_last;           /* the latest */
  uint32_t blind_close;          /* the first since the last scan (0: none): the scan's ends are at it */
} O;

/* The process's mappings, from /proc/self/maps, read at most
   once per pass of a scan (objects_scan invalidates them before each):
   within one pass of dl_iterate_phdr an object listed stays mapped (the
   loader unlinks an object, under the lock the pass holds, before it
   unmaps it), so what the file says of its pages holds for the pass. */
static struct {
  uintptr_t (*v)[3];             /* [lo, hi) and MAP_R | MAP_W of each, in address order */
  size_t n, cap;
  int state;                     /* 0 unread, 1 read, -1 unreadable */
} M;

#define MAP_R 1
#define MAP_W 2

static void maps_add(uintptr_t lo, uintptr_t hi, uintptr_t perm)
{
  if (M.n == M.cap) {
    size_t cap = M.cap ? 2 * M.cap : 512;
    uintptr_t (*v)[3] = map_zero(cap * sizeof *v);
    if (!v) { M.state = -1; return; }
    if (M.n) memcpy(v, M.v, M.n * sizeof *v);
    if (M.v) munmap(M.v, M.cap * sizeof *M.v);
    M.v = v;
    M.cap = cap;
  }
  M.v[M.n][0] = lo;
  M.v[M.n][1] = hi;
  M.v[M.n++][2] = perm;
}

static void maps_read(void)
{
  static char buf[8192];
  M.n = 0;
  M.state = -1;
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  /* each line "lo-hi perms ...": field 0 lo, 1 hi, 2 perms, 3 the rest */
  uintptr_t v[2] = { 0, 0 };
  int field = 0, col = 0, ok = 1;
  uintptr_t perm = 0;
  ssize_t got;
  M.state = 1;
  while ((got = read(fd, buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < got; i++) {
      char c = buf[i];
      if (c == '\n') {
        if (field == 3) maps_add(v[0], v[1], perm);
        v[0] = v[1] = 0;
        field = col = 0;
        perm = 0;
      } else if (field < 2) {
        int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (h >= 0) v[field] = v[field] << 4 | (uintptr_t)h;
        else if (c == (field ? ' ' : '-')) field++;
        else ok = 0;
      } else if (field == 2) {
        if (c == ' ') field = 3;
        else if (col == 0 && c == 'r') perm |= MAP_R, col++;
        else if (col++ == 1 && c == 'w') perm |= MAP_W;
      }
    }
  close(fd);
  if (got < 0 || !ok) M.state = -1;
}

/* The mapping holding A (its MAP_R | MAP_W, and its end in *END), or -1
   (none, or the file unreadable); the file is read first if need be. */
static int maps_at(uintptr_t a, uintptr_t *end)
{
  if (!M.state) maps_read();
  if (M.state < 0) return -1;
  size_t lo = 0, hi = M.n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (a < M.v[mid][0]) hi = mid;
    else if (a >= M.v[mid][1]) lo = mid + 1;
    else {
      if (end) *end = M.v[mid][1];
      return (int)M.v[mid][2];
    }
  }
  return -1;
}

/* [A, A + N) is readable memory (within one mapping). */
static int maps_readable(uintptr_t a, size_t n)
{
  uintptr_t end;
  int perm = maps_at(a, &end);
  return perm >= 0 && (perm & MAP_R) && n <= end - a;
}

#define CODE_NONE 0xffffffffu    /* a caller in no object */

prof_libent __prof_libent[PROF_TRAMPS];
uintptr_t __prof_other;
uint64_t __prof_nofp;
const void *__prof_lib_target[2];

/* the stub's trampolines and mcount's entry; arch/<isa>/arch.h names
   the others (__fentry__'s, x86-64's checked entry), where there are */
extern const char prof_tramp_mc[] PROF_SYM(tramp_mc) PROF_HIDDEN;
extern const char prof_entry_mc[] PROF_SYM(entry_mc) PROF_HIDDEN;

static const prof_range no_range;   /* a trampoline's caller until one is seen */

static void obj_calls_found(prof_obj *o, const struct dl_phdr_info *info, int is_new);

/* O's range as a caller, for the library path: its load (LOADED), or
   none (size 0, set first, so that a reader never takes an old start
   with a new size). */
static void obj_range(const prof_obj *o, int loaded)
{
  prof_range *r = (prof_range *)&o->range;
  __atomic_store_n(&r->size, 0, __ATOMIC_RELEASE);
  if (!loaded || !o->csize) return;
  r->lo = o->lo;
  r->cbase = o->cbase;
  __atomic_store_n(&r->size, o->hi - o->lo, __ATOMIC_RELEASE);
}

/* Room for entry N: the map's space reserved at the first call, its
   pages made usable OBJ_STEP entries at a time (under O.lock).  0: none
   (OBJ_MAX reached, or no memory). */
static int obj_room(int n)
{
  if (!O.obj) {
    /* only the program's entry unless other objects or stacks read the
       map: a program under RLIMIT_AS does not lose 46 MB of its address
       space to a map it will never use (settings come first, gmon.c) */
    O.cap = P.objects || P.stack_depth ? OBJ_MAX : 1;
    size_t sz = (size_t)O.cap * sizeof *O.obj;
    void *p = mmap(NULL, sz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return 0;
    O.code_order = map_zero((size_t)O.cap * sizeof *O.code_order);
    if (!O.code_order) { munmap(p, sz); return 0; }
    O.gen = map_zero((size_t)O.cap * sizeof *O.gen);   /* (NULL: no generations kept) */
    O.obj = p;
  }
  if (n < O.usable) return 1;
  if (n >= O.cap) return 0;
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
  int to = O.usable + OBJ_STEP < O.cap ? O.usable + OBJ_STEP : O.cap;
  uintptr_t a = (uintptr_t)&O.obj[O.usable] & ~(pg - 1);
  uintptr_t b = ((uintptr_t)&O.obj[to] + pg - 1) & ~(pg - 1);
  if (mprotect((void *)a, b - a, PROT_READ | PROT_WRITE) != 0) return 0;
  O.usable = to;
  return n < O.usable;
}

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

/* The absolute path of the file mapped at ADDR, from /proc/self/maps,
   into OUT: an object dlopen'ed by a relative path ("./libone.so") is
   listed by that path, which means nothing once the process (or the
   analyzer) is in another directory; the kernel's name of the mapping
   does not depend on the current directory.  0: not found. */
static int obj_abspath(uintptr_t addr, char *out, size_t cap)
{
  static char buf[4096];
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  /* each line "lo-hi perms offset dev inode   path" */
  uintptr_t v[2] = { 0, 0 };
  int field = 0, found = 0, done = 0;
  size_t n = 0;
  ssize_t got;
  char prev = 0;
  while (!done && (got = read(fd, buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < got && !done; prev = buf[i++]) {
      char c = buf[i];
      if (c == '\n') {
        if (found) done = 1;
        v[0] = v[1] = 0;
        field = 0;
      } else if (field < 2) {
        int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (h >= 0) v[field] = v[field] << 4 | (uintptr_t)h;
        else field++;
        if (field == 2) found = addr >= v[0] && addr < v[1];
      } else if (field < 6) {
        if (c == ' ' && prev != ' ') field++;
      } else if (found && (n || c != ' ') && n + 1 < cap) {
        out[n++] = c;
      }
    }
  close(fd);
  out[n] = 0;
  const char *del = " (deleted)";
  if (n > strlen(del) && !strcmp(out + n - strlen(del), del)) out[n - strlen(del)] = 0;
  return done && out[0] == '/';
}

/* A scan's state: the object's place in dl_iterate_phdr's order, and the
   pass (1: objects still where they were; 2: the others). */
typedef struct {
  int index, pass;
  uint64_t unheld;               /* objects given no entry */
  int walk;                      /* the other namespaces are walked (obj_scan_namespaces) */
  int others;                    /* objects found there */
} obj_scan_state;

static int obj_same(const prof_obj *o, const char *path, const unsigned char *id, int idlen)
{
  return o->idlen == idlen && !memcmp(o->id, id, (size_t)idlen) && !strncmp(o->path, path, OBJ_PATH - 1);
}

/* Objects of the other link namespaces (dlmopen): dl_iterate_phdr lists
   the caller's namespace only (measured, glibc 2.36: an object dlmopen'ed
   with LM_ID_NEWLM is missing, though dlpi_adds counts it), but the
   dynamic linker's interface for debuggers -- the program's DT_DEBUG
   entry, a struct r_debug_extended from r_version 2 on (glibc 2.35) --
   chains every namespace's list of objects.  Read within a pass of
   dl_iterate_phdr, whose lock guards these lists too; every pointer
   followed is checked against the mappings first.  Each object is
   scanned as dl_iterate_phdr's are, its program headers read from its
   ELF header at its load bias (checked: their PT_DYNAMIC is the one the
   loader names); those of namespace 0 (the dynamic linker, which every
   namespace shares) are left to dl_iterate_phdr. */
static int obj_scan_one(struct dl_phdr_info *info, size_t size, void *data);
typedef struct prof_r_debug {     /* glibc's struct r_debug_extended (link.h, 2.35) */
  struct r_debug base;
  const struct prof_r_debug *r_next;
} prof_r_debug;
static void obj_scan_namespaces(const struct dl_phdr_info *prog, obj_scan_state *st)
{
  const ElfW(Dyn) *dyn = NULL;
  for (int i = 0; i < prog->dlpi_phnum; i++)
    if (prog->dlpi_phdr[i].p_type == PT_DYNAMIC) dyn = (const ElfW(Dyn) *)(prog->dlpi_addr + prog->dlpi_phdr[i].p_vaddr);
  if (!dyn) return;                          /* (a static program) */
  const prof_r_debug *r = NULL;
  for (int i = 0; i < 1024 && maps_readable((uintptr_t)&dyn[i], sizeof *dyn) && dyn[i].d_tag != DT_NULL; i++)
    if (dyn[i].d_tag == DT_DEBUG) r = (const prof_r_debug *)dyn[i].d_un.d_ptr;
  if (!r || !maps_readable((uintptr_t)r, sizeof *r) || r->base.r_version < 2) return;
  const struct link_map *ns0 = r->base.r_map;
  int namespaces = 0;
  for (r = r->r_next; r && namespaces++ < 64; r = r->r_next) {
    if (!maps_readable((uintptr_t)r, sizeof *r)) return;
    /* A new namespace has a C library of its own, whose mcount its -pg
       objects call: until a scan (the poller's, within 20 ms) finds it
       and makes it jump to libprof's, their calls reach that library's
       own runtime, which counts nothing.  libprof sees no such call (no
       hook in the loader), so it cannot count them: each -pg object
       found with its namespace's mcount redirected by the same later
       scan is counted, written (`lost dlmopen-objects`) and said by
       gprof --objects. */
    uint64_t redirects = O.redirects, pg = O.pg_found;
    int n = 0;
    for (const struct link_map *l = r->base.r_map; l && n++ < 4096; l = l->l_next) {
      if (!maps_readable((uintptr_t)l, sizeof *l)) break;
      int shared = 0, m = 0;
      for (const struct link_map *l0 = ns0; l0 && !shared && m++ < 65536; l0 = l0->l_next)
        shared = maps_readable((uintptr_t)l0, sizeof *l0) ? l0->l_ld == l->l_ld : 1;
      const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)l->l_addr;
      if (shared || !maps_readable((uintptr_t)eh, sizeof *eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG)
          || eh->e_phentsize != sizeof(ElfW(Phdr))
          || !maps_readable((uintptr_t)eh + eh->e_phoff, (size_t)eh->e_phnum * sizeof(ElfW(Phdr))))
        continue;
      struct dl_phdr_info info;
      memset(&info, 0, sizeof info);
      info.dlpi_addr = l->l_addr;
      info.dlpi_name = l->l_name && maps_readable((uintptr_t)l->l_name, 1) ? l->l_name : "";
      info.dlpi_phdr = (const ElfW(Phdr) *)((uintptr_t)eh + eh->e_phoff);
      info.dlpi_phnum = eh->e_phnum;
      int ours = 0;
      for (int i = 0; i < info.dlpi_phnum; i++)
        if (info.dlpi_phdr[i].p_type == PT_DYNAMIC)
          ours = (const ElfW(Dyn) *)(l->l_addr + info.dlpi_phdr[i].p_vaddr) == l->l_ld;
      if (ours) {
        st->others++;
        obj_scan_one(&info, sizeof info, st);
      }
    }
    if (O.scanned && O.redirects != redirects) O.late_objects += O.pg_found - pg;
  }
}

/* A load of O begins (under O.lock): a new generation, from the epoch
   after this load (from 0 for the objects of the first scan: loaded
   before profiling began). */
static void obj_gen_open(prof_obj *o)
{
  uint32_t from = O.scanned ? __atomic_add_fetch(&O.epoch, 1, __ATOMIC_RELEASE) : 0;
  o->gen = 0;
  if (!O.gen || O.ngens >= (uint32_t)O.cap) { O.lost_gens++; return; }
  prof_gen *g = &O.gen[O.ngens];
  g->obj = (uint32_t)(o - O.obj);
  g->from = from;
  g->to = OBJ_LIVE;
  g->base = o->base;
  g->lo = o->lo;
  g->hi = o->hi;
  o->gen = O.ngens + 1;
  __atomic_store_n(&O.ngens, O.ngens + 1, __ATOMIC_RELEASE);
}

/* The executable segments of INFO's load into O (before it is published,
   or while it is marked not loaded: the walk reads them then only). */
static void obj_segs(prof_obj *o, const struct dl_phdr_info *info)
{
  int n = 0;
  for (int i = 0; i < info->dlpi_phnum && n < OBJ_SEGS; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_memsz) continue;
    o->seg[n].lo = info->dlpi_addr + ph->p_vaddr;
    o->seg[n].hi = o->seg[n].lo + ph->p_memsz;
    o->seg[n].off = ph->p_offset;
    n++;
  }
  o->nsegs = n;
}

/* The program's load (the first object dl_iterate_phdr lists). */
static int obj_program_info(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  prof_obj *o = data;
  o->base = info->dlpi_addr;
  o->idlen = obj_build_id(info, o->id);
  obj_segs(o, info);
  return 1;                      /* the first object is the program */
}

/* The program's entry, the map's entry 0, at start-up (before any other
   thread, signal or scan): its text [LOWPC, HIGHPC) as __monstartup gave
   it (else its first executable segment), load bias, executable
   segments, build-id, path (/proc/self/exe, resolved), histogram and
   generation 0; its unwind table comes with LIBPROF_STACKS (stacks.c).
   1: made (P.prog, P.lowpc and P.textsize set); 0: out of memory; -1: no
   text libprof can profile. */
static int objects_program(uintptr_t lowpc, uintptr_t highpc)
{
  if (!obj_room(0)) return 0;
  prof_obj *o = &O.obj[0];
  dl_iterate_phdr(obj_program_info, o);
  if (lowpc >= highpc && o->nsegs) {
    lowpc = o->seg[0].lo;
    highpc = o->seg[0].hi;
  }
  o->lo = lowpc & ~(uintptr_t)(HIST_GRANULE - 1);
  o->hi = (highpc + HIST_GRANULE - 1) & ~(uintptr_t)(HIST_GRANULE - 1);
  if (o->hi <= o->lo || o->hi - o->lo > 0xffffffffu) return -1;
  o->nbins = (o->hi - o->lo) / HIST_GRANULE;
  o->bins = map_zero(o->nbins * sizeof *o->bins);
  if (!o->bins) return 0;
  o->link_lo = o->lo - o->base;
  ssize_t len = readlink("/proc/self/exe", P.exe, sizeof P.exe - 1);
  P.exe[len > 0 ? len : 0] = 0;
  o->path = P.exe;
  o->loaded = o->seen = 1;
  obj_gen_open(o);               /* (generation 0: from epoch 0, no scan made yet) */
  __atomic_store_n(&O.nobjs, 1, __ATOMIC_RELEASE);
  P.lowpc = o->lo;
  P.textsize = o->hi - o->lo;
  O.code_next = P.textsize;      /* the program's codes are its offsets */
  P.prog = o;
  return 1;
}

/* O's load ends (under O.lock): its generation closes at the new epoch,
   or at AT, a blind mark made since the last scan, after it opened (the
   load may have ended there: objects_blind). */
static void obj_gen_close(prof_obj *o, uint32_t at)
{
  if (!o->gen) return;
  uint32_t to = at > O.gen[o->gen - 1].from ? at : __atomic_add_fetch(&O.epoch, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&O.gen[o->gen - 1].to, to, __ATOMIC_RELEASE);
  o->gen = 0;
}

/* One object of a scan.  Pass 1 marks the entries whose object is still
   loaded where it was; pass 2 gives each other object the entry of an
   earlier load of it (same path, build-id and size) that pass 1 did not
   find -- unloaded, even if no scan has seen it go yet -- so that its
   counts add up, or a new one. */
static int obj_scan_one(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  obj_scan_state *st = data;
  if (st->index++ == 0) {                    /* the program: gmon.out's */
    if (st->walk) obj_scan_namespaces(info, st);
    return 0;
  }
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
  static char abs[256];                      /* (under O.lock) */
  if (*path != '/' && strchr(path, '/') && obj_abspath(lo, abs, sizeof abs)) path = abs;
  unsigned char id[OBJ_ID_MAX];
  int idlen = obj_build_id(info, id);
  int n = __atomic_load_n(&O.nobjs, __ATOMIC_ACQUIRE), free_ = -1;
  for (int k = 1; k < n; k++) {            /* (entry 0: the program) */
    prof_obj *o = &O.obj[k];
    if (o->loaded && o->lo == lo && o->hi == hi && obj_same(o, path, id, idlen)) {
      if (st->pass == 2) {
        if (o->seen) return 0;               /* pass 1's */
        continue;
      }
      o->seen = 1;                           /* still there ... */
      if (o->slot && __atomic_load_n((uintptr_t *)o->slot, __ATOMIC_RELAXED) != o->slot_val)
        o->patched = o->put_off = 0;         /* ... or unloaded and loaded again at its place */
      obj_calls_found(o, info, 0);           /* (or put off by the last scan) */
      return 0;
    }
    if (st->pass == 2 && !o->seen && free_ < 0 && o->hi - o->lo == hi - lo && obj_same(o, path, id, idlen))
      free_ = k;                             /* loaded again */
  }
  if (st->pass == 1) return 0;
  if (free_ >= 0) {
    prof_obj *o = &O.obj[free_];
    /* (samples read the range only while the entry is marked loaded) */
    __atomic_store_n(&o->loaded, 0, __ATOMIC_RELEASE);
    obj_range(o, 0);
    o->lo = lo;
    o->hi = hi;
    o->base = info->dlpi_addr;
    obj_segs(o, info);
    o->seen = 1;
    o->patched = 0;                          /* a new load: new GOT slots */
    o->slot = 0;
    o->put_off = 0;
    __atomic_store_n(&o->loaded, 1, __ATOMIC_RELEASE);
    obj_range(o, 1);
    obj_gen_open(o);
    obj_calls_found(o, info, 1);
    return 0;
  }
  prof_obj *o = obj_room(n) ? &O.obj[n] : NULL;
  if (o) {
    o->nbins = (hi - lo) / HIST_GRANULE;
    o->bins = map_zero(o->nbins * sizeof *o->bins);
  }
  if (!o || !o->bins) {                      /* counted, and written */
    st->unheld++;
    return 0;
  }
  o->lo = lo;
  o->hi = hi;
  o->base = info->dlpi_addr;
  o->link_lo = lo - info->dlpi_addr;
  o->idlen = idlen;
  memcpy(o->id, id, (size_t)idlen);
  make_name(o->pbuf, sizeof o->pbuf, path, NULL, -1);
  o->path = o->pbuf;
  obj_segs(o, info);
  o->seen = 1;
  o->loaded = 1;
  o->uw = P.stack_depth ? cfi_table(info, NULL) : NULL;
  obj_gen_open(o);
  __atomic_store_n(&O.nobjs, n + 1, __ATOMIC_RELEASE);
  obj_calls_found(o, info, 1);
  return 0;
}

/* The registry's invariants (the debug build: after each scan, under
   O.lock): every entry's text, histogram, generation, codes, range as a
   caller and trampoline agree with each other and with the map's
   counts; the generations and the codes given out are as the entries
   say.  (Loaded entries are the objects this scan found: their texts
   are disjoint; checked up to 2,048 entries, the check being quadratic.) */
static void obj_check(void)
{
  const int n = O.nobjs;
  LP_ASSERT(n >= 0 && n <= O.usable && O.usable <= O.cap && O.cap <= OBJ_MAX);
  LP_ASSERT(O.ngens <= (uint32_t)O.cap && O.ncodes >= 0 && O.ncodes <= n);
  LP_ASSERT(O.ntramps >= 0 && O.ntramps <= PROF_TRAMPS && O.code_next <= CODE_NONE);
  unsigned char owner[PROF_TRAMPS] = { 0 };
  uint32_t live = 0;
  /* entry 0: the program, loaded for good, generation 0, the fast test's
     bounds, no codes of the map's (its codes are its offsets) */
  LP_ASSERT(n >= 1 && P.prog == &O.obj[0] && O.obj[0].loaded && (!O.gen || O.obj[0].gen == 1));
  LP_ASSERT(O.obj[0].lo == P.lowpc && O.obj[0].hi - O.obj[0].lo == P.textsize && P.textsize <= O.code_next);
  LP_ASSERT(!O.obj[0].csize && !O.obj[0].tramp && O.obj[0].path == P.exe);
  for (int k = 0; k < n; k++) {
    const prof_obj *o = &O.obj[k];
    LP_ASSERT(o->nsegs >= 0 && o->nsegs <= OBJ_SEGS && o->path);
    for (int i = 0; i < o->nsegs; i++) LP_ASSERT(o->seg[i].lo < o->seg[i].hi);
    /* its text: whole histogram granules, under 4 GB, a bin for each */
    LP_ASSERT(o->lo < o->hi && o->hi - o->lo <= 0xffffffffu);
    LP_ASSERT(o->lo % HIST_GRANULE == 0 && o->hi % HIST_GRANULE == 0);
    LP_ASSERT(o->bins && o->nbins == (o->hi - o->lo) / HIST_GRANULE);
    LP_ASSERT(!o->loaded || o->seen);   /* loaded: found by this scan */
    /* a generation while loaded (none when the space was full), its own
       and live, at this load */
    LP_ASSERT(!o->gen || (o->loaded && o->gen <= O.ngens));
    if (o->gen) {
      const prof_gen *g = &O.gen[o->gen - 1];
      LP_ASSERT(g->obj == (uint32_t)k && g->to == OBJ_LIVE);
      LP_ASSERT(g->base == o->base && g->lo == o->lo && g->hi == o->hi);
      live++;
    }
    /* codes given once, as many as its text's bytes (a reload takes the
       entry only at the same size), below the next one given */
    LP_ASSERT(!o->csize || (o->csize == o->hi - o->lo && (uint64_t)o->cbase + o->csize <= O.code_next));
    /* its range as a caller: this load while loaded with codes, else none */
    LP_ASSERT(o->range.size == (o->loaded && o->csize ? o->hi - o->lo : 0));
    LP_ASSERT(!o->range.size || (o->range.lo == o->lo && o->range.cbase == o->cbase));
    /* its trampoline: its own, naming its codes */
    LP_ASSERT(o->tramp >= 0 && o->tramp <= O.ntramps);
    if (o->tramp) {
      const prof_libent *e = &__prof_libent[o->tramp - 1];
      LP_ASSERT(!owner[o->tramp - 1] && o->csize);
      owner[o->tramp - 1] = 1;
      LP_ASSERT(e->caller && e->cbase == o->cbase && e->delta == e->lo - e->cbase && e->size == o->hi - o->lo);
    }
    if (n <= 2048 && o->loaded)
      for (int j = k + 1; j < n; j++)
        LP_ASSERT(!O.obj[j].loaded || O.obj[j].hi <= o->lo || O.obj[j].lo >= o->hi);
  }
  /* the generations: each an entry's, opened before it closed, in the
     epochs so far; the live ones are the loaded entries' */
  uint32_t open = 0;
  for (uint32_t i = 0; i < O.ngens; i++) {
    const prof_gen *g = &O.gen[i];
    LP_ASSERT(g->obj < (uint32_t)n && g->from <= O.epoch);
    LP_ASSERT(g->to == OBJ_LIVE ? O.obj[g->obj].gen == i + 1 : g->from < g->to && g->to <= O.epoch);
    open += g->to == OBJ_LIVE;
  }
  LP_ASSERT(open == live);
  /* the codes: given in order, one run after another, up to the next */
  for (int i = 0; i < O.ncodes; i++) {
    int k = O.code_order[i];
    LP_ASSERT(k >= 0 && k < n && O.obj[k].csize);
    if (i + 1 < O.ncodes)
      LP_ASSERT((uint64_t)O.obj[k].cbase + O.obj[k].csize == O.obj[O.code_order[i + 1]].cbase);
    else
      LP_ASSERT((uint64_t)O.obj[k].cbase + O.obj[k].csize == O.code_next);
  }
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
   time (or FORCE).  Not from a signal handler: dl_iterate_phdr locks.
   PATIENCE_MS: how long to wait for another thread's scan (-1: as long
   as it takes); 0 when it gave up. */
static void objects_credit_kept(void);
static int objects_scan_within(int force, int patience_ms)
{
  if (!P.objects && !P.stack_depth) return 1;   /* the stacks' walk reads the map too */
  if (!P.prog) return 1;                     /* (entry 0 is the program's: made first, at start-up) */
  int taken = lock_take(&O.lock, patience_ms);
  if (!taken && __atomic_load_n(&O.lock, __ATOMIC_RELAXED) != (int)tid()) return 0;
  obj_room(0);                               /* (the map's space, at the first scan) */
  unsigned long long c[2] = { 0, 0 };
  dl_iterate_phdr(obj_counts, c);
  if (force || O.rescan || __atomic_load_n(&O.blind_close, __ATOMIC_ACQUIRE) || c[0] != O.adds
      || c[1] != O.subs) {
    O.rescan = 0;
    O.pending = 0;
    O.adds = c[0];
    O.subs = c[1];
    int n = __atomic_load_n(&O.nobjs, __ATOMIC_ACQUIRE);
    for (int k = 1; k < n; k++) O.obj[k].seen = 0;   /* (entry 0, the program, stays) */
    /* (the namespaces, whose walk reads the maps, only when objects were
       loaded since the last walk, or it found some) */
    obj_scan_state st = { 0, 1, 0, c[0] != O.ns_adds || O.ns_objs, 0 };
    M.state = 0;                             /* (the mappings are read again in each pass) */
    dl_iterate_phdr(obj_scan_one, &st);
    /* the loads pass 1 did not find again have ended: their generations
       close before pass 2 opens those of the new loads (an object
       loaded where another was is then live in epochs after the other's),
       at the first blind mark since the last scan if there is one (this
       scan may have waited for the loader's lock while a dlclose made it:
       its load is gone from the map pass 1 read) */
    uint32_t nblind = __atomic_load_n(&O.nblind, __ATOMIC_ACQUIRE);
    uint32_t blind_at = __atomic_load_n(&O.blind_close, __ATOMIC_ACQUIRE);
    for (int k = 1; k < n; k++)
      if (!O.obj[k].seen) obj_gen_close(&O.obj[k], blind_at);
    st.index = 0;
    st.pass = 2;
    st.others = 0;
    M.state = 0;
    dl_iterate_phdr(obj_scan_one, &st);
    if (st.unheld > O.lost_objects) O.lost_objects = st.unheld;
    if (st.walk) {
      O.ns_adds = c[0];
      O.ns_objs = st.others;
    }
    for (int k = 1; k < n; k++)
      if (!O.obj[k].seen) {
        __atomic_store_n(&O.obj[k].loaded, 0, __ATOMIC_RELEASE);
        obj_range(&O.obj[k], 0);
      }
    O.scanned = 1;
    /* the map is current: samples are credited at once again, unless
       another mark came meanwhile */
    if (blind_at && __atomic_load_n(&O.nblind, __ATOMIC_ACQUIRE) == nblind)
      __atomic_compare_exchange_n(&O.blind_close, &blind_at, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    objects_credit_kept();
    if (LP_CHECKING) obj_check();
  }
  lock_give(&O.lock, taken);
  return 1;
}

static void objects_scan(int force)
{
  objects_scan_within(force, -1);
}

/* The object whose text holds PC, live now: the program (its fast test
   first: the histogram's range, which may hold holes between its
   segments), or the loaded entry of the map holding it; NULL: none.  The
   one lookup of the sample handler, the stack walk and the unwind
   tables'; no lock (signal handlers). */
static prof_obj *obj_at(uintptr_t pc);
static inline prof_obj *obj_find(uintptr_t pc)
{
  if (pc - P.lowpc < P.textsize) return P.prog;
  return obj_at(pc);
}

/* A sample outside the program's text (from the signal handler): O is
   obj_find's answer. */
static void objects_credit(prof_obj *o, uintptr_t pc, uint32_t n)
{
  if (o && !__atomic_load_n(&O.blind_close, __ATOMIC_ACQUIRE)) {
    __atomic_fetch_add(&o->bins[(pc - o->lo) / HIST_GRANULE], n, __ATOMIC_RELAXED);
    return;
  }
  /* kept for the next scan (within 20 ms), which credits it to an object
     loaded meanwhile (a plugin dlopen'ed and run at once) or counts it as
     lost; a slot is taken only when free, so a scan never waits on one
     that will not be written.  After a blind mark every sample outside
     the program waits so (an entry may stand for a load gone) */
  uint64_t h = __atomic_load_n(&O.pend_head, __ATOMIC_RELAXED);
  for (;;) {
    if (h - __atomic_load_n(&O.pend_tail, __ATOMIC_ACQUIRE) >= OBJ_PEND) {
      __atomic_fetch_add(&O.lost, n, __ATOMIC_RELAXED);
      break;
    }
    if (__atomic_compare_exchange_n(&O.pend_head, &h, h + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      O.pend[h % OBJ_PEND].n = n;
      O.pend[h % OBJ_PEND].epoch = __atomic_load_n(&O.epoch, __ATOMIC_ACQUIRE);
      __atomic_store_n(&O.pend[h % OBJ_PEND].pc, pc, __ATOMIC_RELEASE);
      break;
    }
  }
  O.rescan = 1;
}

/* The samples kept by objects_credit, credited to the objects of the map
   now, or counted as lost (under O.lock, after a scan): lost too when
   taken before a blind mark, whose unseen load may have been another at
   that address; one still being written stops the round (the next scan
   takes it). */
static void objects_credit_kept(void)
{
  uint64_t t = O.pend_tail, h = __atomic_load_n(&O.pend_head, __ATOMIC_ACQUIRE);
  uint32_t blind = __atomic_load_n(&O.blind_last, __ATOMIC_ACQUIRE);
  for (; t != h; t++) {
    uintptr_t pc = __atomic_load_n(&O.pend[t % OBJ_PEND].pc, __ATOMIC_ACQUIRE);
    if (!pc) break;
    uint32_t n = O.pend[t % OBJ_PEND].n;
    int before = O.pend[t % OBJ_PEND].epoch < blind;
    __atomic_store_n(&O.pend[t % OBJ_PEND].pc, 0, __ATOMIC_RELAXED);
    prof_obj *o = before ? NULL : obj_at(pc);
    if (o) __atomic_fetch_add(&o->bins[(pc - o->lo) / HIST_GRANULE], n, __ATOMIC_RELAXED);
    else __atomic_fetch_add(&O.lost, n, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&O.pend_tail, t, __ATOMIC_RELEASE);
}

/* The poller: a thread that takes no signal and runs no profiled code. */
static void *objects_poller(void *arg)
{
  (void)arg;
  in_libprof = 1;
  spawned();
  struct timespec ms20 = { 0, 20 * 1000000 };
  while (!__atomic_load_n(&P.final, __ATOMIC_ACQUIRE)) {
    nanosleep(&ms20, NULL);
    objects_scan(__atomic_load_n(&O.pending, __ATOMIC_RELAXED));   /* (a load put off: again) */
    facts_own(1);
  }
  return NULL;
}

/* ---- unloads seen at once (dlclose) ----
   The poller sees a load or an unload within 20 ms; until then a sample
   at the address of an object unloaded is credited to it, even if
   another was loaded there since (a plugin closed and the next one
   opened at its place: every sample of the second's first milliseconds
   named after the first; DESIGN.md, "Not yet done").  So libprof
   defines dlclose: the map is read before the C library's dlclose runs
   (an object loaded since the last scan is seen, its samples kept for
   the scan are its own, its generation opened) and again after it (the
   object unloaded is dead before anything can be loaded at its
   address); a sample at an address where nothing is live then waits
   for the scan that sees the next load, and a stack sampled there
   carries an epoch in which nothing is live at that address: the
   analyzer names it after the object loaded there next (stacks/stacks.c,
   the epoch rule).  dlopen is not defined: the C library's dlopen takes
   its caller's address for $ORIGIN and the caller's RUNPATH, which a
   definition here would change.  The C library's dlclose is reached as
   __dlclose in a static program (libc.a's name; weak: a static program
   that never calls dlclose does not get it) and by dlsym(RTLD_NEXT)
   otherwise, found before the call (so that dlerror tells the program's
   dlclose's error).  A scan waits at most ~0.1 s for another thread's
   (the dlclose of a program's dl_iterate_phdr callback, whose lock a
   scan in another thread may be waiting for, must not wait for it);
   nothing is read after the profile's last write, errno is kept. */
extern int prof_libc_dlclose(void *) __asm__("__dlclose") __attribute__((weak));
extern void *prof_dlsym(void *, const char *) __asm__("dlsym") __attribute__((weak));
#define PROF_RTLD_NEXT ((void *)-1l)   /* <dlfcn.h>'s RTLD_NEXT (not included: dlsym is weak here) */
static int (*objects_libc_dlclose)(void *);

static int objects_scan_now(void)
{
  in_libprof++;
  int ok = objects_scan_within(0, 100);
  in_libprof--;
  return ok;
}

/* A read of the map dlclose could not make (another thread's scan held
   the lock 0.1 s: it may wait for the loader's lock this thread holds):
   a load it did not see may end, or one it saw may have ended, unseen.
   A blind mark: an epoch of its own, written to the stacks file, where a
   stack sampled before it at an address where nothing was live is not
   named after a load seen after it (stacks/stacks.c); the next scan ends
   the loads it finds gone at the first mark since the last scan; until
   that scan, samples outside the program wait for it, and those kept
   from before a mark are lost (objects_credit_kept).  No lock. */
static void objects_blind(void)
{
  uint32_t e = __atomic_add_fetch(&O.epoch, 1, __ATOMIC_ACQ_REL);
  uint32_t k = __atomic_fetch_add(&O.nblind, 1, __ATOMIC_ACQ_REL), z = 0;
  if (k < OBJ_BLIND) __atomic_store_n(&O.blind[k], e, __ATOMIC_RELEASE);
  else __atomic_compare_exchange_n(&O.blind_over, &z, e, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
  z = 0;
  __atomic_compare_exchange_n(&O.blind_close, &z, e, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
  uint32_t last = __atomic_load_n(&O.blind_last, __ATOMIC_RELAXED);
  while (last < e && !__atomic_compare_exchange_n(&O.blind_last, &last, e, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {}
}

__attribute__((used)) static int do_dlclose(void *handle) PROF_SYM(dlclose);
static int do_dlclose(void *handle)
{
  int e = errno;
  int (*real)(void *) = __atomic_load_n(&objects_libc_dlclose, __ATOMIC_ACQUIRE);
  if (!real) {
    real = prof_libc_dlclose;
    if (!real && prof_dlsym) real = (int (*)(void *))prof_dlsym(PROF_RTLD_NEXT, "dlclose");
    if (!real) {
      say("libprof: the C library's dlclose was not found: an object was not closed\n", NULL, NULL);
      return -1;
    }
    __atomic_store_n(&objects_libc_dlclose, real, __ATOMIC_RELEASE);
  }
  int active = P.started && (P.objects || P.stack_depth) && !in_libprof
               && !__atomic_load_n(&P.final_wanted, __ATOMIC_ACQUIRE);
  if (active && !objects_scan_now()) objects_blind();   /* (a load unseen may end) */
  errno = e;
  int r = real(handle);
  if (active && !__atomic_load_n(&P.final_wanted, __ATOMIC_ACQUIRE)) {
    e = errno;
    if (!objects_scan_now()) objects_blind();            /* (a load seen may have ended) */
    errno = e;
  }
  return r;
}

static int objects_any_samples(const prof_obj *o)
{
  for (size_t i = 0; i < o->nbins; i++)
    if (__atomic_load_n(&o->bins[i], __ATOMIC_RELAXED)) return 1;
  return 0;
}

/* ---- calls (LIBPROF_OBJECTS=1) ---- */

/* The loaded object other than the program whose text holds PC, or NULL
   (no lock: entries only grow, and one is published before it is used). */
static prof_obj *obj_at(uintptr_t pc)
{
  int k = __atomic_load_n(&O.nobjs, __ATOMIC_ACQUIRE);
  while (k-- > 1) {
    prof_obj *o = &O.obj[k];
    if (pc >= o->lo && pc < o->hi && __atomic_load_n(&o->loaded, __ATOMIC_ACQUIRE)) return o;
  }
  return NULL;
}

/* O's codes, given on first need; 0 when the code space is full. */
static int obj_code(prof_obj *o)
{
  if (__atomic_load_n(&o->csize, __ATOMIC_ACQUIRE)) return 1;
  int taken = lock_take(&O.lock, -1);
  uint64_t size = o->hi - o->lo;
  int ok = o->csize != 0;
  if (!ok && O.code_next + size <= CODE_NONE) {
    o->cbase = (uint32_t)O.code_next;
    O.code_next += size;
    __atomic_store_n(&o->csize, (uint32_t)size, __ATOMIC_RELEASE);
    obj_range(o, o->loaded);
    O.code_order[O.ncodes] = (int)(o - O.obj);   /* (codes are given in order) */
    __atomic_store_n(&O.ncodes, O.ncodes + 1, __ATOMIC_RELEASE);
    ok = 1;
  }
  if (!ok && !O.nocode_said) {
    O.nocode_said = 1;
    say("libprof: objects' text over 4 GB in all: calls into ", o->path, " and later ones are not counted\n");
  }
  lock_give(&O.lock, taken);
  return ok;
}

/* The key of a call whose callee is in another object: ENT is that
   object's load (from its trampoline), or NULL (from the program's stub:
   the callee is looked for in the map, made current first, since an
   object unloaded and another loaded at its place may not have been
   noticed yet).  A caller is looked for in the map as it is (a stale
   entry could only misname a caller unloaded within 20 ms), again after
   a scan if not found; ENT then remembers its object, whose next calls
   the library path places itself.  0: not counted. */
static uint64_t objects_key(uintptr_t frompc, uintptr_t selfpc, prof_libent *ent)
{
  uint64_t self;
  if (ent) {
    self = selfpc - ent->delta;
  } else {
    objects_scan(0);
    prof_obj *o = obj_at(selfpc);
    if (!o || !obj_code(o)) {
      __atomic_fetch_add(&O.lost_calls, 1, __ATOMIC_RELAXED);
      return 0;
    }
    self = selfpc - o->lo + o->cbase;
  }
  uint64_t from = frompc - P.lowpc;
  if (from >= P.textsize) {
    prof_obj *c = obj_at(frompc);
    if (!c && ent) {
      objects_scan(0);
      c = obj_at(frompc);
    }
    from = c && obj_code(c) ? frompc - c->lo + c->cbase : CODE_NONE;
    if (from != CODE_NONE && ent) __atomic_store_n(&ent->caller, &c->range, __ATOMIC_RELEASE);
  }
  return from << 32 | self;
}

/* Counting on or off for other objects' calls: the program's stub sends
   them to C, the trampolines to the library path, or both return. */
static void objects_counting(int on)
{
  arch_lib_targets(on);
  __atomic_store_n(&__prof_other, (uintptr_t)on, __ATOMIC_RELEASE);
}

/* The end of the PT_LOAD segment of INFO that holds P, or 0: what an
   object's dynamic section points at is read only inside one (the
   vDSO's and odd objects' need not be as glibc's are). */
static uintptr_t obj_seg_end(const struct dl_phdr_info *info, uintptr_t p)
{
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && p >= lo && p - lo < ph->p_memsz) return lo + ph->p_memsz;
  }
  return 0;
}

/* [P, P + N) lies in one of INFO's PT_LOAD segments. */
static int obj_mapped(const struct dl_phdr_info *info, uintptr_t p, size_t n)
{
  uintptr_t end = obj_seg_end(info, p);
  return end && n <= end - p;
}

/* An object's dynamic tables, as far as they are mapped. */
typedef struct {
  const struct dl_phdr_info *info;
  const ElfW(Sym) *sym;
  uintptr_t sym_end;             /* the end of the segment holding them */
  const char *str;
  size_t strsz;
  const unsigned char *rel[2];   /* DT_RELA or DT_REL, DT_JMPREL */
  size_t nrel[2], relent[2];     /* their counts and entry sizes */
  const uint32_t *hash, *gnu;    /* DT_HASH, DT_GNU_HASH: the symbols' count */
  uintptr_t relro_lo, relro_hi;  /* the pages glibc made read-only */
  int nexec;                     /* executable PT_LOADs */
} obj_dyn;

static int obj_dyn_read(const struct dl_phdr_info *info, obj_dyn *d)
{
  memset(d, 0, sizeof *d);
  d->info = info;
  const ElfW(Dyn) *dyn = NULL;
  size_t ndyn = 0;
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), base = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_DYNAMIC) {
      dyn = (const ElfW(Dyn) *)(base + ph->p_vaddr);
      ndyn = ph->p_memsz / sizeof *dyn;
    } else if (ph->p_type == PT_GNU_RELRO) {
      d->relro_lo = (base + ph->p_vaddr) & ~(pg - 1);
      d->relro_hi = (base + ph->p_vaddr + ph->p_memsz) & ~(pg - 1);
    } else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      d->nexec++;
    }
  }
  if (!dyn || !obj_mapped(info, (uintptr_t)dyn, ndyn * sizeof *dyn)) return 0;
  uintptr_t sym = 0, str = 0, rela = 0, rel = 0, jmprel = 0, hash = 0, gnu = 0;
  size_t strsz = 0, relasz = 0, relsz = 0, pltsz = 0, pltrel = 0;
  for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
    uintptr_t v = dyn[i].d_un.d_ptr;
    /* glibc relocates these in place; the vDSO's are as linked */
    uintptr_t a = v && v < base ? v + base : v;
    switch (dyn[i].d_tag) {
    case DT_SYMTAB: sym = a; break;
    case DT_STRTAB: str = a; break;
    case DT_STRSZ: strsz = v; break;
    case DT_RELA: rela = a; break;
    case DT_RELASZ: relasz = v; break;
    case DT_REL: rel = a; break;
    case DT_RELSZ: relsz = v; break;
    case DT_JMPREL: jmprel = a; break;
    case DT_PLTRELSZ: pltsz = v; break;
    case DT_PLTREL: pltrel = v; break;
    case DT_HASH: hash = a; break;
    case DT_GNU_HASH: gnu = a; break;
    }
  }
  if (!sym || !str || !strsz || !obj_mapped(info, str, strsz)) return 0;
  d->sym = (const ElfW(Sym) *)sym;
  d->sym_end = obj_seg_end(info, sym);
  d->str = (const char *)str;
  d->strsz = strsz;
  /* (i386 has DT_REL, the others DT_RELA) */
  if (rela && obj_mapped(info, rela, relasz)) {
    d->rel[0] = (const unsigned char *)rela;
    d->relent[0] = sizeof(ElfW(Rela));
    d->nrel[0] = relasz / sizeof(ElfW(Rela));
  } else if (rel && obj_mapped(info, rel, relsz)) {
    d->rel[0] = (const unsigned char *)rel;
    d->relent[0] = sizeof(ElfW(Rel));
    d->nrel[0] = relsz / sizeof(ElfW(Rel));
  }
  if (jmprel && (pltrel == DT_RELA || pltrel == DT_REL) && obj_mapped(info, jmprel, pltsz)) {
    d->rel[1] = (const unsigned char *)jmprel;
    d->relent[1] = pltrel == DT_RELA ? sizeof(ElfW(Rela)) : sizeof(ElfW(Rel));
    d->nrel[1] = pltsz / d->relent[1];
  }
  if (hash && obj_mapped(info, hash, 8)) d->hash = (const uint32_t *)hash;
  if (gnu && obj_mapped(info, gnu, 16)) d->gnu = (const uint32_t *)gnu;
  return 1;
}

/* Symbol I of D: its name (and *S), or NULL. */
static const char *obj_sym(const obj_dyn *d, size_t i, const ElfW(Sym) **s)
{
  *s = &d->sym[i];
  if (i >= (d->sym_end - (uintptr_t)d->sym) / sizeof **s || (*s)->st_name >= d->strsz) return NULL;
  const char *n = d->str + (*s)->st_name;
  return memchr(n, 0, d->strsz - (*s)->st_name) ? n : NULL;
}

/* How many dynamic symbols D has (DT_HASH's chain count, else the end
   of GNU hash's last chain), or 0. */
static size_t obj_nsyms(const obj_dyn *d)
{
  if (d->hash) return d->hash[1];
  if (!d->gnu) return 0;
  uint32_t nb = d->gnu[0], off = d->gnu[1], bloom = d->gnu[2];
  const uint32_t *bucket = d->gnu + 4 + (size_t)bloom * (sizeof(ElfW(Addr)) / 4);
  if (!obj_mapped(d->info, (uintptr_t)bucket, (size_t)nb * 4)) return 0;
  uint32_t last = 0;
  for (uint32_t b = 0; b < nb; b++) if (bucket[b] > last) last = bucket[b];
  if (last < off) return off;
  for (const uint32_t *c = bucket + nb + (last - off);; c++, last++) {
    if (!obj_mapped(d->info, (uintptr_t)c, 4)) return 0;
    if (*c & 1) return (size_t)last + 1;
  }
}

/* mcount's kind by name: 0 mcount and _mcount, 1 __fentry__ (x86-64),
   -1 none. */
static int mcount_kind(const char *n)
{
  if (!n) return -1;
  if (!strcmp(n, "mcount") || !strcmp(n, "_mcount")) return 0;
  return ARCH_FENTRY && !strcmp(n, "__fentry__") ? 1 : -1;
}

/* A relocation's word-sized slot for mcount's address, by type
   (arch/<isa>/arch.h), its type and symbol */
#define OBJ_REL_SLOT(t) ARCH_REL_SLOT(t)
#define OBJ_R_TYPE(i) _ElfW(ELF, __ELF_NATIVE_CLASS, R_TYPE)(i)   /* (link.h's ElfW, for ELF64_R_TYPE...) */
#define OBJ_R_SYM(i) _ElfW(ELF, __ELF_NATIVE_CLASS, R_SYM)(i)

/* May SLOT, a word of the object D, be written now?  1: yes -- it lies
   outside the pages the loader makes read-only when it has relocated
   the object (PT_GNU_RELRO; a store there can only be undone by a later
   relocation of that word, never fault), or those pages are read-only
   already, so the loader is done with them; 0: not yet -- the object is
   listed by dl_iterate_phdr while the loader is still relocating it
   (dlopen in another thread, or an IFUNC resolver of its own), and a
   page made writable and read-only again under the loader's writes
   would fault them; -1: cannot tell (no /proc). */
static int obj_settled(const obj_dyn *d, uintptr_t slot)
{
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), page = slot & ~(pg - 1);
  if (page < d->relro_lo || page >= d->relro_hi) return 1;
  int perm = maps_at(page, NULL);
  if (perm < 0) return M.state < 0 ? -1 : 0;
  return !(perm & MAP_W);
}

/* Points the word at SLOT at VAL: its page made writable for the store
   (a GOT entry lies in a data page, writable unless glibc made it
   read-only after relocation, PT_GNU_RELRO), and read-only again if it
   lies there. */
static int obj_store(const obj_dyn *d, uintptr_t slot, uintptr_t val)
{
  uintptr_t *p = (uintptr_t *)slot;
  if (__atomic_load_n(p, __ATOMIC_RELAXED) == val) return 1;
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), page = slot & ~(pg - 1);
  if (mprotect((void *)page, pg, PROT_READ | PROT_WRITE) != 0) return 0;
  __atomic_store_n(p, val, __ATOMIC_RELEASE);
  if (page >= d->relro_lo && page < d->relro_hi) mprotect((void *)page, pg, PROT_READ);
  return 1;
}

/* Another runtime's mcount (the C library's) at FN, SIZE bytes: its first
   bytes made a jump to libprof's entry TO (arch/<isa>/arch.h's
   arch_jump_code: x86-64 `jmp *0(%rip)` and the address, 14 bytes; i386
   `jmp rel32`, 5; aarch64 `ldr x16, #8; br x16` and the address, 16),
   so that objects bound to it are counted before their GOT slots are
   seen.  The page stays executable throughout: other threads may be
   running code there. */
static void obj_redirect(uintptr_t fn, size_t size, const char *to)
{
  uintptr_t t = (uintptr_t)to;
  unsigned char code[ARCH_JUMP_BYTES];
  arch_jump_code(code, fn, t);
  if (size < sizeof code || fn == t || !memcmp((const void *)fn, code, sizeof code)) return;
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t a = fn & ~(pg - 1), b = (fn + sizeof code + pg - 1) & ~(pg - 1);
  if (mprotect((void *)a, b - a, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
  memcpy((void *)fn, code, sizeof code);
  arch_code_written(fn, sizeof code);   /* (aarch64: seen by every core's fetch) */
  mprotect((void *)a, b - a, PROT_READ | PROT_EXEC);
}

/* O's trampoline, given on first need and set to its current load.
   0: none left, or no codes. */
static int obj_tramp(prof_obj *o)
{
  if (!obj_code(o)) return 0;
  if (!o->tramp) {
    if (O.ntramps == PROF_TRAMPS) {
      if (!O.notramp_said)
        say("libprof: over 128 -pg objects: calls into ", o->path, " and later ones are counted slowly\n");
      O.notramp_said = 1;
      return 0;
    }
    o->tramp = ++O.ntramps;
  }
  prof_libent *e = &__prof_libent[o->tramp - 1];
  if (!e->caller) e->caller = &no_range;
  e->lo = o->lo;
  e->size = o->hi - o->lo;
  e->cbase = o->cbase;
  e->delta = o->lo - o->cbase;
  return 1;
}

/* A load of O seen by a scan (under O.lock): a runtime's mcount it
   defines jumps to libprof's (each new load: IS_NEW), and its own calls of
   mcount are pointed at its trampoline -- once per load. */
static void obj_calls_found(prof_obj *o, const struct dl_phdr_info *info, int is_new)
{
  obj_dyn d;
  if (is_new) o->redirect_due = 1;
  if (!P.objects || o->patched) return;
  o->patched = 1;
  if (!obj_dyn_read(info, &d)) return;
  if (o->redirect_due) {
    o->redirect_due = 0;
    size_t n = obj_nsyms(&d);
    for (size_t i = 1; i < n; i++) {
      const ElfW(Sym) *s;
      int kind = mcount_kind(obj_sym(&d, i, &s));
      if (kind < 0 || s->st_shndx == SHN_UNDEF || !s->st_value) continue;   /* (s is read only once named) */
      uintptr_t fn = info->dlpi_addr + s->st_value;
      if (obj_mapped(info, fn, s->st_size)) {
        /* Only the first scan's (start-up: no other thread yet) is
           rewritten.  A C library found later (a dlmopen namespace's) may
           be running its mcount on another thread, which would resume
           inside the new jump's bytes (2-4 crashes in 1,700 loaded storm
           runs, all at mcount+4; nspatch: 3 of 3): its -pg objects are
           counted once their GOT slots point at their trampolines (below,
           a pointer store), their calls before said lost (late_objects). */
        if (!O.scanned) obj_redirect(fn, s->st_size, kind ? prof_entry_fe : prof_entry_mc_chk);
        O.redirects++;
      }
    }
  }
  int pg = !is_new;                          /* (counted once per load) */
  for (int r = 0; r < 2; r++)
    for (size_t i = 0; i < d.nrel[r]; i++) {
      /* (a Rel is a Rela's first two words) */
      const ElfW(Rela) *rl = (const ElfW(Rela) *)(d.rel[r] + i * d.relent[r]);
      unsigned type = (unsigned)OBJ_R_TYPE(rl->r_info);
      const ElfW(Sym) *s;
      if (!OBJ_REL_SLOT(type) || (d.relent[r] == sizeof(ElfW(Rela)) && rl->r_addend))
        continue;
      int kind = mcount_kind(obj_sym(&d, OBJ_R_SYM(rl->r_info), &s));
      uintptr_t slot = info->dlpi_addr + rl->r_offset;
      if (kind < 0 || (slot & (sizeof slot - 1)) || !obj_mapped(info, slot, sizeof slot)) continue;
      if (!pg) {
        pg = 1;
        O.pg_found++;
      }
      /* the library path takes every selfpc for one in [lo, hi): an
         object with code elsewhere is counted through C */
      if (d.nexec != 1 || !obj_tramp(o)) return;
      int settled = obj_settled(&d, slot);
      if (settled < 0) continue;             /* (counted through C) */
      if (!settled) {                        /* the next scan's (the poller's) ... */
        if (++o->put_off < 100) {            /* ... for 2 s at most: then left to C */
          o->patched = 0;
          O.pending = 1;
        }
        continue;
      }
      uintptr_t to = (uintptr_t)(kind ? prof_tramp_fe : prof_tramp_mc) + PROF_TRAMP_SIZE * (uintptr_t)(o->tramp - 1);
      if (obj_store(&d, slot, to)) {
        o->slot = slot;                      /* what tells a reload at the same place */
        o->slot_val = to;
      }
    }
}
