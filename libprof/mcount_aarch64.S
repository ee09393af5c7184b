/* mcount_aarch64.S -- _mcount for AArch64.
 *
 * GCC's -pg passes the profiled function's return address (frompc) in x0
 * and calls with bl after the prologue, so x30 is selfpc.  The call is an
 * ordinary one for the compiler (x9-x17 are free), but the argument
 * registers x0-x8 are kept anyway.
 *
 * The fast path is x86-64's: the thread's own table (no table: C), both
 * addresses inside the text (__prof_textsize 0 while not counting, so
 * every call returns at once), key = (frompc - lowpc) << 32 | (selfpc -
 * lowpc), its hash ((key * PROF_HASH_MULT) >> 32) & mask taken as a byte
 * offset in one and-with-shift ((product >> 28) & bytemask), the home
 * slot compared and the probe going on from there; a hit adds one to the
 * 64-bit count (only this thread writes it).  An empty slot (a new arc)
 * goes to C with x0-x8 saved.  In the static archive the table comes
 * with a local-exec TLS access (the archive is only linked into
 * programs), in a shared build through the GOT (initial-exec).  Samples
 * in the stub are dropped (empty libprof$stub_map). */
#include "prof.h"
#ifdef PROF_END
/* assembled again with PROF_END: the end of libprof's code, joined after
   gmon.c's (the stubs come first, see Makefile.in) */
	.text
	.globl	libprof$text_end
	.hidden	libprof$text_end
libprof$text_end:
#else
	/* no fast path mapped: samples in the stub are dropped */
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
	mrs	x9, tpidr_el0
#ifdef LIBPROF_STATIC
	add	x9, x9, #:tprel_hi12:__prof_tab, lsl #12
	ldr	x9, [x9, #:tprel_lo12_nc:__prof_tab]	/* this thread's table */
#else
	adrp	x10, :gottprel:__prof_tab
	ldr	x10, [x10, #:gottprel_lo12:__prof_tab]
	ldr	x9, [x9, x10]				/* this thread's table */
#endif
	cbz	x9, .Lslow
	adrp	x10, __prof_lowpc
	ldr	x10, [x10, #:lo12:__prof_lowpc]
	adrp	x11, __prof_textsize
	ldr	x11, [x11, #:lo12:__prof_textsize]	/* 0 while not counting */
	sub	x12, x0, x10				/* frompc - lowpc */
	cmp	x12, x11
	b.hs	.Lret
	sub	x13, x30, x10				/* selfpc - lowpc */
	cmp	x13, x11
	b.hs	.Lret
	orr	x12, x13, x12, lsl #32			/* the key */
	ldr	x14, .Lmult
	mul	x14, x12, x14
	ldp	x10, x11, [x9, #PROF_TAB_SLOTS]		/* slots, bytemask */
	and	x14, x11, x14, lsr #28			/* the slot's byte offset */
	add	x14, x10, x14				/* the arc's home slot */
	ldp	x15, x16, [x14]
	cmp	x15, x12
	b.ne	.Lprobe
.Lhit:
	add	x16, x16, #1
	str	x16, [x14, #8]
.Lret:
	ret
.Lprobe:
	cbz	x15, .Lslow				/* an empty slot: a new arc */
	sub	x14, x14, x10				/* next slot, wrapping round */
	add	x14, x14, #16
	and	x14, x14, x11
	add	x14, x10, x14
	ldp	x15, x16, [x14]
	cmp	x15, x12
	b.ne	.Lprobe
	b	.Lhit
.Lslow:
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
	.p2align 3
.Lmult:
	.quad	PROF_HASH_MULT
	.size	_mcount, .-_mcount
#endif
	.section .note.GNU-stack,"",@progbits
