# libgpujpeg's MJPEG decoders and encoder: mjpeg_gpujpeg with software frames (dec-*) and
# with hardware frames (hw-*), and the native mjpeg decoder with the gpujpeg
# hwaccel (hwaccel-*). The inputs are generated (gpujpeg_inputs.sh: FFmpeg's
# mjpeg encoder and cjpeg); every reference equals libjpeg-turbo's raw decode
# of each frame (libgpujpeg's tests/ffmpeg/fate_truth.sh checks that), and
# decoding is bit-identical on every backend, so one set serves CUDA and OpenCL:
#   make fate-gpujpeg                          OpenCL (PoCL on the CPU in CI)
#   make fate-gpujpeg GPUJPEG_HWACCEL=cuda     CUDA
GPUJPEG_HWACCEL ?= opencl
GPUJPEG_DEVICE  ?= auto
GPUJPEG_DATA    ?= tests/data/gpujpeg
# as the tests see it (GPUJPEG_DATA may be absolute: inputs made on another machine)
GPUJPEG_INPUTS   = $(if $(filter /%,$(GPUJPEG_DATA)),,$(TARGET_PATH)/)$(GPUJPEG_DATA)

# Generated once; delete the directory to regenerate (cjpeg is needed then).
$(GPUJPEG_DATA)/.stamp: | ffmpeg$(PROGSSUF)$(EXESUF)
	$(M)sh $(SRC_PATH)/tests/fate/gpujpeg_inputs.sh $(TARGET_PATH)/ffmpeg$(PROGSSUF)$(EXESUF) $(GPUJPEG_DATA) && touch $@

GPUJPEG_CLIPS = ff420_320x240 ff420_97x61 ff420_1920x1080 ff422_1280x720 ff422_33x17 \
                ff444_176x144 cj420_rst cj422_rst cj440 cj411 cjgray cjrgb cjopt damaged

# dec-NAME: software frames on the best device (GPUJPEG_DEVICE)
define GPUJPEG_DEC_TEST
FATE_GPUJPEG_DEC += fate-gpujpeg-dec-$(1)
fate-gpujpeg-dec-$(1): CMD = framecrc -c:v mjpeg_gpujpeg -gpu_device $$(GPUJPEG_DEVICE) -i $$(GPUJPEG_INPUTS)/$(1).avi
endef

# hwaccel-NAME: mjpeg + gpujpeg hwaccel, downloaded by ffmpeg; the progressive
# clip checks the fallback to software decoding
define GPUJPEG_HWACCEL_TEST
FATE_GPUJPEG_HWACCEL += fate-gpujpeg-hwaccel-$(1)
fate-gpujpeg-hwaccel-$(1): HWACCEL = $$(GPUJPEG_HWACCEL)
fate-gpujpeg-hwaccel-$(1): CMD = framecrc -i $$(GPUJPEG_INPUTS)/$(1).avi
endef

# hw-NAME: mjpeg_gpujpeg into hardware frames, downloaded by hwdownload
define GPUJPEG_HW_TEST
FATE_GPUJPEG_HW += fate-gpujpeg-hw-$(1)
fate-gpujpeg-hw-$(1): HWACCEL = $$(GPUJPEG_HWACCEL)
fate-gpujpeg-hw-$(1): CMD = framecrc -hwaccel_output_format $$(GPUJPEG_HWACCEL) -c:v mjpeg_gpujpeg -i $$(GPUJPEG_INPUTS)/$(1).avi -vf hwdownload,format=$(2)
endef

$(foreach N,$(GPUJPEG_CLIPS),$(eval $(call GPUJPEG_DEC_TEST,$(N))))
$(foreach N,$(GPUJPEG_CLIPS) cjprog,$(eval $(call GPUJPEG_HWACCEL_TEST,$(N))))
$(eval $(call GPUJPEG_HW_TEST,ff420_97x61,yuv420p))
$(eval $(call GPUJPEG_HW_TEST,ff422_1280x720,yuv422p))
$(eval $(call GPUJPEG_HW_TEST,cj440,yuv440p))
$(eval $(call GPUJPEG_HW_TEST,cjgray,gray))

FATE_GPUJPEG-$(CONFIG_MJPEG_GPUJPEG_DECODER) += $(FATE_GPUJPEG_DEC) $(FATE_GPUJPEG_HW)
GPUJPEG_HWACCEL_CONFIG = MJPEG_GPUJPEG_$(if $(filter cuda,$(GPUJPEG_HWACCEL)),CUDA,OPENCL)_HWACCEL
FATE_GPUJPEG-$(call ALLYES, MJPEG_DECODER $(GPUJPEG_HWACCEL_CONFIG)) += $(FATE_GPUJPEG_HWACCEL)

# The mjpeg_gpujpeg encoder on raw clips of lavfi testsrc2 (gpujpeg_enc_inputs.sh,
# SRC = PIX_FMT-WxH, 3 frames): the MJPEG stream's md5 and size, then the
# framecrc of its decoding by FFmpeg's native mjpeg decoder. The streams are
# those of libjpeg-turbo for the same pixels where it has a way to take them
# (libgpujpeg's tests/ffmpeg/fate_enc_truth.sh checks that), and encoding is
# bit-identical on every backend.
GPUJPEG_ENC_DATA ?= tests/data/gpujpeg-enc

