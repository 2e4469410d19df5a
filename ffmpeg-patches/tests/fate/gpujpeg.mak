# libgpujpeg's MJPEG decoders: mjpeg_gpujpeg with software frames (dec-*) and
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

include $(SRC_PATH)/tests/fate/gpujpeg_j2k.mak

$(FATE_GPUJPEG-yes): $(GPUJPEG_DATA)/.stamp
FATE_FFMPEG += $(FATE_GPUJPEG-yes)
fate-gpujpeg: $(FATE_GPUJPEG-yes)
fate-gpujpeg-list:
	@printf '%s\n' $(FATE_GPUJPEG-yes)
.PHONY: fate-gpujpeg-list
