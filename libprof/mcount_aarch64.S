/* mcount_aarch64.S -- _mcount for AArch64.  GCC passes the profiled
 * function's return address (frompc) in x0 and calls with bl, so x30 is
 * selfpc.  Argument registers x0-x8 are kept. */
#include "prof.h"
#ifdef PROF_END
/* assembled again with PROF_END: the end of libprof's code, joined after
   gmon.c's (the stubs come first, see Makefile.in) */
	.text
	.globl	libprof$text_end
	.hidden	libprof$text_end
libprof$text_end:
#else
	/* no fast path to map: samples in the stub are dropped */
	.pushsection .data.rel.ro, "aw"
	.globl	libprof$stub_map
	.hidden	libprof$stub_map
	.globl	libprof$stub_map_end
	.hidden	libprof$stub_map_end
libprof$stub_map:
libprof$stub_map_end:
	.popsection
	.text
	.globl	libprof$text_begin
	.hidden	libprof$text_begin
libprof$text_begin:
	PROF_PUBLIC(_mcount)
_mcount:
	stp	x29, x30, [sp, #-96]!
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
	str	x8, [sp, #80]
	mov	x1, x30			/* selfpc; x0 already holds frompc */
	bl	libprof$mcount_slow
	ldp	x0, x1, [sp, #16]
	ldp	x2, x3, [sp, #32]
	ldp	x4, x5, [sp, #48]
	ldp	x6, x7, [sp, #64]
	ldr	x8, [sp, #80]
	ldp	x29, x30, [sp], #96
	ret
	.size	_mcount, .-_mcount
#endif
	.section .note.GNU-stack,"",@progbits
