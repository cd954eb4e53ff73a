//! Runs of paced VCs' cells in one pass (`[engine] paced_run`, `HostPlan::paced_runs`).
//!
//! An adapter whose queues are controlled VCs without credit (GCRA shaping, PRCA or adaptive
//! shaping: the TCP and background sources of the CLASS study) and with no plain frame or
//! returned RM cell waiting sends, [`Adapter::send`] after [`Adapter::send`], each VC's cells
//! in the first slot at or after the instant its virtual scheduling makes it eligible
//! (`TAT - tau`), an RM cell where its rate control asks for one, the VCs ready at a slot taking
//! it in round-robin order. What would change a VC (a returning RM cell, a frame handed over)
//! comes only with an arrival or a timer, which ends the host's run. So the run's departures
//! follow from the shapers' states alone, and these passes compute them in a row, without the
//! batch loop's turn per cell: each slot from the previous one and the VCs' ready times, the
//! adapter's next slot found once at the end, as the last `send` leaves it. With one VC
//! ([`Adapter::send_paced`], the TCP sources) the round robin has one queue, the hop is read
//! once and the receiver woken at the first cell and at each EOF or RM cell; with several
//! ([`Adapter::send_paced_rr`], the background hosts) each cell goes on the wire as `send` puts
//! it.

use super::{Adapter, ControlledVc, VcTagger};
use crate::cell::{rm, Cell, VcId, F_BACKWARD, F_CONTROL, F_EOF, F_RM};
use crate::net::{work_at, World, NO_CAPTURE};
use crate::time::{CellPeriod, SlotClock, Time, NEVER};
use std::mem::MaybeUninit;

impl Adapter {
    /// `c`'s cell in `slot`, as [`Adapter::send`] makes it: the shaper told, then an RM cell
    /// where the rate control asks for one (`true`), else the head frame's next cell.
    #[inline(always)]
    fn paced_cell(
        c: &mut ControlledVc,
        taggers: &mut [Option<VcTagger>],
        slot: Time,
        slot_ps: f64,
        link: CellPeriod,
    ) -> (Cell, bool) {
        c.stats.cells += 1;
        if let Some(s) = &mut c.shaper {
            s.sent_after(slot, slot_ps);
        }
        if c.rm_due {
            c.rm_due = false;
            c.stats.rm_sent += 1;
            (Cell { frame: rm::with_ccr(c.ccr(link)), vc: c.vc, flags: F_RM }, true)
        } else {
            let cell = Self::next_cell(&mut c.queue, taggers, slot);
            c.after_data_cell(link);
            (cell, false)
        }
    }

    /// Controlled VCs only (without credit: the plan's condition), nothing plain queued and no
    /// RM cell to return: what [`Adapter::send_paced`] (one VC) and [`Adapter::send_paced_rr`]
    /// can send.
    #[inline]
    pub fn runs_paced(&self) -> bool {
        debug_assert!(self.controlled.iter().all(|c| c.credit.is_none()));
        !self.controlled.is_empty() && self.plain.is_empty() && self.control.is_empty()
    }

    /// One controlled VC (the case of [`Adapter::send_paced`]).
    #[inline]
    pub fn one_paced(&self) -> bool {
        self.controlled.len() == 1
    }

    /// The VC a paced run of one VC sends (its label at this host).
    #[inline]
    pub fn paced_vc(&self) -> VcId {
        self.controlled[0].vc
    }

