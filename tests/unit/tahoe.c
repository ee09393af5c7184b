/* Unit test: the Tahoe call finder (tahoe.c) over byte buffers -- BFD 2.40
   has no Tahoe target, so this is the only way to reach it.  Each CALLF
   destination form, operand lengths (a one-byte immediate argument size),
   big-endian displacements and addresses, and what must not count.  A
   mis-decoded form changes the arcs found and fails its case.
// objs: tahoe.o vax.o callscan.o symtab.o util/util.o util/options.o
*/
#define FINDER_BIG_ENDIAN 1
#include "findcall.h"

int main(void)
{
  /* 0x01 fills; the histogram covers [lo, hi) */
  RUN("byte displacement off PC, backward", "t@0 p@1 end@6", 0, 6, tahoe_find_call, "p>t",
      0x01, 0xfe, 0x04, 0xaf, 0xfb, 0x01, 0x01);
  RUN("word displacement, big-endian", "p@0 t@7 end@8", 0, 8, tahoe_find_call, "p>t",
      0xfe, 0x04, 0xcf, 0x00, 0x02, 0x01, 0x01, 0x01, 0x01);
  RUN("word displacement, negative", "t@0 p@1 end@7", 0, 7, tahoe_find_call, "p>t",
      0x01, 0xfe, 0x04, 0xcf, 0xff, 0xfa, 0x01, 0x01);
  RUN("longword displacement, big-endian", "p@0 t@9 end@10", 0, 10, tahoe_find_call, "p>t",
      0xfe, 0x04, 0xef, 0x00, 0x00, 0x00, 0x02, 0x01, 0x01, 0x01, 0x01);
  RUN("longword displacement, negative", "t@0 p@2 end@11", 0, 11, tahoe_find_call, "p>t",
      0x01, 0x01, 0xfe, 0x04, 0xef, 0xff, 0xff, 0xff, 0xf7, 0x01, 0x01, 0x01);
  RUN("immediate byte argument size", "p@0 t@7 end@8", 0, 8, tahoe_find_call, "p>t",
      0xfe, 0x8f, 0x08, 0xaf, 0x02, 0x01, 0x01, 0x01, 0x01);
  RUN("argument size by word displacement", "p@0 t@9 end@10", 0, 10, tahoe_find_call, "p>t",
      0xfe, 0xc1, 0x00, 0x10, 0xaf, 0x03, 0x01, 0x01, 0x01, 0x01, 0x01);
  RUN("absolute address, big-endian", "p@0 t@8 end@9", 0, 9, tahoe_find_call, "p>t",
      0xfe, 0x04, 0x9f, 0x00, 0x00, 0x20, 0x08, 0x01, 0x01, 0x01);
  RUN("destinations known only at run time", "a@0 b@4 c@8 d@13 e@19 end@24", 0, 24,
      tahoe_find_call, "a>* b>* c>* d>* e>*",
      0xfe, 0x04, 0x61, 0x01,                   /* (r1) */
      0xfe, 0x04, 0x71, 0x01,                   /* -(r1) */
      0xfe, 0x04, 0xbf, 0x00, 0x01,             /* *b^0(pc) */
      0xfe, 0x04, 0x41, 0xaf, 0x00, 0x01,       /* b^0(pc)[r1] */
      0xfe, 0x04, 0xa2, 0x04, 0x01,             /* 4(r2) */
      0x01);
  RUN("not calls", "a@0 b@4 c@8 d@13 end@17", 0, 17, tahoe_find_call, "",
      0xfe, 0x04, 0x51, 0x01,                   /* register destination */
      0xfe, 0x04, 0x05, 0x01,                   /* literal destination */
      0xfe, 0x04, 0x41, 0x51, 0x01,             /* index on a register */
      0xfb, 0x00, 0xaf, 0x00,                   /* the VAX's CALLS */
      0x01);
  RUN("targets that do not count", "p@0 t@5 q@7 end@13 far@14", 0, 13, tahoe_find_call, "",
      0xfe, 0x04, 0xaf, 0x02, 0x01,             /* into t, not its start */
      0x01, 0x01,
      0xfe, 0x04, 0xaf, 0x03, 0x01, 0x01,       /* to far, past the histogram */
      0x01, 0x01);
  RUN("the scan resumes after a call's operands", "p@0 end@8", 0, 8, tahoe_find_call, "",
      0xfe, 0x04, 0xaf, 0xfe, 0x04, 0x61, 0x01, 0x01, 0x01);
  RUN("instruction cut by the end of the text", "p@0 end@9", 0, 9, tahoe_find_call, "",
      0xfe, 0x04, 0xef, 0x00, 0x00);
  return fails != 0;
}
