/* options.c -- storage for the run's options (see options.h). */
#include "options.h"

Options options_storage_;

Options *options_for_startup(void) { return &options_storage_; }
