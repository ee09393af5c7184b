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
 * key and adds one with a plain increment, clobbering only %r11 and two
 * saved registers.  A call from outside the text (a callback from a
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

/* P names the copy's labels; the table after it says, for each stretch
   of the fast path, how far below the stack pointer at entry the
   interrupted stack pointer is, so the sampling handler can find selfpc
   and charge the sample to the function that called mcount. */
.macro PROF_FAST p, selfoff, fromexpr
.L\p\()_d0:
	pushq	%rax
.L\p\()_d8:
	pushq	%rdx
.L\p\()_d16:
	movq	__prof_tab@gottpoff(%rip), %r11
	movq	%fs:(%r11), %r11		/* this thread's table */
	testq	%r11, %r11
	je	2f
	movq	\selfoff+16(%rsp), %rdx		/* selfpc */
	subq	__prof_lowpc(%rip), %rdx
	cmpq	__prof_textsize(%rip), %rdx
	jae	3f
	movq	\fromexpr, %rax			/* frompc */
	subq	__prof_lowpc(%rip), %rax
	cmpq	__prof_textsize(%rip), %rax
	jae	3f
	shlq	$32, %rax
	orq	%rdx, %rax			/* key */
	movabsq	$PROF_HASH_MULT, %rdx
	imulq	%rax, %rdx
	shrq	$32, %rdx
	andq	PROF_TAB_MASK(%r11), %rdx
	shlq	$4, %rdx
	addq	PROF_TAB_SLOTS(%r11), %rdx	/* the arc's home slot */
1:	cmpq	(%rdx), %rax
	jne	4f
	incq	8(%rdx)				/* only this thread writes it */
3:	popq	%rdx
.L\p\()_r8:
	popq	%rax
.L\p\()_r0:
	ret
.L\p\()_probe:
4:	cmpq	$0, (%rdx)
	je	2f				/* a new arc */
	addq	$16, %rdx			/* next slot, wrapping round */
	cmpq	PROF_TAB_END(%r11), %rdx
	jb	1b
	movq	PROF_TAB_SLOTS(%r11), %rdx
	jmp	1b
.L\p\()_slow:
2:	/* slow path: keep every argument register; the stack is not
	   16-byte aligned at entry (callers may push before calling), so
	   align it, remembering the old one in callee-saved %rbx */
	movq	\selfoff+16(%rsp), %rax
	movq	\fromexpr, %r11
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
	popq	%rdx
	popq	%rax
	ret
	.pushsection .data.rel.ro, "aw"
	.quad	.L\p\()_d0, .L\p\()_d8, \selfoff
	.quad	.L\p\()_d8, .L\p\()_d16, \selfoff+8
	.quad	.L\p\()_d16, .L\p\()_r8, \selfoff+16
	.quad	.L\p\()_r8, .L\p\()_r0, \selfoff+8
	.quad	.L\p\()_r0, .L\p\()_probe, \selfoff
	.quad	.L\p\()_probe, .L\p\()_slow, \selfoff+16
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
	PROF_FAST mc, 0, 8(%rbp)
	.size	mcount, .-mcount

	PROF_PUBLIC(_mcount)
	.set	_mcount, mcount

	PROF_PUBLIC(__fentry__)
__fentry__:
	PROF_FAST fe, 0, 8+16(%rsp)
	.size	__fentry__, .-__fentry__

	.pushsection .data.rel.ro, "aw"
	.globl	libprof$stub_map_end
	.hidden	libprof$stub_map_end
libprof$stub_map_end:
	.popsection

#endif
	.section .note.GNU-stack,"",@progbits
