/* libprof.h -- the calls a program can make to libprof, the profiling
 * runtime for programs built with gcc -pg and linked with -lprof (see
 * libprof(3)). */
#ifndef LIBPROF_H
#define LIBPROF_H

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the profile gathered so far to PATH (NULL: the file the program
   would write at exit, gmon.out or $GMON_OUT_PREFIX.PID), through a
   temporary file renamed into place; profiling goes on.  Returns 0, or -1
   with errno set when the file could not be written. */
int libprof_dump(const char *path);

/* Stops (0) or resumes (non-zero) counting calls and sampling. */
void moncontrol(int mode);

/* Starts profiling the addresses [lowpc, highpc); the start-up file of
   gcc -pg calls it.  lowpc >= highpc means the program's code. */
void monstartup(unsigned long lowpc, unsigned long highpc);

/* Stops profiling and writes the profile, as at exit. */
void _mcleanup(void);

#ifdef __cplusplus
}
#endif
#endif
