/* exports/html.c -- the analysis as one self-contained HTML page
 * (exports/html.h).
 *
 * The data is one JSON object, written to memory first and then into a
 * <script type="application/json"> with every '<' as \u003c (so no text
 * in it, the flame graph's SVG included, can close the script).  Its
 * layout, compact for 20,000 functions and their arcs:
 *
 *   names      the label (sym_label) of every function named anywhere,
 *              by number F (the order first named)
 *   fn         per F: [index or 0, printed 0/1, cycle or 0]: what the
 *              call graph prints after the name ("<cycle N> [index]")
 *   flat       {unit, dimen, rate, seconds, rows: [[F, percent, cumulative
 *              seconds, self seconds, calls or null, self per call, total
 *              per call]]}, in the text's order, figures as the text
 *              computes them (cumulative in samples, then divided)
 *   graph      {entries: [[index, F or -1 (a cycle), cycle, percent, self,
 *              children, calls, self calls, parents, children, members]]}
 *              in print order; a line is [F, self, children, calls, the
 *              callee's calls, within] (within: the text shows the count
 *              only); a member [F, self, children, calls, self calls]
 *   objects    (--objects) [[name, functions, self seconds, calls]], the
 *              program first
 *   flame      the SVG --flame writes, when there are stacks
 *   diff       (--diff-base, both profiles with a histogram) {before:
 *              [profiles], program: the one before, rows: [[name, self
 *              seconds before, after, calls before, after]]}: --diff-flat's
 *              rows, in its order
 *
 * Numbers are the shortest text that reads back as the same double
 * (export_json_number), so the script formats the very values the text
 * report formats. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "exports/html.h"
#include "exports/flame.h"
#include "exports/diff_flat.h"
#include "sym_ids.h"
#include "source.h"

#define NUM(v) export_json_number(f, (v))
#define STR(s) export_json_string(f, (s))

typedef struct {
  FILE *f;
  const ExportInput *in;
  const ExportOptions *eo;      /* the flame graph's (its views, --icicle) */
  double hz;
  int *fid;                     /* per table symbol: its F, or -1 */
  size_t nsyms;
  const Sym **named;            /* by F */
  size_t nnamed, cap;
  Arc **arcs;
  size_t arcs_cap;
  Sym **syms;
  size_t syms_cap;
} Html;

/* S's number F, given when first named. */
static int fid_of(Html *H, const Sym *s)
{
  size_t i = (size_t)(s - H->in->tab->base);
  if (i >= H->nsyms) return -1;   /* not in the table (<indirect child>) */
  if (H->fid[i] < 0) {
    if (H->nnamed == H->cap) {
      H->cap = H->cap ? 2 * H->cap : 1024;
      H->named = xrealloc(H->named, H->cap * sizeof *H->named);
    }
    H->named[H->nnamed] = s;
    H->fid[i] = (int)H->nnamed++;
  }
  return H->fid[i];
}

static void u64(FILE *f, uint64_t v)
{
  /* past 2^53 a JavaScript number is not exact: a string then */
  if (v > ((uint64_t)1 << 53)) fprintf(f, "\"%llu\"", (unsigned long long)v);
  else fprintf(f, "%llu", (unsigned long long)v);
}

