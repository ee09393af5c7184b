/* exports/flame.c -- folded stacks and an SVG flame graph (exports/flame.h).
 *
 * Both are drawn from one tree: the stacks of all threads merged by frame
 * name from the root down, each node holding the samples of the stacks
 * through it (total) and of those ending at it (self). */
#include <stdlib.h>
#include <string.h>
#include "exports/flame.h"
#include "stacks/stacks.h"
#include "exports/stack_views.h"

#define NONE UINT32_MAX

typedef struct {
  size_t parent;
  const char *name;             /* NULL: the root */
  uint32_t obj;                 /* the object of its first frame (NONE: none) */
  unsigned depth;               /* the root 0 */
  unsigned char kind;           /* MARK_* */
  uint64_t total, self;
  size_t kid, nkid;             /* its children: kids[kid .. kid + nkid), by name */
} Node;

/* what a node stands for: a function (or object, or PC), a mark of
   samples whose stack is not whole ([truncated], [dropped]),
   a thread (--stacks-thread=all) */
enum { MARK_NONE, MARK_MISSING, MARK_THREAD };

typedef struct {
  Node *v;
  size_t n, cap;
  size_t *slot, nslot;          /* (parent, name) -> node */
  size_t *kids;
  unsigned maxdepth;
  char **owned;                 /* names made here (thread roots) */
  size_t nowned;
} Tree;

/* How a tree is built from the stacks. */
typedef struct {
  int thread_roots;             /* each thread's stacks under "[thread ...]" */
  int marks_at_leaf;            /* the stacks are reversed (callers): a
                                   stack's [truncated] mark at its leaf */
  int thread_by_name;           /* "[thread NAME]": two runs' threads match
                                   by name (their ids differ) */
} TreeHow;

