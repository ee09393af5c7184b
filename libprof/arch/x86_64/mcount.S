/* arch/x86_64/mcount.S -- mcount and __fentry__ for x86-64.
 *
 * gcc -pg calls mcount after the prologue: the return address at 0(%rsp)
 * is in the profiled function (selfpc) and 8(%rbp) is that function's own
 * return address (frompc).  With -mfentry, __fentry__ is called before the
 * prologue: selfpc at 0(%rsp), frompc at 8(%rsp).  Either way the
 * caller's argument registers (integer and vector) are still live.
 *
 * The fast path handles every call of a pair (frompc, selfpc) already
 * seen by this thread: it probes the thread's raw slots (prof.h) from the
 * pair's hash until it finds both addresses and adds one with a plain
 * increment, clobbering only %r10 and %r11 (gcc saves %r10, the static
 * chain, around the call).  It checks no range: the C slow path, which
 * fills every slot, does, and flags a pair that is no arc of the
 * program's text (a callback from a shared library, a call into another
 * object), whose calls the stub then counts in a slot never written out;
 * a call into another object while LIBPROF_OBJECTS=1 gets no slot and
 * goes to C each time.  Only a thread's first call (no table yet) and a
 * pair's first call (an empty slot reached) go to the C slow path, with
 * every argument register preserved.  Profiling off (__prof_counting 0,
 * as it is until the process is ready: gmon.c's `ready`) returns at once
 * and reads no TLS.  The counted call's path is 14 instructions (mcount
 * and __fentry__ alike) and lies in one 64-byte line: the entry points
 * are 64-byte aligned, and the same code across two lines cost Lua about 6% more CPU (DESIGN.md,
 * "Raw-address slots"; tests/libprof/run.sh checks it).
 *
 * Other objects' calls (LIBPROF_OBJECTS=1) reach a trampoline of their
 * object, which objects.c points their GOT slot at, and from it the
 * library path (PROF_LIB): the same shape, keyed in the code space that
 * objects.c gives each object. */
#include "../stub.h"
	STUB_BEGIN

/* The paths use only %r10 and %r11 (gcc pushes %r10, the static chain,
   around the call itself).  The thread's slots and byte masks are read
   straight from the thread's own copy of them (`__prof_cur`, see
   prof.h): a thread without a table has masks of 0 over one empty slot,
   so it reaches the C slow path like any new arc.  The static archive's
   TLS access is local-exec (it is only linked into programs); libprof.so
   reaches the TLS block through the GOT (initial-exec), through %r10 in
   the program's path, %rax saved in the library path's.  \from gives
   frompc at entry.  The table after each path says, for each stretch,
   how far below the stack pointer at entry the interrupted stack pointer
   is, so the sampling handler can find selfpc (LIBPROF_OVERHEAD=charge). */
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
/* The raw part's slot of the pair (\from, selfpc at 0(%rsp)) in %r11,
   frompc in %r10: its byte offset, bits 5 and up of selfpc * frompc
   (count.c's home_of), & the raw byte mask, plus the raw slots.  A
   product of both addresses, so that neither a group of nearby call
   sites nor callers at one stride (like functions, each aligned) share a
   band of the table (the old (frompc << 5) ^ selfpc put 400 call sites x
   300 targets in one band: 12 s in mcount).  RAW_NEXT: the next slot
   after %r11, wrapping round.  RAW_HOME_S (mcount's path): the same
   slot, selfpc kept in %r10.  The return addresses the calls have just
   stored are read by plain movs, never as an imul's memory operand:
   `imulq $M, (%rsp)` right after the call that stored it made the stub
   wait, and a small callee's own time vanished into the stub's samples
   (Lua on mixed.lua, perf: match_class 1.3-1.6% of the samples against
   2.7-3.3% in the plain build; doc/notes-credit.md).  __fentry__ is
   called before the prologue, so its frompc, 8(%rsp), was stored by the
   call just before too.  The product once had an odd constant factor
   (selfpc * 0x5BD1E995 * frompc): it spreads bench/hashsim.py's sets
   about as well (a constant factor only permutes selfpc's low bits,
   which alone decide a product's low bits; 1.27 probes a lookup against
   1.00-1.02 on two sets, the same on the rest), and its 7-byte imul kept __fentry__'s
   path, with both movs, out of one line (67 bytes; now 60, libprof.so's
   64; doc/DESIGN.md section 9, Counting). */
