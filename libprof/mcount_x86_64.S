/* mcount_x86_64.S -- mcount and __fentry__ for x86-64.
 *
 * gcc -pg calls mcount after the prologue: the return address at 0(%rsp)
 * is in the profiled function (selfpc) and 8(%rbp) is that function's own
 * return address (frompc).  With -mfentry, __fentry__ is called before the
 * prologue: selfpc at 0(%rsp), frompc at 8(%rsp).  Either way the
 * caller's argument registers (integer and vector) are still live.
 *
 * The fast path handles every call of an arc already seen by this thread:
 * it probes the thread's own table from the arc's hash until it finds the
 * key and adds one with a plain increment, clobbering only %r10 and %r11
 * (gcc saves %r10, the static chain, around the call) and one saved
 * register.  A call from outside the text (a callback from a
 * shared library) is ignored here too, as it would be in C.  Only a
 * thread's first call (no table yet) and an arc's first call (an empty
 * slot reached) go to the C slow path, with every argument register
 * preserved.  Profiling off (__prof_textsize 0) makes every address look
 * out of range, so such calls return at once. */
#include "prof.h"
#ifdef PROF_END
/* assembled again with PROF_END: the end of libprof's code, joined after
   gmon.c's (the stubs come first, see Makefile.in) */
	.text
	.globl	libprof$text_end
	.hidden	libprof$text_end
libprof$text_end:
#else

	.text
	.globl	libprof$text_begin
	.hidden	libprof$text_begin
libprof$text_begin:

/* The fast path, in \p's copy: %r10 and %r11 are free (gcc pushes %r10,
   the static chain, around the call itself), %rax is saved for the
   hash.  The table comes first (no table: C, which makes one), then
   frompc and selfpc must fall inside the text, then the home slot is
   compared, the probe going on from there.  In the static archive the
   table is read with one local-exec access (the archive is only linked
   into programs), in libprof.so through the GOT (initial-exec).
   \from0 and \from8 give frompc with nothing and with %rax pushed.
   The table after it says, for each stretch of the fast path, how far
   below the stack pointer at entry the interrupted stack pointer is, so
   the sampling handler can find selfpc and charge the sample to the
   function that called mcount. */
.macro PROF_FAST p, selfoff, from0, from8
.L\p\()_d0:
#ifdef LIBPROF_STATIC
	movq	%fs:__prof_tab@tpoff, %r11	/* this thread's table */
#else
	movq	__prof_tab@gottpoff(%rip), %r11
	movq	%fs:(%r11), %r11		/* this thread's table */
#endif
	testq	%r11, %r11
	je	.L\p\()_slow0
	movq	\from0, %r10			/* frompc */
	subq	__prof_lowpc(%rip), %r10
	cmpq	__prof_textsize(%rip), %r10	/* 0 while not counting */
	jae	.L\p\()_r0
	pushq	%rax
.L\p\()_d8:
	movq	\selfoff+8(%rsp), %rax		/* selfpc */
	subq	__prof_lowpc(%rip), %rax
	cmpq	__prof_textsize(%rip), %rax
	jae	.L\p\()_r8
	shlq	$32, %r10
	orq	%rax, %r10			/* key */
	movabsq	$PROF_HASH_MULT, %rax
	imulq	%r10, %rax
	shrq	$28, %rax			/* the hash, times 16 ... */
	andq	PROF_TAB_BYTEMASK(%r11), %rax	/* ... masked: a byte offset */
	addq	PROF_TAB_SLOTS(%r11), %rax	/* the arc's home slot */
	cmpq	%r10, (%rax)
	jne	.L\p\()_probe
	incq	8(%rax)				/* only this thread writes it */
.L\p\()_r8:
	popq	%rax
.L\p\()_r0:
	ret
.L\p\()_probe:
	cmpq	$0, (%rax)
	je	.L\p\()_slow8			/* a new arc */
	subq	PROF_TAB_SLOTS(%r11), %rax	/* next slot, wrapping round */
	addq	$16, %rax
	andq	PROF_TAB_BYTEMASK(%r11), %rax
	addq	PROF_TAB_SLOTS(%r11), %rax
	cmpq	%r10, (%rax)
	jne	.L\p\()_probe
	incq	8(%rax)
	popq	%rax
	ret
.L\p\()_slow0:
	pushq	%rax
.L\p\()_slow8:
	/* slow path: keep every argument register; the stack is not
	   16-byte aligned at entry (callers may push before calling), so
	   align it, remembering the old one in callee-saved %rbx */
	movq	\selfoff+8(%rsp), %rax
	movq	\from8, %r11
	pushq	%rbx
	movq	%rsp, %rbx
	andq	$-16, %rsp
	subq	$192, %rsp
	movq	%rcx, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdi, 16(%rsp)
	movq	%r8, 24(%rsp)
	movq	%r9, 32(%rsp)
	movq	%r10, 40(%rsp)
	movq	%rdx, 48(%rsp)
	movaps	%xmm0, 64(%rsp)			/* the C code and libc may use them */
	movaps	%xmm1, 80(%rsp)
	movaps	%xmm2, 96(%rsp)
	movaps	%xmm3, 112(%rsp)
	movaps	%xmm4, 128(%rsp)
	movaps	%xmm5, 144(%rsp)
	movaps	%xmm6, 160(%rsp)
	movaps	%xmm7, 176(%rsp)
	movq	%rax, %rsi
	movq	%r11, %rdi
	call	libprof$mcount_slow
	movq	0(%rsp), %rcx
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdi
	movq	24(%rsp), %r8
	movq	32(%rsp), %r9
	movq	40(%rsp), %r10
	movq	48(%rsp), %rdx
	movaps	64(%rsp), %xmm0
	movaps	80(%rsp), %xmm1
	movaps	96(%rsp), %xmm2
	movaps	112(%rsp), %xmm3
	movaps	128(%rsp), %xmm4
	movaps	144(%rsp), %xmm5
	movaps	160(%rsp), %xmm6
	movaps	176(%rsp), %xmm7
	movq	%rbx, %rsp
	popq	%rbx
	popq	%rax
	ret
	.pushsection .data.rel.ro, "aw"
	.quad	.L\p\()_d0, .L\p\()_d8, \selfoff
	.quad	.L\p\()_d8, .L\p\()_r0, \selfoff+8
	.quad	.L\p\()_r0, .L\p\()_probe, \selfoff
	.quad	.L\p\()_probe, .L\p\()_slow0, \selfoff+8
	.quad	.L\p\()_slow0, .L\p\()_slow8, \selfoff
	.popsection
.endm

	.pushsection .data.rel.ro, "aw"
	.p2align 3
	.globl	libprof$stub_map
	.hidden	libprof$stub_map
libprof$stub_map:
	.popsection

	PROF_PUBLIC(mcount)
mcount:
	PROF_FAST mc, 0, 8(%rbp), 8(%rbp)
	.size	mcount, .-mcount

	PROF_PUBLIC(_mcount)
	.set	_mcount, mcount

	PROF_PUBLIC(__fentry__)
__fentry__:
	PROF_FAST fe, 0, 8(%rsp), 16(%rsp)
	.size	__fentry__, .-__fentry__

	.pushsection .data.rel.ro, "aw"
	.globl	libprof$stub_map_end
	.hidden	libprof$stub_map_end
libprof$stub_map_end:
	.popsection

#endif
	.section .note.GNU-stack,"",@progbits
