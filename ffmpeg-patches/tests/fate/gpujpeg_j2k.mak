# libgpujpeg's JPEG 2000 decoder, jpeg2000_gpujpeg: software frames (j2k-*, in
# the formats the native decoder reports: deep planar YUV, 4:1:0, sYCC's yuv444p,
# ya8, rgba64le, YUV with alpha, a JP2 palette's pal8),
# hardware frames downloaded by hwdownload (j2k-hw-*), reduced resolution
# (j2k-lowres), digital cinema X'Y'Z' (j2k-dci), size changes (j2k-mix), a JP2
# resolution box's sample aspect ratio (j2k-opj_res), ICC profiles as side data
# (j2k-icc) and batches of pictures decoded together (j2k-batch-*). The inputs are generated
# (gpujpeg_j2k_inputs.sh: FFmpeg's jpeg2000 encoder and opj_compress); lossless
# references equal the native jpeg2000 decoder's, and libgpujpeg's own tests
# hold the decoder to opj_decompress. Included by gpujpeg.mak; the device and
# hwaccel variables are its.
GPUJPEG_J2K_DATA ?= tests/data/gpujpeg-j2k
GPUJPEG_J2K_INPUTS = $(if $(filter /%,$(GPUJPEG_J2K_DATA)),,$(TARGET_PATH)/)$(GPUJPEG_J2K_DATA)

$(GPUJPEG_J2K_DATA)/.stamp: | ffmpeg$(PROGSSUF)$(EXESUF)
	$(M)sh $(SRC_PATH)/tests/fate/gpujpeg_j2k_inputs.sh $(TARGET_PATH)/ffmpeg$(PROGSSUF)$(EXESUF) $(GPUJPEG_J2K_DATA) && touch $@

# NAME INPUT: software frames on the best device
define GPUJPEG_J2K_TEST
FATE_GPUJPEG_J2K += fate-gpujpeg-j2k-$(1)
fate-gpujpeg-j2k-$(1): CMD = framecrc -c:v jpeg2000_gpujpeg -gpu_device $$(GPUJPEG_DEVICE) -i $$(GPUJPEG_J2K_INPUTS)/$(2)
endef

$(eval $(call GPUJPEG_J2K_TEST,ff_rgb_lossless,ff_rgb_lossless.mov))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuv420,ff_yuv420.avi))
$(eval $(call GPUJPEG_J2K_TEST,ff_gray12,ff_gray12.mxf))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuv422,ff_yuv422.avi))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuv422p10,ff_yuv422p10.mxf))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuv420p12,ff_yuv420p12.avi))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuv410,ff_yuv410.avi))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuv444,ff_yuv444.avi))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuv444p12,ff_yuv444p12.mov))
$(eval $(call GPUJPEG_J2K_TEST,ff_ya8,ff_ya8.avi))
$(eval $(call GPUJPEG_J2K_TEST,ff_rgba64,ff_rgba64.mov))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuva420p,ff_yuva420p.avi))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuva422p10,ff_yuva422p10.mov))
$(eval $(call GPUJPEG_J2K_TEST,ff_yuva444p,ff_yuva444p.mov))
$(eval $(call GPUJPEG_J2K_TEST,opj_tiles,opj_tiles-%03d.j2k))
$(eval $(call GPUJPEG_J2K_TEST,opj_jp2,opj_jp2-%03d.jp2))
$(eval $(call GPUJPEG_J2K_TEST,opj_layers,opj_layers-%03d.j2k))
$(eval $(call GPUJPEG_J2K_TEST,opj_res,res-%03d.jp2))
$(eval $(call GPUJPEG_J2K_TEST,opj_pal,pal-%03d.jp2))
$(eval $(call GPUJPEG_J2K_TEST,dci,dci-%03d.j2k))
$(eval $(call GPUJPEG_J2K_TEST,damaged,dmg-%03d.j2k))

FATE_GPUJPEG_J2K += fate-gpujpeg-j2k-lowres
fate-gpujpeg-j2k-lowres: CMD = framecrc -lowres 1 -c:v jpeg2000_gpujpeg -gpu_device $(GPUJPEG_DEVICE) -i $(GPUJPEG_J2K_INPUTS)/ff_rgb_lossless.mov

