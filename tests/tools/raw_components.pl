#!/usr/bin/perl
# Raw planar components for opj_compress -F (tests/gen_j2k_corpus.sh's components_*
# streams), made from a photo so that they carry real picture content:
#   raw_components.pl IN.ppm OUT.raw DEPTH DXxDY...
# Component c is channel c % 3 of IN (inverted for c >= 3), sampled at every DX-th
# column and DY-th row; deeper than 8 bits, a pattern fills the bits below the
# photo's 8. Samples of more than 8 bits are written big-endian (opj_compress .raw).
use strict;
use warnings;

my ($in, $out, $depth, @subs) = @ARGV;
die "usage: raw_components.pl IN.ppm OUT.raw DEPTH DXxDY...\n" unless @subs;
open(my $f, '<:raw', $in) or die "raw_components.pl: $in: $!\n";
my $data = do { local $/; <$f> };
$data =~ s/^P6\s+(\d+)\s+(\d+)\s+255\s//s or die "raw_components.pl: $in: not an 8-bit PPM\n";
my ($w, $h) = ($1, $2);
my @rgb = unpack('C*', $data);
open(my $o, '>:raw', $out) or die "raw_components.pl: $out: $!\n";
for my $c (0 .. $#subs) {
    my ($dx, $dy) = split /x/, $subs[$c];
    my @samples;
    for (my $y = 0; $y < $h; $y += $dy) {
        for (my $x = 0; $x < $w; $x += $dx) {
            my $v = $rgb[($y * $w + $x) * 3 + $c % 3];
            $v = 255 - $v if $c >= 3;
            $v = $v << ($depth - 8) | (($x * 7 + $y * 3 + $c) & ((1 << ($depth - 8)) - 1)) if $depth > 8;
            push @samples, $v;
        }
    }
    print $o pack($depth > 8 ? 'n*' : 'C*', @samples);
}
close($o) or die "raw_components.pl: $out: $!\n";