#ifdef LIBPROF_STATIC
.macro RAW_HOME from
	movq	(%rsp), %r11
	movq	\from, %r10
	imulq	%r10, %r11
	andq	%fs:__prof_cur@tpoff+PROF_CUR_RAW_BYTEMASK, %r11
	addq	%fs:__prof_cur@tpoff+PROF_CUR_RAW_SLOTS, %r11
.endm
.macro RAW_HOME_S from
	movq	(%rsp), %r10
	movq	%r10, %r11
	imulq	\from, %r11
	andq	%fs:__prof_cur@tpoff+PROF_CUR_RAW_BYTEMASK, %r11
	addq	%fs:__prof_cur@tpoff+PROF_CUR_RAW_SLOTS, %r11
.endm
.macro RAW_NEXT
	subq	%fs:__prof_cur@tpoff+PROF_CUR_RAW_SLOTS, %r11
	addq	$1 << PROF_RAW_SHIFT, %r11
	andq	%fs:__prof_cur@tpoff+PROF_CUR_RAW_BYTEMASK, %r11
	addq	%fs:__prof_cur@tpoff+PROF_CUR_RAW_SLOTS, %r11
.endm
#else
/* (libprof.so: the TLS block's offset from the GOT, through %r10) */
.macro RAW_HOME from
	movq	(%rsp), %r11
	movq	\from, %r10
	imulq	%r10, %r11
	movq	__prof_cur@gottpoff(%rip), %r10
	andq	%fs:PROF_CUR_RAW_BYTEMASK(%r10), %r11
	addq	%fs:PROF_CUR_RAW_SLOTS(%r10), %r11
	movq	\from, %r10
.endm
.macro RAW_HOME_S from
	movq	(%rsp), %r11
	imulq	\from, %r11
	movq	__prof_cur@gottpoff(%rip), %r10
	andq	%fs:PROF_CUR_RAW_BYTEMASK(%r10), %r11
	addq	%fs:PROF_CUR_RAW_SLOTS(%r10), %r11
	movq	(%rsp), %r10
.endm
.macro RAW_NEXT
	movq	__prof_cur@gottpoff(%rip), %r10
	subq	%fs:PROF_CUR_RAW_SLOTS(%r10), %r11
	addq	$1 << PROF_RAW_SHIFT, %r11
	andq	%fs:PROF_CUR_RAW_BYTEMASK(%r10), %r11
	addq	%fs:PROF_CUR_RAW_SLOTS(%r10), %r11
.endm
#endif
/* The slow paths' frame: every argument register kept (and xmm0-7, which
   the C code and libc may use); the stack is not 16-byte aligned at entry
   (callers may push before calling), so it is aligned, the old one kept
   in callee-saved %rbx, which the caller has pushed. */
.macro SAVE_ARGS
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
	movaps	%xmm0, 64(%rsp)
	movaps	%xmm1, 80(%rsp)
	movaps	%xmm2, 96(%rsp)
	movaps	%xmm3, 112(%rsp)
	movaps	%xmm4, 128(%rsp)
	movaps	%xmm5, 144(%rsp)
	movaps	%xmm6, 160(%rsp)
	movaps	%xmm7, 176(%rsp)
.endm
.macro RESTORE_ARGS
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
.endm

/* The slow paths' call into C, which the macro \args makes (its
   arguments, then the call), in SAVE_ARGS's frame, %rbx pushed first:
   the words at entry are then at 16(%rbx) (selfpc), 24(%rbx) and
   32(%rbx).  The labels mark the stretches for STUB_MAP. */