# pictures that change size (the frames keep theirs: -noautoscale)
FATE_GPUJPEG_J2K += fate-gpujpeg-j2k-mix
fate-gpujpeg-j2k-mix: CMD = framecrc -c:v jpeg2000_gpujpeg -gpu_device $(GPUJPEG_DEVICE) -i $(GPUJPEG_J2K_INPUTS)/mix-%03d.j2k -noautoscale

# Batches (-batch; the tests above decode a picture at a time, FATE running -threads 1):
# the same frames, a batch ended by the input's end (16 of 3 pictures), by a packet
# that is not JPEG 2000 (damaged, batches of 2) and by a size change (mix, of 4).
# NAME BATCH INPUT OTHER_OPTIONS: the reference of gpujpeg-j2k-NAME
define GPUJPEG_J2K_BATCH_TEST
FATE_GPUJPEG_J2K += fate-gpujpeg-j2k-batch-$(1)
fate-gpujpeg-j2k-batch-$(1): CMD = framecrc $(4) -batch $(2) -c:v jpeg2000_gpujpeg -gpu_device $$(GPUJPEG_DEVICE) -i $$(GPUJPEG_J2K_INPUTS)/$(3) $(5)
fate-gpujpeg-j2k-batch-$(1): REF = $$(SRC_PATH)/tests/ref/fate/gpujpeg-j2k-$(1)
endef

$(eval $(call GPUJPEG_J2K_BATCH_TEST,ff_rgb_lossless,16,ff_rgb_lossless.mov))
$(eval $(call GPUJPEG_J2K_BATCH_TEST,damaged,2,dmg-%03d.j2k))
$(eval $(call GPUJPEG_J2K_BATCH_TEST,lowres,2,ff_rgb_lossless.mov,-lowres 1))
$(eval $(call GPUJPEG_J2K_BATCH_TEST,mix,4,mix-%03d.j2k,,-noautoscale))
$(eval $(call GPUJPEG_J2K_BATCH_TEST,opj_res,2,res-%03d.jp2))
$(eval $(call GPUJPEG_J2K_BATCH_TEST,opj_pal,2,pal-%03d.jp2))
$(eval $(call GPUJPEG_J2K_BATCH_TEST,ff_yuv422p10,2,ff_yuv422p10.mxf))
$(eval $(call GPUJPEG_J2K_BATCH_TEST,ff_yuva420p,2,ff_yuva420p.avi))

# A JP2 file's ICC profile as the frame's side data, a picture at a time and in batches
# of 3 (the frames' sizes say whose profile each got; the second picture has none)
FATE_GPUJPEG_J2K += fate-gpujpeg-j2k-icc fate-gpujpeg-j2k-batch-icc
fate-gpujpeg-j2k-icc: CMD = runlocal fate/gpujpeg_j2k_icc.sh $(TARGET_PATH)/ffmpeg$(PROGSSUF)$(EXESUF) $(GPUJPEG_DEVICE) $(GPUJPEG_J2K_INPUTS) 1
fate-gpujpeg-j2k-batch-icc: CMD = runlocal fate/gpujpeg_j2k_icc.sh $(TARGET_PATH)/ffmpeg$(PROGSSUF)$(EXESUF) $(GPUJPEG_DEVICE) $(GPUJPEG_J2K_INPUTS) 3
fate-gpujpeg-j2k-batch-icc: REF = $(SRC_PATH)/tests/ref/fate/gpujpeg-j2k-icc

# hardware frames where the device's frames hold the format (planar YUV)
FATE_GPUJPEG_J2K += fate-gpujpeg-j2k-hw-ff_yuv420
fate-gpujpeg-j2k-hw-ff_yuv420: HWACCEL = $(GPUJPEG_HWACCEL)
fate-gpujpeg-j2k-hw-ff_yuv420: CMD = framecrc -hwaccel_output_format $(GPUJPEG_HWACCEL) -c:v jpeg2000_gpujpeg -i $(GPUJPEG_J2K_INPUTS)/ff_yuv420.avi -vf hwdownload,format=yuv420p

# ... in batches: into CUDA frames, or OpenCL ones through sub-buffers of the staging buffer
FATE_GPUJPEG_J2K += fate-gpujpeg-j2k-batch-hw-ff_yuv420
fate-gpujpeg-j2k-batch-hw-ff_yuv420: HWACCEL = $(GPUJPEG_HWACCEL)
fate-gpujpeg-j2k-batch-hw-ff_yuv420: CMD = framecrc -hwaccel_output_format $(GPUJPEG_HWACCEL) -batch 2 -c:v jpeg2000_gpujpeg -i $(GPUJPEG_J2K_INPUTS)/ff_yuv420.avi -vf hwdownload,format=yuv420p
fate-gpujpeg-j2k-batch-hw-ff_yuv420: REF = $(SRC_PATH)/tests/ref/fate/gpujpeg-j2k-hw-ff_yuv420