$(GPUJPEG_ENC_DATA)/.stamp: | ffmpeg$(PROGSSUF)$(EXESUF)
	$(M)sh $(SRC_PATH)/tests/fate/gpujpeg_enc_inputs.sh $(TARGET_PATH)/ffmpeg$(PROGSSUF)$(EXESUF) $(GPUJPEG_ENC_DATA) && touch $@

# NAME SRC RANGE(pc|tv) OPTIONS [FILTERS]
GPUJPEG_ENC_CMD = transcode rawvideo $(GPUJPEG_ENC_DATA)/$(2).raw mjpeg \
    "$(5) -c:v mjpeg_gpujpeg -gpu_device $(GPUJPEG_DEVICE) $(4)" "" "" "" "" \
    "-pix_fmt $(word 1,$(subst -, ,$(2))) -video_size $(word 2,$(subst -, ,$(2))) -framerate 25 -color_range $(3)"

# enc-NAME: software frames on the best device (GPUJPEG_DEVICE)
define GPUJPEG_ENC_TEST
FATE_GPUJPEG_ENC += fate-gpujpeg-enc-$(1)
fate-gpujpeg-enc-$(1): CMD = $$(call GPUJPEG_ENC_CMD,$(1),$(2),$(3),$(4))
endef

# enchw-NAME: the same pictures uploaded into hardware frames (GPUJPEG_HWACCEL),
# encoded in place: the same stream (md5) as enc-NAME's
define GPUJPEG_ENCHW_TEST
FATE_GPUJPEG_ENCHW += fate-gpujpeg-enchw-$(1)
fate-gpujpeg-enchw-$(1): CMD = $$(call GPUJPEG_ENC_CMD,$(1),$(2),$(3),$(4),-init_hw_device $$(GPUJPEG_HWACCEL)=gj -filter_hw_device gj -vf hwupload)
endef

$(eval $(call GPUJPEG_ENC_TEST,yuv420p,yuv420p-97x61,pc,))
$(eval $(call GPUJPEG_ENC_TEST,yuv420p-q80,yuv420p-96x64,pc,-quality 80))
$(eval $(call GPUJPEG_ENC_TEST,yuv420p-tv,yuv420p-96x64,tv,-strict unofficial))
$(eval $(call GPUJPEG_ENC_TEST,yuvj422p-qscale3,yuvj422p-33x17,pc,-q:v 3))
$(eval $(call GPUJPEG_ENC_TEST,yuv444p-opt,yuv444p-176x144,pc,-quality 75 -huffman optimal))
$(eval $(call GPUJPEG_ENC_TEST,yuv444p-to422,yuv444p-176x144,pc,-sampling 422))
$(eval $(call GPUJPEG_ENC_TEST,yuvj440p-rst1,yuvj440p-99x75,pc,-restart 1))
$(eval $(call GPUJPEG_ENC_TEST,rgb24-rst2,rgb24-80x60,pc,-restart 2))
$(eval $(call GPUJPEG_ENC_TEST,bgra-444,bgra-64x48,pc,-sampling 444 -quality 95))
$(eval $(call GPUJPEG_ENC_TEST,rgba-gray,rgba-50x30,pc,-sampling gray))
$(eval $(call GPUJPEG_ENC_TEST,gray,gray-64x48,pc,-quality 50))
# FFmpeg's OpenCL frames must be whole chroma samples wide and high: even sizes
$(eval $(call GPUJPEG_ENCHW_TEST,yuv420p-q80,yuv420p-96x64,pc,-quality 80))
$(eval $(call GPUJPEG_ENCHW_TEST,yuv444p-opt,yuv444p-176x144,pc,-quality 75 -huffman optimal))
$(eval $(call GPUJPEG_ENCHW_TEST,bgra-444,bgra-64x48,pc,-sampling 444 -quality 95))
$(eval $(call GPUJPEG_ENCHW_TEST,gray,gray-64x48,pc,-quality 50))

GPUJPEG_ENC_DEPS = MJPEG_GPUJPEG_ENCODER RAWVIDEO_DEMUXER MJPEG_MUXER MJPEG_DEMUXER MJPEG_DECODER
FATE_GPUJPEG-$(call ALLYES, $(GPUJPEG_ENC_DEPS)) += $(FATE_GPUJPEG_ENC)
FATE_GPUJPEG-$(call ALLYES, $(GPUJPEG_ENC_DEPS) HWUPLOAD_FILTER) += $(FATE_GPUJPEG_ENCHW)
$(FATE_GPUJPEG_ENC) $(FATE_GPUJPEG_ENCHW): $(GPUJPEG_ENC_DATA)/.stamp

include $(SRC_PATH)/tests/fate/gpujpeg_j2k.mak
include $(SRC_PATH)/tests/fate/gpujpeg_hap.mak
include $(SRC_PATH)/tests/fate/gpujpeg_dxt_filter.mak

$(FATE_GPUJPEG-yes): $(GPUJPEG_DATA)/.stamp
FATE_FFMPEG += $(FATE_GPUJPEG-yes)
fate-gpujpeg: $(FATE_GPUJPEG-yes)
fate-gpujpeg-list:
	@printf '%s\n' $(FATE_GPUJPEG-yes)
.PHONY: fate-gpujpeg-list
