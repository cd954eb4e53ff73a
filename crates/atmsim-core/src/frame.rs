//! AAL5 frames in flight: the TCP segment each one carries, in a slab of reusable slots.
//!
//! A frame's slot lives as long as any of its cells does; cells hold the slot index. Slots are
//! recycled through a free list, so a steady-state run allocates nothing per frame.

use crate::time::Time;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SegKind {
    #[default]
    Data,
    Ack,
    /// A background message (not TCP): `len` user octets in `ncells` cells.
    Background,
}

/// TCP SYN flag (RFC 793).
pub const SYN: u8 = 1 << 0;

/// The TCP segment an AAL5 frame carries: only the header fields the model reads.
#[derive(Debug, Clone, Copy, Default)]
pub struct Frame {
    pub conn: u32,
    pub kind: SegKind,
    /// TCP flags the model uses ([`SYN`]).
    pub flags: u8,
    pub seq: u32,
    pub ack: u32,
    pub len: u32,
    /// Advertised window in octets (already scaled).
    pub wnd: u32,
    /// SACK blocks (RFC 2018), most recent first; `nsack` of them are valid.
    pub sack: [(u32, u32); 4],
    pub nsack: u8,
    /// RFC 1323 timestamp value and echo reply, in the sender's slow-timer ticks.
    pub ts_val: u32,
    pub ts_ecr: u32,
    /// TCP option octets (timestamps, SACK) carried, counted in the frame's size.
    pub opt_len: u8,
    pub ncells: u32,
    /// Cells of this frame not yet delivered or dropped.
    pub alive: u32,
    /// When the source handed the frame to its adapter.
    pub created: Time,
    pub retransmission: bool,
    /// The sender's congestion window (octets) when it sent this data segment: lets a
    /// window-triggered fault (`net/fault.rs`) act on what only the host knows.
    pub cwnd: u32,
    /// Unique over the run (set by the slab): tells a reused slot from the frame it held before.
    pub serial: u64,
}

impl Frame {
    pub fn data(conn: u32, seq: u32, len: u32, now: Time) -> Self {
        Frame { conn, kind: SegKind::Data, seq, len, created: now, ..Default::default() }
    }

    pub fn ack(conn: u32, ack: u32, wnd: u32, now: Time) -> Self {
        Frame { conn, kind: SegKind::Ack, ack, wnd, created: now, ..Default::default() }
    }

    pub fn sack_blocks(&self) -> &[(u32, u32)] {
        &self.sack[..self.nsack as usize]
    }

    /// Octets of the IP datagram: 20 IP + 20 TCP + options + data.
    pub fn ip_len(&self) -> u32 {
        crate::aal5::IP_HEADER + crate::aal5::TCP_HEADER + self.opt_len as u32 + self.len
    }
}

#[derive(Debug, Default)]
pub struct FrameSlab {
    slots: Vec<Frame>,
    free: Vec<u32>,
    serial: u64,
}

impl FrameSlab {
    pub fn insert(&mut self, mut f: Frame) -> u32 {
        self.serial += 1;
        f.serial = self.serial;
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = f;
                i
            }
            None => {
                self.slots.push(f);
                (self.slots.len() - 1) as u32
            }
        }
    }

    #[inline]
    pub fn get(&self, i: u32) -> &Frame {
        &self.slots[i as usize]
    }

    /// One cell of frame `i` is gone (delivered or dropped); frees the slot with the last one.
    #[inline]
    pub fn release_cell(&mut self, i: u32) {
        let f = &mut self.slots[i as usize];
        f.alive -= 1;
        if f.alive == 0 {
            self.free.push(i);
        }
    }

    /// `n` cells of frame `i` are gone at once (see [`FrameSlab::release_cell`]).
    #[inline]
    pub fn release_cells(&mut self, i: u32, n: u32) {
        let f = &mut self.slots[i as usize];
        f.alive -= n;
        if f.alive == 0 {
            self.free.push(i);
        }
    }

    /// Frames with cells still alive.
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}
