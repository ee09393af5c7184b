/* arch/stub.h -- the preamble every stub (arch/<isa>/mcount.S) and end.S
 * share, written once: prof.h (the constants and PROF_PUBLIC), and the
 * assembler macros that declare libprof's code and entries.  Included
 * first by each; it emits nothing by itself. */
#include "../prof.h"

/* libprof$NAME: a hidden global label, what C names with PROF_SYM
   (Makefile.in localizes them in the static archive) */
.macro PROF_LABEL name
	.globl	libprof$\name
	.hidden	libprof$\name
libprof$\name:
.endm

/* The start of libprof's code: the stub comes first in its one .text,
   gmon.c's code next, end.S's label last (Makefile.in); samples there
   are dropped (prof_text_begin, prof_text_end). */
.macro STUB_BEGIN
	.text
	PROF_LABEL text_begin
.endm

/* The public entry PUB (mcount, _mcount, __fentry__: PROF_PUBLIC) and
   libprof$entry_KIND, the same address, which C points other objects'
   calls at (objects.c). */
.macro PROF_ENTRY pub, kind
	PROF_PUBLIC(\pub)
	.globl	libprof$entry_\kind
	.hidden	libprof$entry_\kind
\pub:
libprof$entry_\kind:
.endm

/* A stub that maps no stretch of its code for the sampler (x86-64's
   does: libprof$stub_map, LIBPROF_OVERHEAD=charge): an empty map,
   samples in it dropped. */
.macro STUB_NO_MAP
	.pushsection .data.rel.ro, "aw"
	PROF_LABEL stub_map
	PROF_LABEL stub_map_end
	.popsection
.endm

/* the stack is not executable */
.macro STUB_END
	.section .note.GNU-stack,"",@progbits
.endm
