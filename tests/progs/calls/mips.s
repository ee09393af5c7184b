# Call forms for GNU gprof's -c on MIPS (case callform_mips).
	.set noreorder
	.set noat
	.macro fn name
	.globl \name
	.type \name, @function
\name:
	.endm
	.text
# a local function where the linker puts _ftext (a global without a
# type): GNU names the address _ftext
	.type lead, @function
lead:	jal t_exact
	nop
fn _start
	jal t_exact
	nop
fn j_tail
	j t_exact
	nop
fn jal_back
	jal j_tail
	nop
fn jal_plus4
	jal t_exact+4
	nop
fn jalr_t9
	jalr $25
	nop
fn jalr_rd4
	jalr $4, $25
	nop
fn jr_t9
	jr $25
	nop
fn bal_near
	bal t_exact
	nop
fn bgezal_a0
	bgezal $4, t_exact
	nop
fn jalr_fields			# rs, rt, hint fields do not matter
	.word 0x0000f809
	.word 0x0321f809
	.word 0x0320f849
fn not_jalr			# function 8 and 10, rd 30, function 0x29, other majors
	.word 0x0320f808
	.word 0x0320f80a
	.word 0x0320f009
	.word 0x0320f829
	.word 0x0720f809
	.word 0x4320f809
fn t_exact
	nop
	nop
fn t_end
	nop
