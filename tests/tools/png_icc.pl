#!/usr/bin/perl
# png_icc.pl: PNG files and ICC profiles, for the tests of a JP2 file's profile.
#   png_icc.pl write IN.{ppm,pgm} PROFILE OUT.png   IN (8-bit) as a PNG file with PROFILE
#                                                   in an iCCP chunk (Grok's encoder puts it
#                                                   in the JP2 file it makes of the PNG)
#   png_icc.pl read IN.png                          the iCCP chunk's profile to stdout;
#                                                   exit status 1 without one
use strict;
use warnings;
use Compress::Zlib qw(compress uncompress crc32);

my $usage = "usage: png_icc.pl write IN.{ppm,pgm} PROFILE OUT.png | read IN.png\n";

sub slurp {
    my ($path) = @_;
    open(my $f, '<:raw', $path) or die "png_icc.pl: $path: $!\n";
    my $data = do { local $/; <$f> };
    close($f);
    return $data;
}

sub chunk {
    my ($type, $data) = @_;
    return pack('N', length($data)) . $type . $data . pack('N', crc32($type . $data));
}

my $cmd = shift(@ARGV) // die $usage;
if ($cmd eq 'write' && @ARGV == 3) {
    my ($in, $profile, $out) = @ARGV;
    my $pnm = slurp($in);
    $pnm =~ /\A(P[56])\s+(\d+)\s+(\d+)\s+(\d+)\s/ or die "png_icc.pl: $in: not a binary PPM or PGM\n";
    my ($magic, $w, $h, $max) = ($1, $2, $3, $4);
    die "png_icc.pl: $in: $max is not 8 bits\n" unless $max == 255;
    my $channels = $magic eq 'P6' ? 3 : 1;
    my $pixels = substr($pnm, $+[0], $w * $h * $channels);
    die "png_icc.pl: $in: cut short\n" unless length($pixels) == $w * $h * $channels;
    # rows of filter type 0 (none)
    my $raw = join('', map { "\0" . substr($pixels, $_ * $w * $channels, $w * $channels) } 0 .. $h - 1);
    my $png = "\x89PNG\r\n\x1a\n" . chunk('IHDR', pack('NNCCCCC', $w, $h, 8, $channels == 3 ? 2 : 0, 0, 0, 0)) .
              chunk('iCCP', "ICC profile\0\0" . compress(slurp($profile))) . chunk('IDAT', compress($raw)) .
              chunk('IEND', '');
    open(my $o, '>:raw', $out) or die "png_icc.pl: $out: $!\n";
    print $o $png;
    close($o) or die "png_icc.pl: $out: $!\n";
} elsif ($cmd eq 'read' && @ARGV == 1) {
    my $png = slurp($ARGV[0]);
    die "png_icc.pl: $ARGV[0]: not a PNG file\n" unless substr($png, 0, 8) eq "\x89PNG\r\n\x1a\n";
    for (my $pos = 8; $pos + 12 <= length($png);) {
        my ($length, $type) = unpack('Na4', substr($png, $pos, 8));
        if ($type eq 'iCCP') {
            my $data = substr($png, $pos + 8, $length);
            # name, its terminating zero, the compression method (0: zlib)
            $data =~ /\A[^\0]{1,79}\0\0/ or die "png_icc.pl: $ARGV[0]: iCCP chunk without a name\n";
            my $profile = uncompress(substr($data, $+[0]));
            defined($profile) or die "png_icc.pl: $ARGV[0]: iCCP chunk does not inflate\n";
            binmode(STDOUT);
            print $profile;
            exit 0;
        }
        $pos += 12 + $length;
    }
    exit 1;
} else {
    die $usage;
}
