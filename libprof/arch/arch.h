/* arch/arch.h -- the machine libprof is built for: its arch/<isa>/arch.h,
 * picked by the compiler's own macros, so that every build of libprof
 * (-m32, a cross compiler, a test compiling gmon.c by itself) gets the
 * right one with no flag.  Included by prof.h, from C and from the
 * stubs alike; see arch/README for what each header owns. */
#ifndef LIBPROF_ARCH_H
#define LIBPROF_ARCH_H
#if defined(__x86_64__)
#include "x86_64/arch.h"
#elif defined(__i386__)
#include "i386/arch.h"
#elif defined(__aarch64__)
#include "aarch64/arch.h"
#else
#error "libprof: no libprof/arch/<isa>/ for this machine"
#endif
#endif
