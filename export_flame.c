/* export_flame.c -- folded stacks and an SVG flame graph (export_flame.h).
 *
 * Both are drawn from one tree: the stacks of all threads merged by frame
 * name from the root down, each node holding the samples of the stacks
 * through it (total) and of those ending at it (self). */
#include <stdlib.h>
#include <string.h>
#include "export_flame.h"
#include "stacks.h"

#define NONE UINT32_MAX

typedef struct {
  size_t parent;
  const char *name;             /* NULL: the root */
  uint32_t obj;                 /* the object of its first frame (NONE: none) */
  unsigned depth;               /* the root 0 */
  uint64_t total, self;
  size_t kid, nkid;             /* its children: kids[kid .. kid + nkid), by name */
} Node;

typedef struct {
  Node *v;
  size_t n, cap;
  size_t *slot, nslot;          /* (parent, name) -> node */
  size_t *kids;
  unsigned maxdepth;
} Tree;

static uint64_t str_hash(const char *s)
{
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static void grow_slots(Tree *t)
{
  size_t nn = t->nslot ? 2 * t->nslot : 1024;
  size_t *ns = xmalloc(nn * sizeof *ns);
  memset(ns, 0xff, nn * sizeof *ns);
  for (size_t i = 1; i < t->n; i++) {
    size_t b = (size_t)(str_hash(t->v[i].name) ^ (t->v[i].parent * 0x9e3779b97f4a7c15ull)) & (nn - 1);
    while (ns[b] != SIZE_MAX) b = (b + 1) & (nn - 1);
    ns[b] = i;
  }
  free(t->slot);
  t->slot = ns;
  t->nslot = nn;
}

/* PARENT's child NAME, made when new. */
static size_t child(Tree *t, size_t parent, const char *name, uint32_t obj)
{
  if (2 * (t->n + 1) > t->nslot) grow_slots(t);
  size_t b = (size_t)(str_hash(name) ^ (parent * 0x9e3779b97f4a7c15ull)) & (t->nslot - 1);
  for (; t->slot[b] != SIZE_MAX; b = (b + 1) & (t->nslot - 1)) {
    const Node *c = &t->v[t->slot[b]];
    if (c->parent == parent && !strcmp(c->name, name)) return t->slot[b];
  }
  if (t->n == t->cap) {
    t->cap *= 2;
    t->v = xrealloc(t->v, t->cap * sizeof *t->v);
  }
  Node *c = &t->v[t->n];
  memset(c, 0, sizeof *c);
  c->parent = parent;
  c->name = name;
  c->obj = obj;
  c->depth = t->v[parent].depth + 1;
  if (c->depth > t->maxdepth) t->maxdepth = c->depth;
  t->slot[b] = t->n;
  return t->n++;
}

typedef struct { size_t parent; const char *name; size_t node; } KidKey;

static int kid_cmp(const void *a, const void *b)
{
  const KidKey *x = a, *y = b;
  if (x->parent != y->parent) return x->parent < y->parent ? -1 : 1;
  return strcmp(x->name, y->name);
}

static void tree_build(Tree *t, const Stacks *st, const SymTab *tab)
{
  memset(t, 0, sizeof *t);
  t->cap = 1024;
  t->v = xmalloc(t->cap * sizeof *t->v);
  memset(&t->v[0], 0, sizeof t->v[0]);
  t->v[0].obj = NONE;
  t->n = 1;
  for (size_t s = 0; s < st->n; s++) {
    const Stack *sk = &st->v[s];
    size_t cur = 0;
    t->v[0].total += sk->count;
    /* a stack that does not reach its outermost frame says so */
    if (sk->end != 'c') {
      cur = child(t, cur, STACKS_TRUNCATED, NONE);
      t->v[cur].total += sk->count;
    }
    for (uint32_t j = sk->n; j-- > 0;) {
      size_t i = sk->first + j;
      cur = child(t, cur, stacks_frame_name(st, tab, i), st->obj[i]);
      t->v[cur].total += sk->count;
    }
    t->v[cur].self += sk->count;
  }
  if (st->dropped) {            /* not recorded: an entry, so totals add up */
    size_t d = child(t, 0, STACKS_DROPPED, NONE);
    t->v[d].total = t->v[d].self = st->dropped;
    t->v[0].total += st->dropped;
  }
  /* children by parent, then name */
  KidKey *k = xmalloc(t->n * sizeof *k);
  for (size_t i = 1; i < t->n; i++) k[i - 1] = (KidKey){ t->v[i].parent, t->v[i].name, i };
  if (t->n > 1) qsort(k, t->n - 1, sizeof *k, kid_cmp);
  t->kids = xmalloc(t->n * sizeof *t->kids);
  for (size_t i = 0; i + 1 < t->n; i++) {
    Node *p = &t->v[k[i].parent];
    if (!p->nkid) p->kid = i;
    p->nkid++;
    t->kids[i] = k[i].node;
  }
  free(k);
}

static void tree_free(Tree *t)
{
  free(t->v);
  free(t->slot);
  free(t->kids);
}

/* A frame's name in a folded line: ';' separates frames and a line ends
   the record, so they (and other controls) become '?'. */
static void folded_name(FILE *f, const char *s)
{
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    putc(c == ';' || c < 0x20 || c == 0x7f ? '?' : c, f);
  }
}