    /// Send every cell whose slot starts before `limit` (the adapter's next slot is before it)
    /// and return how many cells and how many data cells: what repeated [`Adapter::send`] calls
    /// give for an adapter that [`Adapter::runs_paced`], on an uncaptured channel.
    pub fn send_paced(&mut self, limit: Time, world: &mut World) -> (u64, u64) {
        debug_assert!(self.runs_paced() && self.one_paced() && self.next < limit);
        let link = self.clock.period();
        let slot_ps = self.slot_ps;
        let ch = &mut world.channels[self.channel as usize];
        debug_assert_eq!(ch.capture, NO_CAPTURE);
        let latency = ch.latency;
        let c = &mut self.controlled[0];
        let hop = ch.route[c.vc as usize];
        let fifo = &mut world.fifos[hop.fifo as usize];
        if fifo.is_empty() {
            world.sched.marks.mark(fifo.mark);
        }
        // A local copy the loop keeps in registers.
        let mut clock = self.clock.clone();
        // The first slot is the adapter's next (kept by `recompute`, with its mark if ahead).
        if self.next > clock.next() {
            clock.set_next(self.ahead);
        }
        let (mut sent, mut rm_sent) = (0u64, 0u64);
        let mut woken = false;
        loop {
            let slot = clock.next();
            debug_assert!(slot < limit);
            let (cell, rm) = Self::paced_cell(c, &mut self.taggers, slot, slot_ps, link);
            rm_sent += u64::from(rm);
            debug_assert_eq!(cell.flags & F_BACKWARD, 0);
            clock.advance();
            sent += 1;
            let at = slot + latency;
            let out = Cell { vc: hop.label, ..cell };
            fifo.push(at, out);
            // The receiver's key falls only at the first cell and, into a host that skips
            // middle cells, at an EOF or control cell (`World::transmit` wakes at each: the
            // same minimum).
            if !woken || cell.flags & (F_EOF | F_CONTROL) != 0 {
                world.sched.wake(fifo.owner, work_at(fifo, at, out));
                woken = true;
            }
            // The next slot, as `recompute` finds it.
            if !next_slot(&mut clock, c.paced_ready_at(), limit) {
                break;
            }
        }
        ch.cells += sent;
        self.clock = clock;
        // As the last `pick` leaves them: the turn after the one queue is the plain FIFO's.
        self.rr = 0;
        self.ready.set(0, self.controlled[0].ready_at());
        self.recompute();
        (sent, sent - rm_sent)
    }

    /// [`Adapter::send_paced`] for several VCs, in `pick`'s round-robin order; returns how many
    /// cells were sent and calls `data(vc, n)`, after the run, for each VC that sent `n > 0`
    /// data cells in it.
    ///
    /// Up to 64 VCs ([`Adapter::send_paced_mask`]), the VCs ready at the run's slot are bits of
    /// one word and the others wait in a list sorted by their ready times: a slot's pick is the
    /// first bit from the turn on, and a VC that waits joins the bits when the slot reaches its
    /// time, where `pick` scans the ready times and the tree is walked up at each cell.
    #[inline(never)]
    pub fn send_paced_rr(&mut self, limit: Time, world: &mut World, data: impl FnMut(VcId, u32)) -> u64 {
        if self.controlled.len() <= 64 {
            self.send_paced_mask(limit, world, data)
        } else {
            self.send_paced_scan(limit, world, data)
        }
    }

