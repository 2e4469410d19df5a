#!/bin/sh
# Installs, on Debian 12, everything the README's two commands need: the build
# (compiler, autotools, OpenCL and PoCL, libpng), the references and corpus
# sources of the tests (libjpeg-turbo, the wallpaper photographs) and clang with
# libFuzzer, FFmpeg (its hap encoder and DDS decoder are the DXT tests' references),
# OpenJPEG's tools (the JPEG 2000 tests' streams and references), Grok's (a second
# encoder's streams), pydicom (its JPEG 2000 test files: medical codestreams), free
# ICC profiles (a JP2 file's colour profile, handed on by the decoder), GDAL (the JP2
# files of geospatial software).
# The CUDA backend is built too when nvcc is installed (not from here).
set -eu

packages="
    build-essential autoconf automake libtool pkg-config patch xz-utils
    ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
    libpng-dev libsnappy-dev
    libjpeg62-turbo-dev libjpeg-turbo-progs
    libopenjp2-tools grokj2k-tools python3-pydicom icc-profiles-free gdal-bin
    plasma-workspace-wallpapers
    ffmpeg
    clang libclang-rt-dev
"

sudo=
if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# Recommended packages too: PoCL compiles kernels at run time through clang and
# the linker, and a fresh machine should not miss a piece of that.
# shellcheck disable=SC2086 # one word per package
$sudo apt-get install -y -q $packages
