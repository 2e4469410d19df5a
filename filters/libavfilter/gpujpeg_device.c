/* libavcodec's libgpujpeg device glue, compiled into libavfilter for shared
 * builds (static ones link libavcodec's libgpujpeg.o): see the Makefile. */
#include "libavcodec/gpujpeg_device.c"
