# The JPEG 2000 codestreams that the corpus tools edit, wrap or describe (j2k_guard_bits.pl,
# j2k_roi_planes.pl, jp2_palette.pl, j2k_facts.pl, dicom_j2k.pl, j2k_header_edit.pl,
# j2k_packed_headers.pl, j2k_swap_tile_parts.pl): read, walked through the main header's
# marker segments and the tile-parts, written back. Errors name the tool and the file.
package J2kHeader;
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(read_file read_codestream codestream_in main_segments tile_parts write_file);

# The bytes of the file NAME.
sub read_file {
    my ($tool, $name) = @_;
    open(my $in, '<:raw', $name) or die "$tool: $name: $!\n";
    local $/;
    my $data = <$in>;
    close($in);
    return $data;
}

# The bytes of the codestream file NAME (SOC first).
sub read_codestream {
    my ($tool, $name) = @_;
    my $cs = read_file($tool, $name);
    die "$tool: $name: not a codestream\n" unless substr($cs, 0, 2) eq "\xff\x4f";
    return $cs;
}

# The codestream of the file NAME: the file itself, or a JP2 file's contiguous codestream
# box (jp2c; I.5: a box length of 1 gives a 64-bit one, 0 runs to the end of the file).
sub codestream_in {
    my ($tool, $name) = @_;
    my $file = read_file($tool, $name);
    return $file if substr($file, 0, 2) eq "\xff\x4f";
    die "$tool: $name: neither a codestream nor a JP2 file\n" unless substr($file, 0, 12) eq "\0\0\0\x0cjP  \r\n\x87\n";
    my $pos = 0;
    while ($pos + 8 <= length($file)) {
        my ($length, $type) = unpack('NA4', substr($file, $pos, 8));
        my $header = 8;
        if ($length == 1) {
            die "$tool: $name: a box cut short\n" if $pos + 16 > length($file);
            my ($high, $low) = unpack('NN', substr($file, $pos + 8, 8));
            ($length, $header) = ($high * 4294967296 + $low, 16);
        }
        $length = length($file) - $pos if $length == 0;
        die "$tool: $name: a box of $length bytes\n" if $length < $header;
        return substr($file, $pos + $header, $length - $header) if $type eq 'jp2c';
        $pos += $length;
    }
    die "$tool: $name: no codestream box\n";
}

# The main header's marker segments after SOC, up to the first SOT (A.4.2): each
# [marker, the marker's offset, its segment length], the parameters at offset + 4.
sub main_segments {
    my ($tool, $name, $cs) = @_;
    my ($pos, @segments) = (2);
    while (1) {
        die "$tool: $name: no SOT\n" if $pos + 4 > length($cs);
        my ($marker, $length) = unpack('nn', substr($cs, $pos, 4));
        return @segments if $marker == 0xff90;
        push @segments, [$marker, $pos, $length];
        $pos += 2 + $length;
    }
}

# The codestream split at its tile-parts (A.4.2): the main header's bytes, a reference to
# the tile-parts' (each SOT to the end of its body, by Psot) and what follows them (EOC).
sub tile_parts {
    my ($tool, $name, $cs) = @_;
    my @main = main_segments($tool, $name, $cs);
    my ($pos, @parts) = ($main[-1][1] + 2 + $main[-1][2]);
    my $head = substr($cs, 0, $pos);
    while ($pos + 12 <= length($cs) && unpack('n', substr($cs, $pos, 2)) == 0xff90) {
        my $psot = unpack('N', substr($cs, $pos + 6, 4));
        die "$tool: $name: a tile-part of Psot 0\n" if $psot == 0;
        push @parts, substr($cs, $pos, $psot);
        $pos += $psot;
    }
    return ($head, \@parts, substr($cs, $pos));
}

sub write_file {
    my ($tool, $name, $data) = @_;
    open(my $out, '>:raw', $name) or die "$tool: $name: $!\n";
    print $out $data;
    close($out) or die "$tool: $name: $!\n";
}

1;
