//! AAL5 framing arithmetic (ITU-T I.363.5) and LLC/SNAP encapsulation (RFC 1483 / RFC 2684).
//!
//! A TCP segment of `d` data octets becomes an IP datagram of `d + 40` octets (20 TCP + 20 IP,
//! plus any TCP options), gains an 8-octet LLC/SNAP header, then the 8-octet AAL5 trailer, and is
//! padded to a whole number of 48-octet cell payloads.

/// Octets of user data per cell.
pub const CELL_PAYLOAD: u32 = 48;
/// Octets of a whole cell (5 header + 48 payload); the engine counts cells, only the tests octets.
#[cfg(test)]
pub const CELL_OCTETS: u32 = 53;
/// AAL5 CPCS trailer: UU, CPI, Length, CRC-32 (I.363.5 section 6.3).
pub const AAL5_TRAILER: u32 = 8;
/// LLC/SNAP header for routed IPv4 (RFC 2684 section 5.1).
pub const LLC_SNAP: u32 = 8;
/// IPv4 header without options (RFC 791).
pub const IP_HEADER: u32 = 20;
/// TCP header without options (RFC 793).
pub const TCP_HEADER: u32 = 20;
/// Largest AAL5 CPCS-SDU (I.363.5: 16-bit length field).
pub const MAX_SDU: u32 = 65_535;

/// Cells needed for an AAL5 frame carrying `sdu` octets (LLC/SNAP included by the caller).
pub fn cells_for_sdu(sdu: u32) -> u32 {
    (sdu + AAL5_TRAILER).div_ceil(CELL_PAYLOAD)
}

/// Cells for a TCP segment with `data` octets and `tcp_options` octets of TCP options.
pub fn cells_for_segment(data: u32, tcp_options: u32) -> u32 {
    cells_for_sdu(LLC_SNAP + IP_HEADER + TCP_HEADER + tcp_options + data)
}

/// The largest TCP goodput a link of `cell_rate` cells/s can carry with segments of `mss` octets:
/// every segment costs `cells_for_segment(mss)` cells.
pub fn max_tcp_goodput_bps(cell_rate: f64, mss: u32, tcp_options: u32) -> f64 {
    cell_rate / cells_for_segment(mss, tcp_options) as f64 * mss as f64 * 8.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_sizes_from_the_papers() {
        // UBR+ paper section 3.2: a 512-octet segment is 12 cells (636 octets at the ATM layer).
        assert_eq!(cells_for_segment(512, 0), 12);
        assert_eq!(cells_for_segment(512, 0) * CELL_OCTETS, 636);
        // A bare ACK: 40 + 8 + 8 = 56 octets, two cells.
        assert_eq!(cells_for_segment(0, 0), 2);
        // MSS 9140 (GFR and CLASS studies): 9140 + 48 + 8 = 9196 octets -> 192 cells.
        assert_eq!(cells_for_segment(9140, 0), 192);
        // A segment exactly filling its cells: 48*k - 56 data octets.
        assert_eq!(cells_for_segment(48 * 10 - 56, 0), 10);
        assert_eq!(cells_for_segment(48 * 10 - 55, 0), 11);
        // 12 octets of timestamp option push 512 into a 13th cell? 572 + 8 = 580 -> 13 cells.
        assert_eq!(cells_for_segment(512, 12), 13);
    }

    #[test]
    fn max_goodput_is_125_2_mbps_for_mss_512() {
        let g = max_tcp_goodput_bps(155_520_000.0 / crate::time::CELL_BITS as f64, 512, 0);
        assert!((g / 1e6 - 125.2).abs() < 0.05, "{g}");
    }
}