    /// [`Adapter::send_paced_rr`] for up to 64 VCs: the ready VCs as bits, the others in a list
    /// by ready time (see there).
    #[inline(always)]
    fn send_paced_mask(&mut self, limit: Time, world: &mut World, mut data: impl FnMut(VcId, u32)) -> u64 {
        debug_assert!(self.runs_paced() && self.next < limit && self.controlled.len() <= 64);
        let link = self.clock.period();
        let slot_ps = self.slot_ps;
        let n = self.controlled.len();
        let mut clock = self.clock.clone();
        if self.next > clock.next() {
            clock.set_next(self.ahead);
        }
        // Each VC's ready time as the run leaves it, and its data cells in the run.
        let mut ready = [NEVER; 64];
        let mut counts = [0u32; 64];
        ready[..n].copy_from_slice(self.ready.leaves());
        let mut waiting = Waiting::default();
        let mut turns = Turns::new(&mut waiting, &ready[..n], clock.next(), self.rr);
        let ch = &world.channels[self.channel as usize];
        debug_assert_eq!(ch.capture, NO_CAPTURE);
        let latency = ch.latency;
        // Each VC's hop, read once a run (its cells, RM cells included, carry its label).
        let mut hops = [crate::net::Hop { fifo: 0, label: 0, vc: 0 }; 64];
        for (h, c) in hops.iter_mut().zip(&self.controlled) {
            *h = ch.route[c.vc as usize];
        }
        let mut last;
        let (mut sent, mut changed) = (0u64, 0u64);
        loop {
            let slot = clock.next();
            debug_assert!(slot < limit);
            let i = turns.pick(&mut waiting, slot);
            debug_assert_eq!(
                turns.due,
                ready[..n].iter().enumerate().filter(|(_, &r)| r <= slot).fold(0, |m, (i, _)| m | 1 << i)
            );
            debug_assert!(i < n);
            last = i;
            let c = &mut self.controlled[i];
            let (cell, rm) = Self::paced_cell(c, &mut self.taggers, slot, slot_ps, link);
            counts[i] += u32::from(!rm);
            let r = c.paced_ready_at();
            ready[i] = r;
            changed |= 1 << i;
            clock.advance();
            sent += 1;
            // `World::transmit` on an uncaptured channel: the receiver's key falls only with a
            // cell into an empty input or, into a host that skips middle cells, an EOF or
            // control cell (`World::deliver`: the same minimum).
            debug_assert_eq!(cell.vc, self.controlled[i].vc);
            let hop = hops[i];
            transmit(world, hop.fifo as usize, slot + latency, Cell { vc: hop.label, ..cell }, true, true);
            if !turns.sent(&mut waiting, i, r, &mut clock, limit) {
                break;
            }
        }
        self.end_run(world, sent, clock, last);
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            self.ready.set(i, ready[i]);
            if counts[i] > 0 {
                data(self.controlled[i].vc, counts[i]);
            }
        }
        self.recompute();
        sent
    }

    /// The end of a paced run of `sent` cells over several VCs: the channel's count, the clock
    /// as the run leaves it, and `pick`'s turn after VC `last`, the last picked.
    #[inline(always)]
    pub(super) fn end_run(&mut self, world: &mut World, sent: u64, clock: SlotClock, last: usize) {
        world.channels[self.channel as usize].cells += sent;
        self.clock = clock;
        self.rr = if last + 1 == self.controlled.len() { 0 } else { last + 2 };
    }

    /// [`Adapter::send_paced_rr`] for more than 64 VCs: `pick`'s scan at each slot.
    #[inline(never)]
    fn send_paced_scan(&mut self, limit: Time, world: &mut World, mut data: impl FnMut(VcId, u32)) -> u64 {
        debug_assert!(self.runs_paced() && self.next < limit);
        let link = self.clock.period();
        let slot_ps = self.slot_ps;
        let n = self.controlled.len();
        let mut clock = self.clock.clone();
        if self.next > clock.next() {
            clock.set_next(self.ahead);
        }
        let mut sent = 0u64;
        loop {
            let slot = clock.next();
            debug_assert!(slot < limit);
            // `pick` with the plain FIFO empty: the first VC ready at `slot` from the turn on.
            let from = self.rr.saturating_sub(1);
            let ready = self.ready.leaves();
            let i = match ready[from..].iter().position(|&r| r <= slot) {
                Some(k) => from + k,
                None => ready[..from].iter().position(|&r| r <= slot).expect("a VC is ready"),
            };
            self.rr = if i + 1 == n { 0 } else { i + 2 };
            let c = &mut self.controlled[i];
            let (cell, rm) = Self::paced_cell(c, &mut self.taggers, slot, slot_ps, link);
            if !rm {
                data(cell.vc, 1);
            }
            self.ready.set(i, c.ready_at());
            clock.advance();
            sent += 1;
            world.transmit(self.channel, slot, cell);
            // The next slot, as `recompute` finds it.
            if !next_slot(&mut clock, self.ready.min(), limit) {
                break;
            }
        }
        self.clock = clock;
        self.recompute();
        sent
    }
}

/// The round robin of a paced run over up to 64 VCs: the VCs ready at the slot at hand as bits
/// of `due` (ready time at or before it), the others with a ready time in `waiting`, earliest
/// first, its earliest time kept at hand (most slots take no VC out of it), and `pick`'s turn.
///
/// `waiting` is kept apart (`Waiting`, handed to each call): a struct holding its arrays would
/// stay in memory, and the three words here with it, read and written at every cell.
pub(super) struct Turns {
    pub(super) due: u64,
    next_wait: Time,
    /// `pick`'s turn as a mask of the VCs from it on: `rr` is the queue after the last one
    /// picked (0 the plain FIFO, `k + 1` the controlled VC `k`), so the bits from `rr - 1`;
    /// after VC `i`, the bits above `i` (none where `i` is the last VC: the turn wraps, and
    /// `pick` then starts from the plain FIFO and the first VC, the same).
    turn: u64,
}

