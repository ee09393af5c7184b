/* mcount_i386.S -- mcount for i386.
 *
 * gcc -m32 -pg calls mcount after the prologue: selfpc is mcount's
 * return address, frompc the profiled function's (4(%ebp)).  Every
 * register must be kept: %eax, %edx and %ecx may hold arguments
 * (regparm, fastcall), the others are callee-saved.
 *
 * The fast path is x86-64's: the thread's own table (no table: C), both
 * addresses inside the text (__prof_textsize 0 while not counting, so
 * every call returns at once), then the 64-bit key (frompc - lowpc) << 32
 * | (selfpc - lowpc) is looked up from its home slot by linear probing
 * and its 64-bit count incremented with add/adc.  The hash is the high
 * word of the low 64 bits of key * PROF_HASH_MULT, from 32-bit halves:
 * a * MLO + b * MHI + high(b * MLO) with a = frompc - lowpc, b = selfpc -
 * lowpc (the a * MHI term lands above bit 63).  i386 has no PC-relative
 * data access: a call/pop gives the address of label 1, and the globals
 * are read relative to it.  In the static archive the table comes with
 * one local-exec access to %gs (the archive is only linked into
 * programs); a shared build goes through the GOT (initial-exec).
 * Samples in the stub are dropped (empty libprof$stub_map). */
#include "prof.h"
#define MLO (PROF_HASH_MULT & 0xffffffff)
#define MHI (PROF_HASH_MULT >> 32)
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
	PROF_PUBLIC(mcount)
mcount:
	pushl	%eax
	pushl	%ecx
	pushl	%edx
	call	1f
1:	popl	%edx				/* the address of 1 */
#ifdef LIBPROF_STATIC
	movl	%gs:__prof_tab@ntpoff, %ecx	/* this thread's table */
#define G(sym) sym-1b(%edx)
#else
	addl	$_GLOBAL_OFFSET_TABLE_+[.-1b], %edx
	movl	__prof_tab@gotntpoff(%edx), %ecx
	movl	%gs:(%ecx), %ecx		/* this thread's table */
#define G(sym) sym@GOTOFF(%edx)
#endif
	testl	%ecx, %ecx
	je	.Lslow3
	movl	4(%ebp), %eax			/* frompc */
	subl	G(__prof_lowpc), %eax
	cmpl	G(__prof_textsize), %eax	/* 0 while not counting */
	jae	.Lret3
	pushl	%ebx
	pushl	%esi
	movl	%eax, %esi			/* a: the key's high word */
	movl	20(%esp), %ebx			/* selfpc */
	subl	G(__prof_lowpc), %ebx		/* b: its low word */
	cmpl	G(__prof_textsize), %ebx
	jae	.Lret5
	movl	$MLO, %eax
	mull	%ebx				/* %edx = high(b * MLO) */
	imull	$MLO, %esi, %eax
	addl	%eax, %edx
	imull	$MHI, %ebx, %eax
	addl	%eax, %edx			/* the hash */
	shll	$4, %edx
	andl	PROF_TAB_BYTEMASK(%ecx), %edx	/* a slot's byte offset */
	addl	PROF_TAB_SLOTS(%ecx), %edx	/* the arc's home slot */
	cmpl	%ebx, (%edx)
	jne	.Lprobe
	cmpl	%esi, 4(%edx)
	jne	.Lprobe
.Lhit:
	addl	$1, 8(%edx)			/* only this thread writes it */
	adcl	$0, 12(%edx)
.Lret5:
	popl	%esi
	popl	%ebx
.Lret3:
	popl	%edx
	popl	%ecx
	popl	%eax
	ret
.Lprobe:
	movl	(%edx), %eax
	orl	4(%edx), %eax
	je	.Lslow5				/* an empty slot: a new arc */
	subl	PROF_TAB_SLOTS(%ecx), %edx	/* next slot, wrapping round */
	addl	$16, %edx
	andl	PROF_TAB_BYTEMASK(%ecx), %edx
	addl	PROF_TAB_SLOTS(%ecx), %edx
	cmpl	%ebx, (%edx)
	jne	.Lprobe
	cmpl	%esi, 4(%edx)
	jne	.Lprobe
	jmp	.Lhit
.Lslow5:
	popl	%esi
	popl	%ebx
.Lslow3:
	/* slow path: %eax, %ecx, %edx are saved; C keeps the rest */
	movl	12(%esp), %edx			/* selfpc */
	movl	4(%ebp), %eax			/* frompc */
	pushl	%edx
	pushl	%eax
	call	libprof$mcount_slow
	addl	$8, %esp
	popl	%edx
	popl	%ecx
	popl	%eax
	ret
	.size	mcount, .-mcount
	PROF_PUBLIC(_mcount)
	.set	_mcount, mcount
#endif
	.section .note.GNU-stack,"",@progbits
