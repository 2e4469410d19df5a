# Tests (included by Makefile.am; paths are relative to the top: the build is
# non-recursive). `make check` builds the reference tools, generates the corpus
# into tests/corpus (once, again when a generator changes), builds the libFuzzer
# harness when clang is there, and runs tests/run_tests.sh, whose last line is
# "N passed, N failed, N skipped". doc/testing.md explains the suite.

EXTRA_DIST += \
	tests/tests.mk \
	tests/run_tests.sh tests/check_one.sh \
	tests/gen_corpus.sh tests/verify_corpus.sh \
	tests/install_deps.sh tests/decode_photos.sh \
	tests/fuzz/fuzz_jpeg_host.c tests/fuzz/jpeg.dict \
	tests/fuzz/fuzz_j2k_host.c tests/fuzz/j2k.dict tests/fuzz/fuzz_common.h

# ---------------------------------------------------------------- reference and corpus tools
TEST_PNM = tests/tools/pnm.c tests/tools/pnm.h

check_PROGRAMS += tests/tools/make_image tests/tools/jpeg_edit tests/tools/image_compare
tests_tools_make_image_SOURCES = tests/tools/make_image.c tests/tools/rng.h $(TEST_PNM)
tests_tools_jpeg_edit_SOURCES = tests/tools/jpeg_edit.c tests/tools/rng.h
tests_tools_image_compare_SOURCES = tests/tools/image_compare.c $(TEST_PNM) \
	tests/tools/png_load.c tests/tools/png_load.h
tests_tools_image_compare_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS)
tests_tools_image_compare_LDADD = $(PNG_LIBS)

TEST_TOOLS = tests/tools/make_image$(EXEEXT) tests/tools/jpeg_edit$(EXEEXT) \
	tests/tools/image_compare$(EXEEXT)

if HAVE_LIBJPEG
check_PROGRAMS += tests/tools/jpeg_raw_decode tests/tools/jpeg_cmyk_encode
tests_tools_jpeg_raw_decode_SOURCES = tests/tools/jpeg_raw_decode.c
tests_tools_jpeg_raw_decode_LDADD = $(LIBJPEG_LIBS)
tests_tools_jpeg_cmyk_encode_SOURCES = tests/tools/jpeg_cmyk_encode.c $(TEST_PNM)
tests_tools_jpeg_cmyk_encode_LDADD = $(LIBJPEG_LIBS)
TEST_TOOLS += tests/tools/jpeg_raw_decode$(EXEEXT) tests/tools/jpeg_cmyk_encode$(EXEEXT)
check_PROGRAMS += tests/tools/jpeg_ycc_encode
tests_tools_jpeg_ycc_encode_SOURCES = tests/tools/jpeg_ycc_encode.c
tests_tools_jpeg_ycc_encode_LDADD = $(LIBJPEG_LIBS)
endif

tests/corpus/.stamp: $(srcdir)/tests/gen_corpus.sh $(srcdir)/tests/verify_corpus.sh $(TEST_TOOLS)
	$(AM_V_GEN)GJ_TEST_TOOLS=tests/tools $(SHELL) $(srcdir)/tests/gen_corpus.sh tests/corpus && touch $@

# ---------------------------------------------------------------- unit tests
# Programs that check one part of the library on their own. Each exits 0 (pass),
# 77 (skip, e.g. no CUDA device) or anything else (fail); the runner runs them
# as unit/NAME. Add one here with
#   UNIT_TESTS += tests/unit/NAME
#   tests_unit_NAME_SOURCES = tests/unit/NAME.c
#   tests_unit_NAME_LDADD = libgpujpeg.la
#   tests_unit_NAME_LDFLAGS = -static     (internal, hidden symbols: link the archive)
UNIT_TESTS =
check_PROGRAMS += $(UNIT_TESTS)