impl Turns {
    /// The VCs ready at `ready` (in VC order) at a run's first slot `first`, `rr` the
    /// adapter's turn.
    #[inline(always)]
    pub(super) fn new(waiting: &mut Waiting, ready: &[Time], first: Time, rr: usize) -> Turns {
        let mut due = 0u64;
        for (i, &r) in ready.iter().enumerate() {
            if r <= first {
                due |= 1 << i;
            } else if r != NEVER {
                waiting.insert(r, i);
            }
        }
        let next_wait = waiting.first();
        let turn = u64::MAX.checked_shl(rr.saturating_sub(1) as u32).unwrap_or(0);
        Turns { due, next_wait, turn }
    }

    /// `pick` at `slot` with the plain FIFO empty: the first VC ready from the turn on (below
    /// 64, masked so that arrays of 64 need no bounds check).
    #[inline(always)]
    pub(super) fn pick(&mut self, waiting: &mut Waiting, slot: Time) -> usize {
        if self.next_wait <= slot {
            self.due |= waiting.take_due(slot);
            self.next_wait = waiting.first();
        }
        debug_assert_eq!(self.next_wait, waiting.first());
        let later = self.due & self.turn;
        let i = (if later != 0 { later.trailing_zeros() } else { self.due.trailing_zeros() }) as usize & 63;
        debug_assert!(self.due != 0, "a VC is ready");
        self.turn = !(2u64 << i).wrapping_sub(1);
        i
    }

    /// VC `i` sent, `clock` advanced past its slot, and is ready again at `r`: it waits if
    /// that is later, and the clock moves to the next slot as `recompute` finds it from the
    /// earliest ready time. False where the run ends there.
    #[inline(always)]
    pub(super) fn sent(
        &mut self,
        waiting: &mut Waiting,
        i: usize,
        r: Time,
        clock: &mut SlotClock,
        limit: Time,
    ) -> bool {
        if r > clock.next() {
            self.due &= !(1 << i);
            if r != NEVER {
                waiting.insert(r, i);
                self.next_wait = self.next_wait.min(r);
            }
        }
        let earliest = if self.due != 0 { 0 } else { self.next_wait };
        next_slot(clock, earliest, limit)
    }
}

/// `World::transmit` of a paced run's cell `out` into FIFO `f`, arriving at `at`, on an
/// uncaptured channel: the receiver's key falls only with a cell into an empty input or, into a
/// host that skips middle cells, an EOF or control cell (`World::deliver`: the same minimum).
/// `may_be_empty` false: the FIFO is known to hold cells; `skips` false: its consumer is known
/// not to skip middle cells.
#[inline(always)]
pub(super) fn transmit(world: &mut World, f: usize, at: Time, out: Cell, may_be_empty: bool, skips: bool) {
    let fifo = &mut world.fifos[f];
    let empty = may_be_empty && fifo.is_empty();
    if empty {
        world.sched.marks.mark(fifo.mark);
    }
    fifo.push(at, out);
    debug_assert!(skips || fifo.middle_floor == 0);
    if empty || (out.flags & (F_EOF | F_CONTROL) != 0 && skips && fifo.middle_floor != 0) {
        world.sched.wake(fifo.owner, work_at(fifo, at, out));
    }
}

/// The VCs of a paced run not ready at its slot, by ready time (ties in any order: only the
/// set of those due at a slot matters), in a ring of 64: the times and the VCs' bits in two
/// arrays, `head` and `tail` counting on (a VC is in it at most once, so `tail - head <= 64`),
/// every position masked into the arrays.
///
/// The arrays are left uninitialized: only the entries from `head` to `tail` are ever read,
/// each written before. A run writes few of them; filling all 64 of each (1 KB) at every run
/// cost about 200 instructions a run (28 000 runs in the CLASS two-node shaped case over 2 s).
pub(super) struct Waiting {
    at: [MaybeUninit<Time>; 64],
    bit: [MaybeUninit<u64>; 64],
    head: usize,
    tail: usize,
}

