# libgpujpeg's DXT filter, dxt_gpujpeg (filters/), on the raw clips of
# gpujpeg_hap_inputs.sh (testsrc2, 3 frames; the rgba ones with a varying
# alpha): the framecrc of the blocks, downloaded as gray rows of blocks
# (doc/ffmpeg.md). dxtf-FORMAT-QUALITY compresses hardware frames
# (GPUJPEG_HWACCEL) in place, dxtf-sw-* software frames that the library
# uploads to the filter's device, dxtf-odd-* sizes that are not multiples of
# 4 (edge padding), dxtf-rows-bc1 a width whose rows of blocks fill CUDA's
# padded rows exactly (the blocks are written straight into the frame there).
# libgpujpeg's tests/ffmpeg/fate_truth_dxt_filter.sh checks that the blocks
# are those of `gpujpeg dxt` for the same pictures.
#
# DXT is bit-identical on CUDA and OpenCL, so the references (PoCL's) hold
# for GPUJPEG_HWACCEL=cuda too (all 14 on an H200, doc/benchmarks.md).
# Included by gpujpeg.mak; the device, hwaccel and HAP data variables are its.

GPUJPEG_DXTF_COMMA := ,

# NAME SRC FILTER_OPTIONS [PRE-FILTER]: SRC = PIX_FMT-WxH of the HAP clips
GPUJPEG_DXTF_CMD = framecrc -init_hw_device $(GPUJPEG_HWACCEL)=gj -filter_hw_device gj \
    -f rawvideo -pix_fmt $(word 1,$(subst -, ,$(2))) -video_size $(word 2,$(subst -, ,$(2))) -framerate 25 \
    -i $(TARGET_PATH)/$(GPUJPEG_HAP_DATA)/$(2).raw -vf $(if $(4),$(4)$(GPUJPEG_DXTF_COMMA))dxt_gpujpeg=$(3),hwdownload,format=gray

# hardware frames (hwupload), FORMAT-QUALITY
define GPUJPEG_DXTF_TEST
FATE_GPUJPEG_DXTF += fate-gpujpeg-dxtf-$(1)-$(2)
fate-gpujpeg-dxtf-$(1)-$(2): CMD = $$(call GPUJPEG_DXTF_CMD,,rgba-64x48,format=$(1):quality=$(2),hwupload)
endef

# NAME SRC FILTER_OPTIONS [PRE-FILTER]
define GPUJPEG_DXTF_CASE
FATE_GPUJPEG_DXTF += fate-gpujpeg-dxtf-$(1)
fate-gpujpeg-dxtf-$(1): CMD = $$(call GPUJPEG_DXTF_CMD,,$(2),$(3),$(4))
endef

$(foreach F,bc1 bc3 ycocg bc4,$(foreach Q,fast balanced,$(eval $(call GPUJPEG_DXTF_TEST,$(F),$(Q)))))
$(eval $(call GPUJPEG_DXTF_CASE,odd-bc3,rgba-98x62,format=bc3,hwupload))
$(eval $(call GPUJPEG_DXTF_CASE,odd-bc1-fast,rgba-98x62,format=bc1:quality=fast,hwupload))
$(eval $(call GPUJPEG_DXTF_CASE,odd-bc4,rgba-98x62,format=bc4,hwupload))
$(eval $(call GPUJPEG_DXTF_CASE,sw-rgb24-bc1,rgb24-96x64,format=bc1))
$(eval $(call GPUJPEG_DXTF_CASE,sw-yuvj420p-ycocg-fast,yuvj420p-96x64,format=hap_q:quality=fast))

# 512 pixels = 128 BC1 blocks = 1024 bytes: a multiple of CUDA's texture alignment
FATE_GPUJPEG_DXTF += fate-gpujpeg-dxtf-rows-bc1
fate-gpujpeg-dxtf-rows-bc1: CMD = framecrc -init_hw_device $(GPUJPEG_HWACCEL)=gj -filter_hw_device gj \
    -f lavfi -i testsrc2=size=512x32:rate=25$(GPUJPEG_DXTF_COMMA)format=rgba -frames:v 2 -vf hwupload,dxt_gpujpeg=format=bc1,hwdownload,format=gray

GPUJPEG_DXTF_DEPS = DXT_GPUJPEG_FILTER HWUPLOAD_FILTER HWDOWNLOAD_FILTER FORMAT_FILTER RAWVIDEO_DEMUXER \
                    LAVFI_INDEV TESTSRC2_FILTER FRAMECRC_MUXER
FATE_GPUJPEG-$(call ALLYES, $(GPUJPEG_DXTF_DEPS)) += $(FATE_GPUJPEG_DXTF)
$(FATE_GPUJPEG_DXTF): $(GPUJPEG_HAP_DATA)/.stamp
