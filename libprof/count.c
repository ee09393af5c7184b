/* count.c -- counting calls: each thread's open-addressing table of
 * {key, count} slots (prof.h), taken on its first profiled call and grown
 * by doubling, the stub's thread-local copy of its slots and mask, and
 * the shared table the counts of finished threads are folded into.  Only
 * a table's thread writes it, so counting takes no lock and no atomic
 * instruction; tables are never unmapped (a writer may be reading them).
 * Part of gmon.c's translation unit; uses base.c. */

uintptr_t __prof_lowpc;
uintptr_t __prof_textsize = UINTPTR_MAX;
__thread prof_tab *__prof_tab;
static const prof_slot no_slots[1];    /* a thread without a table */
__thread prof_cur __prof_cur = { 0, { (prof_slot *)no_slots } };

/* The thread's table, and the stub's copy of its slots and mask.  Called
   with signals blocked, or before the thread's first count. */
static void set_table(prof_tab *t)
{
  __prof_tab = t;
  __prof_cur.slots = t ? t->slots : (prof_slot *)no_slots;
  __prof_cur.bytemask = t ? t->bytemask : 0;
}
static inline uint64_t slot_of(uint64_t key, uint64_t mask)
{
  return ((key * (uint64_t)PROF_HASH_MULT) >> 32) & mask;
}

static int tab_init(prof_tab *t, uint64_t n)
{
  prof_slot *s = map_zero(n * sizeof *s);
  if (!s) return 0;
  t->slots = s;
  t->mask = n - 1;
  t->bytemask = (n - 1) * sizeof *s;
  t->used = 0;
  return 1;
}

/* Adds COUNT to KEY's slot in T, growing T as needed.  Returns 0 when
   memory runs out.  Only T's owner (or the lock holder, for the shared
   table) calls it.  A grown table's old slots stay mapped: a writer may
   be reading them.  Signals are blocked while the table changes so a
   handler's fast path never sees the slots and mask disagree. */
static int tab_add(prof_tab *t, uint64_t key, uint64_t count)
{
  for (uint64_t i = slot_of(key, t->mask);; i = (i + 1) & t->mask) {
    prof_slot *sl = &t->slots[i];
    if (sl->key == key) { sl->count += count; return 1; }
    if (sl->key) continue;
    if ((t->used + 1) * 2 > t->mask + 1) {       /* keep the load under 1/2 */
      sigset_t all, old;
      sigfillset(&all);
      raw_sigmask(SIG_BLOCK, &all, &old);
      uint64_t n = (t->mask + 1) * 2;
      prof_slot *ns = map_zero(n * sizeof *ns);
      if (!ns) {
        raw_sigmask(SIG_SETMASK, &old, NULL);
        return 0;
      }
      for (uint64_t j = 0; j <= t->mask; j++) {
        prof_slot *o = &t->slots[j];
        if (!o->key) continue;
        uint64_t k = slot_of(o->key, n - 1);
        while (ns[k].key) k = (k + 1) & (n - 1);
        ns[k] = *o;
      }
      __atomic_store_n(&t->slots, ns, __ATOMIC_RELEASE);
      __atomic_store_n(&t->bytemask, (n - 1) * sizeof *ns, __ATOMIC_RELEASE);
      __atomic_store_n(&t->mask, n - 1, __ATOMIC_RELEASE);
      if (t == __prof_tab) set_table(t);
      raw_sigmask(SIG_SETMASK, &old, NULL);
      return tab_add(t, key, count);
    }
    sl->count = count;
    __atomic_store_n(&sl->key, key, __ATOMIC_RELEASE);
    if (t->used < PROF_TAB_LOG) t->log[t->used] = (uint32_t)i;
    t->used++;
    return 1;
  }
}

/* The calling thread's table rebuilt so that its busiest arcs sit in
   their home slots: the stub's fast path finds an arc in its home slot
   with one compare, and pays seven instructions and a mispredicted
   branch per slot it probes past.  Arcs enter the table in the order the
   program first calls them, which says nothing of how often it calls
   them; on Lua running a benchmark, a thread's 1,248 arcs in 4,096 slots
   cost 0.16-0.34 extra probes per call (about 8% of the program's CPU
   time under -pg), rebuilt by count 0.009.  The rebuild is linear
   probing where a busier arc takes the slot from a less busy one, which
   probes on: every arc stays reachable from its home without crossing an
   empty slot, as lookups need.
   Called from the thread's own sampling handler, now and then (sample.c),
   never while the thread runs libprof's code (the stub might hold a slot
   of the old slots), with every signal blocked (a nested handler's
   profiled code would count into the old slots).  The new slots are the
   table's spare ones, and the old become the spare: at most twice a
   table's slots, never unmapped (a writer may be reading them; the
   rebuild takes tab_lock, which writers hold while they read, or does
   nothing).  A grown table's old spare is left mapped. */
