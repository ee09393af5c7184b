/* count.c -- counting calls: each thread's open-addressing tables (prof.h)
 * -- the key part, {key, count} slots, and on x86-64 the raw part,
 * {frompc, selfpc, count, flags} slots that the program's fast path reads
 * -- taken on its first profiled call and grown by doubling, the stub's
 * thread-local copy of their slots and masks, and the shared table the
 * counts of finished threads are folded into (as keys).  Only a table's
 * thread writes it, so counting takes no lock and no atomic instruction;
 * tables are never unmapped (a writer may be reading them).  Part of
 * gmon.c's translation unit; uses base.c. */

uintptr_t __prof_lowpc;
/* Off until the process is ready (gmon.c's `ready`): an IFUNC resolver
   runs its mcount call while the loader relocates, before the thread's
   TLS (and, statically linked, %fs itself) exists. */
uintptr_t __prof_textsize;
unsigned char __prof_counting;
__thread prof_tab *__prof_tab;
/* one empty slot of either kind: a part with no slots of its own (a
   thread without a table, a key part before its first arc); never
   written, since a part grows before its first entry */
static const uint64_t no_slots[4];
__thread prof_cur __prof_cur = { 0, { (uint64_t *)no_slots }, 0, { (uint64_t *)no_slots } };

/* The stubs' switch: counting (the text's size, and 1 for the raw path)
   or not (0: every call returns at once). */
static void count_gate(int on)
{
  __prof_textsize = on ? P.textsize : 0;
  __prof_counting = (unsigned char)(on != 0);
}

/* The switch before start-up, once the thread's TLS exists: every call
   goes to C (the whole address space is "text" and no thread has a
   table yet), whose first one starts profiling. */
static void count_arm(void)
{
  __prof_textsize = UINTPTR_MAX;
  __prof_counting = 1;
}

/* A slot's words, and the word of its count. */
#define SLOT_WORDS(raw) ((raw) ? 4u : 2u)
#define SLOT_COUNT(raw) ((raw) ? 2u : 1u)

/* The thread's table, and the stub's copy of its slots and masks.
   Called with signals blocked, or before the thread's first count. */
static void set_table(prof_tab *t)
{
  __prof_tab = t;
  __prof_cur.slots = t ? t->key.slots : (uint64_t *)no_slots;
  __prof_cur.bytemask = t ? t->key.bytemask : 0;
  __prof_cur.raw_slots = t && t->raw.slots ? t->raw.slots : (uint64_t *)no_slots;
  __prof_cur.raw_bytemask = t && t->raw.slots ? t->raw.bytemask : 0;
}
static inline uint64_t slot_of(uint64_t key, uint64_t mask)
{
  uint64_t v = (key >> 32) * (uint64_t)PROF_KEY_MULT + key;
  return ((v * (uint64_t)PROF_HASH_MULT) >> 32) & mask;
}
/* The home slot of an entry: a key's hash, or the raw pair's as the stub
   computes it, bits 5 and up of selfpc * frompc (prof.h). */
static inline uint64_t home_of(const uint64_t *id, int raw, uint64_t mask)
{
  if (raw) return ((id[1] * id[0]) >> PROF_RAW_SHIFT) & mask;
  return slot_of(id[0], mask);
}

/* A part of N slots (a power of two) of its own. */
static void part_set(prof_part *p, int raw, uint64_t *slots, uint64_t n)
{
  p->slots = slots;
  p->mask = n - 1;
  p->bytemask = (n - 1) * SLOT_WORDS(raw) * 8;
  p->used = 0;
}
static int part_init(prof_part *p, int raw, uint64_t n)
{
  uint64_t *s = map_zero(n * SLOT_WORDS(raw) * 8);
  if (s) part_set(p, raw, s, n);
  return s != NULL;
}

/* Adds COUNT to the entry ID (a key, or a raw pair whose FLAGS are set
   when it is new) in P, growing P as needed.  Returns 0 when memory runs
   out.  Only P's owner (or the lock holder, for the shared table) calls
   it.  A grown part's old slots stay mapped: a writer may be reading
   them.  Signals are blocked while the part changes so a handler's fast
   path never sees the slots and mask disagree. */