.macro TO_C args, d8, d16, r8, r0
	pushq	%rax
\d8:
	pushq	%rbx
\d16:
	SAVE_ARGS
	\args
	RESTORE_ARGS
\r8:
	popq	%rax
\r0:
	ret
.endm
/* The program's slow paths: (frompc, selfpc), and for __fentry__ the
   word above frompc's (gmon.c's prof_fentry_slow: a nested function's
   caller, its static chain pushed between). */
.macro ARGS_mc
	movq	16(%rbx), %rsi
	movq	8(%rbp), %rdi
	call	libprof$mcount_slow
.endm
.macro ARGS_fe
	movq	16(%rbx), %rsi
	movq	24(%rbx), %rdi
	movq	32(%rbx), %rdx
	call	libprof$fentry_slow
.endm
/* The library paths': (frompc, selfpc, key or 0 in %r10, the object in
   %r11, the word above frompc's or 0). */
.macro LARGS_mc
	movq	%r10, %rdx
	movq	%r11, %rcx
	movq	16(%rbx), %rsi
	movq	8(%rbp), %rdi
	xorl	%r8d, %r8d
	call	libprof$lib_slow
.endm
.macro LARGS_fe
	movq	%r10, %rdx
	movq	%r11, %rcx
	movq	16(%rbx), %rsi
	movq	24(%rbx), %rdi
	movq	32(%rbx), %r8
	call	libprof$lib_slow
.endm

/* The key in %r10 counted in the key slots (the library path): its home
   slot from its hash, then the next ones; an empty slot (a new arc, or
   no table) sends it to \slow. */
.macro COUNT_KEY probe, slow
	movq	%r10, %r11
	shrq	$32, %r11
	imulq	$PROF_KEY_MULT, %r11, %r11
	addq	%r10, %r11			/* v (prof.h) */
	imulq	$PROF_HASH_MULT, %r11, %r11
	shrq	$28, %r11			/* the hash, times 16 ... */
	TLS_SLOT %r11				/* ... masked: the arc's home slot */
	cmpq	%r10, (%r11)
	jne	\probe
	incq	8(%r11)				/* only this thread writes it */
	ret
\probe:
	cmpq	$0, (%r11)
	je	\slow
	TLS_OP	subq, PROF_CUR_SLOTS, %r11	/* next slot, wrapping round */
	addq	$16, %r11
	TLS_SLOT %r11
	cmpq	%r10, (%r11)
	jne	\probe
	incq	8(%r11)
	ret
.endm

/* A path's stretches for the sampler (libprof$stub_map): selfpc at sp +
   0 from \d0 to the push of %rax (\d8), + 8 until the push of %rbx
   (\d16) and from the pop of %rbx (\r8), + 0 at the ret (\r0). */
.macro STUB_MAP d0, d8, d16, r8, r0
	.pushsection .data.rel.ro, "aw"
	.quad	\d0, \d8, 0
	.quad	\d8, \d16, 8
	.quad	\r8, \r0, 8
	.quad	\r0, \r0 + 1, 0
	.popsection
.endm

/* mcount reads its caller's return address through the caller's frame
   pointer, 8(%rbp): a caller without one (clang gives an IFUNC resolver
   none, and a -pg library's resolver runs when the loader binds it
   lazily, %rbp being the loader's: 0, 6 ...) would make that read fault.
   A frame pointer lies above the stack pointer, within PROF_FP_SPAN of
   it (prof.h): anything else sends the call to .Lnofp, which counts it
   in __prof_nofp (written out and said as calls not counted) and
   returns.  The program's own calls (frame pointers: -pg gives them) skip it in
   the static archive, where only other objects' calls through the C
   library's redirected mcount (libprof$entry_mc_chk) and the library
   path need it; in libprof.so every object's calls reach mcount.  The
   three checks share that one tail (NOFP_TAIL), placed after mcount's
   counted path: libprof.so's check there reaches it with a short jump,
   the other two (entry_mc_chk, the library path) with a near one. */