impl Default for Waiting {
    #[inline(always)]
    fn default() -> Self {
        Waiting {
            at: [const { MaybeUninit::uninit() }; 64],
            bit: [const { MaybeUninit::uninit() }; 64],
            head: 0,
            tail: 0,
        }
    }
}

impl Waiting {
    /// VC `i` is ready at `t`. A VC that just sent is most often ready after the others (at
    /// like rates): it is put in from the back.
    #[inline(always)]
    fn insert(&mut self, t: Time, i: usize) {
        debug_assert!(self.tail.wrapping_sub(self.head) < 64);
        let mut k = self.tail;
        while k != self.head {
            let p = k.wrapping_sub(1) & 63;
            // SAFETY: `p` is `k - 1` with `head < k <= tail`: an entry held, so written.
            let prev = unsafe { self.at[p].assume_init() };
            if prev <= t {
                break;
            }
            self.at[k & 63] = MaybeUninit::new(prev);
            self.bit[k & 63] = self.bit[p];
            k = k.wrapping_sub(1);
        }
        self.at[k & 63] = MaybeUninit::new(t);
        self.bit[k & 63] = MaybeUninit::new(1 << i);
        self.tail = self.tail.wrapping_add(1);
    }

    /// The VCs ready at `slot` (as bits), taken out.
    #[inline(always)]
    fn take_due(&mut self, slot: Time) -> u64 {
        let mut due = 0u64;
        while self.head != self.tail {
            let h = self.head & 63;
            // SAFETY: `head != tail`, so the entry at `head` is held, its time and bit written.
            let (t, b) = unsafe { (self.at[h].assume_init(), self.bit[h].assume_init()) };
            if t > slot {
                break;
            }
            due |= b;
            self.head = self.head.wrapping_add(1);
        }
        due
    }

    /// The earliest ready time (`NEVER` if none waits).
    #[inline(always)]
    fn first(&self) -> Time {
        if self.head == self.tail {
            NEVER
        } else {
            // SAFETY: `head != tail`, so the entry at `head` is held.
            unsafe { self.at[self.head & 63].assume_init() }
        }
    }
}

/// Moves `clock` to the next slot of a run, as `Adapter::recompute` finds it: the clock's next
/// if the VCs are ready (at `ready`) by then, else the first slot at or after `ready`. False
/// where that slot is at or past `limit` or nothing is ready: the run ends.
#[inline(always)]
fn next_slot(clock: &mut SlotClock, ready: Time, limit: Time) -> bool {
    if ready == NEVER {
        return false;
    }
    if ready <= clock.next() {
        return clock.next() < limit;
    }
    let m = clock.align_mark(clock.mark(), ready);
    if m.time() >= limit {
        return false;
    }
    clock.set_next(m);
    true
}

#[cfg(test)]
mod tests {
    use super::super::{ControlledVc, RateControl, Shaper, TxFrame};
    use super::*;
    use crate::abr::{AdaptiveShaper, Prca};
    use crate::rng::Rng;
    use crate::time::CellPeriod;

    fn world(period: CellPeriod, vcs: u16) -> World {
        crate::net::one_channel_world(period, 7, usize::from(vcs))
    }

    /// An adapter on a 150 Mb/s link (slots of 2826666.67 ps, phased) with `vcs` VCs paced by
    /// `rate` (fixed GCRA from 50 Mb/s down with a CDVT of two cells, PRCA, or adaptive, which
    /// send RM cells).
    fn adapter(rate: &RateControl, vcs: u16) -> Adapter {
        let link = CellPeriod::from_bps(150_000_000);
        let mut a = Adapter::new(SlotClock::with_phase(link, 1_234_567), 0);
        for vc in 0..vcs {
            let s = Shaper::at_rate(50e6 / f64::from(vc + 1), 2.0 * 8_480_000.0);
            a.control_vc(usize::from(vcs), ControlledVc::new(vc, Some(s), rate.clone(), None));
        }
        a
    }

