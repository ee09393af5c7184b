/* stacks/sum.h -- -s keeps everything: beside gmon.sum, the sum of the
 * runs' stack files (SUM.stacks) and, without --objects too, of their
 * other objects' profiles (SUM.objects/), so that many runs give one
 * flame graph and one --objects report.  doc/DESIGN.md, section 8
 * ("-s keeps the rest").
 *
 * The summed stack file is written so that it does not depend on where
 * any run loaded anything (see stacks/sum.c): version 1, the program at
 * its link-time addresses, each other object at a fixed synthetic base. */
#ifndef STACKS_SUM_H
#define STACKS_SUM_H
#include "gmon_io.h"

/* Reads FILES[i].stacks for each profile that has one (versions 1 and 2)
   and writes their sum to SUM.stacks, whole or not at all; a run whose
   stack file names another build of the program than BUILD_ID (IDLEN
   bytes; NULL: not checked) is left out with a warning.  No run with
   stacks: SUM.stacks is removed (an older sum's would not match).  A
   malformed file: "gprof: F: line N: ..." and exit 1. */
void stacks_sum_write(char *const *files, int nfiles, const unsigned char *build_id, size_t idlen,
                      const char *sum);
/* -s without --objects: SUM.objects/ from the runs' PROFILE.objects/ as
   -s --objects writes it (objects.h objects_write_sum), with no change
   to the symbol table or the reports.  Nothing when no run has one. */
void stacks_sum_objects(char *const *files, int nfiles, int addr_size, int big_endian,
                        const GmonOptions *go, const char *sum);
#endif