.macro FP_CHECK
	movq	%rbp, %r10
	subq	%rsp, %r10
	cmpq	$PROF_FP_SPAN, %r10
	jae	.Lnofp
.endm
.macro NOFP_TAIL
.Lnofp:
	lock incq __prof_nofp(%rip)
	ret
.endm

/* The program's path of \p's kind (mcount, __fentry__). */
.macro PROF_FAST p, from
.L\p\()_d0:
	cmpb	$0, __prof_counting(%rip)	/* 0 while not counting */
	je	.L\p\()_ret
#ifndef LIBPROF_STATIC
	.ifc	\p, mc
	FP_CHECK
	.endif
#endif
	.ifc	\p, mc
	RAW_HOME_S \from
	cmpq	%r10, 8(%r11)			/* selfpc ... */
	jne	.L\p\()_miss
	movq	\from, %r10
	cmpq	%r10, (%r11)			/* ... and frompc */
	.else
	RAW_HOME \from
	cmpq	%r10, (%r11)			/* frompc ... */
	jne	.L\p\()_miss
	movq	(%rsp), %r10
	cmpq	%r10, 8(%r11)			/* ... and selfpc */
	.endif
	jne	.L\p\()_miss
	incq	16(%r11)			/* only this thread writes it */
.L\p\()_ret:
	ret
	.ifc	\p, mc
	NOFP_TAIL
	.endif
	/* another pair in the slot: the next one, wrapping round; an empty
	   one (a new pair, or no table) sends the call to C */
.L\p\()_miss:
	cmpq	$0, (%r11)
	je	.L\p\()_slow
	RAW_NEXT
	movq	\from, %r10
	cmpq	%r10, (%r11)
	jne	.L\p\()_miss
	movq	(%rsp), %r10
	cmpq	%r10, 8(%r11)
	jne	.L\p\()_miss
	incq	16(%r11)
	ret
.L\p\()_slow:
	TO_C	ARGS_\p, .L\p\()_d8, .L\p\()_d16, .L\p\()_r8, .L\p\()_r0
	STUB_MAP .L\p\()_d0, .L\p\()_d8, .L\p\()_d16, .L\p\()_r8, .L\p\()_r0
.endm

/* The library path of \p's kind, entered from a trampoline with %r11 =
   the callee's object (prof_libent: see prof.h; every selfpc reaching it
   lies in that object's text).  The caller's code is its offset in the
   object plus the object's first code; for a caller in the program, its
   offset there (the program's codes); for one in the third object that
   last called this one (its prof_range, read with %rax pushed), its
   offset there plus that object's first code.  The key is that code <<
   32 plus selfpc's code, selfpc - delta, probed as in the program's path.
   A caller anywhere else goes to C with key 0, which finds its object.
   \from gives frompc at entry, \from8 after one push. */
.macro PROF_LIB p, from, from8
	PROF_LABEL lib_\p
.L\p\()_ld0:
	.ifc	\p, mc
	FP_CHECK
	.endif
	movq	\from, %r10			/* frompc */
	subq	PROF_LIB_LO(%r11), %r10
	cmpq	PROF_LIB_SIZE(%r11), %r10
	jae	.L\p\()_lout
	addq	PROF_LIB_CBASE(%r11), %r10	/* the caller's code */
.L\p\()_lkey:
	shlq	$32, %r10
	addq	(%rsp), %r10			/* + selfpc ... */
	subq	PROF_LIB_DELTA(%r11), %r10	/* ... - delta: the key */
	COUNT_KEY .L\p\()_lprobe, .L\p\()_lslow
.L\p\()_lout:					/* the caller is outside the object */
	movq	\from, %r10
	subq	__prof_lowpc(%rip), %r10
	cmpq	__prof_textsize(%rip), %r10
	jb	.L\p\()_lkey			/* in the program */
	pushq	%rax