# The pinned option's software frames (page-locked on CUDA) against FFmpeg's buffers
# (tests/api/api-gpujpeg-pinned-test.c): equal, through size and format changes (a new
# pool, a new device, while the old frames are held), read after both decoders are
# freed; a picture at a time and in batches of 2.
GPUJPEG_PINNED_TEST = $(APITESTSDIR)/api-gpujpeg-pinned-test$(EXESUF)
$(APITESTSDIR)/api-gpujpeg-pinned-test.o: | $(APITESTSDIR)
$(GPUJPEG_PINNED_TEST): $(APITESTSDIR)/api-gpujpeg-pinned-test.o $(FF_DEP_LIBS)
	$(LD) $(LDFLAGS) $(LDEXEFLAGS) $(LD_O) $(filter %.o,$^) $(FF_EXTRALIBS) $(ELIBS)

GPUJPEG_PINNED_INPUTS = $(foreach F,mix-001 mix-002 mix-003 dci-001 mix-004 mix-005 dci-002,$(GPUJPEG_J2K_INPUTS)/$(F).j2k)
FATE_GPUJPEG_J2K += fate-gpujpeg-j2k-pinned fate-gpujpeg-j2k-batch-pinned
fate-gpujpeg-j2k-pinned fate-gpujpeg-j2k-batch-pinned: $(GPUJPEG_PINNED_TEST)
fate-gpujpeg-j2k-pinned: CMD = run $(GPUJPEG_PINNED_TEST) $(GPUJPEG_DEVICE) 1 $(GPUJPEG_PINNED_INPUTS)
fate-gpujpeg-j2k-batch-pinned: CMD = run $(GPUJPEG_PINNED_TEST) $(GPUJPEG_DEVICE) 2 $(GPUJPEG_PINNED_INPUTS)
fate-gpujpeg-j2k-batch-pinned: REF = $(SRC_PATH)/tests/ref/fate/gpujpeg-j2k-pinned

FATE_GPUJPEG-$(CONFIG_JPEG2000_GPUJPEG_DECODER) += $(FATE_GPUJPEG_J2K)
$(FATE_GPUJPEG_J2K): $(GPUJPEG_J2K_DATA)/.stamp

# With SAMPLES: the conformance codestreams of Rec. ITU-T T.803 | ISO/IEC 15444-4 where
# FFmpeg's jpeg2000dec tests read them (the fate-suite's jpeg2000/itu-iso/), those that
# decode to a frame format: p0_05, p0_06, p0_13, p1_03 and p1_07 hold components no
# format holds (the native decoder puts p0_05's in yuva420p's planes and refuses the
# others), and p0_07 is not among the codestreams the references were made of. The
# references are jpeg2000_gpujpeg's frames; libgpujpeg's own tests hold its decodes to
# the suite's class-1 tolerances (tests/j2k_conformance.sh) and these frames to them
# (tests/ffmpeg/fate_truth_j2k_conf.sh).
# PROFILE NAME
define GPUJPEG_J2K_CONF_TEST
FATE_GPUJPEG_J2K_CONF += fate-gpujpeg-j2k-conf-$(2)
fate-gpujpeg-j2k-conf-$(2): CMD = framecrc -c:v jpeg2000_gpujpeg -gpu_device $$(GPUJPEG_DEVICE) -i $$(TARGET_SAMPLES)/jpeg2000/itu-iso/codestreams_profile$(1)/$(2).j2k
endef

$(foreach N,01 02 03 04 08 09 10 11 12 14 15 16,$(eval $(call GPUJPEG_J2K_CONF_TEST,0,p0_$(N))))
$(foreach N,01 02 04 05 06,$(eval $(call GPUJPEG_J2K_CONF_TEST,1,p1_$(N))))
ifdef SAMPLES
FATE_GPUJPEG-$(CONFIG_JPEG2000_GPUJPEG_DECODER) += $(FATE_GPUJPEG_J2K_CONF)
endif
