/* mcount_x86_64.S -- mcount and __fentry__ for x86-64.
 *
 * gcc -pg calls mcount after the prologue: the return address at 0(%rsp)
 * is in the profiled function (selfpc) and 8(%rbp) is that function's own
 * return address (frompc).  With -mfentry, __fentry__ is called before the
 * prologue: selfpc at 0(%rsp), frompc at 8(%rsp).
 *
 * The fast path counts an arc already in its home slot with one locked
 * increment, clobbering only %r11 and two saved registers; everything else
 * goes to the C slow path with every argument register preserved. */
#include "prof.h"

	.text

.macro PROF_FAST selfoff, fromexpr
	pushq	%rax
	pushq	%rdx
	movq	__prof_thread_ready@gottpoff(%rip), %r11
	cmpb	$0, %fs:(%r11)
	je	2f
	movq	\selfoff+16(%rsp), %rdx		/* selfpc */
	movq	\fromexpr, %rax			/* frompc */
	movq	__prof_lowpc(%rip), %r11
	subq	%r11, %rdx
	subq	%r11, %rax
	movq	__prof_textsize(%rip), %r11
	cmpq	%r11, %rdx
	jae	2f
	cmpq	%r11, %rax
	jae	2f
	shlq	$32, %rax
	orq	%rdx, %rax			/* key */
	movabsq	$PROF_HASH_MULT, %rdx
	imulq	%rax, %rdx
	shrq	$32, %rdx
	andq	__prof_mask(%rip), %rdx
	shlq	$4, %rdx
	addq	__prof_table(%rip), %rdx
	cmpq	(%rdx), %rax
	jne	2f
	lock incq 8(%rdx)
	popq	%rdx
	popq	%rax
	ret
2:	/* slow path: keep every argument register */
	movq	\selfoff+16(%rsp), %rax
	movq	\fromexpr, %r11
	subq	$56, %rsp
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
	addq	$56, %rsp
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
