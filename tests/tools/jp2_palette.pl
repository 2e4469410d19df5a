#!/usr/bin/perl
# jp2_palette.pl IN.j2k OUT.jp2 [MAP]: wraps a codestream whose component 0 has 8 bits
# in a JP2 file (T.800 Annex I) whose palette (pclr: 256 entries x 3 columns) and
# component map (cmap) make component 0 an RGB picture, leaving any others out;
# opj_compress cannot write palettes. MAP writes the map as some writers got it wrong:
#   outside   the cmap box after the JP2 Header box instead of inside it
#   unused    channel 0 through column 0, channels 1 and 2 the component itself,
#             columns 1 and 2 unused (the files of OpenJPEG's issues 235 and 447)
#   none      no cmap box
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(read_codestream main_segments write_file);

sub box {
    my ($type, $data) = @_;
    return pack('N', 8 + length($data)) . $type . $data;
}

my $usage = "usage: jp2_palette.pl IN.j2k OUT.jp2 [outside | unused | none]\n";
die $usage unless @ARGV == 2 || (@ARGV == 3 && $ARGV[2] =~ /^(outside|unused|none)$/);
my $map = $ARGV[2] // '';
my $cs = read_codestream('jp2_palette.pl', $ARGV[0]);
my ($siz) = map { $_->[1] } grep { $_->[0] == 0xff51 } main_segments('jp2_palette.pl', $ARGV[0], $cs);
die "jp2_palette.pl: $ARGV[0]: no SIZ\n" unless defined $siz;
my ($w, $h) = unpack('N2', substr($cs, $siz + 6, 8));
my $nc = unpack('n', substr($cs, $siz + 38, 2));
my $ihdr = box('ihdr', pack('NNnCCCC', $h, $w, $nc, 7, 7, 0, 0));
my $colr = box('colr', pack('CCCN', 1, 0, 0, 16));                  # enumerated sRGB
my $pclr = box('pclr', pack('nC', 256, 3) . pack('C3', 7, 7, 7) .
               join('', map { pack('C3', $_, 255 - $_, ($_ * 7) & 255) } 0 .. 255));
# component 0 through columns 0-2
my $cmap = box('cmap', $map eq 'unused' ? pack('nCC', 0, 1, 0) . pack('nCC', 0, 0, 0) x 2
                                        : join('', map { pack('nCC', 0, 1, $_) } 0 .. 2));
my $inside = $map eq 'outside' || $map eq 'none' ? '' : $cmap;
write_file('jp2_palette.pl', $ARGV[1], pack('N', 12) . 'jP  ' . "\x0d\x0a\x87\x0a" .
           box('ftyp', 'jp2 ' . pack('N', 0) . 'jp2 ') . box('jp2h', $ihdr . $colr . $pclr . $inside) .
           ($map eq 'outside' ? $cmap : '') . box('jp2c', $cs));