UNIT_TESTS += tests/unit/cuda_smoke
tests_unit_cuda_smoke_SOURCES = tests/unit/cuda_smoke.c
tests_unit_cuda_smoke_LDADD = libgpujpeg.la
tests_unit_cuda_smoke_LDFLAGS = -static

# ---------------------------------------------------------------- libFuzzer harness
# Built with clang's -fsanitize=fuzzer from the library sources it exercises,
# listed once here: add a file when the fuzzed paths reach more of the library.
FUZZ_LIBRARY_FILES = \
	libgpujpeg/src/jpeg/markers.c \
	libgpujpeg/src/jpeg/huffman_tables.c \
	libgpujpeg/src/jpeg/entropy_segments.c \
	libgpujpeg/src/log.c
FUZZ_J2K_LIBRARY_FILES = \
	libgpujpeg/src/j2k/markers.c \
	libgpujpeg/src/j2k/jp2.c \
	libgpujpeg/src/j2k/tag_tree.c \
	libgpujpeg/src/j2k/tile.c \
	libgpujpeg/src/j2k/t2.c \
	libgpujpeg/src/j2k/coef_range.c \
	libgpujpeg/src/j2k/layout.c \
	libgpujpeg/src/j2k/host_decode.c \
	libgpujpeg/src/frame.c \
	libgpujpeg/src/log.c
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_PROGRAM = tests/fuzz/fuzz_jpeg_host$(EXEEXT)
FUZZ_J2K_PROGRAM = tests/fuzz/fuzz_j2k_host$(EXEEXT)
FUZZ_COMPILE = $(FUZZ_CC) $(FUZZ_FLAGS) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(OPENCL_CFLAGS) $(CUDA_CFLAGS)

if HAVE_FUZZ_CC
FUZZ_TARGET = $(FUZZ_PROGRAM) $(FUZZ_J2K_PROGRAM)
CLEANFILES += $(FUZZ_TARGET)

$(FUZZ_PROGRAM): $(srcdir)/tests/fuzz/fuzz_jpeg_host.c $(srcdir)/tests/fuzz/fuzz_common.h $(FUZZ_LIBRARY_FILES:%=$(srcdir)/%) \
		$(gpujpeginclude_HEADERS:%=$(srcdir)/%) config.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(FUZZ_COMPILE) -o $@ $(srcdir)/tests/fuzz/fuzz_jpeg_host.c $(FUZZ_LIBRARY_FILES:%=$(srcdir)/%)

$(FUZZ_J2K_PROGRAM): $(srcdir)/tests/fuzz/fuzz_j2k_host.c $(srcdir)/tests/fuzz/fuzz_common.h $(FUZZ_J2K_LIBRARY_FILES:%=$(srcdir)/%) \
		$(gpujpeginclude_HEADERS:%=$(srcdir)/%) config.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(FUZZ_COMPILE) -o $@ $(srcdir)/tests/fuzz/fuzz_j2k_host.c \
		$(FUZZ_J2K_LIBRARY_FILES:%=$(srcdir)/%)
else
FUZZ_TARGET =
endif

# ---------------------------------------------------------------- the run
# Quiet sub-makes: "make[1]: Leaving directory" would otherwise follow the
# runner's closing "N passed, N failed" line.
AM_MAKEFLAGS = --no-print-directory

# The runner is called directly (not through automake's TESTS harness) so that
# its per-test lines and closing count reach the terminal.
if HAVE_LIBJPEG
check-local: tests/corpus/.stamp tests/dxt-corpus/.stamp tests/j2k-corpus/.stamp tests/encode-corpus/.stamp $(FUZZ_TARGET)
	@GJ_TEST_TOOLS=tests/tools GJ_GPUJPEG=./gpujpeg$(EXEEXT) GJ_FUZZ="$(FUZZ_TARGET)" \
	  GJ_UNIT_TESTS="$(UNIT_TESTS)" GJ_DXT_CORPUS=tests/dxt-corpus GJ_J2K_CORPUS=tests/j2k-corpus \
	  GJ_ENC_CORPUS=tests/encode-corpus GJ_J2K_CONFORMANCE="$(GJ_J2K_CONFORMANCE)" \
	  GJ_FUZZ_DICT=$(srcdir)/tests/fuzz/jpeg.dict \
	  $(SHELL) $(srcdir)/tests/run_tests.sh tests/corpus
