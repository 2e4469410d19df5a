# The JPEG 2000 codestreams that the corpus tools edit or wrap (j2k_guard_bits.pl,
# j2k_roi_planes.pl, jp2_palette.pl): read, walked through the main header's marker
# segments, written back. Errors name the tool and the file.
package J2kHeader;
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(read_codestream main_segments write_file);

# The bytes of the codestream file NAME (SOC first).
sub read_codestream {
    my ($tool, $name) = @_;
    open(my $in, '<:raw', $name) or die "$tool: $name: $!\n";
    local $/;
    my $cs = <$in>;
    close($in);
    die "$tool: $name: not a codestream\n" unless substr($cs, 0, 2) eq "\xff\x4f";
    return $cs;
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

sub write_file {
    my ($tool, $name, $data) = @_;
    open(my $out, '>:raw', $name) or die "$tool: $name: $!\n";
    print $out $data;
    close($out) or die "$tool: $name: $!\n";
}

1;