static int part_add(prof_part *p, int raw, const uint64_t *id, uint64_t count, uint64_t flags)
{
  const unsigned w = SLOT_WORDS(raw), c = SLOT_COUNT(raw);
  for (uint64_t i = home_of(id, raw, p->mask);; i = (i + 1) & p->mask) {
    uint64_t *s = p->slots + i * w;
    if (s[0] == id[0] && (!raw || s[1] == id[1])) { s[c] += count; return 1; }
    if (s[0]) continue;
    if ((p->used + 1) * 2 > p->mask + 1) {       /* keep the load under 1/2 */
      sigset_t all, old;
      sigfillset(&all);
      raw_sigmask(SIG_BLOCK, &all, &old);
      uint64_t n = p->used ? (p->mask + 1) * 2 : KEY_FIRST;
      /* a thread's part (the shared one no stub reads; no_slots none
         counts in): its old slots kept on the part's stale list, under
         tab_lock so that no writer reads them while their counts move */
      uint64_t *os = p->slots, omask = p->mask;
      const int keep = p != &P.retired.key && os != no_slots;
      const int taken = keep ? lock_take(&P.tab_lock, -1) : 0;
      uint64_t *ns = map_zero(n * w * 8 + (keep ? sizeof(prof_stale) : 0));
      if (!ns) {
        lock_give(&P.tab_lock, taken);
        raw_sigmask(SIG_SETMASK, &old, NULL);
        return 0;
      }
      uint64_t placed = 0;
      for (uint64_t j = 0; j <= p->mask; j++) {
        const uint64_t *o = p->slots + j * w;
        if (!o[0]) continue;
        uint64_t k = home_of(o, raw, n - 1);
        while (ns[k * w]) k = (k + 1) & (n - 1);
        memcpy(ns + k * w, o, w * 8);
        if (placed < PROF_TAB_LOG) p->log[placed] = (uint32_t)k;
        placed++;
      }
      LP_ASSERT(placed == p->used);              /* every pair moved */
      __atomic_store_n(&p->slots, ns, __ATOMIC_RELEASE);
      __atomic_store_n(&p->bytemask, (n - 1) * w * 8, __ATOMIC_RELEASE);
      __atomic_store_n(&p->mask, n - 1, __ATOMIC_RELEASE);
      if (__prof_tab && (p == &__prof_tab->key || p == &__prof_tab->raw)) set_table(__prof_tab);
      if (keep) {
        /* counts moved: the old slots keep their pairs, counts 0, for
           the increment of a stub this handler interrupted (prof_stale) */
        for (uint64_t j = 0; j <= omask; j++) os[j * w + c] = 0;
        prof_stale *st = (prof_stale *)(ns + n * w);
        st->slots = os;
        st->mask = omask;
        st->next = p->stale;
        __atomic_store_n(&p->stale, st, __ATOMIC_RELEASE);
      }
      lock_give(&P.tab_lock, taken);
      raw_sigmask(SIG_SETMASK, &old, NULL);
      return part_add(p, raw, id, count, flags);
    }
    s[c] = count;
    if (raw) { s[1] = id[1]; s[3] = flags; }
    __atomic_store_n(&s[0], id[0], __ATOMIC_RELEASE);
    if (p->used < PROF_TAB_LOG) p->log[p->used] = (uint32_t)i;
    p->used++;
    LP_ASSERT(p->used * 2 <= p->mask + 1);       /* load under 1/2: probes end */
    return 1;
  }
}
static int tab_add(prof_tab *t, uint64_t key, uint64_t count)
{
  return part_add(&t->key, 0, &key, count, 0);
}

/* A raw slot's arc as a key; 0 for a pair that is no arc of the text. */
static uint64_t raw_key(const uint64_t *s)
{
  uintptr_t f = s[0] - P.lowpc, self = s[1] - P.lowpc;
  if (s[3] || !s[0] || f >= P.textsize || self >= P.textsize) return 0;
  return (uint64_t)f << 32 | self;
}

/* The part's older slots that may hold counts, as a list: its spare
   (REC filled with it), then those from before grows (prof_stale). */
static const prof_stale *part_old(const prof_part *p, prof_stale *rec)
{
  const prof_stale *st = __atomic_load_n(&p->stale, __ATOMIC_ACQUIRE);
  if (!p->spare) return st;
  rec->slots = p->spare;
  rec->mask = p->spare_mask;
  rec->next = st;
  return rec;
}

/* The counts in SLOTS (of MASK) -- older slots of P, whose entries P
   holds too -- added to P's entries and cleared there. */
static void part_harvest(prof_part *p, int raw, uint64_t *slots, uint64_t mask)
{
  const unsigned w = SLOT_WORDS(raw), c = SLOT_COUNT(raw);
  for (uint64_t j = 0; j <= mask; j++) {
    uint64_t *o = slots + j * w, *s = NULL;
    if (!o[0] || !o[c]) continue;
    for (uint64_t i = home_of(o, raw, p->mask), k = 0; k <= p->mask; i = (i + 1) & p->mask, k++) {
      uint64_t *e = p->slots + i * w;
      if (!e[0]) break;
      if (e[0] == o[0] && (!raw || e[1] == o[1])) { s = e; break; }
    }
    if (s) s[c] += o[c];
    else P.lost_arcs += o[c];
    o[c] = 0;
  }
}

