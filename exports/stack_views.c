/* stack_views.c -- views of the sampled stacks (stack_views.h). */
#include <stdlib.h>
#include <string.h>
#include "exports/stack_views.h"
#include "exports/common.h"
#include "util/util.h"

int stack_view_active(const StackViewOptions *o)
{
  return (o->threads && strcmp(o->threads, "all")) || o->nfocus || o->nhide;
}

int stack_view_thread_roots(const StackViewOptions *o)
{
  return o->threads && !strcmp(o->threads, "all");
}

int stack_view_matches(const char *name, const char *pattern)
{
  if (!strcmp(name, pattern)) return 1;
  /* the name without its parameter list: up to the '(' that opens the
     last top-level parenthesis pair ending the name (or followed by
     " const" ...) */
  size_t plen = strlen(pattern);
  if (!strncmp(name, pattern, plen) && name[plen] == '(') return 1;
  /* the short name, and that without its "<…>" and its last "(…)" */
  char *s = export_short_name(name);
  int m = !strcmp(s, pattern);
  if (!m) {
    static const char ell[] = "<\xe2\x80\xa6>";
    char *p;
    while ((p = strstr(s, ell))) memmove(p, p + sizeof ell - 1, strlen(p + sizeof ell - 1) + 1);
    size_t n = strlen(s);
    if (n >= 2 && !strcmp(s + n - 2, "()")) s[n - 2] = 0;
    else if (n >= 5 && !strcmp(s + n - 5, "(\xe2\x80\xa6)")) s[n - 5] = 0;
    m = !strcmp(s, pattern);
  }
  free(s);
  return m;
}

static int matches_any(const char *name, const char **pat, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (stack_view_matches(name, pat[i])) return 1;
  return 0;
}

/* Is TID one of the threads the list names? */
static int thread_chosen(const StackViewOptions *o, const Stacks *st, uint32_t tid)
{
  if (!o->threads || !strcmp(o->threads, "all")) return 1;
  const char *name = "";
  for (size_t i = 0; i < st->nthreads; i++)
    if (st->threads[i].tid == tid) name = st->threads[i].name;
  const char *p = o->threads;
  while (*p) {
    size_t n = strcspn(p, ",");
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    if ((size_t)(end - p) == n && n && v == tid) return 1;
    if (n && *name && strlen(name) == n && !strncmp(name, p, n)) return 1;
    p += n;
    if (*p) p++;
  }
  return 0;
}

void stack_view_check(const StackViewOptions *o, const Stacks *in)
{
  if (!o->threads || !strcmp(o->threads, "all")) return;
  const char *p = o->threads;
  while (*p) {
    size_t n = strcspn(p, ",");
    int found = 0;
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    for (size_t i = 0; i < in->nthreads && !found; i++)
      found = ((size_t)(end - p) == n && n && v == in->threads[i].tid) ||
              (n && strlen(in->threads[i].name) == n && !strncmp(in->threads[i].name, p, n));
    for (size_t i = 0; i < in->n && !found; i++)   /* a thread with stacks but no name line */
      found = (size_t)(end - p) == n && n && v == in->v[i].tid;
    if (!found) msg_fatal("--stacks-thread: no thread `%.*s' in the stack file\n", (int)n, p);
    p += n;
    if (*p) p++;
  }
}

/* OUT starts as IN without stacks or frames. */
static void view_init(Stacks *out, const Stacks *in, size_t nframes)
{
  *out = *in;
  out->reader = NULL;
  out->v = xmalloc((in->n + 1) * sizeof *out->v);
  out->n = 0;
  nframes++;
  out->pc = xmalloc(nframes * sizeof *out->pc);
  out->obj = xmalloc(nframes * sizeof *out->obj);
  out->addr = xmalloc(nframes * sizeof *out->addr);
  out->sym = xmalloc(nframes * sizeof *out->sym);
  out->gap = xmalloc(nframes * sizeof *out->gap);
  out->pcname = xmalloc(nframes * sizeof *out->pcname);
  out->nframes = 0;
}

/* Appends IN's frame I to OUT. */
static void copy_frame(Stacks *out, const Stacks *in, size_t i)
{
  size_t j = out->nframes++;
  out->pc[j] = in->pc[i];
  out->obj[j] = in->obj[i];
  out->addr[j] = in->addr[i];
  out->sym[j] = in->sym ? in->sym[i] : NULL;
  out->gap[j] = in->gap ? in->gap[i] : 0;
  out->pcname[j] = in->pcname ? in->pcname[i] : NULL;
}

void stack_view_make(Stacks *out, const Stacks *in, const SymTab *tab, const StackViewOptions *o)
{
  view_init(out, in, in->nframes);
  /* the samples not recorded are of no known thread or function */
  if ((o->threads && strcmp(o->threads, "all")) || o->nfocus) out->dropped = 0;
  unsigned char *hidden = xmalloc(in->nframes + 1);
  for (size_t s = 0; s < in->n; s++) {
    const Stack *sk = &in->v[s];
    if (!thread_chosen(o, in, sk->tid)) continue;
    int through = o->nfocus == 0;
    uint32_t kept = 0;
    for (uint32_t j = 0; j < sk->n; j++) {
      const char *name = stacks_frame_name(in, tab, sk->first + j);
      if (!through) through = matches_any(name, o->focus, o->nfocus);
      hidden[j] = o->nhide && matches_any(name, o->hide, o->nhide);
      kept += !hidden[j];
    }
    if (!through) continue;
    if (!kept) hidden[sk->n - 1] = 0;   /* the outermost stays */
    Stack *ns = &out->v[out->n++];
    *ns = *sk;
    ns->first = out->nframes;
    for (uint32_t j = 0; j < sk->n; j++)
      if (!hidden[j]) copy_frame(out, in, sk->first + j);
    ns->n = (uint32_t)(out->nframes - ns->first);
  }
  free(hidden);
}

size_t stack_view_callers(Stacks *out, const Stacks *in, const SymTab *tab, const char *name)
{
  view_init(out, in, in->nframes);
  out->dropped = 0;
  for (size_t s = 0; s < in->n; s++) {
    const Stack *sk = &in->v[s];
    uint32_t j = 0;
    while (j < sk->n && !stack_view_matches(stacks_frame_name(in, tab, sk->first + j), name)) j++;
    if (j == sk->n) continue;
    Stack *ns = &out->v[out->n++];
    *ns = *sk;
    ns->first = out->nframes;
    /* leaf first: the old root first, NAME's frame last */
    for (uint32_t k = sk->n; k-- > j;) copy_frame(out, in, sk->first + k);
    ns->n = sk->n - j;
  }
  return out->n;
}

const char *stack_view_thread_label(const Stacks *st, uint32_t tid, char *buf, size_t n)
{
  const char *name = "";
  for (size_t i = 0; i < st->nthreads; i++)
    if (st->threads[i].tid == tid) name = st->threads[i].name;
  if (*name) snprintf(buf, n, "[thread %lu %s]", (unsigned long)tid, name);
  else snprintf(buf, n, "[thread %lu]", (unsigned long)tid);
  return buf;
}

void stack_view_free(Stacks *v)
{
  free(v->v);
  free(v->pc);
  free(v->obj);
  free(v->addr);
  free(v->sym);
  free(v->gap);
  free(v->pcname);
  memset(v, 0, sizeof *v);
}
