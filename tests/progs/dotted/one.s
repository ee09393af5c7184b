# Static functions whose dotted names GNU gprof keeps or drops (see
# doc/DESIGN.md, "dotted statics"); the order of the symbol table is the
# order below, then two.s, then the globals.
	.include "macros.inc"
	.text
	fn lone.constprop.0
	fn reset1
	fn chain.constprop.0
	fn chain.5
	fn chain.cold
	fn shielded.constprop.0
	obj plainobj
	fn later.cold
	fn through.constprop.0
	obj dotted.5
	fn trig.part.0
	fn nest.clone.3
	fn nest.constprop.0.clone.1
	fn reset2
	fn bare.clone
	fn bare.constprop
	fn lto.lto_priv.0
	fn keep.constprop.1
	fn dup
	fn dupbad.cold
	fn cash$x
