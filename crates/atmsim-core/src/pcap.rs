//! Packet captures: the frames a capture point saw, as a classic pcap file (nanosecond
//! timestamps) of real IPv4 + TCP packets, so that standard tools (tshark, Wireshark, tcptrace)
//! can analyse what the simulator did.
//!
//! The simulator keeps only the TCP fields its model reads ([`Frame`]); this module fills in the
//! rest the way a host would: addresses from the connection's end hosts, ports from the
//! connection's index, the receiver's own sequence number (the caller's choice of its ISS; it
//! never sends data), the 16-bit window field scaled by the connection's shift, and exactly the
//! options the frame counts in `opt_len`. The payload is `len` zero octets, so every length and byte count in the
//! file agrees with the simulation, and zeros do not change the TCP checksum.
//!
//! Only bytes are produced here (no file I/O): the caller decides where they go.

use crate::aal5::{IP_HEADER, TCP_HEADER};
use crate::frame::{Frame, SegKind, SYN};
use crate::tcp::config::{sack_option, TIMESTAMP_OPTION};
use crate::time::{Time, PS_PER_S};

/// Classic pcap with nanosecond timestamps (the microsecond format is 0xa1b2c3d4).
pub const MAGIC_NS: u32 = 0xa1b2_3c4d;
/// The packet is an IP datagram, nothing before it.
pub const LINKTYPE_RAW: u32 = 101;
/// SunATM: a 4-octet pseudo-header (flags, VPI, VCI) before the AAL5 payload.
pub const LINKTYPE_SUNATM: u32 = 123;
/// Larger than any frame (an AAL5 SDU is at most 65535 octets), so nothing is truncated.
const SNAPLEN: u32 = 262_144;
/// RFC 2684 LLC/SNAP header for routed IPv4: LLC AA-AA-03, OUI 00-00-00, EtherType 0x0800.
const LLC_SNAP_IPV4: [u8; 8] = [0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00];
/// SunATM flags: direction bit (set: sent by the capturing side) and "LLC-multiplexed" traffic.
const SUNATM_TX: u8 = 0x80;
const SUNATM_LLC: u8 = 0x02;

const TH_SYN: u8 = 0x02;
const TH_PSH: u8 = 0x08;
const TH_ACK: u8 = 0x10;
const TCP_NOP: u8 = 1;
const TCP_TIMESTAMP: u8 = 8;
const TCP_SACK: u8 = 5;

/// How one connection appears on the wire (both directions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wire {
    pub sender_ip: [u8; 4],
    pub receiver_ip: [u8; 4],
    pub sender_port: u16,
    pub receiver_port: u16,
    /// RFC 1323 window shift of the connection (0 without window scaling).
    pub shift: u32,
    /// The window the sender advertises on its data segments: its own receive buffer, in octets
    /// (the model does not carry one, and 0 would read as a zero-window condition).
    pub sender_window: u32,
    /// The sender's configured initial sequence number (its first connection's).
    pub iss: u32,
}

/// The 24-octet file header.
pub fn file_header(linktype: u32) -> Vec<u8> {
    let mut h = Vec::with_capacity(24);
    h.extend_from_slice(&MAGIC_NS.to_le_bytes());
    h.extend_from_slice(&2u16.to_le_bytes());
    h.extend_from_slice(&4u16.to_le_bytes());
    h.extend_from_slice(&0i32.to_le_bytes()); // thiszone: timestamps are UTC
    h.extend_from_slice(&0u32.to_le_bytes()); // sigfigs
    h.extend_from_slice(&SNAPLEN.to_le_bytes());
    h.extend_from_slice(&linktype.to_le_bytes());
    h
}

/// One's-complement sum of big-endian 16-bit words (RFC 1071), not yet folded or inverted.
fn sum16(mut acc: u32, bytes: &[u8]) -> u32 {
    let mut words = bytes.chunks_exact(2);
    for w in &mut words {
        acc += u16::from_be_bytes([w[0], w[1]]) as u32;
    }
    if let [last] = words.remainder() {
        acc += (*last as u32) << 8;
    }
    acc
}