void export_folded(FILE *f, const ExportInput *in)
{
  Tree t;
  tree_build(&t, in->stacks, in->tab);
  const Node **path = xmalloc((t.maxdepth + 2) * sizeof *path);
  /* depth first, children in name order: a node with samples of its own
     is one line, its path from the root */
  size_t *todo = xmalloc((t.n + 1) * sizeof *todo), ntodo = 0;
  todo[ntodo++] = 0;
  while (ntodo) {
    const Node *nd = &t.v[todo[--ntodo]];
    for (size_t c = nd->nkid; c-- > 0;) todo[ntodo++] = t.kids[nd->kid + c];
    if (!nd->self) continue;
    unsigned d = nd->depth;
    for (const Node *p = nd; p->depth > 0; p = &t.v[p->parent]) path[p->depth] = p;
    for (unsigned i = 1; i <= d; i++) {
      if (i > 1) putc(';', f);
      folded_name(f, path[i]->name);
    }
    fprintf(f, " %llu\n", (unsigned long long)nd->self);
  }
  free(todo);
  free(path);
  tree_free(&t);
}

/* ---- the SVG ---- */

enum {
  W = 1200,                     /* the picture's width */
  XPAD = 10,
  ROW = 16,                     /* a frame's height */
  TOP = 60,                     /* title and total line */
  BOTTOM = 36                   /* the legend */
};
#define FONT_SIZE 11
#define CHAR_W 6.7              /* a monospace character at 11 px, a little over */
#define MIN_W 0.1               /* narrower boxes are not drawn (nor their children) */

/* The colour families: the program warm (red to yellow), other objects
   one family each, in turn; frames of no object grey.  Base and spread
   of red, green, blue. */
static const int family[][6] = {
  { 205, 50, 0, 230, 0, 55 },       /* the program: flamegraph.pl's "hot" */
  { 70, 50, 120, 70, 200, 55 },     /* blue */
  { 70, 60, 160, 70, 60, 50 },      /* green */
  { 50, 40, 170, 60, 170, 60 },     /* aqua */
  { 140, 60, 90, 60, 190, 60 },     /* purple */
  { 150, 50, 130, 50, 50, 40 },     /* olive */
};
#define NFAMILY ((uint32_t)(sizeof family / sizeof family[0]))

static const int *obj_family(uint32_t obj)
{
  static const int grey[6] = { 175, 35, 175, 35, 175, 35 };
  if (obj == NONE) return grey;
  return family[obj == 0 ? 0 : 1 + (obj - 1) % (NFAMILY - 1)];
}