static void write_flat(Html *H)
{
  FILE *f = H->f;
  const HistSet *hs = H->in->hist;
  const SymTab *tab = H->in->tab;
  double hz = hs->hz;
  size_t n = 0, i;
  Sym **v = xmalloc((tab->len + 1) * sizeof *v);
  for (i = 0; i < tab->len; i++) {
    Sym *s = &tab->base[i];
    if (!sym_id_in_flat(s)) continue;
    if (!H->in->zeros && s->hist_time == 0 && s->ncalls == 0) continue;
    v[n++] = s;
  }
  export_flat_sort(v, n);
  double scale;
  const char *u = export_flat_call_unit(hs, tab, &scale);
  char unit[16];
  snprintf(unit, sizeof unit, "%s%c/call", u, hs->dimen_abbrev);
  double total = hs->total_samples > 0 ? hs->total_samples : 1.0;
  fputs(",\"flat\":{\"unit\":", f); STR(unit);
  fputs(",\"dimen\":", f); STR(hs->dimen);
  fputs(",\"rate\":", f); NUM(hz);
  fputs(",\"seconds\":", f); NUM(hs->total_samples / hz);
  fputs(",\"rows\":[", f);
  double cum = 0;
  for (i = 0; i < n; i++) {
    Sym *s = v[i];
    cum += s->hist_time;        /* as flat.c: in samples, divided when printed */
    fprintf(f, "%s\n[%d,", i ? "," : "", fid_of(H, s));
    NUM(100.0 * s->hist_time / total); putc(',', f);
    NUM(cum / hz); putc(',', f);
    NUM(s->hist_time / hz); putc(',', f);
    if (s->ncalls) {
      u64(f, s->ncalls); putc(',', f);
      NUM(s->hist_time * scale / hz / (double)s->ncalls); putc(',', f);
      NUM((s->hist_time + s->child_time) * scale / hz / (double)s->ncalls);
    } else {
      fputs("null,null,null", f);
    }
    putc(']', f);
  }
  fputs("]}", f);
  free(v);
}

static uint64_t calls_of(const Sym *s)
{
  return s->cycle_num ? s->cyc_head->ncalls : s->ncalls;
}

static void write_entry(Html *H, const Sym *s, double print_time)
{
  FILE *f = H->f;
  double hz = H->hz;
  fprintf(f, "\n[%d,%d,%d,", s->index, s->is_cycle ? -1 : fid_of(H, s), s->cycle_num);
  NUM(print_time > 0 ? 100.0 * (s->prop_self + s->prop_child) / print_time : 0.0); putc(',', f);
  NUM(s->prop_self / hz); putc(',', f);
  NUM(s->prop_child / hz); putc(',', f);
  u64(f, s->ncalls); putc(',', f);
  u64(f, s->self_calls);
  if (s->is_cycle) {
    fputs(",[],[],[", f);
    size_t n = export_entry_members(s, &H->syms, &H->syms_cap);
    for (size_t i = 0; i < n; i++) {
      const Sym *m = H->syms[i];
      fprintf(f, "%s[%d,", i ? "," : "", fid_of(H, m));
      NUM(m->prop_self / hz); putc(',', f);
      NUM(m->prop_child / hz); putc(',', f);
      u64(f, m->ncalls); putc(',', f);
      u64(f, m->self_calls);
      putc(']', f);
    }
    fputs("]]", f);
    return;
  }
  for (int parents = 1; parents >= 0; parents--) {
    size_t n = export_entry_arcs(s, parents, &H->arcs, &H->arcs_cap);
    fputs(",[", f);
    for (size_t i = 0; i < n; i++) {
      const Arc *a = H->arcs[i];
      const Sym *other = parents ? a->parent : a->child;
      int within = other == s || (other->cycle_num && other->cycle_num == s->cycle_num);
      fprintf(f, "%s[%d,", i ? "," : "", fid_of(H, other));
      NUM(a->time / hz); putc(',', f);
      NUM(a->child_time / hz); putc(',', f);
      u64(f, a->count); putc(',', f);
      u64(f, calls_of(a->child));
      fprintf(f, ",%d]", within);
    }
    putc(']', f);
  }
  fputs(",[]]", f);
}

static void write_graph(Html *H)
{
  FILE *f = H->f;
  const CallGraph *cg = H->in->cg;
  double print_time = export_print_time(H->in->tab);
  fputs(",\"graph\":{\"seconds\":", f);
  NUM(print_time / H->hz);
  fputs(",\"entries\":[", f);
  int first = 1;
  for (size_t i = 0; i < cg->norder; i++) {
    const Sym *s = cg->order[i];
    if (!export_entry_printed(H->in, s)) continue;
    if (!first) putc(',', f);
    first = 0;
    write_entry(H, s, print_time);
  }
  fputs("]}", f);
}

