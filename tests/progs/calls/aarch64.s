// Call forms for GNU gprof's -c on AArch64 (cases callform_aarch64, linked
// at 0x100, and callform_aarch64_high, above 4 GiB where GNU finds none).
	.macro fn name
	.globl \name
	.type \name, %function
\name:
	.endm
	.text
fn _start
	bl t_exact
	nop
fn b_tail
	b t_exact
	nop
fn bl_plus4
	bl t_exact+4
	nop
fn bl_back
	bl b_tail
	nop
fn b_cond
	b.ne t_exact
	nop
fn cbz_x0
	cbz x0, t_exact
	nop
fn tbz_x0
	tbz x0, #3, t_exact
	nop
fn blr_x1
	blr x1
	nop
fn br_x1
	br x1
	nop
fn bits_30_26			// bits 30..26 other than 00101
	.word 0x74000000 | (((t_exact - .) >> 2) & 0x3ffffff)
	.word 0x84000000 | (((t_exact - .) >> 2) & 0x3ffffff)
	.word 0x1c000000 | (((t_exact - .) >> 2) & 0x3ffffff)
fn t_exact
	nop
	nop
fn t_end
	nop
