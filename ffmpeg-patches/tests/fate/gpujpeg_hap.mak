# libgpujpeg's HAP encoder, hap_gpujpeg, on raw clips of lavfi testsrc2
# (gpujpeg_hap_inputs.sh, SRC = PIX_FMT-WxH, 3 frames): the QuickTime file's md5
# and size, then the framecrc of its decoding by FFmpeg's native hap decoder.
# hap-NAME takes software frames on the best device, haphw-NAME the same
# pictures uploaded into hardware frames (GPUJPEG_HWACCEL): the same file. DXT
# encoding is bit-identical on every backend; libgpujpeg's
# tests/ffmpeg/fate_truth_hap.sh checks that the decoded pictures are those of
# `gpujpeg dxt`'s blocks. Most tests store the chunks (-compressor none), as
# FFmpeg's own hapenc tests do: snappy's output may change with its version.
# Included by gpujpeg.mak; the device and hwaccel variables are its.
GPUJPEG_HAP_DATA ?= tests/data/gpujpeg-hap

$(GPUJPEG_HAP_DATA)/.stamp: | ffmpeg$(PROGSSUF)$(EXESUF)
	$(M)sh $(SRC_PATH)/tests/fate/gpujpeg_hap_inputs.sh $(TARGET_PATH)/ffmpeg$(PROGSSUF)$(EXESUF) $(GPUJPEG_HAP_DATA) && touch $@

# NAME SRC OPTIONS [FILTERS]
GPUJPEG_HAP_CMD = transcode rawvideo $(GPUJPEG_HAP_DATA)/$(2).raw mov \
    "$(4) -c:v hap_gpujpeg -gpu_device $(GPUJPEG_DEVICE) $(3)" "" "" "" "" \
    "-pix_fmt $(word 1,$(subst -, ,$(2))) -video_size $(word 2,$(subst -, ,$(2))) -framerate 25"

define GPUJPEG_HAP_TEST
FATE_GPUJPEG_HAP += fate-gpujpeg-hap-$(1)
fate-gpujpeg-hap-$(1): CMD = $$(call GPUJPEG_HAP_CMD,$(1),$(2),$(3))
endef

# hardware frames hold rgba (no rgb24 on CUDA or OpenCL)
define GPUJPEG_HAPHW_TEST
FATE_GPUJPEG_HAPHW += fate-gpujpeg-haphw-$(1)
fate-gpujpeg-haphw-$(1): CMD = $$(call GPUJPEG_HAP_CMD,$(1),$(2),$(3),-init_hw_device $$(GPUJPEG_HWACCEL)=gj -filter_hw_device gj -vf hwupload)
endef

$(eval $(call GPUJPEG_HAP_TEST,hap,rgba-64x48,-format hap -compressor none))
$(eval $(call GPUJPEG_HAP_TEST,hap_alpha,rgba-64x48,-format hap_alpha -compressor none))
$(eval $(call GPUJPEG_HAP_TEST,hap_q,rgb24-96x64,-format hap_q -compressor none))
$(eval $(call GPUJPEG_HAP_TEST,chunks,rgb24-96x64,-format hap_q -compressor none -chunks 5))
$(eval $(call GPUJPEG_HAP_TEST,snappy,rgba-64x48,-format hap_alpha -chunks 3))
$(eval $(call GPUJPEG_HAP_TEST,odd,rgba-98x62,-format hap_alpha -compressor none -chunks 2))
$(eval $(call GPUJPEG_HAP_TEST,odd_q,rgba-98x62,-format hap_q -compressor none))
$(eval $(call GPUJPEG_HAP_TEST,yuvj420p,yuvj420p-96x64,-format hap -compressor none))
$(eval $(call GPUJPEG_HAP_TEST,fast,rgb24-96x64,-format hap -quality fast -compressor none))
$(eval $(call GPUJPEG_HAP_TEST,high,rgba-64x48,-format hap -quality high -compressor none))
$(eval $(call GPUJPEG_HAPHW_TEST,hap,rgba-64x48,-format hap -compressor none))
$(eval $(call GPUJPEG_HAPHW_TEST,hap_alpha,rgba-64x48,-format hap_alpha -compressor none))
$(eval $(call GPUJPEG_HAPHW_TEST,odd_q,rgba-98x62,-format hap_q -compressor none))

GPUJPEG_HAP_DEPS = HAP_GPUJPEG_ENCODER HAP_DECODER RAWVIDEO_DEMUXER MOV_MUXER MOV_DEMUXER
FATE_GPUJPEG-$(call ALLYES, $(GPUJPEG_HAP_DEPS)) += $(FATE_GPUJPEG_HAP)
FATE_GPUJPEG-$(call ALLYES, $(GPUJPEG_HAP_DEPS) HWUPLOAD_FILTER) += $(FATE_GPUJPEG_HAPHW)
$(FATE_GPUJPEG_HAP) $(FATE_GPUJPEG_HAPHW): $(GPUJPEG_HAP_DATA)/.stamp