/* A colour from OBJ's family, varied by NAME so neighbours differ, the
   same name always alike. */
static void colour(char *out, size_t n, uint32_t obj, const char *name)
{
  const int *fm = obj_family(obj);
  uint64_t h = str_hash(name);
  double v1 = (double)(h & 0xffff) / 65535, v2 = (double)(h >> 16 & 0xffff) / 65535,
         v3 = (double)(h >> 32 & 0xffff) / 65535;
  if (obj == NONE) v2 = v3 = v1;  /* grey stays grey */
  snprintf(out, n, "rgb(%d,%d,%d)", fm[0] + (int)(fm[1] * v1), fm[2] + (int)(fm[3] * v2),
           fm[4] + (int)(fm[5] * v3));
}

static const char *base_name(const char *path)
{
  const char *b = strrchr(path, '/');
  return b && b[1] ? b + 1 : path;
}

static void svg_frame(FILE *f, const ExportInput *in, const Tree *t, const Node *nd, double x, double w,
                      double y)
{
  const Stacks *st = in->stacks;
  const char *name = nd->name ? nd->name : "all";
  char fill[32];
  colour(fill, sizeof fill, nd->obj, name);
  double pct = t->v[0].total ? 100.0 * (double)nd->total / (double)t->v[0].total : 0;
  fputs("<g><title>", f);
  export_xml_text(f, name, SIZE_MAX);
  fprintf(f, " (%llu sample%s, %.2f%%", (unsigned long long)nd->total, nd->total == 1 ? "" : "s", pct);
  if (nd->self && nd->self != nd->total) fprintf(f, "; %llu in itself", (unsigned long long)nd->self);
  fputs(")", f);
  if (nd->obj != NONE && nd->obj != 0) {
    fputs("\n", f);
    export_xml_text(f, st->objs[nd->obj].path, SIZE_MAX);
  }
  fprintf(f, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>", x, y, w,
          ROW - 1, fill);
  /* the name, short (C++ template arguments and parameters elided, as
     --dot draws them; the title has it whole), clipped to the box: whole,
     or cut with ".." */
  size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;
  if (fit >= 4) {                /* two characters and ".." at least */
    char *label = export_short_name(name);
    size_t len = export_xml_chars(label);
    fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + ROW - 4.5);
    if (len <= fit) {
      export_xml_text(f, label, SIZE_MAX);
    } else {
      export_xml_text(f, label, fit - 2);
      fputs("..", f);
    }
    fputs("</text>", f);
    free(label);
  }
  fputs("</g>\n", f);
}

