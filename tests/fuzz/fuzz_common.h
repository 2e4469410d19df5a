/* What the libFuzzer harnesses share: a quiet log and the check of a promise. */
#ifndef GJ_FUZZ_COMMON_H
#define GJ_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "gpujpeg/common.h"

/* A promise the GPU kernels rely on, broken by an input the host side accepted. */
#define REQUIRE(cond)                                                          \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s: accepted input breaks: %s\n", __FILE__, #cond); \
            abort();                                                           \
        }                                                                      \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gj_log_set_level(GJ_LOG_QUIET);   /* errors are expected here; keep the run readable */
    return 0;
}

#endif /* GJ_FUZZ_COMMON_H */
