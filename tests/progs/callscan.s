# Calls for -c on i386 (GNU's scan is measured in doc/DESIGN.md, "-c"):
# forward calls to function starts are found; calls into the middle of a
# function, backwards, past the histogram, and 0xe8 bytes inside other
# instructions are not.
	.text
	.globl first
	.type first,@function
first:	call second
	call third+2
	.byte 0xe8, 0x00, 0x00, 0x00, 0x00
	movl $0x000010e8, %eax
	call fourth
	ret
	.size first,.-first
	.globl second
	.type second,@function
second:	call third
	ret
	.size second,.-second
	.globl third
	.type third,@function
third:	nop
	nop
	nop
	call first
	ret
	.size third,.-third
	.local fourth
	.type fourth,@function
fourth:	call fifth
	ret
	.size fourth,.-fourth
	.globl fifth
	.type fifth,@function
fifth:	ret
	.size fifth,.-fifth
	.globl _start
	.type _start,@function
_start:	call first
	ret
	.size _start,.-_start