else
check-local:
	@echo "SKIP conformance: libjpeg-turbo not found (apt-get install libjpeg62-turbo-dev libjpeg-turbo-progs)"
	@echo "0 passed, 0 failed, 1 skipped"
endif

clean-local: clean-local-tests
clean-local-tests:
	-rm -rf tests/corpus tests/failed tests/dxt-corpus tests/j2k-corpus tests/encode-corpus

.PHONY: clean-local-tests

# ---------------------------------------------------------------- DXT
# dxt_tool: the host build of the DXT kernels, the C reference decoder and cluster
# fit, synthetic pictures and PSNR (tests/tools/dxt_tool.c); the corpus adds
# photographs and FFmpeg's hap references (tests/gen_dxt_corpus.sh).
check_PROGRAMS += tests/tools/dxt_tool
tests_tools_dxt_tool_SOURCES = tests/tools/dxt_tool.c tests/tools/dxt_reference.c \
	tests/tools/dxt_reference.h tests/tools/rng.h $(TEST_PNM)
tests_tools_dxt_tool_LDADD = libgpujpeg.la -lm
# The same under UBSan where the compiler has it (configure's UBSAN_CFLAGS, else a plain
# build): the kernel_* and jpeg_* tests make their host blocks with it, so a shift by the
# word size, a signed overflow or an index out of bounds in the kernels' integer code aborts
# the test instead of giving blocks that depend on the backend.
check_PROGRAMS += tests/tools/dxt_tool_ubsan
tests_tools_dxt_tool_ubsan_SOURCES = $(tests_tools_dxt_tool_SOURCES)
tests_tools_dxt_tool_ubsan_CFLAGS = $(AM_CFLAGS) $(UBSAN_CFLAGS)
tests_tools_dxt_tool_ubsan_LDADD = $(tests_tools_dxt_tool_LDADD)
EXTRA_DIST += tests/gen_dxt_corpus.sh tests/dxt_check.sh

tests/dxt-corpus/.stamp: $(srcdir)/tests/gen_dxt_corpus.sh tests/tools/dxt_tool$(EXEEXT) tests/tools/make_image$(EXEEXT)
	$(AM_V_GEN)GJ_TEST_TOOLS=tests/tools $(SHELL) $(srcdir)/tests/gen_dxt_corpus.sh tests/dxt-corpus && touch $@

UNIT_TESTS += tests/unit/jpeg_idct
tests_unit_jpeg_idct_SOURCES = tests/unit/jpeg_idct.c tests/unit/unit_check.h

UNIT_TESTS += tests/unit/dxt_round
tests_unit_dxt_round_SOURCES = tests/unit/dxt_round.c tests/unit/unit_check.h

# The entropy layout's unstuffing and chunking against plain models, built with SSE2
# (where the compiler has it) and with 64-bit words: from the sources, as the fuzzer.
UNIT_TESTS += tests/unit/jpeg_layout tests/unit/jpeg_layout_words
JPEG_LAYOUT_SOURCES = tests/unit/jpeg_layout.c tests/unit/unit_check.h tests/tools/rng.h \
	libgpujpeg/src/jpeg/entropy_segments.c libgpujpeg/src/log.c
tests_unit_jpeg_layout_SOURCES = $(JPEG_LAYOUT_SOURCES)
tests_unit_jpeg_layout_words_SOURCES = $(JPEG_LAYOUT_SOURCES)
tests_unit_jpeg_layout_words_CPPFLAGS = $(AM_CPPFLAGS) -DGJ_WORDWISE_UNSTUFF

