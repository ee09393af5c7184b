/* Unit test: --dot's short names (export_short_name) and the wrapping of
   labels (export_dot_wrapped): templates and parameter lists elided,
   operators, lambdas, anonymous namespaces and clones kept, lines within
   the width and nothing lost at the breaks.
// objs: util/util.o
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exports/common.c"

/* what exports/common.c calls elsewhere in the analyzer */
int cg_entry_printed(const Sym *s, int zeros, int line) { (void)s; (void)zeros; (void)line; return 1; }
const char *sym_print_name(const SymTab *tab, const Sym *s) { (void)tab; return s->name; }
const char *sym_label(const SymTab *tab, const Sym *s) { (void)tab; return s->name; }
void flat_sort(Sym **v, size_t n) { (void)v; (void)n; }
const char *flat_call_unit(const HistSet *hs, const SymTab *tab, double *scale)
{ (void)hs; (void)tab; *scale = 1; return ""; }
size_t cg_entry_arcs(const Sym *s, int parents, Arc ***v, size_t *cap)
{ (void)s; (void)parents; (void)v; (void)cap; return 0; }
size_t cg_entry_members(const Sym *cyc, Sym ***v, size_t *cap) { (void)cyc; (void)v; (void)cap; return 0; }

static int bad, n;

static void check(const char *full, const char *want)
{
  char *got = export_short_name(full);
  n++;
  if (strcmp(got, want)) {
    bad++;
    printf("short name of\n  %s\nis\n  %s\nnot\n  %s\n", full, got, want);
  }
  free(got);
}

/* wraps S at W and checks the lines' lengths and that joining them gives
   S back (escaping aside: S has no characters DOT escapes) */
static void check_wrap(const char *s, size_t w, int want_lines)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  size_t last = export_dot_wrapped(f, s, w);
  fclose(f);
  n++;
  char *joined = calloc(1, len + 1);
  int lines = 1;
  size_t col = 0, maxcol = 0;
  for (char *p = buf; *p; p++) {
    if (p[0] == '\\' && p[1] == 'n') {
      lines++; p++;
      if (col > maxcol) maxcol = col;
      col = 0;
      continue;
    }
    strncat(joined, p, 1);
    col += ((unsigned char)*p & 0xc0) != 0x80;
  }
  if (col > maxcol) maxcol = col;
  if (strcmp(joined, s) || maxcol > w || last != col || (want_lines && lines != want_lines)) {
    bad++;
    printf("wrapping at %zu of\n  %s\ngave %d lines, longest %zu, last %zu:\n  %s\n", w, s, lines, maxcol, last, buf);
  }
  free(joined);
  free(buf);
}

int main(void)
{
  check("main", "main");
  check("std::vector<int, std::allocator<int> >::push_back(int const&)", "std::vector<…>::push_back(…)");
  check("foo()", "foo()");
  check("geom::Square::area() const", "geom::Square::area() const");
  check("void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, int const&)",
        "std::vector<…>::_M_realloc_insert<…>(…)");
  check("std::map<std::string, double, std::less<std::string>, std::allocator<std::pair<std::string const, double> > > stats::histogram<std::string, double>(std::vector<std::string> const&, std::function<double (std::string const&)>)",
        "stats::histogram<…>(…)");
  check("(anonymous namespace)::even(int)", "(anonymous namespace)::even(…)");
  check("stats::Ranked<int, std::less<int> >::operator<(stats::Ranked<int, std::less<int> > const&) const",
        "stats::Ranked<…>::operator<(…) const");
  check("stats::Ranked<int, std::less<int> >::operator()(unsigned long) const",
        "stats::Ranked<…>::operator()(…) const");
  check("bool operator< <int>(A<int> const&, A<int> const&)", "operator< <…>(…)");
  check("operator<<(std::ostream&, A const&)", "operator<<(…)");
  check("A::operator>>=(int)", "A::operator>>=(…)");
  check("A::operator->() const", "A::operator->() const");
  check("A::operator<=>(A const&) const", "A::operator<=>(…) const");
  check("operator new(unsigned long)", "operator new(…)");
  check("operator delete[](void*)", "operator delete[](…)");
  check("A::operator unsigned long() const", "A::operator unsigned long() const");
  check("main::{lambda(int)#1}::operator()(int) const", "main::{lambda(…)#1}::operator()(…) const");
  check("std::_Function_handler<double (std::string const&), main::{lambda(std::string const&)#3}>::_M_invoke(std::_Any_data const&, std::string const&)",
        "std::_Function_handler<…>::_M_invoke(…)");
  check("void stats::Ranked<int>::sort_by<main::{lambda(int)#1}>(main::{lambda(int)#1})::{lambda(int const&, int const&)#1}::operator()(int const&, int const&) const",
        "stats::Ranked<…>::sort_by<…>(…)::{lambda(…)#1}::operator()(…) const");
  check("main::<lambda(int)>::operator()(int) const", "main::<lambda(…)>::operator()(…) const");
  check("foo(int) [clone .constprop.0]", "foo(…) [clone .constprop.0]");
  check("void foo<int>(int) [clone .isra.0]", "foo<…>(…) [clone .isra.0]");
  check("std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_construct<char*>(char*, char*, std::forward_iterator_tag) [clone .isra.0]",
        "std::__cxx11::basic_string<…>::_M_construct<…>(…) [clone .isra.0]");
  check("{unnamed type#1}::f()", "{unnamed type#1}::f()");
  check("operator\"\" _kmy(unsigned long long)", "operator\"\" _kmy(…)");
  check("spin.constprop.0", "spin.constprop.0");
  check("broken<(int", "broken<(int");        /* unbalanced: kept */
  check("f(a->b)", "f(…)");
  check("<spontaneous>", "<spontaneous>");
  check("<indirect child>", "<indirect child>");
  check("<html>&amp;{x}|y", "<html>&amp;{x}|y");
  check("A<(B>2)>::g()", "A<…>::g()");

  check_wrap("short", 40, 1);
  check_wrap("std::vector<…>::_M_realloc_insert<…>(…)", 40, 1);
  check_wrap("std::__cxx11::basic_string<…>::_M_construct<…>(…) [clone .isra.0]", 40, 2);
  check_wrap("stats::Ranked<…>::sort_by<…>(…)::{lambda(…)#1}::operator()(…) const", 40, 0);
  check_wrap("(anonymous namespace)::Tokenizer::words[abi:cxx11]() const", 40, 0);
  check_wrap("an_identifier_much_longer_than_the_width_of_forty_characters_of_a_line", 40, 2);
  check_wrap("a::b::c", 3, 3);
  check_wrap("", 40, 1);
  printf("%d of %d checks failed\n", bad, n);
  return bad != 0;
}