/* --objects: the program's symbols, then each other object's (objects.h:
   object k's at its own 2^40-byte span above the program's). */
static void write_objects(Html *H)
{
  FILE *f = H->f;
  const SymTab *tab = H->in->tab;
  fputs(",\"objects\":", f);
  if (!tab->nmain || tab->nmain >= tab->len) {
    fputs("null", f);
    return;
  }
  double hz = H->hz > 0 ? H->hz : 1;
  fputs("[", f);
  size_t i = 0;
  int first = 1;
  while (i < tab->len) {
    size_t j = i;
    const char *name = H->in->program;
    if (i >= tab->nmain) {
      vma_t span = tab->base[i].addr >> 40;
      while (j < tab->len && tab->base[j].addr >> 40 == span) j++;
      /* its gap row is named "[object]" */
      name = NULL;
      for (size_t k = i; k < j && !name; k++)
        if (tab->base[k].name[0] == '[') name = tab->base[k].name;
      if (!name) name = "[?]";
    } else {
      j = tab->nmain;
    }
    double t = 0;
    uint64_t calls = 0;
    size_t nf = 0;
    for (size_t k = i; k < j; k++) {
      if (tab->base[k].is_line) continue;
      t += tab->base[k].hist_time;
      calls += tab->base[k].ncalls;
      nf++;
    }
    fputs(first ? "\n[" : ",\n[", f);
    first = 0;
    STR(name);
    fprintf(f, ",%zu,", nf);
    NUM(t / hz);
    putc(',', f);
    u64(f, calls);
    putc(']', f);
    i = j;
  }
  fputs("]", f);
}

static void write_flame(Html *H)
{
  FILE *f = H->f;
  fputs(",\"flame\":", f);
  if (!H->in->stacks || !stacks_total(H->in->stacks)) {
    fputs("null", f);
    return;
  }
  char *svg = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&svg, &len);
  if (!m) msg_fatal("out of memory\n");
  export_flame(m, H->in, H->eo);
  if (fclose(m)) msg_fatal("out of memory\n");
  STR(svg);
  free(svg);
}

/* --diff-base: the flat profile's differences (diff_flat.c's rows). */
static void write_diff(Html *H)
{
  FILE *f = H->f;
  const ExportInput *in = H->in, *base = in->base;
  fputs(",\"diff\":", f);
  if (!base || !in->hist || !base->hist) {
    fputs("null", f);
    return;
  }
  fputs("{\"before\":[", f);
  for (int i = 0; i < base->nprofiles; i++) {
    if (i) putc(',', f);
    STR(base->profiles[i]);
  }
  fputs("],\"program\":", f);
  STR(base->program);
  fputs(",\"rows\":[", f);
  size_t n;
  DiffFlatRow *d = diff_flat_rows(in, &n);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ",\n[" : "\n[", f);
    STR(d[i].name); putc(',', f);
    NUM(d[i].before); putc(',', f);
    NUM(d[i].after); putc(',', f);
    u64(f, d[i].cb); putc(',', f);
    u64(f, d[i].ca); putc(']', f);
  }
  fputs("]}", f);
  free(d);
}

/* ---- annotated source: where the symbols have source lines ---- */

#define SRC_FILES 40            /* files shown, most time first */
#define SRC_CONTEXT 6           /* lines shown around each annotated one */
#define SRC_LINES 20000         /* lines shown per file, at most */
#define SRC_LINE_BYTES 400      /* a line's text, cut */

typedef struct {
  const char *path;
  int line;
  const Sym *s;
} SrcMark;

static int cmp_mark(const void *a, const void *b)
{
  const SrcMark *x = a, *y = b;
  int c = strcmp(x->path, y->path);
  if (c) return c;
  return (x->line > y->line) - (x->line < y->line);
}

