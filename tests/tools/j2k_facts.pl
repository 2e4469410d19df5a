#!/usr/bin/perl
# What the corpus needs to know of a codestream or JP2 file from elsewhere
# (tests/gen_j2k_corpus.sh): j2k_facts.pl FILE [CODESTREAM_OUT] prints
# "REVERSIBLE BITS SUBSAMPLED HTJ2K":
#   REVERSIBLE  1 when COD's transform (its last SPcod byte, A.6.1) is the 5/3 one, else 0
#   BITS        the largest component precision of SIZ (Ssiz, A.5.1)
#   SUBSAMPLED  1 where opj_decompress takes the picture for sYCC and converts it to RGB
#               whatever the file says (three components, the first as wide as high, the
#               second subsampled horizontally) and can (the first not subsampled, the
#               others 2x2 or 2x1: 4:2:0 or 4:2:2), else 0
#   HTJ2K       1 for an HTJ2K codestream (Rsiz's bit 14, or a CAP marker segment:
#               T.814), which the decoder refuses, else 0
# CODESTREAM_OUT gets the codestream alone (a JP2 file's jp2c box), which opj_decompress
# decodes without the JP2 file's palette, ICC profile or colour space.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(codestream_in main_segments write_file);

my ($name, $codestream_out) = @ARGV;
die "usage: j2k_facts.pl FILE [CODESTREAM_OUT]\n" unless defined $name;
my $cs = codestream_in('j2k_facts.pl', $name);
my ($reversible, $bits, $components, $subsampled, $htj2k) = (undef, undef, undef, undef, 0);
for my $segment (main_segments('j2k_facts.pl', $name, $cs)) {
    my ($marker, $pos, $length) = @$segment;
    $htj2k = 1 if $marker == 0xff50;
    if ($marker == 0xff51 && $length >= 41) {
        $htj2k = 1 if unpack('n', substr($cs, $pos + 4, 2)) & 0x4000;
        # Ssiz, XRsiz, YRsiz of component c: bytes 36 + 3c to 38 + 3c after Lsiz
        my $sub = sub { my ($c, $k) = @_; return ord(substr($cs, $pos + 4 + 36 + 3 * $c + $k, 1)); };
        $components = unpack('n', substr($cs, $pos + 4 + 34, 2));
        $bits = 0;
        for my $c (0 .. $components - 1) {
            last if 36 + 3 * $c + 2 >= $length - 2;
            my $precision = ($sub->($c, 0) & 0x7f) + 1;
            $bits = $precision if $precision > $bits;
        }
        $subsampled = $components == 3 && $length >= 2 + 36 + 9 && $sub->(0, 1) == 1 && $sub->(0, 2) == 1 &&
                      $sub->(1, 1) == 2 && $sub->(2, 1) == 2 && $sub->(1, 2) == $sub->(2, 2) && $sub->(1, 2) <= 2
                      ? 1 : 0;
    }
    $reversible = ord(substr($cs, $pos + 4 + 9, 1)) ? 1 : 0 if $marker == 0xff52 && $length >= 12;
}
die "j2k_facts.pl: $name: no SIZ or no COD in the main header\n" unless defined $bits && defined $reversible;
write_file('j2k_facts.pl', $codestream_out, $cs) if defined $codestream_out;
print "$reversible $bits $subsampled $htj2k\n";
