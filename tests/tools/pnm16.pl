#!/usr/bin/perl
# Netpbm pictures of more than 8 bits for the JPEG 2000 tests (image_compare reads 8-bit ones):
#   pnm16.pl align IN OUT       MAXVAL 2^p - 1 (as opj_decompress writes) -> MAXVAL 65535 with the
#                               samples shifted to the most significant bits (as the decoder writes)
#   pnm16.pl compare A B TOL    exit 0 when every sample of A is within TOL of B's (16-bit units);
#                               else prints how many differ and by how much at most
use strict;
use warnings;

sub load {
    my ($path) = @_;
    open(my $f, '<:raw', $path) or die "pnm16.pl: $path: $!\n";
    local $/;
    my $d = <$f>;
    $d =~ s/^(P[56])\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)\s//s
        or die "pnm16.pl: $path: not a P5/P6 picture\n";
    my ($type, $w, $h, $max) = ($1, $2, $3, $4);
    my @v = $max > 255 ? unpack('n*', $d) : unpack('C*', $d);
    return ($type, $w, $h, $max, \@v);
}

my $cmd = shift // '';
if ($cmd eq 'align' && @ARGV == 2) {
    my ($type, $w, $h, $max, $v) = load($ARGV[0]);
    my $bits = 0;
    $bits++ while (1 << $bits) <= $max;
    open(my $o, '>:raw', $ARGV[1]) or die "pnm16.pl: $ARGV[1]: $!\n";
    print $o "$type\n$w $h\n65535\n", pack('n*', map { $_ << (16 - $bits) } @$v);
    close($o) or die "pnm16.pl: $ARGV[1]: $!\n";
    exit 0;
}
if ($cmd eq 'compare' && @ARGV == 3) {
    my @a = load($ARGV[0]);
    my @b = load($ARGV[1]);
    if ($a[0] ne $b[0] || $a[1] != $b[1] || $a[2] != $b[2] || $a[3] != $b[3]) {
        print "size differs: $a[0] $a[1]x$a[2] maxval $a[3] vs $b[0] $b[1]x$b[2] maxval $b[3]\n";
        exit 1;
    }
    my ($count, $max) = (0, 0);
    for my $i (0 .. $#{ $a[4] }) {
        my $d = abs($a[4][$i] - $b[4][$i]);
        next unless $d;
        $count++;
        $max = $d if $d > $max;
    }
    exit 0 if $max <= $ARGV[2];
    print "$count samples differ; max |diff| $max\n";
    exit 1;
}
die "usage: pnm16.pl align IN OUT | compare A B TOLERANCE\n";
