/* arch/i386/mcount.S -- mcount for i386.
 *
 * gcc -m32 -pg calls mcount after the prologue: selfpc is mcount's
 * return address, frompc the profiled function's (4(%ebp)).  Every
 * register must be kept: %eax, %edx and %ecx may hold arguments
 * (regparm, fastcall), the others are callee-saved.
 *
 * The fast path is x86-64's: frompc inside the text (__prof_textsize 0
 * while not counting, so every call returns at once, and before the
 * thread's TLS may be read), the thread's own table (no table: C), selfpc
 * inside the text, then the 64-bit key (frompc - lowpc) << 32
 * | (selfpc - lowpc) is looked up from its home slot by linear probing
 * and its 64-bit count incremented with add/adc.  The hash (prof.h) is
 * the high word of v * PROF_HASH_MULT, v = a * PROF_KEY_MULT + key with
 * a = frompc - lowpc, b = selfpc - lowpc, from 32-bit halves: v's words
 * from a * PROF_KEY_MULT (one mull) plus b and a (add/adc), then
 * low(v_hi * MULT) + high(v_lo * MULT) (an imul and a mull, the first
 * kept on the stack meanwhile).  i386 has no PC-relative
 * data access: a call/pop gives the address of label 1, and the globals
 * are read relative to it.  In the static archive the table comes with
 * one local-exec access to %gs (the archive is only linked into
 * programs); a shared build goes through the GOT (initial-exec).
 * Samples in the stub are dropped (empty libprof$stub_map). */
#include "../stub.h"
	STUB_NO_MAP				/* samples in the stub are dropped */
	STUB_BEGIN
/* The arc (a << 32 | b, a in %esi, b in %ebx) in the table at %ecx:
   its home slot compared, a hit counted, falling through to what follows;
   another key there goes to \p's probe (PROBE32, out of line).
   Clobbers %eax and %edx. */
.macro COUNT32 p
	movl	$PROF_KEY_MULT, %eax
	mull	%esi				/* a * PROF_KEY_MULT */
	addl	%ebx, %eax			/* + (a << 32 | b): v's low word ... */
	adcl	%esi, %edx			/* ... and high word */
	imull	$PROF_HASH_MULT, %edx, %edx	/* low(v_hi * MULT) ... */
	pushl	%edx
	movl	$PROF_HASH_MULT, %edx
	mull	%edx				/* ... + high(v_lo * MULT): */
	popl	%eax
	addl	%eax, %edx			/* the hash (prof.h) */
	shll	$4, %edx
	andl	PROF_TAB_BYTEMASK(%ecx), %edx	/* a slot's byte offset */
	addl	PROF_TAB_SLOTS(%ecx), %edx	/* the arc's home slot */
	cmpl	%ebx, (%edx)
	jne	.L\p\()_probe
	cmpl	%esi, 4(%edx)
	jne	.L\p\()_probe
.L\p\()_hit:
	addl	$1, 8(%edx)			/* only this thread writes it */
	adcl	$0, 12(%edx)
.endm
/* The probe from the slot at %edx on: the key found goes back to \p's
   hit, an empty slot (a new arc) to \slow. */
.macro PROBE32 p, slow
.L\p\()_probe:
	movl	(%edx), %eax
	orl	4(%edx), %eax
	je	\slow				/* an empty slot: a new arc */
	subl	PROF_TAB_SLOTS(%ecx), %edx	/* next slot, wrapping round */
	addl	$16, %edx
	andl	PROF_TAB_BYTEMASK(%ecx), %edx
	addl	PROF_TAB_SLOTS(%ecx), %edx
	cmpl	%ebx, (%edx)
	jne	.L\p\()_probe
	cmpl	%esi, 4(%edx)
	jne	.L\p\()_probe
	jmp	.L\p\()_hit
.endm
/* %edx = the address of the label 1 that follows; in a shared build
   then the GOT's */
.macro BASE
	call	1f
