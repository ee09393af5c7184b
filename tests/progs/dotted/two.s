	.include "macros.inc"
	.text
	fn again.constprop.0
	fn dup
	fn dupbad.cold
	fn after.constprop.0
	.globl main_entry
	.type main_entry,@function
main_entry: nop
	ret
	.size main_entry,.-main_entry
	.globl dotted.ok
	.type dotted.ok,@function
dotted.ok: nop
	ret
	.size dotted.ok,.-dotted.ok
	.globl _start
_start:	ret
