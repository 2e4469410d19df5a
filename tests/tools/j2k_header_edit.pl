#!/usr/bin/perl
# j2k_header_edit.pl IN.j2k OUT.j2k EDIT: the codestream with its coding style (COD,
# T.800 A.6.1) or quantisation (QCD, A.6.4) written as some encoders got them wrong,
# which no encoder of the corpus writes:
#   mct             the main header's COD asks for the component transform (SGcod's
#                   multiple component transformation byte 1), whatever the components
#   repeat [LAYERS] copies of the main header's COD and QCD in the header of every
#                   tile-part but a tile's first, where A.4.2 allows none (the repeats
#                   of a writer of digital-library files), the COD's number of layers
#                   LAYERS where given
#   requant         the same copies, the QCD's with one guard bit more
# Each tile-part's length (Psot) grows by the copies' bytes.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(read_codestream main_segments tile_parts write_file);

my $tool = 'j2k_header_edit.pl';
my $usage = "usage: $tool IN.j2k OUT.j2k mct | repeat [LAYERS] | requant\n";
die $usage unless @ARGV >= 3;
my ($from, $to, $edit, @args) = @ARGV;
my $cs = read_codestream($tool, $from);
my @main = main_segments($tool, $from, $cs);
my ($cod) = grep { $_->[0] == 0xff52 } @main;
my ($qcd) = grep { $_->[0] == 0xff5c } @main;
die "$tool: $from: no COD or no QCD in the main header\n" unless $cod && $qcd;
die "$tool: $from: TLM or PLM in the main header (their lengths would change)\n"
    if grep { $_->[0] == 0xff55 || $_->[0] == 0xff57 } @main;
# After the marker and Lcod: Scod, the progression order, the layers (2 bytes), MCT.
my ($cod_at, $cod_length) = @$cod[1, 2];
if ($edit eq 'mct' && !@args) {
    substr($cs, $cod_at + 8, 1) = "\x01";
} elsif (($edit eq 'repeat' && @args <= 1) || ($edit eq 'requant' && !@args)) {
    my $cod_copy = substr($cs, $cod_at, 2 + $cod_length);
    my $qcd_copy = substr($cs, $qcd->[1], 2 + $qcd->[2]);
    substr($cod_copy, 6, 2) = pack('n', $args[0]) if @args;
    # Sqcd (after the marker and Lqcd): the guard bits in its top three bits
    if ($edit eq 'requant') {
        die "$tool: $from: QCD has 7 guard bits already\n" if ord(substr($qcd_copy, 4, 1)) >= 0xe0;
        substr($qcd_copy, 4, 1) = chr(ord(substr($qcd_copy, 4, 1)) + 32);
    }
    my $copy = $cod_copy . $qcd_copy;
    my ($head, $parts, $tail) = tile_parts($tool, $from, $cs);
    my %seen;
    # Each tile-part: SOT (Isot, Psot, TPsot, TNsot), its header, SOD and its body.
    for my $part (@$parts) {
        next unless $seen{unpack('n', substr($part, 4, 2))}++;
        substr($part, 6, 4) = pack('N', length($part) + length($copy));
        substr($part, 12, 0) = $copy;
    }
    die "$tool: $from: no tile has two tile-parts\n" unless grep { $_ > 1 } values %seen;
    $cs = join('', $head, @$parts, $tail);
} else {
    die $usage;
}
write_file($tool, $to, $cs);