UNIT_TESTS += tests/unit/jpeg_lanes
tests_unit_jpeg_lanes_SOURCES = tests/unit/jpeg_lanes.c tests/unit/unit_check.h tests/unit/unit_download.h
tests_unit_jpeg_lanes_LDADD = libgpujpeg.la
tests_unit_jpeg_lanes_LDFLAGS = -static

UNIT_TESTS += tests/unit/jpeg_scan_buffers
tests_unit_jpeg_scan_buffers_SOURCES = tests/unit/jpeg_scan_buffers.c tests/unit/unit_check.h
tests_unit_jpeg_scan_buffers_LDADD = libgpujpeg.la
tests_unit_jpeg_scan_buffers_LDFLAGS = -static

UNIT_TESTS += tests/unit/jpeg_stream_memory
tests_unit_jpeg_stream_memory_SOURCES = tests/unit/jpeg_stream_memory.c tests/unit/unit_check.h
tests_unit_jpeg_stream_memory_LDADD = libgpujpeg.la
tests_unit_jpeg_stream_memory_LDFLAGS = -static

UNIT_TESTS += tests/unit/dxt_api
tests_unit_dxt_api_SOURCES = tests/unit/dxt_api.c tests/unit/unit_check.h
tests_unit_dxt_api_LDADD = libgpujpeg.la

UNIT_TESTS += tests/unit/hap_pack
tests_unit_hap_pack_SOURCES = tests/unit/hap_pack.c tests/unit/unit_check.h
tests_unit_hap_pack_LDADD = libgpujpeg.la $(SNAPPY_LIBS)

# The JPEG 2000 API on streams of the J2K corpus (GJ_J2K_CORPUS, exported by check-local).
UNIT_TESTS += tests/unit/j2k_api
tests_unit_j2k_api_SOURCES = tests/unit/j2k_api.c tests/unit/unit_check.h tests/unit/unit_decoded_again.h
tests_unit_j2k_api_LDADD = libgpujpeg.la
# The join of a batch's T1 tables (j2k/t1_merge.h) on made-up pictures.
UNIT_TESTS += tests/unit/j2k_merge
tests_unit_j2k_merge_SOURCES = tests/unit/j2k_merge.c tests/unit/unit_check.h
tests_unit_j2k_merge_LDADD = libgpujpeg.la
tests_unit_j2k_merge_LDFLAGS = -static
# T1's state formats and MQ decoders against each other, the kernel headers compiled as C.
UNIT_TESTS += tests/unit/j2k_t1_state
tests_unit_j2k_t1_state_SOURCES = tests/unit/j2k_t1_state.c tests/unit/unit_check.h tests/unit/unit_one_item.h
tests_unit_j2k_t1_state_LDADD = libgpujpeg.la
tests_unit_j2k_t1_state_LDFLAGS = -static
# The output stage's 32-bit arithmetic against the 64-bit one, the kernel compiled as C, under
# UBSan where the compiler has it (a sum past 31 bits aborts it).
UNIT_TESTS += tests/unit/j2k_output_range
tests_unit_j2k_output_range_SOURCES = tests/unit/j2k_output_range.c tests/unit/unit_check.h \
	tests/unit/unit_one_item.h
tests_unit_j2k_output_range_CFLAGS = $(AM_CFLAGS) $(UBSAN_CFLAGS)
# The bounds on the tiles' host state (packets, code-blocks) on made-up codestreams.
UNIT_TESTS += tests/unit/j2k_tile_limits
tests_unit_j2k_tile_limits_SOURCES = tests/unit/j2k_tile_limits.c tests/unit/unit_check.h
tests_unit_j2k_tile_limits_LDADD = libgpujpeg.la
tests_unit_j2k_tile_limits_LDFLAGS = -static
# Which progression volumes a tile takes when its tile-part headers hold a POC (Grok 10's copy).
UNIT_TESTS += tests/unit/j2k_poc
tests_unit_j2k_poc_SOURCES = tests/unit/j2k_poc.c tests/unit/unit_check.h
tests_unit_j2k_poc_LDADD = libgpujpeg.la
tests_unit_j2k_poc_LDFLAGS = -static
UNIT_TESTS += tests/unit/j2k_batch
tests_unit_j2k_batch_SOURCES = tests/unit/j2k_batch.c tests/unit/unit_check.h tests/unit/unit_download.h \
	tests/unit/unit_decoded_again.h
