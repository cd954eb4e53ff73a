//! Capture points (`[capture]`, recorded only when asked for): the complete AAL5 frames that
//! cross a captured channel, and the frames a captured host sends and receives, appended to a
//! pcap buffer as they complete (see [`crate::pcap`]).
//!
//! A channel capture reassembles per VC like a capture device on the link would: a frame that
//! lost cells upstream fails reassembly and is not written. Channels and hosts that are not
//! captured pay one branch per cell (channels) or per frame (hosts).

use crate::cell::{Cell, VcId};
use crate::frame::{Frame, FrameSlab, SegKind, SYN};
use crate::pcap::{self, Link, Wire};
use crate::time::Time;

/// "Not captured", in a channel's or a host's capture index.
pub const NO_CAPTURE: u32 = u32::MAX;
/// SunATM addressing: every connection on VPI 0, VCIs from 32 (0-31 are reserved by ITU-T).
const VCI_BASE: u16 = 32;

/// Reassembly state of one VC on a captured channel.
#[derive(Debug, Clone, Copy, Default)]
struct Partial {
    /// Cells since the last EOF.
    count: u32,
    /// Serial of the frame the first of them carried (serials are never reused, slots are).
    serial: u64,
    /// A cell of another frame joined (the previous frame lost its EOF).
    mixed: bool,
}

/// One capture point and the file it fills.
#[derive(Debug)]
pub struct Recorder {
    /// File name without extension.
    pub stem: String,
    /// The pcap file: header, then one record per frame.
    pub bytes: Vec<u8>,
    pub sunatm: bool,
    /// Per connection (its global VC), for a channel (empty for a host).
    partial: Vec<Partial>,
    /// Per connection: the receiver's ISS of the incarnation this point saw open last. The
    /// model's receiver has no sequence number of its own; taking the sender's ISS (learnt from
    /// each SYN or SYN-ACK seen here) keeps successive connections on the same ports distinct.
    rcv_iss: Vec<u32>,
}

impl Recorder {
    /// A recorder for a channel (`reassemble`: one reassembly per VC) or a host; `wire` per
    /// connection.
    pub fn new(stem: String, sunatm: bool, reassemble: bool, wire: &[Wire]) -> Self {
        let linktype = if sunatm { pcap::LINKTYPE_SUNATM } else { pcap::LINKTYPE_RAW };
        let n = if reassemble { wire.len() } else { 0 };
        Recorder {
            stem,
            bytes: pcap::file_header(linktype),
            sunatm,
            partial: vec![Partial::default(); n],
            rcv_iss: wire.iter().map(|w| w.iss).collect(),
        }
    }

    fn write(&mut self, t: Time, f: &Frame, vc: VcId, outgoing: bool, wire: &Wire) {
        let iss = &mut self.rcv_iss[f.conn as usize];
        if f.flags & SYN != 0 {
            *iss = if f.kind == SegKind::Data { f.seq } else { f.ack.wrapping_sub(1) };
        }
        let iss = *iss;
        let link = if self.sunatm {
            Link::SunAtm { vpi: 0, vci: VCI_BASE.wrapping_add(vc), outgoing }
        } else {
            Link::Raw
        };
        pcap::append_record(&mut self.bytes, t, f, wire, iss, link);
    }
}

/// Every capture point of a run, and how each connection looks on the wire.
#[derive(Debug, Default)]
pub struct Captures {
    pub points: Vec<Recorder>,
    /// Per connection (= VC index).
    pub wire: Vec<Wire>,
}

