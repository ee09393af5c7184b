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
 * (gcc saves %r10, the static chain, around the call).  A call from outside the text (a callback from a
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

/* The fast path, in \p's copy, uses only %r10 and %r11 (gcc pushes
   %r10, the static chain, around the call itself): both addresses must
   fall inside the text (__prof_textsize is 0 while not counting, all
   ones before start-up, so that the first call reaches C), the key is
   built in %r10, its hash times 16 in %r11 with a 32-bit multiplier, and
   the thread's slots and byte mask are read straight from the thread's
   own copy of them (`__prof_cur`, see prof.h): a thread without a table
   has a mask of 0 over one empty slot, so it reaches the C slow path
   like any new arc.  18 instructions for a counted call in the static
   archive, whose TLS access is local-exec (it is only linked into
   programs); libprof.so reaches the TLS block through the GOT
   (initial-exec), which needs %rax, saved.  \from gives frompc at entry.
   The table after it says, for each stretch, how far below the stack
   pointer at entry the interrupted stack pointer is, so the sampling
   handler can find selfpc (LIBPROF_OVERHEAD=charge). */
/* \reg = thread's slots + (\reg & thread's byte mask) */
#ifdef LIBPROF_STATIC
.macro TLS_SLOT reg
	andq	%fs:__prof_cur@tpoff+PROF_CUR_BYTEMASK, \reg
	addq	%fs:__prof_cur@tpoff+PROF_CUR_SLOTS, \reg
.endm
.macro TLS_OP op, field, reg
	\op	%fs:__prof_cur@tpoff+\field, \reg
.endm
#else
.macro TLS_SLOT reg
	pushq	%rax
	movq	__prof_cur@gottpoff(%rip), %rax
	andq	%fs:PROF_CUR_BYTEMASK(%rax), \reg
	addq	%fs:PROF_CUR_SLOTS(%rax), \reg
	popq	%rax
.endm
.macro TLS_OP op, field, reg
	pushq	%rax
	movq	__prof_cur@gottpoff(%rip), %rax
	\op	%fs:\field(%rax), \reg
	popq	%rax
.endm
#endif
.macro PROF_FAST p, from
.L\p\()_d0:
	movq	\from, %r10			/* frompc */
	subq	__prof_lowpc(%rip), %r10
	cmpq	__prof_textsize(%rip), %r10
	jae	.L\p\()_ret
	movq	(%rsp), %r11			/* selfpc */
	subq	__prof_lowpc(%rip), %r11
	cmpq	__prof_textsize(%rip), %r11
	jae	.L\p\()_ret
	shlq	$32, %r10
	orq	%r11, %r10			/* key */
	imulq	$PROF_HASH_MULT, %r10, %r11
	shrq	$28, %r11			/* the hash, times 16 ... */
	TLS_SLOT %r11				/* ... masked: the arc's home slot */
	cmpq	%r10, (%r11)
	jne	.L\p\()_probe
	incq	8(%r11)				/* only this thread writes it */
.L\p\()_ret:
	ret
.L\p\()_probe:
	cmpq	$0, (%r11)
	je	.L\p\()_slow			/* a new arc, or no table */
	TLS_OP	subq, PROF_CUR_SLOTS, %r11	/* next slot, wrapping round */
	addq	$16, %r11
	TLS_SLOT %r11
	cmpq	%r10, (%r11)
	jne	.L\p\()_probe
	incq	8(%r11)
	ret
.L\p\()_slow:
	pushq	%rax
.L\p\()_d8:
	/* slow path: keep every argument register; the stack is not
	   16-byte aligned at entry (callers may push before calling), so
	   align it, remembering the old one in callee-saved %rbx */
	movq	8(%rsp), %rax			/* selfpc */
	movq	\from, %r11
	.ifc	\from, 8(%rsp)
	movq	16(%rsp), %r11			/* frompc, past the push */
	.endif
	pushq	%rbx
.L\p\()_d16:
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
.L\p\()_r8:
	popq	%rax
.L\p\()_r0:
	ret
	.pushsection .data.rel.ro, "aw"
	/* libprof.so's TLS_OP pushes %rax for one instruction: a sample
	   there finds the wrong word and is dropped as out of the text */
	.quad	.L\p\()_d0, .L\p\()_d8, 0
	.quad	.L\p\()_d8, .L\p\()_d16, 8
	.quad	.L\p\()_r8, .L\p\()_r0, 8
	.quad	.L\p\()_r0, .L\p\()_r0 + 1, 0
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
	PROF_FAST mc, 8(%rbp)
	.size	mcount, .-mcount

	PROF_PUBLIC(_mcount)
	.set	_mcount, mcount

	PROF_PUBLIC(__fentry__)
__fentry__:
	PROF_FAST fe, 8(%rsp)
	.size	__fentry__, .-__fentry__

	.pushsection .data.rel.ro, "aw"
	.globl	libprof$stub_map_end
	.hidden	libprof$stub_map_end
libprof$stub_map_end:
	.popsection

#endif
	.section .note.GNU-stack,"",@progbits
