/* arch/aarch64/mcount.S -- _mcount for AArch64.
 *
 * GCC's -pg passes the profiled function's return address (frompc) in x0
 * and calls with bl after the prologue, so x30 is selfpc.  The call is an
 * ordinary one for the compiler (x9-x17 are free), but the argument
 * registers x0-x8 are kept anyway.
 *
 * The fast path is x86-64's: both addresses inside the text
 * (__prof_textsize 0 while not counting, so every call returns at once,
 * and before the thread's TLS may be read), the thread's own table (no
 * table: C), key = (frompc - lowpc) << 32 | (selfpc -
 * lowpc), its hash (prof.h's: (v * PROF_HASH_MULT) >> 32) & mask taken as a byte
 * offset in one and-with-shift ((product >> 28) & bytemask), the home
 * slot compared and the probe going on from there; a hit adds one to the
 * 64-bit count (only this thread writes it).  An empty slot (a new arc)
 * goes to C with x0-x8 saved.  In the static archive the table comes
 * with a local-exec TLS access (the archive is only linked into
 * programs), in a shared build through the GOT (initial-exec).  Samples
 * in the stub are dropped (empty libprof$stub_map). */
#include "../stub.h"
	STUB_NO_MAP				/* samples in the stub are dropped */
	STUB_BEGIN
/* x9 = this thread's table (or 0) */
.macro TAB
	mrs	x9, tpidr_el0