1:	popl	%edx
#ifndef LIBPROF_STATIC
	addl	$_GLOBAL_OFFSET_TABLE_+[.-1b], %edx
#endif
.endm
/* %ecx = this thread's table (%edx from BASE) */
.macro TAB
#ifdef LIBPROF_STATIC
	movl	%gs:__prof_tab@ntpoff, %ecx
#else
	movl	__prof_tab@gotntpoff(%edx), %ecx
	movl	%gs:(%ecx), %ecx
#endif
.endm
#ifdef LIBPROF_STATIC
#define G(sym) sym-1b(%edx)
#define G4(sym) sym+4-1b(%edx)
#define GI(sym, r) sym-1b(%edx, r)
#else
#define G(sym) sym@GOTOFF(%edx)
#define G4(sym) sym@GOTOFF+4(%edx)
#define GI(sym, r) sym@GOTOFF(%edx, r)
#endif
/* mcount reads its caller's return address through the caller's frame
   pointer, 4(%ebp): a caller without one (clang gives a -pg IFUNC
   resolver none, and a -pg library's resolver runs when the loader
   binds it lazily, %ebp being the loader's) would make that read fault.
   Where another object's call can arrive (the library path, and the
   entry the C library's mcount is sent to: the program's own calls have
   frame pointers) %ebp must lie above the stack pointer within
   PROF_FP_SPAN (prof.h), else the call goes to .Lnofp (%eax, %ecx, %edx
   pushed, %edx from BASE), which counts it in __prof_nofp (said at
   exit: calls not counted) and returns.  (Above, compared first: with
   the stack near the top of 4 GB, a %ebp of 0 is less than 1 GB
   "above" it modulo 2^32.)  \r: a free register. */
.macro FP_CHECK r
	cmpl	%esp, %ebp
	jbe	.Lnofp
	movl	%ebp, \r
	subl	%esp, \r
	cmpl	$PROF_FP_SPAN, \r
	jae	.Lnofp
.endm

	PROF_ENTRY mcount, mc
	pushl	%eax
	pushl	%ecx
	pushl	%edx
	BASE
	movl	4(%ebp), %eax			/* frompc */
	subl	G(__prof_lowpc), %eax
	cmpl	G(__prof_textsize), %eax	/* 0 while not counting */
	jae	.Lout3
	TAB					/* (not before: see .Lout3) */
	testl	%ecx, %ecx
	je	.Lslow3
	pushl	%ebx
	pushl	%esi
	movl	%eax, %esi			/* a: the key's high word */
	movl	20(%esp), %ebx			/* selfpc */
	subl	G(__prof_lowpc), %ebx		/* b: its low word */
	cmpl	G(__prof_textsize), %ebx
	jae	.Lout5
	COUNT32 m
.Lret5:
	popl	%esi
	popl	%ebx
.Lret3:
	popl	%edx
	popl	%ecx
	popl	%eax
	ret
	PROBE32 m, .Lslow5
	/* an address outside the program's text: returns at once unless
	   other objects are counted (__prof_other); then a callee in
	   another object goes to C, a callee in the program (a callback
	   from a library) returns, as before */
.Lout5:
	cmpl	$0, G(__prof_other)
	je	.Lret5
	jmp	.Lslow5
	/* The text's size is checked before the thread's table is read:
	   it is 0 until the process is ready (count.c), when an IFUNC
	   resolver's call may come before the thread has TLS (%gs unset
	   in a static program).  Counting, a thread without a table goes
	   to C even from outside the text (a thread's start routine),
	   which attaches it, as when the table was read first. */