impl Captures {
    /// A cell left on a captured channel in the slot starting at `t`; its frame is written when
    /// the EOF cell completes it.
    ///
    /// Only TCP/IP frames are written: RM and credit cells carry no frame (their `frame` field
    /// is a payload), and a background message is no IP datagram, so neither joins a
    /// reassembly. `cell.vc` is the global VC here (`Hop::vc`): background VCs are numbered after
    /// the connections, past the reassembly state, which is per connection.
    #[inline(never)]
    pub fn on_cell(&mut self, point: u32, t: Time, cell: Cell, frames: &FrameSlab) {
        if cell.is_control() {
            return;
        }
        // The cell is on its way, so its frame's slot still holds that frame.
        let f = frames.get(cell.frame);
        if f.kind == SegKind::Background {
            return;
        }
        let rec = &mut self.points[point as usize];
        let p = &mut rec.partial[cell.vc as usize];
        if p.count == 0 {
            *p = Partial { count: 0, serial: f.serial, mixed: false };
        } else if f.serial != p.serial {
            p.mixed = true;
        }
        p.count += 1;
        if !cell.is_eof() {
            return;
        }
        let complete = !p.mixed && p.count == f.ncells;
        p.count = 0;
        if complete {
            rec.write(t, f, cell.vc, true, &self.wire[f.conn as usize]);
        }
    }

    /// A captured host handed `f` to its adapter (`outgoing`) or reassembled it at `t`.
    #[inline(never)]
    pub fn on_frame(&mut self, point: u32, t: Time, f: &Frame, vc: VcId, outgoing: bool) {
        self.points[point as usize].write(t, f, vc, outgoing, &self.wire[f.conn as usize]);
    }

    /// The files: (stem, pcap bytes) per capture point.
    pub fn take(&mut self) -> Vec<(String, Vec<u8>)> {
        self.points.drain(..).map(|r| (r.stem, r.bytes)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::F_EOF;

    fn wire() -> Wire {
        Wire {
            sender_ip: [10, 0, 0, 1],
            receiver_ip: [10, 0, 0, 2],
            sender_port: 1,
            receiver_port: 2,
            shift: 0,
            sender_window: 65535,
            iss: 0,
        }
    }

    #[test]
    fn channel_capture_writes_only_complete_frames() {
        let mut frames = FrameSlab::default();
        let mut c =
            Captures { points: vec![Recorder::new("x".into(), false, true, &[wire()])], wire: vec![wire()] };
        let header = c.points[0].bytes.len();
        let send = |c: &mut Captures, frames: &FrameSlab, f: u32, n: u32, lost: &[u32]| {
            for i in (0..n).filter(|i| !lost.contains(i)) {
                let flags = if i + 1 == n { F_EOF } else { 0 };
                c.on_cell(0, 0, Cell { frame: f, vc: 0, flags }, frames);
            }
        };
        let a = frames.insert(Frame { ncells: 3, alive: 3, len: 10, ..Default::default() });
        send(&mut c, &frames, a, 3, &[]);
        let one = c.points[0].bytes.len() - header;
        assert_eq!(one, 16 + 50);
        // A lost middle cell: not written.
        let b = frames.insert(Frame { ncells: 3, alive: 3, len: 10, ..Default::default() });
        send(&mut c, &frames, b, 3, &[1]);
        // A lost EOF merges two frames: neither is written; then reassembly is back in step.
        let d = frames.insert(Frame { ncells: 3, alive: 3, len: 10, ..Default::default() });
        let e = frames.insert(Frame { ncells: 2, alive: 2, len: 10, ..Default::default() });
        send(&mut c, &frames, d, 3, &[2]);
        send(&mut c, &frames, e, 2, &[]);
        assert_eq!(c.points[0].bytes.len() - header, one);
        send(&mut c, &frames, a, 3, &[]);
        assert_eq!(c.points[0].bytes.len() - header, 2 * one);
        // An RM cell (its payload where a frame index would be) and a background message's
        // cells (a VC past the connections) join no reassembly: `a` is still written whole.
        let bg =
            frames.insert(Frame { kind: SegKind::Background, ncells: 1, alive: 1, ..Default::default() });
        c.on_cell(0, 0, Cell { frame: a, vc: 0, flags: 0 }, &frames);
        c.on_cell(0, 0, Cell { frame: a, vc: 0, flags: crate::cell::F_RM | F_EOF }, &frames);
        c.on_cell(0, 0, Cell { frame: bg, vc: 7, flags: F_EOF }, &frames);
        c.on_cell(0, 0, Cell { frame: a, vc: 0, flags: 0 }, &frames);
        c.on_cell(0, 0, Cell { frame: a, vc: 0, flags: F_EOF }, &frames);
        assert_eq!(c.points[0].bytes.len() - header, 3 * one);
    }
}