/// Fold the carries and invert: the value to store in a checksum field.
fn finish(mut acc: u32) -> u16 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    !(acc as u16)
}

/// The Internet checksum of `bytes` (RFC 1071).
pub fn checksum(bytes: &[u8]) -> u16 {
    finish(sum16(0, bytes))
}

/// An IPv4 header without options carrying TCP: DF set, TTL 64, valid checksum.
pub fn ipv4_header(total_len: u16, ident: u16, src: [u8; 4], dst: [u8; 4]) -> [u8; 20] {
    let mut h = [0u8; 20];
    h[0] = 0x45; // version 4, 5 words
    h[2..4].copy_from_slice(&total_len.to_be_bytes());
    h[4..6].copy_from_slice(&ident.to_be_bytes());
    h[6] = 0x40; // don't fragment
    h[8] = 64;
    h[9] = 6; // TCP
    h[12..16].copy_from_slice(&src);
    h[16..20].copy_from_slice(&dst);
    let c = checksum(&h);
    h[10..12].copy_from_slice(&c.to_be_bytes());
    h
}

/// TCP checksum over the pseudo-header, the header (`tcp`, checksum field zero) and
/// `payload_len` zero octets (which add nothing to the sum but count in the length).
pub fn tcp_checksum(src: [u8; 4], dst: [u8; 4], tcp: &[u8], payload_len: u32) -> u16 {
    let tcp_len = tcp.len() as u32 + payload_len;
    let mut acc = sum16(0, &src);
    acc = sum16(acc, &dst);
    acc += 6 + (tcp_len >> 16) + (tcp_len & 0xffff);
    finish(sum16(acc, tcp))
}

/// The TCP header of `f` with its options, checksum filled in; returns the buffer and its
/// used length (20 + `f.opt_len`). `rcv_iss` is the receiver's initial sequence number: it
/// sends no data, so its sequence number is `rcv_iss` on the SYN-ACK and `rcv_iss + 1` after.
pub fn tcp_header(f: &Frame, w: &Wire, rcv_iss: u32) -> ([u8; 60], usize) {
    let data = f.kind == SegKind::Data;
    let syn = f.flags & SYN != 0;
    let (src, dst, sport, dport) = if data {
        (w.sender_ip, w.receiver_ip, w.sender_port, w.receiver_port)
    } else {
        (w.receiver_ip, w.sender_ip, w.receiver_port, w.sender_port)
    };
    let (seq, ack, mut flags) = match (data, syn) {
        (true, true) => (f.seq, 0, TH_SYN),
        (true, false) => (f.seq, rcv_iss.wrapping_add(1), TH_ACK),
        (false, true) => (rcv_iss, f.ack, TH_SYN | TH_ACK),
        (false, false) => (rcv_iss.wrapping_add(1), f.ack, TH_ACK),
    };
    if f.len > 0 {
        flags |= TH_PSH;
    }
    // RFC 1323: the window of a SYN is never scaled.
    let octets = if data { w.sender_window } else { f.wnd };
    let window = if syn { octets } else { octets >> w.shift }.min(0xffff) as u16;

    let mut h = [0u8; 60];
    h[0..2].copy_from_slice(&sport.to_be_bytes());
    h[2..4].copy_from_slice(&dport.to_be_bytes());
    h[4..8].copy_from_slice(&seq.to_be_bytes());
    h[8..12].copy_from_slice(&ack.to_be_bytes());
    h[13] = flags;
    h[14..16].copy_from_slice(&window.to_be_bytes());
    let mut n = TCP_HEADER as usize;
    // The options the frame counts: timestamps (NOP NOP TS) first, then SACK (NOP NOP SACK).
    let sack = f.sack_blocks();
    let sack_len = sack_option(sack.len() as u32);
    let has_ts = f.opt_len as u32 == TIMESTAMP_OPTION + sack_len;
    debug_assert!(has_ts || f.opt_len as u32 == sack_len, "opt_len {} is not TS/SACK", f.opt_len);
    if has_ts {
        h[n..n + 4].copy_from_slice(&[TCP_NOP, TCP_NOP, TCP_TIMESTAMP, 10]);
        h[n + 4..n + 8].copy_from_slice(&f.ts_val.to_be_bytes());
        h[n + 8..n + 12].copy_from_slice(&f.ts_ecr.to_be_bytes());
        n += TIMESTAMP_OPTION as usize;
    }
    if !sack.is_empty() {
        h[n..n + 4].copy_from_slice(&[TCP_NOP, TCP_NOP, TCP_SACK, (2 + 8 * sack.len()) as u8]);
        n += 4;
        for &(left, right) in sack {
            h[n..n + 4].copy_from_slice(&left.to_be_bytes());
            h[n + 4..n + 8].copy_from_slice(&right.to_be_bytes());
            n += 8;
        }
    }
    h[12] = ((n / 4) as u8) << 4; // data offset in 32-bit words
    let c = tcp_checksum(src, dst, &h[..n], f.len);
    h[16..18].copy_from_slice(&c.to_be_bytes());
    (h, n)
}