.Lout3:
	cmpl	$0, G(__prof_textsize)
	je	.Lret3				/* not counting */
	TAB
	testl	%ecx, %ecx
	je	.Lslow3
	cmpl	$0, G(__prof_other)
	je	.Lret3
	movl	12(%esp), %eax			/* selfpc */
	subl	G(__prof_lowpc), %eax
	cmpl	G(__prof_textsize), %eax
	jb	.Lret3
	jmp	.Lslow3
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

	/* the C library's mcount, which other objects' calls reach, jumps
	   here (objects.c's obj_redirect): their frame pointer checked
	   while counting */
	PROF_LABEL entry_mc_chk
	pushl	%eax
	pushl	%ecx
	pushl	%edx
	BASE
	cmpl	$0, G(__prof_textsize)		/* 0 while not counting */
	je	.Lret3
	FP_CHECK %eax
	popl	%edx
	popl	%ecx
	popl	%eax
	jmp	libprof$entry_mc
	/* a call without a frame pointer: counted as such (64 bits, the
	   carry into the high word an increment of its own); %edx made
	   again, for the labels that follow (G) */
.Lnofp:
	BASE
	lock addl $1, G(__prof_nofp)
	jnc	.Lret3
	lock addl $1, G4(__prof_nofp)
	jmp	.Lret3

/* The library path (LIBPROF_OBJECTS=1, objects.c), entered from the
   trampoline of a -pg shared object with the object's number t pushed
   above selfpc.  Its entry in __prof_libent gives the callee's code
   (selfpc - delta) and the caller's: its offset in the object plus the
   object's first code, or its offset in the program (the program's
   codes).  The key, a << 32 | b, is probed for as in mcount.  A caller
   anywhere else (a third object, a callback from the C library) goes
   to C with key 0 and the entry, which finds its object in the map.
   Counting off (__prof_other 0): returns at once. */
	PROF_LABEL lib_mc
.Llib_mc:
	xchgl	%eax, (%esp)			/* %eax = t, the caller's %eax kept */
	pushl	%ecx
	pushl	%edx
	BASE
	cmpl	$0, G(__prof_other)
	je	.Llret3
	FP_CHECK %ecx
	shll	$PROF_LIB_SHIFT, %eax
	leal	GI(__prof_libent, %eax), %ecx	/* the callee's object */
	movl	4(%ebp), %eax			/* frompc */
	subl	PROF_LIB_LO(%ecx), %eax
	cmpl	PROF_LIB_SIZE(%ecx), %eax
	jae	.Llout
	addl	PROF_LIB_CBASE(%ecx), %eax	/* the caller's code: a */
.Llkey:
	pushl	%ebx
	pushl	%esi
	movl	%eax, %esi
	movl	20(%esp), %ebx			/* selfpc */
	subl	PROF_LIB_DELTA(%ecx), %ebx	/* its code: b */
	TAB
	testl	%ecx, %ecx
	je	.Llslow5
	COUNT32 l
.Llret5:
	popl	%esi
	popl	%ebx
.Llret3:
	popl	%edx
	popl	%ecx
	popl	%eax
	ret
	PROBE32 l, .Llslow5
.Llout:						/* the caller is outside the object */
	movl	4(%ebp), %eax
	subl	G(__prof_lowpc), %eax
	cmpl	G(__prof_textsize), %eax
	jb	.Llkey				/* in the program */
	pushl	%ecx				/* elsewhere: C places it */
	pushl	$0
	pushl	$0
	pushl	24(%esp)			/* selfpc */
	pushl	4(%ebp)				/* frompc */
	call	libprof$lib_slow
	addl	$20, %esp
	jmp	.Llret3
.Llslow5:					/* a new arc (or no table yet) */
	pushl	$0
	pushl	%esi				/* the key */
	pushl	%ebx
	pushl	32(%esp)			/* selfpc */
	pushl	4(%ebp)				/* frompc */
	call	libprof$lib_slow
	addl	$20, %esp
	jmp	.Llret5

/* PROF_TRAMPS trampolines, PROF_TRAMP_SIZE bytes each from
   libprof$tramp_mc: the t-th pushes t for the library path. */
	.p2align 4
	PROF_LABEL tramp_mc
	.set	.Lt, 0
	.rept	PROF_TRAMPS
	pushl	$.Lt
	jmp	.Llib_mc
	.p2align 4, 0xcc
	.set	.Lt, .Lt + 1
	.endr
	STUB_END
