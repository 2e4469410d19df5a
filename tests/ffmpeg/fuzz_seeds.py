#!/usr/bin/env python3
"""Seeds for FFmpeg's decoder harness (tools/target_dec_fuzzer.c; fuzz_decoders.sh).

    fuzz_seeds.py CORPUS OUT EXTENSIONS MAX_BYTES

Every file of CORPUS with one of EXTENSIONS (comma-separated) and fewer than
MAX_BYTES bytes, alone; then runs of two to six of them as the harness's packets
(separated by its FUZZ-TAG), followed by the 1,024 bytes from which the harness
reads its context: no flush (half of them) or flushes where random bits say,
now and then random keyframe and discard flags, now and then a lowres (0-31).
Random with a fixed seed: the same seeds every time.
"""
import os
import random
import struct
import sys

FUZZ_TAG = struct.pack('<Q', 0x4741542D5A5A5546)


def context(flush, keyframes, lowres):
    """The harness's trailer, in the order it reads it (width and height 0: the stream's)."""
    t = struct.pack('<IIqIB', 0, 0, 0, 0, 0)        # width height bit_rate bits_per_coded_sample flags
    t += struct.pack('<IIIII', 0, 0, 0, 0, 0)        # extradata_size sample_rate channels block_align codec_tag
    t += struct.pack('<QQB', keyframes, 0, 0)        # keyframes request_channel_layout idct_algo
    # flushpattern: the harness flushes before a packet where its low three bits are 0
    t += struct.pack('<QB', flush, 0)                # flushpattern skip_frame
    t += struct.pack('<QIB', 0, 0, lowres)           # flags64 workaround_bugs lowres (modulo max_lowres + 1)
    return t + b'\0' * (1024 - len(t))


def main():
    corpus, out, extensions, limit = sys.argv[1], sys.argv[2], sys.argv[3].split(','), int(sys.argv[4])
    rng = random.Random(7)
    names = sorted(f for f in os.listdir(corpus)
                   if f.rsplit('.', 1)[-1] in extensions and os.path.getsize(os.path.join(corpus, f)) < limit)
    if not names:
        sys.exit('fuzz_seeds.py: no small %s files in %s' % (sys.argv[3], corpus))
    files = []
    for name in names:
        with open(os.path.join(corpus, name), 'rb') as f:
            files.append(f.read())
    os.makedirs(out, exist_ok=True)
    seeds = list(files)
    for k in range(120):
        packets = [rng.choice(files) for _ in range(rng.randint(2, 6))]
        flush = 0xFFFFFFFFFFFFFFFF if k % 2 == 0 else rng.getrandbits(64)
        keyframes = rng.getrandbits(64) if k % 5 == 0 else 0
        lowres = rng.randint(0, 31) if k % 3 == 0 else 0
        seeds.append(FUZZ_TAG.join(packets) + FUZZ_TAG + context(flush, keyframes, lowres))
    for i, seed in enumerate(seeds):
        with open(os.path.join(out, 's%04d' % i), 'wb') as f:
            f.write(seed)


if __name__ == '__main__':
    main()