static void count_rehome(void)
{
  prof_tab *t = __prof_tab;
  if (!t || t->used <= PROF_TAB_LOG) return;   /* small: log kept, no gain */
  if (!lock_take(&P.tab_lock, 0)) return;       /* 0: busy, or ours already */
  sigset_t all, old;
  sigfillset(&all);
  raw_sigmask(SIG_BLOCK, &all, &old);
  uint64_t mask = t->mask;
  if (t->spare && t->spare_mask != mask) t->spare = NULL;
  if (!t->spare) {
    t->spare = map_zero((mask + 1) * sizeof(prof_slot));
    t->spare_mask = mask;
  } else {
    memset(t->spare, 0, (mask + 1) * sizeof(prof_slot));
  }
  prof_slot *ns = t->spare, *os = t->slots;
  if (ns) {
    for (uint64_t j = 0; j <= mask; j++) {
      prof_slot cur = os[j];
      if (!cur.key) continue;
      for (uint64_t i = slot_of(cur.key, mask);; i = (i + 1) & mask) {
        if (!ns[i].key) { ns[i] = cur; break; }
        if (ns[i].count < cur.count) { prof_slot x = ns[i]; ns[i] = cur; cur = x; }
      }
    }
    __atomic_store_n(&t->slots, ns, __ATOMIC_RELEASE);
    t->spare = os;
    set_table(t);
    __atomic_fetch_add(&P.rehomes, 1, __ATOMIC_RELAXED);
  }
  raw_sigmask(SIG_SETMASK, &old, NULL);
  lock_give(&P.tab_lock, 1);
}

/* A new table with TAB_INITIAL slots, carved with them from a shared
   chunk (a mapping per table would cost a page or more per thread), and
   put on the list of every table.  Called under tab_lock. */
static prof_tab *tab_carve(void)
{
  const size_t need = (sizeof(prof_tab) + TAB_INITIAL * sizeof(prof_slot) + 63) & ~(size_t)63;
  if ((size_t)(P.arena_end - P.arena) < need) {
    const size_t chunk = 256 * 1024;
    char *c = map_zero(chunk);
    if (!c) return NULL;
    P.arena = c;
    P.arena_end = c + chunk;
  }
  prof_tab *t = (prof_tab *)P.arena;
  prof_slot *s = (prof_slot *)(P.arena + sizeof(prof_tab));
  P.arena += need;
  t->slots = s;
  t->mask = TAB_INITIAL - 1;
  t->bytemask = (TAB_INITIAL - 1) * sizeof(prof_slot);
  t->used = 0;
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

/* A thread ends: its counts go to the shared table, its table, emptied,
   to the free list. */
static void count_fold(prof_tab *t)
{
  set_table(NULL);
  int taken = lock_take(&P.tab_lock, -1);
  if (t->used <= PROF_TAB_LOG) {   /* the log says where they all are */
    for (uint64_t j = 0; j < t->used; j++) {
      prof_slot *o = &t->slots[t->log[j]];
      if (!tab_add(&P.retired, o->key, o->count)) P.lost_arcs += o->count;
      o->key = o->count = 0;
    }
    t->used = 0;
  } else {
    for (uint64_t i = 0; i <= t->mask; i++) {
      prof_slot *o = &t->slots[i];
      if (o->key && !tab_add(&P.retired, o->key, o->count))
        P.lost_arcs += o->count;
    }
    memset(t->slots, 0, (t->mask + 1) * sizeof *t->slots);
    t->used = 0;
  }
  t->next_free = P.free;
  P.free = t;
  lock_give(&P.tab_lock, taken);
}

/* A forked child starts with empty counts: every table is emptied (the
   others' threads are gone: their tables go back on the free list) and
   the shared one too. */
static void count_after_fork(void)
{
  P.free = NULL;
  for (prof_tab *t = P.tabs; t; t = t->next) {
    memset(t->slots, 0, (t->mask + 1) * sizeof *t->slots);
    t->used = 0;
    if (t != __prof_tab) { t->next_free = P.free; P.free = t; }
  }
  memset(P.retired.slots, 0, (P.retired.mask + 1) * sizeof *P.retired.slots);
  P.retired.used = 0;
  P.lost_arcs = 0;
}
