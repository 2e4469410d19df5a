#!/usr/bin/perl
# One component of our decode against a JPEG 2000 conformance reference (PGX, T.803):
#   pgx_compare.pl OURS COMPONENT REF.pgx PEAK MSE [PLANES]
# OURS is a PGX file of the component (COMPONENT is then ignored), a PGM/PPM (8 or
# 16 bits; samples are aligned to the most significant bit and shifted back to the
# reference's depth) or, with PLANES ("W0xH0,W1xH1,..."), raw 8-bit planes one
# after another; signed samples come offset by 2^(depth - 1) but in PGX files.
# Prints the peak error and MSE; exit 0 when both
# are within the limits (the class-1 tolerances of T.803 Tables C.6/C.7).
use strict;
use warnings;

sub slurp {
    my ($path) = @_;
    open(my $f, '<:raw', $path) or die "pgx_compare.pl: $path: $!\n";
    local $/;
    return scalar <$f>;
}

my ($ours, $comp, $ref, $peak_max, $mse_max, $planes) = @ARGV;
die "usage: pgx_compare.pl OURS COMPONENT REF.pgx PEAK MSE [PLANES]\n" unless defined $mse_max;

# A PGX file's size and samples, signed ones as they are (stored sign-extended to 8 or 16 bits).
sub read_pgx {
    my ($path) = @_;
    my $r = slurp($path);
    $r =~ s/^PG\s+(ML|LM)\s*([+-]?)\s*(\d+)\s+(\d+)\s+(\d+)\s//s or die "pgx_compare.pl: $path: not a PGX file\n";
    my ($order, $sign, $depth, $w, $h) = ($1, $2, $3, $4, $5);
    my @samples = $depth > 8 ? unpack($order eq 'ML' ? 'n*' : 'v*', $r) : unpack('C*', $r);
    my $storage = $depth > 8 ? 16 : 8;
    @samples = map { $_ >= (1 << ($storage - 1)) ? $_ - (1 << $storage) : $_ } @samples if $sign eq '-';
    return ($sign, $depth, $w, $h, @samples);
}

my ($sign, $depth, $w, $h, @want) = read_pgx($ref);
my @got;
my $o = slurp($ours);
my $ours_pgx = $o =~ /^PG\s/;
if ($ours_pgx) {
    my ($osign, $odepth, $ow, $oh);
    ($osign, $odepth, $ow, $oh, @got) = read_pgx($ours);
    die "pgx_compare.pl: ours is ${ow}x$oh $osign$odepth bits, the reference ${w}x$h $sign$depth bits\n"
        if $ow != $w || $oh != $h || $odepth != $depth || ($osign eq '-') != ($sign eq '-');
} elsif (defined $planes) {
    my @sizes = map { [ split /x/ ] } split /,/, $planes;
    my $offset = 0;
    $offset += $sizes[$_][0] * $sizes[$_][1] for 0 .. $comp - 1;
    die "pgx_compare.pl: plane $comp is $sizes[$comp][0]x$sizes[$comp][1], the reference ${w}x$h\n"
        if $sizes[$comp][0] != $w || $sizes[$comp][1] != $h;
    @got = unpack('C*', substr($o, $offset, $w * $h));
} else {
    $o =~ s/^(P[56])\s+(\d+)\s+(\d+)\s+(\d+)\s//s or die "pgx_compare.pl: $ours: not a PGM/PPM\n";
    my ($channels, $ow, $oh, $max) = ($1 eq 'P6' ? 3 : 1, $2, $3, $4);
    die "pgx_compare.pl: ours is ${ow}x$oh, the reference ${w}x$h\n" if $ow != $w || $oh != $h;
    my @all = $max > 255 ? unpack('n*', $o) : unpack('C*', $o);
    my $shift = ($max > 255 ? 16 : 8) - $depth;
    $shift = 0 if $shift < 0;
    @got = map { $all[$_ * $channels + $comp] >> $shift } 0 .. $w * $h - 1;
}
# Signed samples come offset by 2^(depth - 1) as the decoder stores them, but in PGX files.
@got = map { $_ - (1 << ($depth - 1)) } @got if $sign eq '-' && !$ours_pgx;
die "pgx_compare.pl: " . scalar(@got) . " samples, the reference has " . scalar(@want) . "\n"
    if @got != @want;
my ($peak, $sum) = (0, 0);
for my $i (0 .. $#want) {
    my $d = abs($got[$i] - $want[$i]);
    $peak = $d if $d > $peak;
    $sum += $d * $d;
}
my $mse = $sum / @want;
printf "component %d: peak %d (limit %d), MSE %.4f (limit %s)\n", $comp, $peak, $peak_max, $mse, $mse_max;
exit($peak <= $peak_max && $mse <= $mse_max ? 0 : 1);
