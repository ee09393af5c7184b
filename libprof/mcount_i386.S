/* mcount_i386.S -- mcount for i386: selfpc is mcount's return address,
 * frompc the profiled function's (4(%ebp)).  Everything goes to C; the
 * registers a caller may still need (%eax, %ecx, %edx) are kept. */
#include "prof.h"
#ifdef PROF_END
/* assembled again with PROF_END: the end of libprof's code, joined after
   gmon.c's (the stubs come first, see Makefile.in) */
	.text
	.globl	libprof$text_end
	.hidden	libprof$text_end
libprof$text_end:
#else
	/* no fast path to map: samples in the stub are dropped */
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
	movl	12(%esp), %edx		/* selfpc */
	movl	4(%ebp), %eax		/* frompc */
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
