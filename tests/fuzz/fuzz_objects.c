/* fuzz_objects.c -- --objects on a profile's folder made from the input
 * (libprof's PROFILE.objects/: the manifest and the objects' files), with
 * a stack file beside it at times, then what the driver does with them:
 * the objects' symbols (their ELF tables read directly), their profiles
 * read (and -s's sum written), the settle, their arcs in the call graph,
 * the reports; with a stack file the stacks too (--folded,
 * --stack-times), whose objects meet the manifest's.
 *
 * The input: a flags byte (bit 0: -s, bit 1: -z, bit 2: no demangling,
 * bit 3: with arcs kept), then the manifest, then any number of files,
 * each "\n@@NAME\n" and its bytes: NAME in the folder (letters, digits,
 * '.', '-', '_'; "." and ".." are not made), "p.stacks" the stack file
 * beside the profile, "|NAME" a FIFO of that name (its bytes unused),
 * "NAME>TARGET" a symbolic link.  In the manifest, the stack file and a
 * link's target,
 * "@D" is the scratch directory (the profile is @D/p) and "@T" the
 * suite's tests/ directory (the fuzzer runs in tests/fuzz), so that seeds
 * can name the suite's programs (@T/cases/multi/bin) by many spellings. */
#include "fuzz.h"               /* (first: _GNU_SOURCE, for memmem) */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gmon_io.h"
#include "sym_ids.h"
#include "stacks/objects.h"
#include "stacks/stacks.h"
#include "reports/stack_times.h"
#include "analysis/propagate.h"
#include "cg_print.h"
#include "reports/flat.h"
#include "exports/export.h"
#include "exports/flame.h"

static char dir[256], tests[4096], prof[300], folder[320], stackf[320], sum[300], sumdir[320];

static void empty_dir(const char *d)
{
  DIR *dp = opendir(d);
  if (!dp) return;
  struct dirent *e;
  char p[1024];
  while ((e = readdir(dp))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", d, e->d_name);
    if (unlink(p) != 0) rmdir(p);
  }
  closedir(dp);
}

/* S (N bytes) with @D and @T replaced, NUL-terminated (the bytes after
   a NUL are kept: the reader must stop there itself). *LEN: its length. */
static char *expand(const uint8_t *s, size_t n, size_t *len)
{
  size_t dl = strlen(dir), tl = strlen(tests), cap = n + 1, k = 0;
  for (size_t i = 0; i + 1 < n; i++)
    if (s[i] == '@' && (s[i + 1] == 'D' || s[i + 1] == 'T')) cap += (dl > tl ? dl : tl);
  char *o = malloc(cap);
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '@' && i + 1 < n && (s[i + 1] == 'D' || s[i + 1] == 'T')) {
      const char *r = s[i + 1] == 'D' ? dir : tests;
      memcpy(o + k, r, strlen(r));
      k += strlen(r);
      i++;
      continue;
    }
    o[k++] = (char)s[i];
  }
  o[k] = 0;
  *len = k;
  return o;
}

static int name_ok(const char *s, size_t n)
{
  if (!n || n > 64 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.')) return 0;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')
          || s[i] == '.' || s[i] == '-' || s[i] == '_'))
      return 0;
  return 1;
}

/* PATH made with N bytes B, unless it is there already (a name made
   twice, or a link or FIFO of that name: the first stays). */
static void put(const char *path, const void *b, size_t n)
{
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return;
  if (n && write(fd, b, n) != (ssize_t)n) abort();
  close(fd);
}