    #[test]
    fn a_paced_run_sends_what_send_after_send_does() {
        let rates = [
            RateControl::Fixed,
            RateControl::Prca(Prca::new(150e6, 1e6, 1e6, 4, 8, 40e6)),
            RateControl::Adaptive { shaper: AdaptiveShaper::new(3, 40), nrm: 5, since_rm: 0 },
        ];
        // Fixed rates over several VCs twice: the paced pass, and the fixed-rate lanes
        // (`fixed_run.rs`).
        let cases = rates.iter().flat_map(|r| [(r, 1, false), (r, 3, false), (r, 64, false), (r, 65, false)]);
        let fixed = [(&rates[0], 3, true), (&rates[0], 14, true), (&rates[0], 64, true)];
        for (rate, vcs, lanes) in cases.chain(fixed) {
            let (mut pass, mut wp) = (adapter(rate, vcs), world(CellPeriod::from_bps(150_000_000), vcs));
            let (mut cells, mut wc) = (adapter(rate, vcs), world(CellPeriod::from_bps(150_000_000), vcs));
            let mut rng = Rng::stream(3, "paced");
            let mut now: Time = 0;
            let (mut frame, mut runs) = (0, 0);
            for _ in 0..3_000 {
                now += rng.next_u64() % 40_000_000;
                // Now and then a frame handed over (or, for the rate controls that read them, a
                // backward RM cell home), as a host's event between runs.
                if rng.next_u64().is_multiple_of(3) {
                    let n = 1 + (rng.next_u64() % 30) as u32;
                    let vc = (rng.next_u64() % u64::from(vcs)) as u16;
                    frame += 1;
                    for a in [&mut pass, &mut cells] {
                        a.push(now, TxFrame { frame, vc, remaining: n, flags: 0, fresh: true });
                    }
                }
                if !matches!(rate, RateControl::Fixed) && rng.next_u64().is_multiple_of(7) {
                    let vc = (rng.next_u64() % u64::from(vcs)) as u16;
                    let back = Cell { frame: rng.next_u64() as u32 & 0xff, vc, flags: F_RM | F_BACKWARD };
                    for a in [&mut pass, &mut cells] {
                        a.on_control(now, back, false);
                    }
                }
                let limit = now + rng.next_u64() % 60_000_000;
                assert_eq!(pass.next_send(), cells.next_send());
                if pass.next_send() < limit {
                    assert!(pass.runs_paced());
                    let (sent, data) = if vcs == 1 {
                        pass.send_paced(limit, &mut wp)
                    } else if lanes {
                        assert!(pass.all_fixed());
                        let mut data = 0;
                        (pass.send_fixed_rr(limit, &mut wp, |_, n| data += u64::from(n)), data)
                    } else {
                        let mut data = 0;
                        (pass.send_paced_rr(limit, &mut wp, |_, n| data += u64::from(n)), data)
                    };
                    let (mut n, mut d) = (0, 0);
                    while cells.next_send() < limit {
                        let c = cells.send(&mut wc);
                        n += 1;
                        d += u64::from(!c.is_control());
                    }
                    assert_eq!((sent, data), (n, d));
                    runs += 1;
                }
                now = now.max(limit);
                assert_eq!(pass.next_send(), cells.next_send());
                if pass.next_send() > pass.clock.next() && pass.next_send() != NEVER {
                    assert_eq!(pass.ahead, cells.ahead, "the next slot's mark");
                }
                assert_eq!((pass.clock.next(), pass.rr), (cells.clock.next(), cells.rr));
                assert_eq!(pass.ready.leaves(), cells.ready.leaves());
                for (p, c) in pass.controlled.iter().zip(&cells.controlled) {
                    assert_eq!(
                        (p.shaper, p.rm_due, p.stats.cells, p.stats.rm_sent),
                        (c.shaper, c.rm_due, c.stats.cells, c.stats.rm_sent)
                    );
                    let head = |v: &ControlledVc| v.queue.front().map(|f| (f.frame, f.remaining, f.fresh));
                    assert_eq!((head(p), p.queue.len()), (head(c), c.queue.len()));
                }
                assert_eq!(wp.channels[0].cells, wc.channels[0].cells);
                assert_eq!(wp.sched.key(0), wc.sched.key(0));
            }
            assert!(runs > 1_000, "{runs} runs");
            assert!(wp.channels[0].cells > 2_000, "{} cells", wp.channels[0].cells);
            assert_eq!(wp.fifos[0].iter().collect::<Vec<_>>(), wc.fifos[0].iter().collect::<Vec<_>>());
        }
    }
}