.L\p\()_lc8:
	movq	PROF_LIB_CALLER(%r11), %rax
	movq	\from8, %r10
	subq	PROF_RANGE_LO(%rax), %r10
	cmpq	PROF_RANGE_SIZE(%rax), %r10
	jae	.L\p\()_lelse
	addq	PROF_RANGE_CBASE(%rax), %r10	/* in the last third object */
	popq	%rax
.L\p\()_lc0:
	jmp	.L\p\()_lkey
.L\p\()_lelse:
	popq	%rax
.L\p\()_le0:
	xorl	%r10d, %r10d			/* elsewhere: C places it */
	jmp	.L\p\()_lslow
.L\p\()_lslow:					/* %r10 = key or 0, %r11 = the object if 0 */
	TO_C	LARGS_\p, .L\p\()_ld8, .L\p\()_ld16, .L\p\()_lr8, .L\p\()_lr0
	/* (libprof.so's TLS_SLOT and TLS_OP push %rax for a few
	   instructions: a sample there finds the wrong word and is dropped
	   as out of the text)
	   %rax pushed around the third object's range: selfpc at sp + 8
	   (before the path's stretches, which hold these: the first
	   stretch that holds a PC is the one taken) */
	.pushsection .data.rel.ro, "aw"
	.quad	.L\p\()_lc8, .L\p\()_lc0, 8
	.quad	.L\p\()_lelse, .L\p\()_le0, 8
	.popsection
	STUB_MAP .L\p\()_ld0, .L\p\()_ld8, .L\p\()_ld16, .L\p\()_lr8, .L\p\()_lr0
.endm

/* PROF_TRAMPS trampolines of \p's kind, 16 bytes each from
   libprof$tramp_\p: the t-th names object t to the library path (or
   to a ret while not counting: __prof_lib_target). */
.macro PROF_TRAMPOLINES p, kind
	.p2align 4
	PROF_LABEL tramp_\p
	.set	.Lt, 0
	.rept	PROF_TRAMPS
	leaq	__prof_libent + (.Lt << PROF_LIB_SHIFT)(%rip), %r11
	jmp	*__prof_lib_target + 8 * \kind(%rip)
	.p2align 4, 0xcc
	.set	.Lt, .Lt + 1
	.endr
.L\p\()_tend:
	.pushsection .data.rel.ro, "aw"
	.quad	libprof$tramp_\p, .L\p\()_tend, 0
	.popsection
.endm

	.pushsection .data.rel.ro, "aw"
	.p2align 3
	PROF_LABEL stub_map
	.popsection

	.p2align 6				/* the fast path in one cache line */
	PROF_ENTRY mcount, mc
	PROF_FAST mc, 8(%rbp)
	.size	mcount, .-mcount

	PROF_PUBLIC(_mcount)
	.set	_mcount, mcount

	/* the C library's mcount, which other objects' calls reach, jumps
	   here (objects.c's obj_redirect): their frame pointer checked */
	PROF_LABEL entry_mc_chk
	cmpb	$0, __prof_counting(%rip)
	je	.Lchk_ret
	FP_CHECK
	jmp	libprof$entry_mc
.Lchk_ret:
	ret
.Lchk_end:
	.pushsection .data.rel.ro, "aw"
	.quad	libprof$entry_mc_chk, .Lchk_end, 0
	.popsection

	.p2align 6
	PROF_ENTRY __fentry__, fe
	PROF_FAST fe, 8(%rsp)
	.size	__fentry__, .-__fentry__

	/* other objects' calls (LIBPROF_OBJECTS=1): see objects.c */
	PROF_LIB mc, 8(%rbp), 8(%rbp)
	PROF_LIB fe, 8(%rsp), 16(%rsp)
	PROF_LABEL lib_off			/* the trampolines' target while not counting */
	ret
	PROF_TRAMPOLINES mc, 0
	PROF_TRAMPOLINES fe, 1

	.pushsection .data.rel.ro, "aw"
	PROF_LABEL stub_map_end
	.popsection
	STUB_END