/* One file of the input: NAME's line, then its bytes. */
static void make_file(const uint8_t *p, size_t n)
{
  const uint8_t *nl = memchr(p, '\n', n);
  size_t nlen = nl ? (size_t)(nl - p) : n;
  const uint8_t *body = nl ? nl + 1 : p + n;
  size_t blen = (size_t)(p + n - body);
  char name[70], path[512];
  if (nlen > 1 && p[0] == '|' && name_ok((const char *)p + 1, nlen - 1)) {
    snprintf(path, sizeof path, "%s/%.*s", folder, (int)nlen - 1, (const char *)p + 1);
    mkfifo(path, 0600);
    return;
  }
  const uint8_t *gt = memchr(p, '>', nlen);
  if (gt) {
    size_t a = (size_t)(gt - p);
    if (!name_ok((const char *)p, a)) return;
    size_t tl;
    char *t = expand(gt + 1, nlen - a - 1, &tl);
    snprintf(path, sizeof path, "%s/%.*s", folder, (int)a, (const char *)p);
    if (symlink(t, path) != 0) { /* (already there: the first stays) */ }
    free(t);
    return;
  }
  if (!name_ok((const char *)p, nlen)) return;
  snprintf(name, sizeof name, "%.*s", (int)nlen, (const char *)p);
  if (!strcmp(name, "p.stacks")) {
    size_t el;
    char *e = expand(body, blen, &el);
    put(stackf, e, el);
    free(e);
  } else {
    snprintf(path, sizeof path, "%s/%s", folder, name);
    put(path, body, blen);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1) return 0;
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "/tmp/fuzz_objects.%d", (int)getpid());
    if (!getcwd(tests, sizeof tests - 4)) abort();
    strcat(tests, "/..");
    snprintf(prof, sizeof prof, "%s/p", dir);
    snprintf(folder, sizeof folder, "%s/p.objects", dir);
    snprintf(stackf, sizeof stackf, "%s/p.stacks", dir);
    snprintf(sum, sizeof sum, "%s/sum", dir);
    snprintf(sumdir, sizeof sumdir, "%s/sum.objects", dir);
    mkdir(dir, 0700);
  }
  empty_dir(folder);
  empty_dir(sumdir);
  unlink(stackf);
  mkdir(folder, 0700);
  unsigned sel = data[0];
  data++, size--;
  Options *o = fuzz_options();
  o->want_sum = sel & 1;
  o->zeros = (sel >> 1) & 1;
  o->demangle = !((sel >> 2) & 1);
  o->keep_arcs = (sel >> 3) & 1;

  /* the manifest: up to the first "\n@@", then the files */
  const uint8_t *end = data + size, *p = data;
  const uint8_t *sep = memmem(p, size, "\n@@", 3);
  size_t ml;
  char *man = expand(p, sep ? (size_t)(sep - p) + 1 : size, &ml);
  char mpath[400];
  snprintf(mpath, sizeof mpath, "%s/manifest", folder);
  int files = 0;
  while (sep && files++ < 32) {
    p = sep + 3;
    sep = memmem(p, (size_t)(end - p), "\n@@", 3);
    make_file(p, (size_t)((sep ? sep : end) - p));
  }
  put(mpath, man, ml);          /* (unless the files made one) */
  free(man);

  SymTab tab;
  SymSpecs specs;
  Profile pr;
  Objects objs;
  Stacks stk;
  StackTimes times;
  fuzz_symtab(&tab, 16, 0x1000, 0x40);
  tab.opts.demangle = o->demangle;
  sym_id_init(&specs);
  memset(&objs, 0, sizeof objs);
  memset(&stk, 0, sizeof stk);
  memset(&times, 0, sizeof times);
  gmon_init(&pr, 8, 0);
  char *pf[] = { prof };
  GmonOptions go = { .keep_arcs = o->want_sum || o->keep_arcs, .use_bb = o->want_sum };
  jmp_buf env;
  if (!setjmp(env)) {
    util_fatal_trap(&env, 1);
    objects_load(&objs, &tab, pf, 1);
    if (access(stackf, F_OK) == 0) stacks_load(&stk, &objs, &tab, pf, 1);
    sym_id_parse(&specs, &tab);
    if (objects_present(&objs) && o->want_sum) objects_want_sum(&objs);
    if (objects_present(&objs) && objects_read_hist(&objs, &pr.hist, 8, 0, &go)) pr.have_hist = 1;
    if (objects_present(&objs) && o->want_sum) objects_write_sum(&objs, sum);
    if (pr.have_hist) hist_assign_samples(&pr.hist, &tab);
    if (objects_present(&objs)) objects_settle(&objs, &tab);
    if (objects_present(&objs) && objects_add_arcs(&objs, &pr.cg, o->keep_arcs ? &pr.arc_recs : NULL, &tab, &specs))
      pr.have_arcs = 1;
    if (pr.have_arcs) cg_assemble(&pr.cg, &tab);
    if (stk.present) {
      stacks_resolve(&stk, &tab);
      stack_times_compute(&times, &stk, pr.have_arcs ? &pr.cg : NULL, pr.hist.hz);
    }
    if (pr.have_hist) flat_print(&pr.hist, &tab, o);
    if (pr.have_arcs) {
      cg_print(&pr.cg, &tab, pr.hist.hz, hist_granularity_bytes(&pr.hist), o);
      cg_print_index(&pr.cg, &tab, o);
    }
    if (stk.present) {
      stack_times_print(&times, &tab, "p.stacks", o->zeros);
      ExportInput in;
      memset(&in, 0, sizeof in);
      in.program = "fuzz";
      in.tab = &tab;
      in.stacks = &stk;
      FILE *out = fopen("/dev/null", "w");
      ExportOptions eo;
      export_options_init(&eo);
      export_folded(out, &in, &eo);
      fclose(out);
    }
  }
  util_fatal_trap(NULL, 0);
  stack_times_free(&times);
  stacks_free(&stk);
  gmon_free(&pr);
  sym_id_free(&specs);
  tab.len += tab.ntail;         /* (the stacks' objects' symbols too) */
  /* the objects' function names are made for them (their gap symbols'
     are the objects', which objects_free frees) */
  for (size_t i = 16; tab.base && i < tab.len; i++)
    if (tab.base[i].is_func) free((void *)tab.base[i].name);
  fuzz_symtab_free(&tab, 0);
  objects_free(&objs);
  return 0;
}
