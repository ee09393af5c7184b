# For the lines_alias case: pairs of untyped global labels at one address,
# assembled with line information but no DWARF functions, so BFD names
# each address after a symbol-table symbol; of two at one address it
# takes the first in the symbol table, whichever the source put first.
	.text
	.globl a1, _a1, b1, _b1, c1, c1_alias
_a1:
a1:	nop
	nop
	ret
b1:
_b1:	nop
	nop
	ret
c1_alias:
c1:	nop
	nop
	ret
	.section .note.GNU-stack,"",@progbits