/// How a record is framed: a bare IP datagram, or SunATM with the VC and direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    Raw,
    SunAtm { vpi: u8, vci: u16, outgoing: bool },
}

/// Append one record: frame `f` seen at `t` (picoseconds, written as nanoseconds).
pub fn append_record(out: &mut Vec<u8>, t: Time, f: &Frame, w: &Wire, rcv_iss: u32, link: Link) {
    let (tcp, tcp_len) = tcp_header(f, w, rcv_iss);
    let ip_len = IP_HEADER as usize + tcp_len + f.len as usize;
    let (src, dst) =
        if f.kind == SegKind::Data { (w.sender_ip, w.receiver_ip) } else { (w.receiver_ip, w.sender_ip) };
    let ip = ipv4_header(ip_len as u16, f.serial as u16, src, dst);
    let prefix = match link {
        Link::Raw => 0,
        Link::SunAtm { .. } => 4 + LLC_SNAP_IPV4.len(),
    };
    let rec_len = (prefix + ip_len) as u32;
    out.extend_from_slice(&((t / PS_PER_S) as u32).to_le_bytes());
    out.extend_from_slice(&((t % PS_PER_S / 1000) as u32).to_le_bytes());
    out.extend_from_slice(&rec_len.to_le_bytes());
    out.extend_from_slice(&rec_len.to_le_bytes());
    if let Link::SunAtm { vpi, vci, outgoing } = link {
        let dir = if outgoing { SUNATM_TX } else { 0 };
        out.push(dir | SUNATM_LLC);
        out.push(vpi);
        out.extend_from_slice(&vci.to_be_bytes());
        out.extend_from_slice(&LLC_SNAP_IPV4);
    }
    out.extend_from_slice(&ip);
    out.extend_from_slice(&tcp[..tcp_len]);
    out.resize(out.len() + f.len as usize, 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: [u8; 4] = [10, 0, 0, 1];
    const B: [u8; 4] = [10, 0, 0, 2];

    fn wire(shift: u32) -> Wire {
        Wire {
            sender_ip: A,
            receiver_ip: B,
            sender_port: 10_000,
            receiver_port: 40_000,
            shift,
            sender_window: 65_535,
            iss: 0,
        }
    }

    #[test]
    fn ipv4_checksum_matches_a_hand_computed_value() {
        // Words: 4500 0228 0001 4000 4006 [0000] 0a00 0001 0a00 0002
        // sum = 0xdb32 (no carry), so the checksum is !0xdb32 = 0x24cd.
        let h = ipv4_header(552, 1, A, B);
        assert_eq!(&h[10..12], &[0x24, 0xcd]);
        // A header with a valid checksum sums to 0xffff, i.e. checksums to 0.
        assert_eq!(checksum(&h), 0);
        // The RFC 1071 worked example (section 3): 0001 f203 f4f5 f6f7 sums to 0xddf2.
        assert_eq!(checksum(&[0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7]), !0xddf2);
    }

    #[test]
    fn tcp_data_segment_header_and_checksum() {
        let f = Frame::data(0, 1000, 512, 0);
        let (h, n) = tcp_header(&f, &wire(0), 0);
        assert_eq!(n, 20);
        assert_eq!(
            &h[..16],
            &[
                0x27, 0x10, 0x9c, 0x40, // ports 10000 -> 40000
                0, 0, 0x03, 0xe8, // seq 1000
                0, 0, 0, 1, // ack 1 (receiver ISS 0 + 1)
                0x50, 0x18, // 5 words; ACK | PSH
                0xff, 0xff, // window 65535
            ]
        );
        // Pseudo-header: 0a00 0001 0a00 0002 0006 0214 (TCP length 20 + 512 = 532).
        // Header words: 2710 9c40 0000 03e8 0000 0001 5018 ffff [0000] 0000.
        //   pseudo: 0x0a00 + 0x0001 + 0x0a00 + 0x0002 + 0x0006 + 0x0214 = 0x161d
        //   header: 0x2710 + 0x9c40 + 0x03e8 + 0x0001 + 0x5018 + 0xffff = 0x2_1750
        //   total 0x2_2d6d -> fold 0x2d6f -> checksum !0x2d6f = 0xd290.
        assert_eq!(&h[16..18], &[0xd2, 0x90]);
    }

    #[test]
    fn ack_with_timestamps_and_sack_carries_exactly_its_options() {
        let mut f = Frame::ack(0, 5000, 600_000, 0);
        f.ts_val = 7;
        f.ts_ecr = 3;
        f.sack[0] = (6000, 7000);
        f.nsack = 1;
        f.opt_len = (TIMESTAMP_OPTION + sack_option(1)) as u8;
        let (h, n) = tcp_header(&f, &wire(4), 0);
        assert_eq!(n, 20 + 12 + 12);
        assert_eq!(h[12] >> 4, 11, "data offset in words");
        assert_eq!(u16::from_be_bytes([h[14], h[15]]), (600_000 >> 4) as u16);
        assert_eq!(&h[20..24], &[1, 1, 8, 10]);
        assert_eq!(&h[32..36], &[1, 1, 5, 10]);
        assert_eq!(&h[36..44], &[0, 0, 0x17, 0x70, 0, 0, 0x1b, 0x58]);
        // The checksum field makes the whole segment (with pseudo-header) sum to zero.
        let mut h2 = h;
        h2[16] = 0;
        h2[17] = 0;
        let c = tcp_checksum(B, A, &h2[..n], 0);
        assert_eq!(&h[16..18], &c.to_be_bytes());
        let mut pseudo = vec![];
        pseudo.extend_from_slice(&B);
        pseudo.extend_from_slice(&A);
        pseudo.extend_from_slice(&[0, 6, 0, n as u8]);
        pseudo.extend_from_slice(&h[..n]);
        assert_eq!(checksum(&pseudo), 0);
    }

    #[test]
    fn syn_window_is_not_scaled() {
        let mut f = Frame::ack(0, 1, 600_000, 0);
        f.flags = SYN;
        let (h, _) = tcp_header(&f, &wire(4), 0);
        assert_eq!(h[13], 0x12, "SYN | ACK");
        assert_eq!(u16::from_be_bytes([h[14], h[15]]), 0xffff);
    }

    #[test]
    fn records_have_nanosecond_timestamps_and_full_length() {
        let mut out = file_header(LINKTYPE_RAW);
        assert_eq!(&out[..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
        let f = Frame::data(0, 0, 100, 0);
        append_record(&mut out, 1_500_000_123_456, &f, &wire(0), 0, Link::Raw);
        let rec = &out[24..];
        assert_eq!(u32::from_le_bytes(rec[0..4].try_into().unwrap()), 1);
        assert_eq!(u32::from_le_bytes(rec[4..8].try_into().unwrap()), 500_000_123);
        assert_eq!(u32::from_le_bytes(rec[8..12].try_into().unwrap()), 140);
        assert_eq!(rec.len(), 16 + 140);
        let mut sun = Vec::new();
        append_record(&mut sun, 0, &f, &wire(0), 0, Link::SunAtm { vpi: 0, vci: 32, outgoing: true });
        assert_eq!(&sun[16..24], &[0x82, 0, 0, 32, 0xaa, 0xaa, 0x03, 0]);
        assert_eq!(sun.len(), 16 + 4 + 8 + 140);
    }
}
