# Assembled without debug information: a typed function, then two untyped
# labels (calls to them belong to fn_typed), a weak untyped one.
	.text
	.globl fn_typed
	.type fn_typed,@function
fn_typed:
	nop
	ret
	.globl n1
n1:	nop
	ret
	.globl n2
n2:	nop
	ret
	.weak wtext
wtext:	ret
	.data
	.weak wdata
wdata:	.long 1
	.section .note.GNU-stack,"",@progbits
