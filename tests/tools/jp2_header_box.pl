#!/usr/bin/perl
# jp2_header_box.pl IN.jp2 OUT.jp2 BOX ARGS...: IN with a box at the end of its JP2
# Header box, which opj_compress does not write:
#   res VRN VRD HRN HRD VRE HRE   a resolution box (T.800 I.5.3.7) of one capture
#                                 resolution box (resc): VRN / VRD * 10^VRE grid points
#                                 a metre vertically, HRN / HRD * 10^HRE horizontally
#   cdef CN:TYP:ASOC...           a channel definition box (I.5.3.6), a definition each
use strict;
use warnings;

my $usage = "usage: jp2_header_box.pl IN.jp2 OUT.jp2 res VRN VRD HRN HRD VRE HRE | cdef CN:TYP:ASOC...\n";
die $usage unless @ARGV >= 4;
my ($in, $out, $kind, @args) = @ARGV;
my $box;
if ($kind eq 'res' && @args == 6) {
    my $resc = pack('Na4nnnncc', 18, 'resc', @args);
    $box = pack('Na4', 8 + length($resc), 'res ') . $resc;
} elsif ($kind eq 'cdef') {
    my $body = pack('n', scalar @args) . join('', map { pack('nnn', split(/:/, $_)) } @args);
    $box = pack('Na4', 8 + length($body), 'cdef') . $body;
} else {
    die $usage;
}
open(my $f, '<:raw', $in) or die "jp2_header_box.pl: $in: $!\n";
my $jp2 = do { local $/; <$f> };
close($f);
# the top-level boxes up to the JP2 Header box (no extended lengths in opj_compress's files)
my $pos = 0;
while (1) {
    die "jp2_header_box.pl: $in: no jp2h box\n" if $pos + 8 > length($jp2);
    my ($length, $type) = unpack('Na4', substr($jp2, $pos, 8));
    die "jp2_header_box.pl: $in: box '$type' of length $length\n" if $length < 8;
    last if $type eq 'jp2h';
    $pos += $length;
}
my $length = unpack('N', substr($jp2, $pos, 4));
substr($jp2, $pos + $length, 0) = $box;
substr($jp2, $pos, 4) = pack('N', $length + length($box));
open(my $o, '>:raw', $out) or die "jp2_header_box.pl: $out: $!\n";
print $o $jp2;
close($o) or die "jp2_header_box.pl: $out: $!\n";
