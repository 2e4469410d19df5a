#!/usr/bin/perl
# j2k_guard_bits.pl IN.j2k OUT.j2k DELTA: the main header's QCD with DELTA more guard
# bits. A code-block's magnitude bits count down from Mb = guard bits + exponent - 1
# (T.800 E-2), so every decoded coefficient, and the picture about its DC level, grows
# 2^DELTA times: a lossy 8-bit stream whose values overshoot what its samples allow
# (OpenJPEG decodes it alike and clips; no encoder writes one).
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(read_codestream main_segments write_file);

die "usage: j2k_guard_bits.pl IN.j2k OUT.j2k DELTA\n" unless @ARGV == 3;
my ($from, $to, $delta) = @ARGV;
my $cs = read_codestream('j2k_guard_bits.pl', $from);
my ($qcd) = grep { $_->[0] == 0xff5c } main_segments('j2k_guard_bits.pl', $from, $cs);
die "j2k_guard_bits.pl: $from: no QCD in the main header\n" unless $qcd;
my $at = $qcd->[1] + 4;
my $sqcd = ord(substr($cs, $at, 1));
my $guard = ($sqcd >> 5) + $delta;
die "j2k_guard_bits.pl: $guard guard bits (at most 7)\n" if $guard > 7 || $guard < 0;
substr($cs, $at, 1) = chr($guard << 5 | ($sqcd & 31));
write_file('j2k_guard_bits.pl', $to, $cs);
