#!/usr/bin/perl
# j2k_cod_edit.pl IN.j2k OUT.j2k EDIT: the codestream with its coding style (COD, T.800
# A.6.1) written as some encoders got it wrong, which no encoder of the corpus writes:
#   mct             the main header's COD asks for the component transform (SGcod's
#                   multiple component transformation byte 1), whatever the components
#   repeat [LAYERS] a copy of the main header's COD in the header of every tile-part but
#                   a tile's first, where A.4.2 allows none (the repeats of a writer of
#                   digital-library files), its number of layers LAYERS where given;
#                   each tile-part's length (Psot) grows by the copy's bytes
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(read_codestream main_segments write_file);

my $tool = 'j2k_cod_edit.pl';
my $usage = "usage: $tool IN.j2k OUT.j2k mct | repeat [LAYERS]\n";
die $usage unless @ARGV >= 3;
my ($from, $to, $edit, @args) = @ARGV;
my $cs = read_codestream($tool, $from);
my @main = main_segments($tool, $from, $cs);
my ($cod) = grep { $_->[0] == 0xff52 } @main;
die "$tool: $from: no COD in the main header\n" unless $cod;
die "$tool: $from: TLM or PLM in the main header (their lengths would change)\n"
    if grep { $_->[0] == 0xff55 || $_->[0] == 0xff57 } @main;
# After the marker and Lcod: Scod, the progression order, the layers (2 bytes), MCT.
my ($cod_at, $cod_length) = @$cod[1, 2];
if ($edit eq 'mct' && !@args) {
    substr($cs, $cod_at + 8, 1) = "\x01";
} elsif ($edit eq 'repeat' && @args <= 1) {
    my $copy = substr($cs, $cod_at, 2 + $cod_length);
    substr($copy, 6, 2) = pack('n', $args[0]) if @args;
    my ($pos, $out, %seen) = ($main[-1][1] + 2 + $main[-1][2], undef);
    $out = substr($cs, 0, $pos);
    # Each tile-part: SOT (Isot, Psot, TPsot, TNsot), its header, SOD and its body.
    while ($pos + 12 <= length($cs) && unpack('n', substr($cs, $pos, 2)) == 0xff90) {
        my ($tile, $psot) = unpack('nN', substr($cs, $pos + 4, 6));
        die "$tool: $from: a tile-part of Psot 0\n" if $psot == 0;
        my $part = substr($cs, $pos, $psot);
        if ($seen{$tile}++) {
            substr($part, 12, 0) = $copy;
            substr($part, 6, 4) = pack('N', $psot + length($copy));
        }
        $out .= $part;
        $pos += $psot;
    }
    die "$tool: $from: no tile has two tile-parts\n" unless grep { $_ > 1 } values %seen;
    $cs = $out . substr($cs, $pos);
} else {
    die $usage;
}
write_file($tool, $to, $cs);