void export_flame(FILE *f, const ExportInput *in)
{
  const Stacks *st = in->stacks;
  Tree t;
  tree_build(&t, st, in->tab);
  uint64_t total = t.v[0].total;
  unsigned rows = t.maxdepth + 1;
  int height = TOP + (int)rows * ROW + BOTTOM;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
             "viewBox=\"0 0 %d %d\">\n", W, height, W, height);
  fputs("<title>Flame graph of ", f);
  export_xml_text(f, in->program, SIZE_MAX);
  fputs("</title>\n<defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
        "<stop stop-color=\"#eeeeee\" offset=\"5%\"/><stop stop-color=\"#eeeeb0\" offset=\"95%\"/>"
        "</linearGradient></defs>\n", f);
  fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"url(#bg)\"/>\n", W, height);
  fprintf(f, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"17\">"
             "Flame graph of ", W / 2);
  export_xml_text(f, base_name(in->program), SIZE_MAX);
  fputs("</text>\n", f);
  /* what the picture holds: samples, time, stacks, and what is missing */
  uint64_t cut = 0, broken = 0;
  for (size_t s = 0; s < st->n; s++) {
    if (st->v[s].end == 't') cut += st->v[s].count;
    if (st->v[s].end == 'b') broken += st->v[s].count;
  }
  fprintf(f, "<text x=\"%d\" y=\"44\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"12\">"
             "%llu samples", W / 2, (unsigned long long)total);
  if (st->hz) fprintf(f, " (%.2f seconds at %d Hz)", (double)total / st->hz, st->hz);
  fprintf(f, " in %zu distinct stacks of %zu thread%s, at most %d frames", st->n, st->nthreads,
          st->nthreads == 1 ? "" : "s", st->depth);
  if (cut) fprintf(f, "; %llu cut at the depth", (unsigned long long)cut);
  if (broken) fprintf(f, "; %llu with a broken walk", (unsigned long long)broken);
  if (st->dropped) fprintf(f, "; %llu dropped (the table was full)", (unsigned long long)st->dropped);
  fputs("</text>\n", f);
  if (!total)
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-family=\"sans-serif\" "
               "font-size=\"12\">no samples</text>\n", W / 2, TOP + ROW - 4);
  /* the boxes, depth first; x in samples from the left */
  double scale = total ? (double)(W - 2 * XPAD) / (double)total : 0;
  unsigned char *seen = xcalloc(st->nobjs + 1, 1);
  fprintf(f, "<g font-family=\"monospace\" font-size=\"%d\">\n", FONT_SIZE);
  if (total) {
    uint64_t *off = xcalloc(t.n, sizeof *off);
    size_t *todo = xmalloc((t.n + 1) * sizeof *todo), ntodo = 0;
    todo[ntodo++] = 0;
    while (ntodo) {
      size_t i = todo[--ntodo];
      const Node *nd = &t.v[i];
      double w = (double)nd->total * scale;
      if (w < MIN_W) continue;
      double x = XPAD + (double)off[i] * scale;
      double y = TOP + (double)(t.maxdepth - nd->depth) * ROW;
      svg_frame(f, in, &t, nd, x, w, y);
      if (nd->obj != NONE) seen[nd->obj] = 1;
      uint64_t o = off[i];
      for (size_t c = 0; c < nd->nkid; c++) {
        size_t k = t.kids[nd->kid + c];
        off[k] = o;
        o += t.v[k].total;
        todo[ntodo++] = k;
      }
    }
    free(off);
    free(todo);
  }
  fputs("</g>\n", f);
  /* the legend: the objects drawn, in their colours */
  double lx = XPAD;
  int ly = height - BOTTOM + 14;
  fprintf(f, "<g font-family=\"sans-serif\" font-size=\"11\">\n");
  for (size_t k = 0; k <= st->nobjs; k++) {
    uint32_t obj = k < st->nobjs ? (uint32_t)k : NONE;
    if (k < st->nobjs && !seen[k]) continue;
    const char *label = k == 0 ? base_name(st->objs[0].path) : k < st->nobjs ? base_name(st->objs[k].path)
                                                                             : "no object";
    if (k == st->nobjs) {       /* grey only when drawn: pseudo-frames or unknown PCs */
      int any = 0;
      for (size_t i = 1; i < t.n && !any; i++) any = t.v[i].obj == NONE;
      if (!any) break;
    }
    size_t len = export_xml_chars(label);
    double need = 16 + (double)(len < 40 ? len : 40) * 6.5 + 14;
    if (lx + need > W - XPAD) {
      fprintf(f, "<text x=\"%.1f\" y=\"%d\">...</text>\n", lx, ly + 9);
      break;
    }
    const int *fm = obj_family(obj);
    fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"11\" fill=\"rgb(%d,%d,%d)\"/>", lx, ly,
            fm[0] + fm[1] / 2, fm[2] + fm[3] / 2, fm[4] + fm[5] / 2);
    fprintf(f, "<text x=\"%.1f\" y=\"%d\">", lx + 16, ly + 9);
    export_xml_text(f, label, 40);
    fputs(k == 0 ? " (program)" : "", f);
    fputs("</text>\n", f);
    lx += need + (k == 0 ? 60 : 0);
  }
  fputs("</g>\n</svg>\n", f);
  free(seen);
  tree_free(&t);
}