static uint64_t str_hash(const char *s)
{
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static size_t slot_of(const Tree *t, size_t parent, const char *name)
{
  return (size_t)(str_hash(name) ^ (parent * 0x9e3779b97f4a7c15ull)) & (t->nslot - 1);
}

static void grow_slots(Tree *t)
{
  size_t nn = t->nslot ? 2 * t->nslot : 1024;
  size_t *ns = xmalloc(nn * sizeof *ns);
  memset(ns, 0xff, nn * sizeof *ns);
  free(t->slot);
  t->slot = ns;
  t->nslot = nn;
  for (size_t i = 1; i < t->n; i++) {
    size_t b = slot_of(t, t->v[i].parent, t->v[i].name);
    while (ns[b] != SIZE_MAX) b = (b + 1) & (nn - 1);
    ns[b] = i;
  }
}

/* PARENT's child NAME, or SIZE_MAX. */
static size_t find_child(const Tree *t, size_t parent, const char *name)
{
  for (size_t b = slot_of(t, parent, name); t->slot[b] != SIZE_MAX; b = (b + 1) & (t->nslot - 1)) {
    const Node *c = &t->v[t->slot[b]];
    if (c->parent == parent && !strcmp(c->name, name)) return t->slot[b];
  }
  return SIZE_MAX;
}

/* PARENT's child NAME, made when new. */
static size_t child(Tree *t, size_t parent, const char *name, uint32_t obj, int kind)
{
  if (2 * (t->n + 1) > t->nslot) grow_slots(t);
  size_t b = slot_of(t, parent, name);
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
  c->kind = (unsigned char)kind;
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

/* The root of TID's stacks (--stacks-thread=all). */
static size_t thread_root(Tree *t, const Stacks *st, uint32_t tid, int by_name)
{
  char buf[300];
  stack_view_thread_label(st, tid, buf, sizeof buf);
  const char *tname = "";
  for (size_t i = 0; i < st->nthreads; i++)
    if (st->threads[i].tid == tid) tname = st->threads[i].name;
  if (by_name && *tname) snprintf(buf, sizeof buf, "[thread %s]", tname);
  if (2 * (t->n + 1) > t->nslot) grow_slots(t);
  size_t k = find_child(t, 0, buf);
  if (k != SIZE_MAX) return k;
  t->owned = xrealloc(t->owned, (t->nowned + 1) * sizeof *t->owned);
  char *name = t->owned[t->nowned++] = xmalloc(strlen(buf) + 1);
  strcpy(name, buf);
  return child(t, 0, name, NONE, MARK_THREAD);
}

static void tree_build(Tree *t, const Stacks *st, const SymTab *tab, const TreeHow *how)
{
  memset(t, 0, sizeof *t);
  t->cap = 1024;
  t->v = xmalloc(t->cap * sizeof *t->v);
  memset(&t->v[0], 0, sizeof t->v[0]);
  t->v[0].obj = NONE;
  t->n = 1;
  grow_slots(t);
  for (size_t s = 0; s < st->n; s++) {
    const Stack *sk = &st->v[s];
    size_t cur = 0;
    t->v[0].total += sk->count;
    if (how->thread_roots) {
      cur = thread_root(t, st, sk->tid, how->thread_by_name);
      t->v[cur].total += sk->count;
    }
    /* a stack that does not reach its outermost frame (cut, or a walk
       that broke off) says so */
    const char *mark = sk->end == 'c' ? NULL : STACKS_TRUNCATED;
    if (mark && !how->marks_at_leaf) {
      cur = child(t, cur, mark, NONE, MARK_MISSING);
      t->v[cur].total += sk->count;
    }
    for (uint32_t j = sk->n; j-- > 0;) {
      size_t i = sk->first + j;
      cur = child(t, cur, stacks_frame_name(st, tab, i), st->obj[i], MARK_NONE);
      t->v[cur].total += sk->count;
    }
    if (mark && how->marks_at_leaf) {
      cur = child(t, cur, mark, NONE, MARK_MISSING);
      t->v[cur].total += sk->count;
    }
    t->v[cur].self += sk->count;
  }
  /* the samples libprof could not record, so that the total is the
     program's */
  if (st->dropped) {
    size_t d = child(t, 0, STACKS_DROPPED, NONE, MARK_MISSING);
    t->v[d].total += st->dropped;
    t->v[d].self += st->dropped;
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
  for (size_t i = 0; i < t->nowned; i++) free(t->owned[i]);
  free(t->owned);
  free(t->v);
  free(t->slot);
  free(t->kids);
}

/* For each node of T, the node of B at the same path of names, or
   SIZE_MAX (a node's parent comes before it). */
static size_t *tree_match(const Tree *t, const Tree *b)
{
  size_t *m = xmalloc(t->n * sizeof *m);
  m[0] = 0;
  for (size_t i = 1; i < t->n; i++) {
    size_t p = m[t->v[i].parent];
    m[i] = p == SIZE_MAX ? SIZE_MAX : find_child(b, p, t->v[i].name);
  }
  return m;
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

/* ND's path from the root, as a folded line starts. */
static void folded_path(FILE *f, const Tree *t, const Node *nd, const Node **path)
{
  for (const Node *p = nd; p->depth > 0; p = &t->v[p->parent]) path[p->depth] = p;
  for (unsigned i = 1; i <= nd->depth; i++) {
    if (i > 1) putc(';', f);
    folded_name(f, path[i]->name);
  }
}

static void how_of(TreeHow *how, const ExportInput *in, const ExportOptions *eo)
{
  memset(how, 0, sizeof *how);
  how->thread_roots = eo->thread_roots;
  how->thread_by_name = in->base != NULL;
}

void export_folded(FILE *f, const ExportInput *in, const ExportOptions *eo)
{
  Tree t, b;
  TreeHow how;
  how_of(&how, in, eo);
  tree_build(&t, in->stacks, in->tab, &how);
  size_t *m = NULL, *bm = NULL;
  unsigned maxd = t.maxdepth;
  if (in->base) {               /* difffolded's lines: "path before after" */
    tree_build(&b, in->base->stacks, in->base->tab, &how);
    m = tree_match(&t, &b);
    bm = tree_match(&b, &t);
    if (b.maxdepth > maxd) maxd = b.maxdepth;
  }
  const Node **path = xmalloc((maxd + 2) * sizeof *path);
  /* depth first, children in name order: a node with samples of its own
     is one line, its path from the root */
  size_t *todo = xmalloc((t.n + 1) * sizeof *todo), ntodo = 0;
  todo[ntodo++] = 0;
  while (ntodo) {
    size_t i = todo[--ntodo];
    const Node *nd = &t.v[i];
    for (size_t c = nd->nkid; c-- > 0;) todo[ntodo++] = t.kids[nd->kid + c];
    uint64_t before = m && m[i] != SIZE_MAX ? b.v[m[i]].self : 0;
    if (!nd->self && !before) continue;
    folded_path(f, &t, nd, path);
    if (m) fprintf(f, " %llu", (unsigned long long)before);
    fprintf(f, " %llu\n", (unsigned long long)nd->self);
  }
  if (m) {                      /* the paths only the base has */
    for (size_t i = 1; i < b.n; i++) {
      if (!b.v[i].self || bm[i] != SIZE_MAX) continue;
      folded_path(f, &b, &b.v[i], path);
      fprintf(f, " %llu 0\n", (unsigned long long)b.v[i].self);
    }
    free(m);
    free(bm);
    tree_free(&b);
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
  BOTTOM = 50                   /* the legend, the search's share */
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

/* The script that makes the picture move (no network, no other file):
   click a frame to zoom into it (its descendants widened to the whole
   width, its ancestors kept, full width and faded, the rest hidden),
   "Reset zoom" (or Escape, or a click on the root) to go back, "Search"
   (or Ctrl-F, or ?s=REGEXP in the URL) to colour the frames whose name
   matches a regular expression and show their share of all samples
   (nested matches counted once), "Reset search" to clear it.  Each
   frame's g carries its offset and width in samples (data-o, data-n),
   its depth (data-d) and, when its box does not show it whole, its label
   (data-l). */
static const char script[] =
  "var W=1200,XPAD=10,CW=6.7,frames=[],total=0,zoomed=null,term=null;\n"
  "function byId(i){return document.getElementById(i);}\n"
  "function init(){\n"
  " var gs=document.querySelectorAll('g.f');\n"
  " for(var i=0;i<gs.length;i++){var g=gs[i],t=g.querySelector('text');\n"
  "  var ti=g.querySelector('title').textContent;\n"
  "  var f={g:g,r:g.querySelector('rect'),t:t,o:+g.getAttribute('data-o'),n:+g.getAttribute('data-n'),\n"
  "   d:+g.getAttribute('data-d'),l:g.getAttribute('data-l')||t.textContent,\n"
  "   name:ti.replace(/ \\(\\d+ samples?, [\\s\\S]*$/,'')};\n"
  "  frames.push(f);g.onclick=(function(f){return function(){if(f.d==0)reset();else zoom(f);};})(f);}\n"
  " if(frames.length)total=frames[0].n;\n"
  " byId('unzoom').onclick=reset;\n"
  " byId('search').onclick=function(){if(term!==null)clearSearch();else ask();};\n"
  " document.addEventListener('keydown',function(e){\n"
  "  if((e.ctrlKey&&e.keyCode==70)||e.key=='/'){e.preventDefault();ask();}\n"
  "  else if(e.key=='Escape'){reset();clearSearch();}});\n"
  " try{var s=new URLSearchParams(location.search).get('s');if(s)search(s);}catch(e){}\n"
  "}\n"
  "function label(f,x,w){var k=Math.floor((w-6)/CW),l=f.l;\n"
  " f.t.setAttribute('x',(x+3).toFixed(2));\n"
  " f.t.textContent=k<4?'':l.length<=k?l:l.slice(0,k-2)+'..';}\n"
  "function place(f,x,w,anc){f.g.style.display='';f.r.setAttribute('x',x.toFixed(2));\n"
  " f.r.setAttribute('width',w.toFixed(2));f.g.classList.toggle('anc',anc);label(f,x,w);}\n"
  "function zoom(z){var sc=(W-2*XPAD)/z.n;\n"
  " for(var i=0;i<frames.length;i++){var f=frames[i];\n"
  "  if(f.d>=z.d&&f.o>=z.o&&f.o+f.n<=z.o+z.n)place(f,XPAD+(f.o-z.o)*sc,f.n*sc,false);\n"
  "  else if(f.d<z.d&&f.o<=z.o&&f.o+f.n>=z.o+z.n)place(f,XPAD,W-2*XPAD,true);\n"
  "  else f.g.style.display='none';}\n"
  " zoomed=z;byId('unzoom').classList.remove('hide');}\n"
  "function reset(){var sc=total?(W-2*XPAD)/total:0;\n"
  " for(var i=0;i<frames.length;i++){var f=frames[i];place(f,XPAD+f.o*sc,f.n*sc,false);}\n"
  " zoomed=null;byId('unzoom').classList.add('hide');}\n"
  "function ask(){var s=prompt('Search for (a regular expression)',term||'');if(s)search(s);}\n"
  "function search(s){var rx;try{rx=new RegExp(s);}catch(e){byId('matched').textContent='Bad expression: '+s;return;}\n"
  " clearSearch();term=s;var iv=[],count=0;\n"
  " for(var i=0;i<frames.length;i++){var f=frames[i];\n"
  "  if(f.d>0&&rx.test(f.name)){f.g.classList.add('hl');count++;iv.push([f.o,f.n]);}}\n"
  " iv.sort(function(a,b){return a[0]-b[0]||b[1]-a[1];});\n"
  " var sum=0,end=-1;\n"
  " for(var j=0;j<iv.length;j++){if(iv[j][0]>=end){sum+=iv[j][1];end=iv[j][0]+iv[j][1];}}\n"
  " var pct=total?100*sum/total:0;\n"
  " var m=byId('matched');m.setAttribute('data-count',count);m.setAttribute('data-samples',sum);\n"
  " m.textContent='Matched: '+pct.toFixed(2)+'% ('+sum+' of '+total+' samples, '+count+' frame'+(count==1?'':'s')+')';\n"
  " byId('search').textContent='Reset search';}\n"
  "function clearSearch(){for(var i=0;i<frames.length;i++)frames[i].g.classList.remove('hl');\n"
  " term=null;var m=byId('matched');m.textContent='';m.removeAttribute('data-count');\n"
  " m.removeAttribute('data-samples');byId('search').textContent='Search';}\n";

static const char style[] =
  ".f{cursor:pointer}.f:hover>rect{stroke:#000;stroke-width:.6}\n"
  ".hl>rect{fill:rgb(230,0,230)}.anc>rect{opacity:.55}\n"
  ".btn{cursor:pointer;fill:#223;font-family:sans-serif;font-size:12px}.btn:hover{text-decoration:underline}\n"
  ".hide{display:none}\n";

/* Differences: red where the node has more samples of its own (stacks
   ending in it) after than before, blue where fewer, white where as
   many, as flamegraph.pl colours a differential graph (by the change at
   the leaf, so that a caller whose callee grew stays white and the
   change shows where it is); the deeper the colour the larger the
   change against the largest. */
static void diff_colour(char *out, size_t n, int64_t delta, uint64_t maxabs)
{
  double v = maxabs ? (double)(delta < 0 ? -delta : delta) / (double)maxabs : 0;
  int c = 250 - (int)(v * 190 + 0.5);
  if (delta > 0) snprintf(out, n, "rgb(250,%d,%d)", c, c);
  else if (delta < 0) snprintf(out, n, "rgb(%d,%d,250)", c, c);
  else snprintf(out, n, "rgb(250,250,250)");
}

typedef struct {
  const ExportInput *in;
  const Stacks *st;
  const Tree *t;
  const Tree *b;                /* the base's tree (--diff-base), or NULL */
  const size_t *m;              /* t's nodes in b */
  uint64_t btotal, maxabs;
} Picture;

static void svg_frame(FILE *f, const Picture *pic, size_t i, uint64_t off, double x, double w, double y)
{
  const Node *nd = &pic->t->v[i];
  const char *name = nd->name ? nd->name : "all";
  uint64_t total = pic->t->v[0].total;
  char fill[40];
  if (nd->kind == MARK_MISSING) snprintf(fill, sizeof fill, "url(#hatch)");
  else if (pic->b) {
    uint64_t before = pic->m[i] != SIZE_MAX ? pic->b->v[pic->m[i]].self : 0;
    diff_colour(fill, sizeof fill, (int64_t)(nd->self - before), pic->maxabs);
  } else if (nd->kind == MARK_THREAD) snprintf(fill, sizeof fill, "rgb(176,196,222)");
  else colour(fill, sizeof fill, nd->obj, name);
  double pct = total ? 100.0 * (double)nd->total / (double)total : 0;
  fprintf(f, "<g class=\"f\" data-o=\"%llu\" data-n=\"%llu\" data-d=\"%u\"", (unsigned long long)off,
          (unsigned long long)nd->total, nd->depth);
  /* the name, short (C++ template arguments and parameters elided, as
     --dot draws them; the title has it whole), clipped to the box: whole,
     or cut with ".." */
  char *label = export_short_name(name);
  size_t len = export_xml_chars(label);
  size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;
  if (fit < 4 || len > fit) {   /* the script's label when zoomed */
    fputs(" data-l=\"", f);
    export_xml_text(f, label, SIZE_MAX);
    fputs("\"", f);
  }
  fputs("><title>", f);
  export_xml_text(f, name, SIZE_MAX);
  fprintf(f, " (%llu sample%s, %.2f%%", (unsigned long long)nd->total, nd->total == 1 ? "" : "s", pct);
  if (nd->self && nd->self != nd->total) fprintf(f, "; %llu in itself", (unsigned long long)nd->self);
  if (pic->b) {
    uint64_t before = pic->m[i] != SIZE_MAX ? pic->b->v[pic->m[i]].total : 0;
    int64_t d = (int64_t)(nd->total - before);
    fprintf(f, "; before %llu sample%s, %.2f%%; %+lld", (unsigned long long)before, before == 1 ? "" : "s",
            pic->btotal ? 100.0 * (double)before / (double)pic->btotal : 0, (long long)d);
    if (before) fprintf(f, " = %+.1f%%", 100.0 * (double)d / (double)before);
    uint64_t sb = pic->m[i] != SIZE_MAX ? pic->b->v[pic->m[i]].self : 0;
    fprintf(f, "; in itself %llu before, %llu after", (unsigned long long)sb, (unsigned long long)nd->self);
  }
  fputs(")", f);
  if (nd->obj != NONE && nd->obj != 0) {
    fputs("\n", f);
    export_xml_text(f, pic->st->loads[nd->obj].path, SIZE_MAX);
  }
  fprintf(f, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>", x, y, w,
          ROW - 1, fill);
  fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + ROW - 4.5);
  if (fit >= 4) {                /* two characters and ".." at least */
    if (len <= fit) {
      export_xml_text(f, label, SIZE_MAX);
    } else {
      export_xml_text(f, label, fit - 2);
      fputs("..", f);
    }
  }
  fputs("</text></g>\n", f);
  free(label);
}

/* IN's tree as EO asks: the callers of a function (--icicle=NAME), a
   root per thread (DIFF: named by the thread's name, as another run's
   threads are). */
static void picture_tree(Tree *t, const ExportInput *in, const ExportOptions *eo, int diff)
{
  TreeHow how;
  how_of(&how, in, eo);
  how.thread_by_name = diff;
  if (!eo->icicle_callers) {
    tree_build(t, in->stacks, in->tab, &how);
    return;
  }
  Stacks cv;
  stack_view_callers(&cv, in->stacks, in->tab, eo->icicle_callers);
  how.marks_at_leaf = 1;
  tree_build(t, &cv, in->tab, &how);
  stack_view_free(&cv);
}

void export_flame(FILE *f, const ExportInput *in, const ExportOptions *eo)
{
  const Stacks *st = in->stacks;
  Tree t, b;
  picture_tree(&t, in, eo, in->base != NULL);
  Picture pic = { in, st, &t, NULL, NULL, 0, 0 };
  if (in->base) {
    picture_tree(&b, in->base, eo, 1);
    pic.b = &b;
    pic.m = tree_match(&t, &b);
    pic.btotal = b.v[0].total;
    for (size_t i = 0; i < t.n; i++) {
      uint64_t before = pic.m[i] != SIZE_MAX ? b.v[pic.m[i]].self : 0;
      uint64_t d = t.v[i].self > before ? t.v[i].self - before : before - t.v[i].self;
      if (d > pic.maxabs) pic.maxabs = d;
    }
  }
  uint64_t total = t.v[0].total;
  unsigned rows = t.maxdepth + 1;
  int height = TOP + (int)rows * ROW + BOTTOM;
  const char *what = in->base ? "Differential flame graph" : eo->icicle_callers ? "Callers" : eo->icicle
                     ? "Icicle graph" : "Flame graph";
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
             "viewBox=\"0 0 %d %d\" onload=\"init()\">\n", W, height, W, height);
  fprintf(f, "<title>%s of ", what);
  if (eo->icicle_callers) {
    export_xml_text(f, eo->icicle_callers, SIZE_MAX);
    fputs(" in ", f);
  }
  export_xml_text(f, in->program, SIZE_MAX);
  fprintf(f, "</title>\n<style type=\"text/css\"><![CDATA[\n%s]]></style>\n"
             "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n", style, script);
  fputs("<defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
        "<stop stop-color=\"#eeeeee\" offset=\"5%\"/><stop stop-color=\"#eeeeb0\" offset=\"95%\"/>"
        "</linearGradient>\n"
        "<pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e4e4e4\"/>"
        "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#a8a8a8\" stroke-width=\"3\"/></pattern></defs>\n", f);
  fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"url(#bg)\"/>\n", W, height);
  fprintf(f, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"17\">"
             "%s of ", W / 2, what);
  if (eo->icicle_callers) {
    export_xml_text(f, eo->icicle_callers, SIZE_MAX);
    fputs(" in ", f);
  }
  export_xml_text(f, base_name(in->program), SIZE_MAX);
  fputs("</text>\n", f);
  fprintf(f, "<text id=\"unzoom\" class=\"btn hide\" x=\"%d\" y=\"24\">Reset zoom</text>\n", XPAD);
  fprintf(f, "<text id=\"search\" class=\"btn\" x=\"%d\" y=\"24\" text-anchor=\"end\">Search</text>\n",
          W - XPAD);
  /* what the picture holds: samples, time, stacks, and what is missing */
  uint64_t cut = 0, broken = 0;
  for (size_t s = 0; s < st->n; s++) {
    if (st->v[s].end == 't') cut += st->v[s].count;
    if (st->v[s].end == 'b') broken += st->v[s].count;
  }
  fprintf(f, "<text x=\"%d\" y=\"44\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"12\">",
          W / 2);
  if (in->base) fputs("after: ", f);
  fprintf(f, "%llu samples", (unsigned long long)total);
  if (st->hz) fprintf(f, " (%.2f seconds at %d Hz)", (double)total / st->hz, st->hz);
  if (in->base) {
    fprintf(f, "; before: %llu samples", (unsigned long long)pic.btotal);
    if (in->base->stacks->hz)
      fprintf(f, " (%.2f seconds)", (double)pic.btotal / in->base->stacks->hz);
    fputs("; red grew, blue shrank", f);
  } else {
    fprintf(f, " in %zu distinct stacks of %zu thread%s, at most %d frames", st->n, st->nthreads,
            st->nthreads == 1 ? "" : "s", st->depth);
  }
  if (cut) fprintf(f, "; %llu cut at the depth", (unsigned long long)cut);
  if (broken) fprintf(f, "; %llu with a broken walk", (unsigned long long)broken);
  if (st->dropped) fprintf(f, "; %llu dropped (not recorded)", (unsigned long long)st->dropped);
  fputs("</text>\n", f);
  if (!total)
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-family=\"sans-serif\" "
               "font-size=\"12\">no samples</text>\n", W / 2, TOP + ROW - 4);
  /* the boxes, depth first; x in samples from the left */
  double scale = total ? (double)(W - 2 * XPAD) / (double)total : 0;
  unsigned char *seen = xcalloc(st->nloads + 1, 1);
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
      double y = TOP + (double)(eo->icicle || eo->icicle_callers ? nd->depth : t.maxdepth - nd->depth) * ROW;
      svg_frame(f, &pic, i, off[i], x, w, y);
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
  fprintf(f, "<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\" font-family=\"sans-serif\" "
             "font-size=\"12\"></text>\n", W - XPAD, height - 8);
  /* the legend: the objects drawn, in their colours */
  double lx = XPAD;
  int ly = height - BOTTOM + 14;
  fprintf(f, "<g font-family=\"sans-serif\" font-size=\"11\">\n");
  for (size_t k = 0; k <= st->nloads && !in->base; k++) {
    uint32_t obj = k < st->nloads ? (uint32_t)k : NONE;
    if (k < st->nloads && !seen[k]) continue;
    const char *label = k == 0 ? base_name(st->loads[0].path) : k < st->nloads ? base_name(st->loads[k].path)
                                                                             : "no object";
    if (k == st->nloads) {       /* grey only when drawn: pseudo-frames or unknown PCs */
      int any = 0;
      for (size_t i = 1; i < t.n && !any; i++) any = t.v[i].obj == NONE && t.v[i].kind == MARK_NONE;
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
  if (in->base) {               /* the differences' scale */
    static const char *const what2[] = { "fewer samples after", "as many", "more samples after" };
    for (int k = 0; k < 3; k++) {
      char fill[40];
      diff_colour(fill, sizeof fill, k - 1, 1);
      fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"11\" fill=\"%s\" stroke=\"#999\"/>"
                 "<text x=\"%.1f\" y=\"%d\">%s</text>\n", lx, ly, fill, lx + 16, ly + 9, what2[k]);
      lx += 160;
    }
  }
  /* the marks of samples whose stacks are not whole */
  int marks = 0;
  for (size_t i = 1; i < t.n && !marks; i++) marks = t.v[i].kind == MARK_MISSING;
  if (marks && lx + 300 < W - XPAD)
    fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"11\" fill=\"url(#hatch)\"/>"
               "<text x=\"%.1f\" y=\"%d\">stack not whole (truncated, dropped)</text>\n",
            lx, ly, lx + 16, ly + 9);
  fputs("</g>\n</svg>\n", f);
  free(seen);
  if (in->base) {
    free((void *)pic.m);
    tree_free(&b);
  }
  tree_free(&t);
}
