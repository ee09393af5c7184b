/* mcount_i386.S -- mcount for i386: selfpc is mcount's return address,
 * frompc the profiled function's (4(%ebp)).  Everything goes to C; the
 * registers a caller may still need (%eax, %ecx, %edx) are kept. */
	.text
	.globl	mcount
	.type	mcount, @function
mcount:
	pushl	%eax
	pushl	%ecx
	pushl	%edx
	movl	12(%esp), %edx		/* selfpc */
	movl	4(%ebp), %eax		/* frompc */
	pushl	%edx
	pushl	%eax
	call	__prof_mcount_slow
	addl	$8, %esp
	popl	%edx
	popl	%ecx
	popl	%eax
	ret
	.size	mcount, .-mcount
	.globl	_mcount
	.set	_mcount, mcount
	.section .note.GNU-stack,"",@progbits