/* A part rebuilt so that its busiest entries sit in their home slots:
   the stub's fast path finds an arc in its home slot with one compare,
   and pays several instructions and a mispredicted branch per slot it
   probes past.  Arcs enter the table in the order the program first
   calls them, which says nothing of how often it calls them; on Lua
   running a benchmark, a thread's 1,248 arcs in 4,096 slots cost
   0.16-0.34 extra probes per call (about 8% of the program's CPU time
   under -pg), rebuilt by count 0.009.  The rebuild is linear probing
   where a busier entry takes the slot from a less busy one, which probes
   on: every entry stays reachable from its home without crossing an
   empty slot, as lookups need.  The new slots are the part's spare ones,
   and the old become the spare: at most twice a part's slots, never
   unmapped (a writer may be reading them).  The old keep their entries
   with counts 0: a stub that a profiled signal handler interrupted
   between finding its slot and its increment (this rebuild ran in a
   sampling signal nested in that handler) adds its one there; readers
   add the spare's counts, and the next rebuild takes them back first.
   Returns 1 if rebuilt. */
static int part_rehome(prof_part *p, int raw)
{
  if (p->used <= PROF_TAB_LOG) return 0;         /* small: log kept, no gain */
  const unsigned w = SLOT_WORDS(raw), c = SLOT_COUNT(raw);
  uint64_t mask = p->mask;
  size_t bytes = (mask + 1) * w * 8;
  if (p->spare && p->spare_mask != mask) {     /* a grown part's: left */
    part_harvest(p, raw, p->spare, p->spare_mask);
    p->spare = NULL;
  }
  if (!p->spare) {
    p->spare = map_zero(bytes);
    p->spare_mask = mask;
  } else {
    part_harvest(p, raw, p->spare, mask);
    memset(p->spare, 0, bytes);
  }
  uint64_t *ns = p->spare, *os = p->slots;
  if (!ns) return 0;
  for (uint64_t j = 0; j <= mask; j++) {
    uint64_t cur[4], x[4];
    memcpy(cur, os + j * w, w * 8);
    if (!cur[0]) continue;
    for (uint64_t i = home_of(cur, raw, mask);; i = (i + 1) & mask) {
      uint64_t *s = ns + i * w;
      if (!s[0]) { memcpy(s, cur, w * 8); break; }
      if (s[c] < cur[c]) { memcpy(x, s, w * 8); memcpy(s, cur, w * 8); memcpy(cur, x, w * 8); }
    }
  }
  __atomic_store_n(&p->slots, ns, __ATOMIC_RELEASE);
  for (uint64_t j = 0; j <= mask; j++) os[j * w + c] = 0;     /* moved */
  p->spare = os;
  return 1;
}

/* The calling thread's table rebuilt busiest-first (part_rehome).
   Called from the thread's own sampling handler, now and then
   (sample.c), never while the thread runs libprof's code (the stub might
   hold a slot of the old slots), with every signal blocked (a nested
   handler's profiled code would count into the old slots).  It takes
   tab_lock, which writers hold while they read, or does nothing. */
static void count_rehome(void)
{
  prof_tab *t = __prof_tab;
  if (!t || (t->key.used <= PROF_TAB_LOG && t->raw.used <= PROF_TAB_LOG)) return;
  if (!lock_take(&P.tab_lock, 0)) return;       /* 0: busy, or ours already */
  sigset_t all, old;
  sigfillset(&all);
  raw_sigmask(SIG_BLOCK, &all, &old);
  int n = part_rehome(&t->key, 0) + (PROF_RAW ? part_rehome(&t->raw, 1) : 0);
  if (n) {
    set_table(t);
    __atomic_fetch_add(&P.rehomes, (uint64_t)n, __ATOMIC_RELAXED);
  }
  raw_sigmask(SIG_SETMASK, &old, NULL);
  lock_give(&P.tab_lock, 1);
}

/* A new table, carved with its first slots from a shared chunk (a
   mapping per table would cost a page or more per thread), and put on
   the list of every table.  Called under tab_lock. */
