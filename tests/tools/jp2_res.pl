#!/usr/bin/perl
# jp2_res.pl IN.jp2 OUT.jp2 VRN VRD HRN HRD VRE HRE: IN with a resolution box (res,
# T.800 I.5.3.7) of one capture resolution box (resc) at the end of its JP2 Header
# box: VRN / VRD * 10^VRE grid points a metre vertically, HRN / HRD * 10^HRE
# horizontally; opj_compress writes no res box.
use strict;
use warnings;

die "usage: jp2_res.pl IN.jp2 OUT.jp2 VRN VRD HRN HRD VRE HRE\n" unless @ARGV == 8;
my ($in, $out, @res) = @ARGV;
open(my $f, '<:raw', $in) or die "jp2_res.pl: $in: $!\n";
my $jp2 = do { local $/; <$f> };
close($f);
# the top-level boxes up to the JP2 Header box (no extended lengths in opj_compress's files)
my $pos = 0;
while (1) {
    die "jp2_res.pl: $in: no jp2h box\n" if $pos + 8 > length($jp2);
    my ($length, $type) = unpack('Na4', substr($jp2, $pos, 8));
    die "jp2_res.pl: $in: box '$type' of length $length\n" if $length < 8;
    last if $type eq 'jp2h';
    $pos += $length;
}
my $length = unpack('N', substr($jp2, $pos, 4));
my $resc = pack('Na4nnnncc', 18, 'resc', @res);
my $box = pack('Na4', 8 + length($resc), 'res ') . $resc;
substr($jp2, $pos + $length, 0) = $box;
substr($jp2, $pos, 4) = pack('N', $length + length($box));
open(my $o, '>:raw', $out) or die "jp2_res.pl: $out: $!\n";
print $o $jp2;
close($o) or die "jp2_res.pl: $out: $!\n";
