#!/usr/bin/perl
# j2k_guard_bits.pl IN.j2k OUT.j2k DELTA: the main header's QCD with DELTA more guard
# bits. A code-block's magnitude bits count down from Mb = guard bits + exponent - 1
# (T.800 E-2), so every decoded coefficient, and the picture about its DC level, grows
# 2^DELTA times: a lossy 8-bit stream whose values overshoot what its samples allow
# (OpenJPEG decodes it alike and clips; no encoder writes one).
use strict;
use warnings;

die "usage: j2k_guard_bits.pl IN.j2k OUT.j2k DELTA\n" unless @ARGV == 3;
my ($from, $to, $delta) = @ARGV;
open(my $in, '<:raw', $from) or die "j2k_guard_bits.pl: $from: $!\n";
local $/;
my $cs = <$in>;
close($in);
die "j2k_guard_bits.pl: $from: not a codestream\n" unless substr($cs, 0, 2) eq "\xff\x4f";
# The main header's markers after SOC, each with its length, up to the first SOT.
my $at = 2;
while ($at + 4 <= length($cs)) {
    my ($marker, $length) = unpack('nn', substr($cs, $at, 4));
    die "j2k_guard_bits.pl: $from: no QCD in the main header\n" if $marker == 0xff90;
    if ($marker == 0xff5c) {
        my $sqcd = ord(substr($cs, $at + 4, 1));
        my $guard = ($sqcd >> 5) + $delta;
        die "j2k_guard_bits.pl: $guard guard bits (at most 7)\n" if $guard > 7 || $guard < 0;
        substr($cs, $at + 4, 1) = chr($guard << 5 | ($sqcd & 31));
        open(my $out, '>:raw', $to) or die "j2k_guard_bits.pl: $to: $!\n";
        print $out $cs;
        close($out) or die "j2k_guard_bits.pl: $to: $!\n";
        exit 0;
    }
    $at += 2 + $length;
}
die "j2k_guard_bits.pl: $from: no QCD in the main header\n";