static prof_tab *tab_carve(void)
{
  const size_t first = PROF_RAW ? RAW_INITIAL * 32 : TAB_INITIAL * sizeof(prof_slot);
  const size_t need = (sizeof(prof_tab) + first + 63) & ~(size_t)63;
  if ((size_t)(P.arena_end - P.arena) < need) {
    const size_t chunk = 256 * 1024;
    char *c = map_zero(chunk);
    if (!c) return NULL;
    P.arena = c;
    P.arena_end = c + chunk;
  }
  prof_tab *t = (prof_tab *)P.arena;
  uint64_t *s = (uint64_t *)(P.arena + sizeof(prof_tab));
  P.arena += need;
  if (PROF_RAW) {
    part_set(&t->raw, 1, s, RAW_INITIAL);
    part_set(&t->key, 0, (uint64_t *)no_slots, 1);
  } else {
    part_set(&t->key, 0, s, TAB_INITIAL);
  }
  prof_tab *head = __atomic_load_n(&P.tabs, __ATOMIC_ACQUIRE);
  do t->next = head;
  while (!__atomic_compare_exchange_n(&P.tabs, &head, t, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  return t;
}

/* The calling thread's table: a finished thread's emptied one if there
   is one, else a new one.  NULL when memory runs out. */
static prof_tab *count_take(void)
{
  prof_tab *t = __prof_tab;
  if (t) return t;
  int taken = lock_take(&P.tab_lock, -1);
  t = P.free;
  if (t) P.free = t->next_free;
  else t = tab_carve();
  lock_give(&P.tab_lock, taken);
  if (t) set_table(t);
  return t;
}

/* A part's entries folded into the shared table (as keys) and cleared:
   the log says where they are while they are few. */
static void part_fold(prof_part *p, int raw)
{
  const unsigned w = SLOT_WORDS(raw), c = SLOT_COUNT(raw);
  int logged = p->used <= PROF_TAB_LOG;
  uint64_t n = logged ? p->used : p->mask + 1;
  for (uint64_t j = 0; j < n; j++) {
    uint64_t *o = p->slots + (logged ? p->log[j] : j) * w;
    uint64_t key = raw ? raw_key(o) : o[0];
    if (key && o[c] && !tab_add(&P.retired, key, o[c])) P.lost_arcs += o[c];
    if (logged) memset(o, 0, w * 8);
  }
  if (!logged) memset(p->slots, 0, (p->mask + 1) * w * 8);
  p->used = 0;
  prof_stale rec;
  for (const prof_stale *st = part_old(p, &rec); st; st = st->next)
    for (uint64_t j = 0; j <= st->mask; j++) {
      uint64_t *o = (uint64_t *)st->slots + j * w;
      uint64_t key = o[0] && o[c] ? (raw ? raw_key(o) : o[0]) : 0;
      if (key && !tab_add(&P.retired, key, o[c])) P.lost_arcs += o[c];
      o[c] = 0;
    }
  p->stale = NULL;
}

/* How far lookups probe, for LIBPROF_OVERHEAD=report: the calls counted
   in threads' tables, the slots their lookups took (home slot to the
   arc's, weighted by the arc's count), and the most one took; from each
   thread's table when it ends, and the live ones' at the report
   (count_probes).  A measure of the hash on the program's own arcs. */
static uint64_t probe_calls, probe_slots, probe_max;
static void part_probes(const prof_part *p, int raw)
{
  const unsigned w = SLOT_WORDS(raw), c = SLOT_COUNT(raw);
  const uint64_t mask = p->mask, *slots = p->slots;
  for (uint64_t i = 0; slots && i <= mask; i++) {
    const uint64_t *o = slots + i * w;
    if (!o[0] || !o[c]) continue;
    uint64_t n = ((i - home_of(o, raw, mask)) & mask) + 1;
    probe_calls += o[c];
    probe_slots += n * o[c];
    if (n > probe_max) probe_max = n;
  }
}
static void count_probes(void)
{
  int taken = lock_take(&P.tab_lock, 2000);
  for (prof_tab *t = P.tabs; t; t = t->next) {
    part_probes(&t->key, 0);
    if (PROF_RAW) part_probes(&t->raw, 1);
  }
  lock_give(&P.tab_lock, taken);
}

/* A thread ends: its counts go to the shared table, its table, emptied,
   to the free list. */
static void count_fold(prof_tab *t)
{
  set_table(NULL);
  int taken = lock_take(&P.tab_lock, -1);
  part_probes(&t->key, 0);
  if (PROF_RAW) part_probes(&t->raw, 1);
  part_fold(&t->key, 0);
  if (PROF_RAW) part_fold(&t->raw, 1);
  t->next_free = P.free;
  P.free = t;
  lock_give(&P.tab_lock, taken);
}

/* A part emptied (a part with no entry is empty already: no_slots is
   never written). */
static void part_clear(prof_part *p, int raw)
{
  if (p->used) memset(p->slots, 0, (p->mask + 1) * SLOT_WORDS(raw) * 8);
  p->used = 0;
  p->stale = NULL;
  p->spare = NULL;
}

/* A forked child starts with empty counts: every table is emptied (the
   others' threads are gone: their tables go back on the free list) and
   the shared one too. */
static void count_after_fork(void)
{
  P.free = NULL;
  for (prof_tab *t = P.tabs; t; t = t->next) {
    part_clear(&t->key, 0);
    part_clear(&t->raw, 1);
    if (t != __prof_tab) { t->next_free = P.free; P.free = t; }
  }
  part_clear(&P.retired.key, 0);
  P.lost_arcs = 0;
}
