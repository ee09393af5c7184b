# Call forms for GNU gprof's -c on Alpha (case callform_alpha, linked at
# 0x100: GNU finds BSR targets only below 4 GiB).  Each function holds one
# form; t_exact is the usual target.
	.set noreorder
	.set noat
	.macro fn name
	.globl \name
	.type \name, @function
\name:
	.endm
	.text
fn _start
	bsr $26, t_exact
	nop
fn bsr_exact
	bsr $26, t_exact
	nop
fn bsr_plus4
	bsr $26, t_exact+4
	nop
fn bsr_plus8			# what gcc emits: past the GP set-up
	bsr $26, t_exact+8
	nop
fn bsr_back
	bsr $26, bsr_exact
	nop
fn bsr_zero			# any link register
	bsr $31, t_exact
	nop
fn bsr_p1			# displacement not scaled by GNU: lands here + 4 + 3
	.long (0x34 << 26) | (26 << 21) | 3
	.long 0x47ff041f
fn br_ra
	br $26, t_exact
	nop
fn br_zero
	br $31, t_exact
	nop
fn jsr_t12
	jsr $26, ($27)
	nop
fn jsr_ra0
	.long 0x681b4000
	nop
fn jsr_rb0
	.long 0x6b404000
	nop
fn jsr_hint
	.long 0x6b5b7fff
	nop
fn jmp_t12
	jmp $31, ($27)
	nop
fn ret_ra
	ret $31, ($26)
	nop
fn jcr_ra
	jsr_coroutine $31, ($26)
	nop
fn op1b				# opcode 0x1b: not a jump
	.long 0x6f5b4000
	nop
fn fbr_ops			# other branch opcodes with the same displacement
	.long (0x30 << 26) | (31 << 21) | 3
	.long (0x31 << 26) | (31 << 21) | 3
	.long (0x35 << 26) | (31 << 21) | 3
	.long (0x38 << 26) | (31 << 21) | 3
	.long (0x3d << 26) | (31 << 21) | 3
fn t_exact
	nop
	nop
	nop
	nop
fn t_end
	nop
