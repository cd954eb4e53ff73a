//! FCVC at a switch port (credit/rate study section II.B), both ends of a hop:
//!
//! - *Forwarding* a VC under FCVC ([`FcvcHop`]): the VC has a buffer of its own of N2 + N3
//!   cells here, and every N2 cells it sends, this port sends a credit cell with the count back
//!   to the previous hop. This file is where credit cells are sent ([`Fcvc::departed`]).
//! - *Gated* toward an FCVC next hop: a credit balance per VC; the scheduler skips VCs without
//!   credit ([`Fcvc::pop_gated`]) and credit cells arriving from the next hop replenish it
//!   ([`Fcvc::credit_cell`]); they are consumed here, never queued.

use crate::abr::{CreditReceiver, CreditSender};
use crate::cell::{Cell, VcId, F_CREDIT};
use crate::net::World;
use crate::sched::Queue;
use crate::time::Time;

/// FCVC at the port that forwards a VC (the downstream end of the hop before it).
#[derive(Debug, Clone)]
pub struct FcvcHop {
    rx: CreditReceiver,
    /// Channel back to the previous hop, and the FIFO there that takes this port's credits.
    channel: u32,
    fifo: u32,
    /// The previous hop's label for the VC (what its credit cells carry).
    up_label: VcId,
    /// The VC's buffer here (N2 + N3), its occupancy and the largest occupancy seen.
    pub limit: u32,
    pub y: u32,
    pub max_y: u32,
}

impl FcvcHop {
    /// A VC forwarded under FCVC: a buffer of its own of `limit` (N2 + N3) cells, and a credit
    /// cell every `n2` cells sent, on `channel` into `fifo` at the previous hop, which knows the
    /// VC as `up_label`.
    pub fn new(n2: u32, limit: u32, channel: u32, fifo: u32, up_label: VcId) -> Self {
        FcvcHop { rx: CreditReceiver::new(n2), channel, fifo, up_label, limit, y: 0, max_y: 0 }
    }
}

/// Both ends, per connection VC (each vector empty when no VC uses it).
#[derive(Debug, Default)]
pub(super) struct Fcvc {
    /// Per VC, when the next hop is an FCVC switch: the credit balance.
    credit: Vec<Option<CreditSender>>,
    /// Per VC, when this port forwards it under FCVC.
    hops: Vec<Option<FcvcHop>>,
}

impl Fcvc {
    pub fn gate(&mut self, vc: usize, n_vcs: usize, buffer: u32) {
        self.credit.resize(n_vcs, None);
        self.credit[vc] = Some(CreditSender::new(buffer));
    }

    pub fn forward(&mut self, vc: usize, n_vcs: usize, hop: FcvcHop) {
        self.hops.resize(n_vcs, None);
        self.hops[vc] = Some(hop);
    }

    pub fn hop(&self, vc: usize) -> Option<&FcvcHop> {
        self.hops.get(vc).and_then(Option::as_ref)
    }

    pub fn balance(&self, vc: usize) -> Option<u32> {
        self.credit.get(vc).and_then(Option::as_ref).map(CreditSender::balance)
    }

    /// Neither end of FCVC is at this port (no credit balance, no VC forwarded under FCVC).
    pub fn is_off(&self) -> bool {
        self.credit.is_empty() && self.hops.is_empty()
    }

    /// Is some VC gated on credit here?
    #[inline]
    pub fn gating(&self) -> bool {
        !self.credit.is_empty()
    }

    /// A credit cell for `cell.vc` arrived from the next hop.
    pub fn credit_cell(&mut self, cell: Cell) {
        if let Some(Some(c)) = self.credit.get_mut(cell.vc as usize) {
            c.credit_low32(cell.frame);
        }
    }

    /// The next cell of a VC with credit (or not gated), debiting its balance.
    #[inline(never)]
    pub fn pop_gated(&mut self, queue: &mut Queue) -> Option<Cell> {
        let credit = &self.credit;
        let cell = queue.pop(|vc| credit[vc].as_ref().is_none_or(CreditSender::can_send))?;
        if let Some(c) = &mut self.credit[cell.vc as usize] {
            c.sent();
        }
        Some(cell)
    }

    /// Is `vc` forwarded under FCVC here (one test, in line, before `departed`)?
    #[inline(always)]
    pub fn forwards(&self, vc: usize) -> bool {
        matches!(self.hops.get(vc), Some(Some(_)))
    }

    /// A cell entered `vc`'s own buffer: track an FCVC VC's occupancy against N2 + N3.
    #[inline]
    pub fn arrived(&mut self, vc: usize) {
        if let Some(Some(h)) = self.hops.get_mut(vc) {
            h.y += 1;
            h.max_y = h.max_y.max(h.y);
        }
    }

    /// A cell left `vc`'s own buffer in `slot`: count it, and every N2 cells send a credit cell
    /// back to the previous hop, labelled as the VC is there. Returns whether one was sent.
    #[inline]
    pub fn departed(&mut self, vc: usize, slot: Time, world: &mut World) -> bool {
        let Some(Some(h)) = self.hops.get_mut(vc) else { return false };
        h.y -= 1;
        let Some(count) = h.rx.forwarded() else { return false };
        // The count's low 32 bits (see `cell::F_CREDIT`).
        let credit = Cell { frame: count as u32, vc: h.up_label, flags: F_CREDIT };
        world.send_credit(h.channel, h.fifo, slot, credit);
        true
    }
}
