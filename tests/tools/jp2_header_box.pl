#!/usr/bin/perl
# jp2_header_box.pl IN.jp2 OUT.jp2 BOX ARGS...: IN with a box in its JP2 Header box,
# which opj_compress does not write, at the end of it unless said:
#   res VRN VRD HRN HRD VRE HRE   a resolution box (T.800 I.5.3.7) of one capture
#                                 resolution box (resc): VRN / VRD * 10^VRE grid points
#                                 a metre vertically, HRN / HRD * 10^HRE horizontally
#   cdef CN:TYP:ASOC...           a channel definition box (I.5.3.6), a definition each
#   colr METH PROFILE             a colour specification box (I.5.3.3) of that method
#                                 holding PROFILE's bytes (an ICC profile), right after
#                                 ihdr: before opj_compress's own (sRGB or greyscale)
#   ihdr HEIGHT WIDTH             no box added: the image header box (I.5.3.1) says
#                                 HEIGHT x WIDTH, whatever the codestream's SIZ says
#   damaged TYPE LENGTH           no box added: the JP2 Header box's TYPE box says it is
#                                 LENGTH bytes long (a length damaged in an archive)
use strict;
use warnings;

my $usage = "usage: jp2_header_box.pl IN.jp2 OUT.jp2 res VRN VRD HRN HRD VRE HRE | cdef CN:TYP:ASOC... | " .
            "colr METH PROFILE | ihdr HEIGHT WIDTH | damaged TYPE LENGTH\n";
die $usage unless @ARGV >= 4;
my ($in, $out, $kind, @args) = @ARGV;
my ($box, $first);
if ($kind eq 'res' && @args == 6) {
    my $resc = pack('Na4nnnncc', 18, 'resc', @args);
    $box = pack('Na4', 8 + length($resc), 'res ') . $resc;
} elsif ($kind eq 'cdef') {
    my $body = pack('n', scalar @args) . join('', map { pack('nnn', split(/:/, $_)) } @args);
    $box = pack('Na4', 8 + length($body), 'cdef') . $body;
} elsif ($kind eq 'colr' && @args == 2) {
    open(my $p, '<:raw', $args[1]) or die "jp2_header_box.pl: $args[1]: $!\n";
    my $body = pack('CCC', $args[0], 0, 0) . do { local $/; <$p> };
    close($p);
    $box = pack('Na4', 8 + length($body), 'colr') . $body;
    $first = 1;
} elsif (($kind eq 'ihdr' || $kind eq 'damaged') && @args == 2) {
    $box = '';
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
die "jp2_header_box.pl: $in: jp2h does not start with ihdr\n" if substr($jp2, $pos + 12, 4) ne 'ihdr';
substr($jp2, $pos + 16, 8) = pack('NN', @args) if $kind eq 'ihdr';
if ($kind eq 'damaged') {
    my $at = $pos + 8;
    while (substr($jp2, $at + 4, 4) ne $args[0]) {
        $at += unpack('N', substr($jp2, $at, 4));
        die "jp2_header_box.pl: $in: no '$args[0]' box in jp2h\n" if $at >= $pos + $length;
    }
    substr($jp2, $at, 4) = pack('N', $args[1]);
}
# ihdr comes first in the JP2 Header box (I.5.3)
my $at = $first ? $pos + 8 + unpack('N', substr($jp2, $pos + 8, 4)) : $pos + $length;
substr($jp2, $at, 0) = $box;
substr($jp2, $pos, 4) = pack('N', $length + length($box));
open(my $o, '>:raw', $out) or die "jp2_header_box.pl: $out: $!\n";
print $o $jp2;
close($o) or die "jp2_header_box.pl: $out: $!\n";
