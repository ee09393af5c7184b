! Call forms for GNU gprof's -c on SPARC (cases callform_sparc, linked at
! 0x100, and callform_sparc_high, above 4 GiB).  GNU takes any word whose
! two top bits are not 00 for a call and adds its low 30 bits, unscaled.
	.macro fn name
	.globl \name
	.type \name, #function
\name:
	.endm
	.text
fn _start
	call t_exact
	nop
fn op1_unscaled			! CALL whose unscaled displacement hits t_exact
	.word 0x40000000 | ((t_exact - .) & 0x3fffffff)
	nop
fn op2_unscaled
	.word 0x80000000 | ((t_exact - .) & 0x3fffffff)
	nop
fn op3_unscaled
	.word 0xc0000000 | ((t_exact - .) & 0x3fffffff)
	nop
fn op0_unscaled			! format 2 (sethi, branches): never
	.word 0x00000000 | ((t_exact - .) & 0x3fffffff)
	nop
fn back_unscaled
	.word 0x40000000 | ((op1_unscaled - .) & 0x3fffffff)
	nop
fn jmpl_g1
	jmpl %g1, %o7
	nop
fn t_exact
	nop
	nop
fn t_end
	nop
