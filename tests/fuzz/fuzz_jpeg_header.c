/*
 * libFuzzer target: the JPEG header parser through the public gj_jpeg_read_info().
 * Built by make check with clang and ASan/UBSan (tests/tests.mk) and run for a
 * bounded time. Besides memory errors it checks the parser's promises: a header
 * it accepts describes a picture the decoder supports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpujpeg/common.h"
#include "gpujpeg/jpeg.h"

#define REQUIRE(cond)                                                          \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "fuzz_jpeg_header: accepted header breaks: %s\n", #cond); \
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gj_jpeg_info info;
    int c;

    if (gj_jpeg_read_info(data, size, &info) < 0)
        return 0;
    REQUIRE(info.width >= 1 && info.width <= 65535);
    REQUIRE(info.height >= 1 && info.height <= 65535);
    REQUIRE(info.num_components == 1 || info.num_components == 3 || info.num_components == 4);
    for (c = 0; c < info.num_components; c++) {
        REQUIRE(info.h_samp[c] >= 1 && info.h_samp[c] <= 4);
        REQUIRE(info.v_samp[c] >= 1 && info.v_samp[c] <= 4);
    }
    REQUIRE(info.restart_interval >= 0);
    return 0;
}