#ifdef LIBPROF_STATIC
	add	x9, x9, #:tprel_hi12:__prof_tab, lsl #12
	ldr	x9, [x9, #:tprel_lo12_nc:__prof_tab]
#else
	adrp	x10, :gottprel:__prof_tab
	ldr	x10, [x10, #:gottprel_lo12:__prof_tab]
	ldr	x9, [x9, x10]
#endif
.endm
/* The key in x12 counted in the table at x9 (x10, x11, x14-x16 used):
   its home slot compared, a hit counted and returned; another key there
   goes to \p's probe (PROBE, out of line). */
.macro COUNT p
	adr	x14, .Lmult
	ldp	x14, x15, [x14]				/* PROF_KEY_MULT, PROF_HASH_MULT */
	lsr	x16, x12, #32
	madd	x16, x16, x14, x12			/* v (prof.h) */
	mul	x14, x16, x15
	ldp	x10, x11, [x9, #PROF_TAB_SLOTS]		/* slots, bytemask */
	and	x14, x11, x14, lsr #28			/* the slot's byte offset */
	add	x14, x10, x14				/* the arc's home slot */
	ldp	x15, x16, [x14]
	cmp	x15, x12
	b.ne	.L\p\()_probe
.L\p\()_hit:
	add	x16, x16, #1
	str	x16, [x14, #8]
	ret
.endm
/* The probe on from the slot at x14: the key found goes back to \p's
   hit, an empty slot (a new arc) to \slow. */
.macro PROBE p, slow
.L\p\()_probe:
	cbz	x15, \slow				/* an empty slot: a new arc */
	sub	x14, x14, x10				/* next slot, wrapping round */
	add	x14, x14, #16
	and	x14, x14, x11
	add	x14, x10, x14
	ldp	x15, x16, [x14]
	cmp	x15, x12
	b.ne	.L\p\()_probe
	b	.L\p\()_hit
.endm
/* To C (\fn) with x0-x8 kept; x1-x3 set by \a1-\a3 (x0 holds frompc) */
.macro TO_C fn, a1, a2, a3
	stp	x29, x30, [sp, #-96]!
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
	str	x8, [sp, #80]
	mov	x1, \a1
	mov	x2, \a2
	mov	x3, \a3
	bl	\fn
	ldp	x0, x1, [sp, #16]
	ldp	x2, x3, [sp, #32]
	ldp	x4, x5, [sp, #48]
	ldp	x6, x7, [sp, #64]
	ldr	x8, [sp, #80]
	ldp	x29, x30, [sp], #96
	ret
.endm

	PROF_ENTRY _mcount, mc
	adrp	x10, __prof_lowpc
	ldr	x10, [x10, #:lo12:__prof_lowpc]
	adrp	x11, __prof_textsize
	ldr	x11, [x11, #:lo12:__prof_textsize]	/* 0 while not counting */
	sub	x12, x0, x10				/* frompc - lowpc */
	cmp	x12, x11
	b.hs	.Lout
	sub	x13, x30, x10				/* selfpc - lowpc */
	cmp	x13, x11
	b.hs	.Lout2
	TAB					/* (not before: see .Lout) */
	cbz	x9, .Lslow
	orr	x12, x13, x12, lsl #32			/* the key */
	COUNT	m
	PROBE	m, .Lslow
	/* an address outside the program's text: returns at once unless
	   other objects are counted (__prof_other); then a callee in
	   another object goes to C, a callee in the program (a callback
	   from a library) returns, as before.  The text's size is checked
	   before the thread's table is read: it is 0 until the process is
	   ready (count.c), when an IFUNC resolver's call may come before
	   the thread has TLS (tpidr_el0 unset in a static program).
	   Counting, a thread without a table goes to C even from outside
	   the text (a thread's start routine), which attaches it, as when
	   the table was read first. */
.Lout:
	cbz	x11, .Lret				/* not counting */
	sub	x13, x30, x10
	TAB
	cbz	x9, .Lslow
	adrp	x14, __prof_other
	ldr	x14, [x14, #:lo12:__prof_other]
	cbz	x14, .Lret
	cmp	x13, x11
	b.lo	.Lret
	b	.Lslow
.Lout2:
	TAB
	cbz	x9, .Lslow
	adrp	x14, __prof_other
	ldr	x14, [x14, #:lo12:__prof_other]
	cbnz	x14, .Lslow
.Lret:
	ret
.Lslow:
	TO_C	libprof$mcount_slow, x30, x2, x3	/* selfpc; x0 already holds frompc */
	.size	_mcount, .-_mcount

/* The library path (LIBPROF_OBJECTS=1, objects.c), entered from the
   trampoline of a -pg shared object with its number t in x9 (free: the
   call is an ordinary one).  Its entry in __prof_libent gives the
   callee's code (selfpc - delta) and the caller's: its offset in the
   object plus the object's first code, or its offset in the program
   (the program's codes).  The key is probed for as in _mcount.  A
   caller anywhere else (a third object, a callback from the C library)
   goes to C with key 0 and the entry, which finds its object in the
   map.  Counting off (__prof_other 0): returns at once. */
	PROF_LABEL lib_mc
.Llib_mc:
	adrp	x10, __prof_other
	ldr	x10, [x10, #:lo12:__prof_other]
	cbz	x10, .Llret
	adrp	x10, __prof_libent
	add	x10, x10, #:lo12:__prof_libent
	add	x17, x10, x9, lsl #PROF_LIB_SHIFT	/* the callee's object */
	ldp	x10, x11, [x17, #PROF_LIB_LO]		/* lo, size */
	sub	x12, x0, x10				/* frompc */
	cmp	x12, x11
	b.hs	.Llout
	ldr	x10, [x17, #PROF_LIB_CBASE]
	add	x12, x12, x10				/* the caller's code */
.Llkey:
	ldr	x10, [x17, #PROF_LIB_DELTA]
	sub	x13, x30, x10				/* selfpc's code */
	orr	x12, x13, x12, lsl #32			/* the key */
	TAB
	cbz	x9, .Llslow
	COUNT	l
	PROBE	l, .Llslow
.Llout:						/* the caller is outside the object */
	adrp	x10, __prof_lowpc
	ldr	x10, [x10, #:lo12:__prof_lowpc]
	adrp	x11, __prof_textsize
	ldr	x11, [x11, #:lo12:__prof_textsize]
	sub	x12, x0, x10
	cmp	x12, x11
	b.lo	.Llkey					/* in the program */
	mov	x12, #0					/* elsewhere: C places it */
.Llslow:					/* x12 = the key or 0, x17 = the object */
	TO_C	libprof$lib_slow, x30, x12, x17
.Llret:
	ret

/* PROF_TRAMPS trampolines, PROF_TRAMP_SIZE bytes each from
   libprof$tramp_mc: the t-th gives t to the library path. */
	.p2align 3
	PROF_LABEL tramp_mc
	.set	.Lt, 0
	.rept	PROF_TRAMPS
	mov	x9, #.Lt
	b	.Llib_mc
	.set	.Lt, .Lt + 1
	.endr

	.p2align 3
.Lmult:
	.quad	PROF_KEY_MULT, PROF_HASH_MULT
	STUB_END
