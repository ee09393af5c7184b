/* mcount_x86_64.S -- mcount and __fentry__ for x86-64.
 *
 * gcc -pg calls mcount after the prologue: the return address at 0(%rsp)
 * is in the profiled function (selfpc) and 8(%rbp) is that function's own
 * return address (frompc).  With -mfentry, __fentry__ is called before the
 * prologue: selfpc at 0(%rsp), frompc at 8(%rsp).
 *
 * The fast path counts an arc already in its home slot with one locked
 * increment, clobbering only %r11 and one saved register; everything else
 * goes to the C slow path with every argument register preserved. */
#include "prof.h"

	.text

.macro PROF_FAST selfoff, fromexpr
	pushq	%rax
	movq	__prof_thread_ready@gottpoff(%rip), %r11
	cmpb	$0, %fs:(%r11)
	je	2f
	movq	\selfoff+8(%rsp), %r11		/* selfpc */
	subq	__prof_lowpc(%rip), %r11
	cmpq	__prof_textsize(%rip), %r11
	jae	2f
	movq	\fromexpr, %rax			/* frompc */
	subq	__prof_lowpc(%rip), %rax
	cmpq	__prof_textsize(%rip), %rax
	jae	2f
	shlq	$32, %rax
	orq	%r11, %rax			/* key */
	movabsq	$PROF_HASH_MULT, %r11
	imulq	%rax, %r11
	shrq	$32, %r11
	andq	__prof_mask(%rip), %r11
	shlq	$4, %r11
	addq	__prof_table(%rip), %r11
	cmpq	(%r11), %rax
	jne	2f
	lock incq 8(%r11)
	popq	%rax
	ret
2:	/* slow path: keep every argument register */
	movq	\selfoff+8(%rsp), %rax
	movq	\fromexpr, %r11
	subq	$64, %rsp
	movq	%rcx, 0(%rsp)
	movq	%rdx, 8(%rsp)
	movq	%rsi, 16(%rsp)
	movq	%rdi, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%r10, 48(%rsp)
	movq	%rax, %rsi
	movq	%r11, %rdi
	call	__prof_mcount_slow
	movq	0(%rsp), %rcx
	movq	8(%rsp), %rdx
	movq	16(%rsp), %rsi
	movq	24(%rsp), %rdi
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %r10
	addq	$64, %rsp
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
	PROF_FAST 0, 8+8(%rsp)
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack,"",@progbits
