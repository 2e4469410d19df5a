#!/usr/bin/perl
# j2k_packed_headers.pl IN.j2k OUT.j2k ppm|ppt: the codestream with its packet headers
# moved out of the tile-part bodies into packed packet headers (T.800 A.7.4, A.7.5),
# which no encoder of the corpus writes: PPM in the main header (a Nppm-prefixed share for
# each tile-part), or PPT in each tile-part's header. IN must have SOP and EPH markers
# (opj_compress -SOP -EPH): a packet's header is what lies between its SOP segment and
# its EPH marker (EPH included, as A.8.2 puts it with packed headers), its body what
# follows up to the next SOP; neither 0xFF91 nor 0xFF92 can occur inside them (B.10.1,
# D.4.1). The segments hold at most 97 bytes each, so that the shares of the tile-parts
# span segments (but for a 4-byte Nppm, which OpenJPEG reads from one segment), and are
# written from the last index (Zppm, Zppt) down, as a compliance codestream writes them:
# a decoder must join them in the order of their indices. A tile's PPT indices go on
# from one of its tile-parts to the next, as OpenJPEG reads them.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use J2kHeader qw(read_codestream main_segments tile_parts write_file);

my $tool = 'j2k_packed_headers.pl';
die "usage: $tool IN.j2k OUT.j2k ppm|ppt\n" unless @ARGV == 3 && $ARGV[2] =~ /^pp[mt]$/;
my ($from, $to, $kind) = @ARGV;
my $cs = read_codestream($tool, $from);
my @main = main_segments($tool, $from, $cs);
die "$tool: $from: TLM or PLM in the main header (their lengths would change)\n"
    if grep { $_->[0] == 0xff55 || $_->[0] == 0xff57 } @main;
my ($main_header, $parts, $tail) = tile_parts($tool, $from, $cs);
die "$tool: $from: no tile-part\n" unless @$parts;

# segments MARKER DATA FIRST [KEEP...]: DATA as marker segments of at most 97 bytes
# after their index (from FIRST on), written from the last index down, none of them
# cutting into 4 bytes from any offset KEEP. *FIRST ends past the last index.
sub segments {
    my ($marker, $data, $first, @keep) = @_;
    my ($size, $at, @pieces) = (97, 0);
    $size++ while length($data) > (255 - $$first) * ($size - 4);
    while ($at < length($data)) {
        my $end = $at + $size;
        for my $k (@keep) {
            $end = $k if $k > $at && $k < $end && $k + 4 > $end;
        }
        push @pieces, substr($data, $at, $end - $at);
        $at = $end;
    }
    my $z = $$first;
    $$first += @pieces;
    return join('', map { pack('nnC', $marker, 3 + length($pieces[$_]), $z + $_) . $pieces[$_] } reverse 0 .. $#pieces);
}

my ($tile_parts, $ppm, @nppm, %zppt) = ('', '');
for my $part (@$parts) {
    my $sod = index($part, "\xff\x93", 12);
    die "$tool: $from: a tile-part without SOD\n" if $sod < 0;
    my ($header, $body) = (substr($part, 0, $sod), substr($part, $sod + 2));
    my ($headers, $bodies, $at) = ('', '', 0);
    while ($at < length($body)) {
        die "$tool: $from: a packet without SOP at byte $at of a tile-part body\n"
            unless substr($body, $at, 2) eq "\xff\x91";
        my $eph = index($body, "\xff\x92", $at + 6);
        die "$tool: $from: a packet without EPH\n" if $eph < 0;
        my $next = index($body, "\xff\x91", $eph + 2);
        $next = length($body) if $next < 0;
        $headers .= substr($body, $at + 6, $eph + 2 - $at - 6);
        $bodies .= substr($body, $at, 6) . substr($body, $eph + 2, $next - $eph - 2);
        $at = $next;
    }
    if ($kind eq 'ppt') {
        my $tile = unpack('n', substr($part, 4, 2));
        $zppt{$tile} //= 0;
        $header .= segments(0xff61, $headers, \$zppt{$tile}) if length($headers);
    } else {
        push @nppm, length($ppm);
        $ppm .= pack('N', length($headers)) . $headers;
    }
    $part = $header . "\xff\x93" . $bodies;
    substr($part, 6, 4) = pack('N', length($part));
    $tile_parts .= $part;
}
my $zppm = 0;
$main_header .= segments(0xff60, $ppm, \$zppm, @nppm) if $kind eq 'ppm';
write_file($tool, $to, $main_header . $tile_parts . $tail);
