/* mcount_x86_64.S -- mcount and __fentry__ for x86-64.
 *
 * gcc -pg calls mcount after the prologue: the return address at 0(%rsp)
 * is in the profiled function (selfpc) and 8(%rbp) is that function's own
 * return address (frompc).  With -mfentry, __fentry__ is called before the
 * prologue: selfpc at 0(%rsp), frompc at 8(%rsp).
 *
 * The fast path counts an arc already in its home slot of the thread's
 * own table with one plain increment, clobbering only %r11 and two saved
 * registers; everything else goes to the C slow path with every argument
 * register preserved. */
#include "prof.h"

	.text

.macro PROF_FAST selfoff, fromexpr
	pushq	%rax
	pushq	%rdx
	movq	__prof_tab@gottpoff(%rip), %r11
	movq	%fs:(%r11), %r11		/* this thread's table */
	testq	%r11, %r11
	je	2f
	movq	\selfoff+16(%rsp), %rdx		/* selfpc */
	subq	__prof_lowpc(%rip), %rdx
	cmpq	__prof_textsize(%rip), %rdx
	jae	2f
	movq	\fromexpr, %rax			/* frompc */
	subq	__prof_lowpc(%rip), %rax
	cmpq	__prof_textsize(%rip), %rax
	jae	2f
	shlq	$32, %rax
	orq	%rdx, %rax			/* key */
	movabsq	$PROF_HASH_MULT, %rdx
	imulq	%rax, %rdx
	shrq	$32, %rdx
	andq	PROF_TAB_MASK(%r11), %rdx
	shlq	$4, %rdx
	addq	PROF_TAB_SLOTS(%r11), %rdx
	cmpq	(%rdx), %rax
	jne	2f
	incq	8(%rdx)				/* only this thread writes it */
	popq	%rdx
	popq	%rax
	ret
2:	/* slow path: keep every argument register; the stack is not
	   16-byte aligned at entry (callers may push before calling), so
	   align it, remembering the old one in callee-saved %rbx */
	movq	\selfoff+16(%rsp), %rax
	movq	\fromexpr, %r11
	pushq	%rbx
	movq	%rsp, %rbx
	andq	$-16, %rsp
	subq	$64, %rsp
	movq	%rcx, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdi, 16(%rsp)
	movq	%r8, 24(%rsp)
	movq	%r9, 32(%rsp)
	movq	%r10, 40(%rsp)
	movq	%rax, %rsi
	movq	%r11, %rdi
	call	__prof_mcount_slow
	movq	0(%rsp), %rcx
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdi
	movq	24(%rsp), %r8
	movq	32(%rsp), %r9
	movq	40(%rsp), %r10
	movq	%rbx, %rsp
	popq	%rbx
	popq	%rdx
	popq	%rax
	ret
.endm

	.globl	mcount
	.type	mcount, @function
mcount:
	PROF_FAST 0, 8(%rbp)
	.size	mcount, .-mcount

	.globl	_mcount
	.set	_mcount, mcount

	.globl	__fentry__
	.type	__fentry__, @function
__fentry__:
	PROF_FAST 0, 8+16(%rsp)
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack,"",@progbits