tests_unit_j2k_batch_LDADD = libgpujpeg.la
tests_unit_j2k_batch_LDFLAGS = -static

# ---------------------------------------------------------------- JPEG 2000
# Streams from OpenJPEG's opj_compress and Grok's grk_compress, pydicom's DICOM files and
# GJ_J2K_FILES' (remove tests/j2k-corpus/.stamp after changing GJ_DICOM_DIR or GJ_J2K_FILES),
# references from opj_decompress (tests/gen_j2k_corpus.sh); tests/j2k_check.sh runs each j2k/ test.
EXTRA_DIST += tests/gen_j2k_corpus.sh tests/j2k_check.sh tests/tools/pnm16.pl \
	tests/j2k_conformance.sh tests/tools/pgx_compare.pl tests/tools/jp2_palette.pl tests/tools/raw_components.pl \
	tests/tools/j2k_roi_planes.pl tests/tools/j2k_guard_bits.pl tests/tools/J2kHeader.pm tests/tools/jp2_header_box.pl \
	tests/tools/dicom_j2k.pl tests/tools/j2k_facts.pl tests/tools/png_icc.pl tests/tools/j2k_header_edit.pl \
	tests/tools/j2k_packed_headers.pl tests/tools/j2k_swap_tile_parts.pl

tests/j2k-corpus/.stamp: $(srcdir)/tests/gen_j2k_corpus.sh $(srcdir)/tests/tools/pnm16.pl \
		$(srcdir)/tests/tools/jp2_palette.pl $(srcdir)/tests/tools/raw_components.pl \
		$(srcdir)/tests/tools/j2k_roi_planes.pl $(srcdir)/tests/tools/j2k_guard_bits.pl \
		$(srcdir)/tests/tools/J2kHeader.pm $(srcdir)/tests/tools/jp2_header_box.pl \
		$(srcdir)/tests/tools/dicom_j2k.pl $(srcdir)/tests/tools/j2k_facts.pl $(srcdir)/tests/tools/png_icc.pl \
		$(srcdir)/tests/tools/j2k_header_edit.pl $(srcdir)/tests/tools/j2k_packed_headers.pl \
		$(srcdir)/tests/tools/j2k_swap_tile_parts.pl tests/tools/make_image$(EXEEXT)
	$(AM_V_GEN)GJ_TEST_TOOLS=tests/tools $(SHELL) $(srcdir)/tests/gen_j2k_corpus.sh tests/j2k-corpus && touch $@

# ---------------------------------------------------------------- JPEG encoding
UNIT_TESTS += tests/unit/jpeg_encode_api
tests_unit_jpeg_encode_api_SOURCES = tests/unit/jpeg_encode_api.c tests/unit/unit_check.h
tests_unit_jpeg_encode_api_LDADD = libgpujpeg.la
EXTRA_DIST += tests/gen_encode_corpus.sh tests/encode_check.sh tests/encode_cases.sh tests/encode_compare.sh

# The encoding corpus needs jpeg_raw_decode (its 4:4:0 Y4M input) and the
# reference encoder of planar input, both built with libjpeg-turbo.
tests/encode-corpus/.stamp: $(srcdir)/tests/gen_encode_corpus.sh tests/tools/make_image$(EXEEXT) $(TEST_TOOLS)
	$(AM_V_GEN)GJ_TEST_TOOLS=tests/tools $(SHELL) $(srcdir)/tests/gen_encode_corpus.sh tests/encode-corpus && touch $@
