/* source.c -- source file names (annotated listings come later). */
#include "gprof.h"
