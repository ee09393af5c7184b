/* options.c -- storage for the run's options (see options.h). */
#include "options.h"

static Options storage;
const Options *const options_ro = &storage;

Options *options_for_startup(void) { return &storage; }
