	.data
	.weak dw
	.type dw,@function
dw:	.long 0
