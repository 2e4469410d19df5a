#!/bin/sh
# fate-gpujpeg-j2k-icc: jpeg2000_gpujpeg gives each frame its JP2 file's ICC profile as
# side data (AV_FRAME_DATA_ICC_PROFILE), which showinfo prints, and none to a frame
# whose file has none; in batches too. Prints each frame's number and side data.
#
#   gpujpeg_j2k_icc.sh FFMPEG GPU_DEVICE INPUTS BATCH (runlocal adds FFmpeg's tests directory)
ffmpeg=$1 device=$2 inputs=$3 batch=$4
"$ffmpeg" -nostdin -hide_banner -batch "$batch" -c:v jpeg2000_gpujpeg -gpu_device "$device" \
    -i "$inputs/icc-%03d.jp2" -vf showinfo -f null - 2>&1 |
    sed -n 's/.*] \(n: *[0-9]*\) .*/\1/p; s/.*]   side data - \(.*\)/    \1/p'
