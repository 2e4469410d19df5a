#!/usr/bin/perl
# j2k_roi_planes.pl IN.j2k OUT.j2k K: moves K magnitude bit-planes of a one-component
# codestream with an RGN marker (opj_compress -ROI) from its sub-bands' Mb (QCD's
# exponents, T.800 E-2) to the ROI shift (RGN's SPrgn, A.6.3). Every code-block keeps
# the bit-planes it codes (Mb + shift - missing ones), but its missing bit-planes
# (B.10.5) now pass Mb where they pass Mb - K, as the background's code-blocks of a
# max-shift ROI encoder's streams do (H.1); opj_compress writes none such.
use strict;
use warnings;

die "usage: j2k_roi_planes.pl IN.j2k OUT.j2k K\n" unless @ARGV == 3;
my ($in_name, $out_name, $k) = @ARGV;
open(my $in, '<:raw', $in_name) or die "j2k_roi_planes.pl: $in_name: $!\n";
local $/;
my $cs = <$in>;
close($in);
die "j2k_roi_planes.pl: $in_name: not a codestream\n" unless substr($cs, 0, 2) eq "\xff\x4f";

my ($pos, $qcd, $rgn) = (2, 0, 0);
while (1) {
    die "j2k_roi_planes.pl: $in_name: no SOT\n" if $pos + 4 > length($cs);
    my ($marker, $length) = unpack('nn', substr($cs, $pos, 4));
    last if $marker == 0xff90;
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
    $pos += 2 + $length;
}
die "j2k_roi_planes.pl: $in_name: no QCD or no RGN in the main header\n" unless $qcd && $rgn;
open(my $out, '>:raw', $out_name) or die "j2k_roi_planes.pl: $out_name: $!\n";
print $out $cs;
close($out) or die "j2k_roi_planes.pl: $out_name: $!\n";
