#!/usr/bin/perl
# What the corpus needs to know of a codestream or JP2 file from elsewhere
# (tests/gen_j2k_corpus.sh): j2k_facts.pl FILE prints "REVERSIBLE BITS", 1 when COD's
# transform (its last SPcod byte, A.6.1) is the 5/3 one, else 0, and the largest
# component precision of SIZ (Ssiz, A.5.1).
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(codestream_in main_segments);

my ($name) = @ARGV;
die "usage: j2k_facts.pl FILE\n" unless defined $name;
my $cs = codestream_in('j2k_facts.pl', $name);
my ($reversible, $bits);
for my $segment (main_segments('j2k_facts.pl', $name, $cs)) {
    my ($marker, $pos, $length) = @$segment;
    if ($marker == 0xff51 && $length >= 41) {
        my $components = unpack('n', substr($cs, $pos + 4 + 34, 2));
        $bits = 0;
        for my $c (0 .. $components - 1) {
            last if 36 + 3 * $c >= $length - 2;
            my $precision = (ord(substr($cs, $pos + 4 + 36 + 3 * $c, 1)) & 0x7f) + 1;
            $bits = $precision if $precision > $bits;
        }
    }
    $reversible = ord(substr($cs, $pos + 4 + 9, 1)) ? 1 : 0 if $marker == 0xff52 && $length >= 12;
}
die "j2k_facts.pl: $name: no SIZ or no COD in the main header\n" unless defined $bits && defined $reversible;
print "$reversible $bits\n";
