#!/usr/bin/perl
# j2k_swap_tile_parts.pl IN.j2k OUT.j2k: the codestream with its second and third
# tile-parts swapped, each keeping its own SOT (TPsot): a tile's parts out of the order
# that A.4.2 asks, which no encoder of the corpus writes.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(read_codestream main_segments tile_parts write_file);

my $tool = 'j2k_swap_tile_parts.pl';
die "usage: $tool IN.j2k OUT.j2k\n" unless @ARGV == 2;
my ($from, $to) = @ARGV;
my $cs = read_codestream($tool, $from);
die "$tool: $from: TLM in the main header (its order would change)\n"
    if grep { $_->[0] == 0xff55 } main_segments($tool, $from, $cs);
my ($head, $parts, $tail) = tile_parts($tool, $from, $cs);
die "$tool: $from: fewer than three tile-parts\n" if @$parts < 3;
@$parts[1, 2] = @$parts[2, 1];
write_file($tool, $to, join('', $head, @$parts, $tail));
