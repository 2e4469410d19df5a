#!/usr/bin/perl
# The JPEG 2000 codestream (or JP2 file, as some writers put there) of the first frame of a
# DICOM file (encapsulated pixel data, PS3.5 A.4): dicom_j2k.pl IN.dcm OUT. The pixel
# data element (7FE0,0010), explicit VR OB or OW of undefined length, holds items: the
# basic offset table, then the fragments of the frames: the first frame's are joined here.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(read_file write_file);

# A codestream (SOC, SIZ) or a JP2 file (its signature box) starts here.
sub starts_picture {
    my ($b) = @_;
    return substr($b, 0, 4) eq "\xFF\x4F\xFF\x51" || substr($b, 0, 12) eq "\0\0\0\x0CjP  \r\n\x87\n";
}

my ($in, $out) = @ARGV;
die "usage: dicom_j2k.pl IN.dcm OUT\n" unless defined $out;
my $d = read_file('dicom_j2k.pl', $in);

my $at = -1;
for my $vr ('OB', 'OW') {
    my $k = rindex($d, pack('v2 A2 v V', 0x7FE0, 0x0010, $vr, 0, 0xFFFFFFFF));
    $at = $k if $k > $at;
}
die "dicom_j2k.pl: $in: no encapsulated pixel data\n" if $at < 0;
my $pos = $at + 12;
my ($items, $stream) = (0, '');
while ($pos + 8 <= length($d)) {
    my ($group, $element, $length) = unpack('v v V', substr($d, $pos, 8));
    $pos += 8;
    last if $group == 0xFFFE && $element == 0xE0DD;     # sequence delimiter
    die "dicom_j2k.pl: $in: not an item at byte " . ($pos - 8) . "\n" unless $group == 0xFFFE && $element == 0xE000;
    my $item = substr($d, $pos, $length);
    # a multi-frame file's next frame begins (its first fragment): the first frame is whole
    last if length($stream) && starts_picture($item);
    die "dicom_j2k.pl: $in: an item past the end\n" if $pos + $length > length($d);
    $pos += $length;
    $stream .= $item if $items++;       # the first is the offset table
}
die "dicom_j2k.pl: $in: no JPEG 2000 codestream nor JP2 file\n" unless starts_picture($stream);
write_file('dicom_j2k.pl', $out, $stream);
