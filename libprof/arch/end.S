/* arch/end.S -- the end of libprof's code, for every machine: assembled
 * on its own and joined after gmon.c's code (Makefile.in), so that
 * [libprof$text_begin, libprof$text_end) holds all of libprof's code,
 * whose samples are dropped. */
#include "stub.h"
	.text
	PROF_LABEL text_end
	STUB_END
