//! A switch output port: the cells routed to it from any input link, a buffer with a
//! buffer-acceptance policy, and the transmitter of the outgoing link.
//!
//! In the style of ns-3's `QueueDisc`, [`Port::enqueue`] counts every arrival and every drop and
//! keeps the per-VC accounting; the [`Policy`] only decides. The frame state machine lives here
//! because every frame-aware policy shares it: a frame refused at its first cell is discarded whole
//! (EOF included), and a frame that loses a cell to overflow is, under PPD, discarded up to but not
//! including its EOF cell, which still delimits the frame for the reassembler.

use std::collections::VecDeque;

use super::{InputMerge, World};
use crate::accept::{BufferState, DropReason, Policy, DROP_REASONS};
use crate::cell::Cell;
use crate::time::{SlotClock, Time, NEVER};

/// Buffer capacity meaning "never full".
pub const INFINITE: u32 = u32::MAX;

/// What happens to the rest of the frame now arriving on a VC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Discard {
    #[default]
    None,
    /// Refused at its first cell: drop every remaining cell.
    Frame,
    /// Lost a cell to overflow (PPD): drop the rest, but try to keep the EOF cell.
    Partial,
}

#[derive(Debug, Clone, Copy, Default)]
struct VcState {
    /// Cells of this VC in the buffer (Y_i).
    y: u32,
    /// A frame is in progress: the next cell is not a first cell.
    in_frame: bool,
    discard: Discard,
    /// This frame already lost a cell here (counts it once in `frames_dropped`).
    damaged: bool,
}

#[derive(Debug, Clone, Default)]
pub struct PortStats {
    pub cells_in: u64,
    pub cells_out: u64,
    pub drops: [u64; DROP_REASONS],
    pub frames_dropped: u64,
    pub max_queue: u32,
    /// Integral of the queue length over time, in cell-picoseconds.
    pub queue_area: u128,
    pub last_change: Time,
}

impl PortStats {
    pub fn cells_dropped(&self) -> u64 {
        self.drops.iter().sum()
    }
}

#[derive(Debug)]
pub struct Port {
    pub name: String,
    /// Input FIFOs feeding this port (one per incoming link that routes a VC here).
    pub inputs: Vec<u32>,
    /// Outgoing channel.
    pub channel: u32,
    clock: SlotClock,
    queue: VecDeque<Cell>,
    capacity: u32,
    pub policy: Policy,
    vcs: Vec<VcState>,
    /// VCs with at least one queued cell (N_a), kept in O(1) per cell.
    active: u32,
    pub stats: PortStats,
    merge: InputMerge,
}

impl Port {
    pub fn new(
        name: String,
        channel: u32,
        clock: SlotClock,
        capacity: u32,
        policy: Policy,
        n_vcs: usize,
    ) -> Self {
        Port {
            name,
            inputs: Vec::new(),
            channel,
            clock,
            queue: VecDeque::new(),
            capacity,
            policy,
            vcs: vec![VcState::default(); n_vcs],
            active: 0,
            stats: PortStats::default(),
            merge: InputMerge::default(),
        }
    }

    pub fn queue_len(&self) -> u32 {
        self.queue.len() as u32
    }

    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    fn account(&mut self, now: Time) {
        let s = &mut self.stats;
        s.queue_area += self.queue.len() as u128 * (now - s.last_change) as u128;
        s.last_change = now;
    }

    fn drop_cell(&mut self, vc: usize, reason: DropReason, world: &mut World, cell: Cell) {
        self.stats.drops[reason as usize] += 1;
        let v = &mut self.vcs[vc];
        if !v.damaged {
            v.damaged = true;
            self.stats.frames_dropped += 1;
        }
        world.frames.release_cell(cell.frame);
    }

    /// A cell arrives at `now`: count it, run the frame state machine and the policy.
    pub fn enqueue(&mut self, now: Time, cell: Cell, world: &mut World) {
        self.stats.cells_in += 1;
        let vc = cell.vc as usize;
        let eof = cell.is_eof();
        let x = self.queue.len() as u32;
        let first = !self.vcs[vc].in_frame;
        {
            let v = &mut self.vcs[vc];
            v.in_frame = !eof;
            if first {
                v.discard = Discard::None;
                v.damaged = false;
            }
        }
        let full = x >= self.capacity;
        match self.vcs[vc].discard {
            // The frame was refused at its first cell: nothing of it enters.
            Discard::Frame => return self.drop_cell(vc, DropReason::PartialPacket, world, cell),
            // PPD: the frame is already damaged; only its EOF cell may still pass.
            Discard::Partial if !eof || full => {
                return self.drop_cell(vc, DropReason::PartialPacket, world, cell)
            }
            Discard::Partial => {}
            // A new frame: the policy may refuse it whole.
            Discard::None if first => {
                let state = BufferState {
                    x,
                    k: self.capacity,
                    y: self.vcs[vc].y,
                    active: self.active,
                };
                if let Some(reason) = self.policy.frame_decision(&state) {
                    if !eof {
                        self.vcs[vc].discard = Discard::Frame;
                    }
                    return self.drop_cell(vc, reason, world, cell);
                }
            }
            Discard::None => {}
        }
        if full {
            if !eof && self.policy.discards_partial_packets() {
                self.vcs[vc].discard = Discard::Partial;
            }
            return self.drop_cell(vc, DropReason::Overflow, world, cell);
        }
        self.account(now);
        let v = &mut self.vcs[vc];
        if v.y == 0 {
            self.active += 1;
        }
        v.y += 1;
        self.queue.push_back(cell);
        self.stats.max_queue = self.stats.max_queue.max(x + 1);
    }

    /// Send the head cell in the slot starting now.
    fn dequeue(&mut self, world: &mut World) {
        let slot = self.clock.next();
        self.account(slot);
        let cell = self.queue.pop_front().expect("dequeue from an empty port");
        let v = &mut self.vcs[cell.vc as usize];
        v.y -= 1;
        if v.y == 0 {
            self.active -= 1;
        }
        self.stats.cells_out += 1;
        world.transmit(self.channel, slot, cell);
        self.clock.advance();
    }

    /// Process every arrival and departure before `horizon`; returns the number of events.
    pub fn advance(&mut self, horizon: Time, world: &mut World) -> u64 {
        let mut events = 0;
        self.merge.rebuild(&world.fifos, &self.inputs);
        loop {
            let (ta, i) = self.merge.peek();
            let td = if self.queue.is_empty() {
                NEVER
            } else {
                self.clock.next()
            };
            // Arrivals first on ties: a cell arriving at a slot boundary may leave in that slot.
            if ta <= td {
                if ta >= horizon {
                    break;
                }
                let (t, cell) = world.fifos[self.inputs[i] as usize]
                    .pop()
                    .expect("head exists");
                self.merge.popped(&world.fifos, &self.inputs);
                if self.queue.is_empty() {
                    self.clock.align(t);
                }
                self.enqueue(t, cell, world);
            } else {
                if td >= horizon {
                    break;
                }
                self.dequeue(world);
            }
            events += 1;
        }
        events
    }

    pub fn next_key(&self, world: &World) -> Time {
        let ta = world.earliest(&self.inputs).0;
        if self.queue.is_empty() {
            ta
        } else {
            ta.min(self.clock.next())
        }
    }

    /// Close the time integral at the end of the run.
    pub fn finish(&mut self, end: Time) {
        self.account(end);
    }
}
