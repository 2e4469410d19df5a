#!/usr/bin/perl
# j2k_roi_planes.pl IN.j2k OUT.j2k K: moves K magnitude bit-planes of a one-component
# codestream with an RGN marker (opj_compress -ROI) from its sub-bands' Mb (QCD's
# exponents, T.800 E-2) to the ROI shift (RGN's SPrgn, A.6.3). Every code-block keeps
# the bit-planes it codes (Mb + shift - missing ones), but its missing bit-planes
# (B.10.5) now pass Mb where they pass Mb - K, as the background's code-blocks of a
# max-shift ROI encoder's streams do (H.1); opj_compress writes none such.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(read_codestream main_segments write_file);

die "usage: j2k_roi_planes.pl IN.j2k OUT.j2k K\n" unless @ARGV == 3;
my ($in_name, $out_name, $k) = @ARGV;
my $cs = read_codestream('j2k_roi_planes.pl', $in_name);
my ($qcd, $rgn) = (0, 0);
for my $segment (main_segments('j2k_roi_planes.pl', $in_name, $cs)) {
    my ($marker, $pos, $length) = @$segment;
    my $at = $pos + 4;                  # the segment's parameters
    if ($marker == 0xff51) {
        die "j2k_roi_planes.pl: $in_name: more than one component\n" if unpack('n', substr($cs, $pos + 38, 2)) != 1;
    } elsif ($marker == 0xff5d) {
        die "j2k_roi_planes.pl: $in_name: QCC\n";
    } elsif ($marker == 0xff5c) {
        # Sqcd, then per sub-band the exponent in the top 5 bits of a byte (no
        # quantisation) or of a 16-bit word (scalar derived or expounded).
        my $style = ord(substr($cs, $at, 1)) & 0x1f;
        my $step = $style == 0 ? 1 : 2;
        for (my $i = $at + 1; $i < $pos + 2 + $length; $i += $step) {
            my $byte = ord(substr($cs, $i, 1));
            my $exponent = ($byte >> 3) - $k;
            die "j2k_roi_planes.pl: $in_name: an exponent below $k\n" if $exponent < 0;
            substr($cs, $i, 1) = chr(($exponent << 3) | ($byte & 7));
        }
        $qcd = 1;
    } elsif ($marker == 0xff5e) {
        # Crgn (one byte: one component), Srgn, SPrgn
        my $shift = ord(substr($cs, $at + 2, 1)) + $k;
        die "j2k_roi_planes.pl: $in_name: a shift of $shift\n" if $shift > 255;
        substr($cs, $at + 2, 1) = chr($shift);
        $rgn = 1;
    }
}
die "j2k_roi_planes.pl: $in_name: no QCD or no RGN in the main header\n" unless $qcd && $rgn;
write_file('j2k_roi_planes.pl', $out_name, $cs);