typedef struct {
  size_t from, to;              /* its marks */
  double t;                     /* samples */
} SrcFile;

static int cmp_file_time(const void *a, const void *b)
{
  const SrcFile *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? 1 : -1;
  return (x->from > y->from) - (x->from < y->from);
}

/* One file: its annotated lines and SRC_CONTEXT lines around each, as
   [line, self seconds or null, calls or null, F of the function starting
   there or -1, text]; lines of no mark have only [line, text]. */
static void write_source_file(Html *H, const SrcMark *m, size_t n, FILE *src)
{
  FILE *f = H->f;
  int last = m[n - 1].line;
  char *buf = NULL;
  size_t cap = 0;
  ssize_t len;
  int ln = 0, shown = 0, first = 1;
  size_t k = 0;                 /* the next mark at or after LN */
  while (shown < SRC_LINES && ln < last + SRC_CONTEXT && (len = getline(&buf, &cap, src)) >= 0) {
    ln++;
    while (k < n && m[k].line < ln) k++;
    int near = (k < n && m[k].line - ln <= SRC_CONTEXT) || (k > 0 && ln - m[k - 1].line <= SRC_CONTEXT);
    if (!near) continue;
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r')) buf[--len] = 0;
    if (len > SRC_LINE_BYTES) buf[SRC_LINE_BYTES] = 0;
    fprintf(f, "%s[%d,", first ? "" : ",", ln);
    first = 0;
    if (k < n && m[k].line == ln) {
      double t = 0;
      uint64_t calls = 0;
      int fid = -1;
      for (size_t j = k; j < n && m[j].line == ln; j++) {
        t += m[j].s->hist_time;
        if (!m[j].s->is_line) {
          calls += m[j].s->ncalls;
          if (fid < 0) fid = fid_of(H, m[j].s);
        }
      }
      if (H->hz > 0) NUM(t / H->hz); else fputs("null", f);
      putc(',', f);
      if (calls) u64(f, calls); else fputs("null", f);
      fprintf(f, ",%d,", fid);
    }
    STR(buf);
    putc(']', f);
    shown++;
  }
  free(buf);
}

static void write_source(Html *H)
{
  FILE *f = H->f;
  const SymTab *tab = H->in->tab;
  fputs(",\"source\":", f);
  SrcMark *m = xmalloc((tab->len + 1) * sizeof *m);
  size_t n = 0;
  for (size_t i = 0; i < tab->len; i++) {
    const Sym *s = &tab->base[i];
    if (s->hist_time <= 0 && !s->ncalls) continue;
    if (!H->in->hist && !s->ncalls) continue;
    const char *path = src_sym_path(tab, s);
    int line = src_sym_line(tab, s);
    if (!path || line <= 0) continue;
    m[n++] = (SrcMark){ path, line, s };
  }
  if (!n) {
    fputs("null", f);
    free(m);
    return;
  }
  qsort(m, n, sizeof *m, cmp_mark);
  SrcFile *files = xmalloc((n + 1) * sizeof *files);
  size_t nf = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    double t = 0;
    while (j < n && !strcmp(m[j].path, m[i].path)) t += m[j++].s->hist_time;
    files[nf++] = (SrcFile){ i, j, t };
    i = j;
  }
  qsort(files, nf, sizeof *files, cmp_file_time);
  putc('[', f);
  int first = 1;
  size_t shown = 0;
  for (size_t i = 0; i < nf && shown < SRC_FILES; i++) {
    const SrcMark *fm = m + files[i].from;
    FILE *src = src_open(fm->path, H->in->src_dirs);
    if (!src) continue;         /* (a file not found: left out, as -A does) */
    fprintf(f, "%s\n{\"path\":", first ? "" : ",");
    first = 0;
    STR(fm->path);
    fputs(",\"seconds\":", f);
    if (H->hz > 0) NUM(files[i].t / H->hz); else fputs("null", f);
    fputs(",\"lines\":[", f);
    write_source_file(H, fm, files[i].to - files[i].from, src);
    fputs("]}", f);
    fclose(src);
    shown++;
  }
  putc(']', f);
  free(files);
  free(m);
}

/* The functions named, by F. */
static void write_names(Html *H)
{
  FILE *f = H->f;
  fputs(",\"names\":[", f);
  for (size_t i = 0; i < H->nnamed; i++) {
    if (i) putc(',', f);
    if (i % 8 == 0) putc('\n', f);
    STR(sym_label(H->in->tab, H->named[i]));
  }
  fputs("],\"fn\":[", f);
  for (size_t i = 0; i < H->nnamed; i++) {
    const Sym *s = H->named[i];
    fprintf(f, "%s[%d,%d,%d]", i ? "," : "", s->index, s->print_flag, s->cycle_num);
  }
  putc(']', f);
}

static void write_data(Html *H)
{
  FILE *f = H->f;
  const ExportInput *in = H->in;
  fputs("{\"program\":", f); STR(in->program);
  fputs(",\"profiles\":[", f);
  for (int i = 0; i < in->nprofiles; i++) {
    if (i) putc(',', f);
    STR(in->profiles[i]);
  }
  putc(']', f);
  if (in->hist) write_flat(H);
  else fputs(",\"flat\":null", f);
  if (in->cg) write_graph(H);
  else fputs(",\"graph\":null", f);
  write_objects(H);
  write_flame(H);
  write_diff(H);
  write_source(H);
  write_names(H);
  fputs("}", f);
}

/* The page, style and script (exports/html_page.html), as it is: the
   assembler puts the file's bytes here (made where the source is built:
   the Makefile builds in the source directory), a NUL after them. */
extern const char export_html_page[];
__asm__(".pushsection .rodata\n"
        ".type export_html_page, %object\n"
        "export_html_page:\n"
        ".incbin \"exports/html_page.html\"\n"
        ".byte 0\n"
        ".size export_html_page, . - export_html_page\n"
        ".popsection\n");

/* The page with the title and the data where its DATA line is. */
void export_html(FILE *f, const ExportInput *in, const ExportOptions *eo)
{
  Html H;
  memset(&H, 0, sizeof H);
  H.in = in;
  H.eo = eo;
  H.hz = in->hist ? in->hist->hz : 0.0;
  H.nsyms = in->tab->len + in->tab->ntail;
  H.fid = xmalloc((H.nsyms + 1) * sizeof *H.fid);
  memset(H.fid, 0xff, (H.nsyms + 1) * sizeof *H.fid);
  char *data = NULL;
  size_t len = 0;
  H.f = open_memstream(&data, &len);
  if (!H.f) msg_fatal("out of memory\n");
  write_data(&H);
  if (fclose(H.f)) msg_fatal("out of memory\n");
  static const char mark[] = "<!--DATA-->\n";
  const char *cut = strstr(export_html_page, mark);
  if (!cut) msg_fatal("--html: the page has no DATA line\n");   /* a build error */
  fwrite(export_html_page, 1, (size_t)(cut - export_html_page), f);
  fputs("<title>", f);
  export_xml_text(f, in->program, SIZE_MAX);
  fputs(" - gprof</title>\n", f);
  fputs("<script type=\"application/json\" id=\"gprof-data\">", f);
  /* no '<' in the script's text: nothing in it ends it */
  for (size_t i = 0; i < len;) {
    char *lt = memchr(data + i, '<', len - i);
    size_t n = lt ? (size_t)(lt - data) - i : len - i;
    fwrite(data + i, 1, n, f);
    i += n;
    if (lt) {
      fputs("\\u003c", f);
      i++;
    }
  }
  fputs("</script>\n", f);
  fputs(cut + sizeof mark - 1, f);
  free(data);
  free(H.fid);
  free(H.named);
  free(H.arcs);
  free(H.syms);
}
