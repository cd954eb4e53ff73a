//! Runs of a credit-controlled VC's cells in one pass (`[engine] credit_run`,
//! `HostPlan::credit_runs`).
//!
//! An adapter whose one controlled VC is under FCVC credit at the line rate (no shaper, no rate
//! control: the TCP sources of the credit/rate study) and with no plain frame or returned RM
//! cell waiting sends, [`Adapter::send`] after [`Adapter::send`], the VC's cells back to back in
//! the clock's slots while it has credit and cells. What would change that (a credit cell, a
//! frame handed over) comes only with an arrival or a timer, which ends the host's run; the
//! balance is known, and so the run's departures follow from the queue and the balance alone.
//! This pass puts them on the wire in a row: the hop read once per frame, the receiver woken as
//! `World::deliver` wakes it, the adapter's next slot found once at the end. Where a sender
//! times from transmission completion (`timing_excludes_transmission`), the run stops after
//! each frame's last cell, so that the host tells the sender before the next cell, as it does
//! after each `send`.

use super::{Adapter, RateControl};
use crate::cell::{Cell, F_CONTROL, F_EOF};
use crate::net::{work_at, World, NO_CAPTURE};
use crate::time::Time;

impl Adapter {
    /// One controlled VC, under FCVC credit at the line rate (no shaper, no rate control).
    pub fn one_credit_line(&self) -> bool {
        matches!(&self.controlled[..], [c] if c.credit.is_some() && c.shaper.is_none()
            && matches!(c.rate, RateControl::Fixed))
    }

    /// One controlled VC (credit at the line rate: the plan's condition), nothing plain queued
    /// and no RM cell to return: what [`Adapter::send_credit`] can send.
    #[inline]
    pub fn runs_credit(&self) -> bool {
        self.controlled.len() == 1 && self.plain.is_empty() && self.control.is_empty()
    }

    /// Send every cell whose slot starts before `limit` (the adapter's next slot is before it)
    /// while the VC has credit, or with `to_eof` up to the end of the first frame that ends in
    /// the run: what repeated [`Adapter::send`] calls give for an adapter that
    /// [`Adapter::runs_credit`], on an uncaptured channel. Returns how many cells were sent and,
    /// where the run stopped at a frame's last cell (`to_eof`), that cell as `send` returns it
    /// (the clock then stands at the end of its slot, `Adapter::last_slot_end`).
    pub fn send_credit(&mut self, limit: Time, to_eof: bool, world: &mut World) -> (u64, Option<Cell>) {
        debug_assert!(self.runs_credit() && self.next < limit);
        let c = &mut self.controlled[0];
        debug_assert!(c.shaper.is_none() && matches!(c.rate, RateControl::Fixed) && !c.rm_due);
        let credit = c.credit.as_mut().expect("a credit-controlled VC");
        let ch = &mut world.channels[self.channel as usize];
        debug_assert_eq!(ch.capture, NO_CAPTURE);
        let latency = ch.latency;
        // A local copy the loop keeps in registers. A VC at the line rate is ready at the
        // clock's next slot (`recompute`).
        let mut clock = self.clock.clone();
        debug_assert_eq!(self.next, clock.next());
        let (mut sent, mut last) = (0u64, None);
        'run: while credit.can_send() && clock.next() < limit {
            let Some(head) = c.queue.front_mut() else { break };
            if head.fresh {
                Self::start_frame(head, &mut self.taggers, clock.next());
            }
            let hop = ch.route[head.vc as usize];
            let fifo = &mut world.fifos[hop.fifo as usize];
            let cell = Cell { vc: hop.label, frame: head.frame, flags: head.flags };
            // The frame's cells while there is credit and a slot before the limit.
            let ended = loop {
                let slot = clock.next();
                head.remaining -= 1;
                credit.sent();
                sent += 1;
                let ended = head.remaining == 0;
                let out = if ended { Cell { flags: cell.flags | F_EOF, ..cell } } else { cell };
                let at = slot + latency;
                // `World::transmit`'s wake, as `World::deliver` gives it: only a cell into an
                // empty input or, into a host that skips middle cells, an EOF or control cell
                // can bring the receiver's key forward.
                let empty = fifo.is_empty();
                if empty {
                    world.sched.marks.mark(fifo.mark);
                }
                fifo.push(at, out);
                if empty || (out.flags & (F_EOF | F_CONTROL) != 0 && fifo.middle_floor != 0) {
                    world.sched.wake(fifo.owner, work_at(fifo, at, out));
                }
                clock.advance();
                if ended || !credit.can_send() || clock.next() >= limit {
                    break ended;
                }
            };
            if !ended {
                break;
            }
            let eof = Cell { vc: head.vc, frame: head.frame, flags: head.flags | F_EOF };
            c.queue.pop_front();
            if to_eof {
                last = Some(eof);
                break 'run;
            }
        }
        c.stats.cells += sent;
        ch.cells += sent;
        self.clock = clock;
        // As the last `pick` leaves them: the turn after the one queue is the plain FIFO's.
        self.rr = 0;
        self.ready.set(0, self.controlled[0].ready_at());
        self.recompute();
        (sent, last)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ControlledVc, TxFrame};
    use super::*;
    use crate::abr::CreditSender;
    use crate::cell::F_CREDIT;
    use crate::rng::Rng;
    use crate::time::{CellPeriod, SlotClock, NEVER};

    fn world() -> World {
        crate::net::one_channel_world(CellPeriod::from_bps(150_000_000), 7, 2)
    }

    /// An adapter on a 150 Mb/s link (phased) whose VC 1 is under FCVC with `buffer` cells of
    /// credit, at the line rate.
    fn adapter(buffer: u32) -> Adapter {
        let link = CellPeriod::from_bps(150_000_000);
        let mut a = Adapter::new(SlotClock::with_phase(link, 1_234_567), 0);
        a.control_vc(2, ControlledVc::new(1, None, RateControl::Fixed, Some(CreditSender::new(buffer))));
        a
    }

    #[test]
    fn a_credit_run_sends_what_send_after_send_does() {
        for (buffer, to_eof) in [(11, false), (11, true), (3, false), (200, true)] {
            let (mut pass, mut wp) = (adapter(buffer), world());
            let (mut cells, mut wc) = (adapter(buffer), world());
            let mut rng = Rng::stream(5, "credit");
            let (mut now, mut frame, mut count, mut runs, mut eofs) = (0, 0, 0u32, 0, 0);
            // What the receiver took: now and then it empties its input (so that later cells
            // find it empty and wake it again).
            let mut drained = [Vec::new(), Vec::new()];
            for _ in 0..4_000 {
                now += rng.next_u64() % 30_000_000;
                // Now and then a frame handed over or a credit cell home, as a host's events
                // between runs.
                if rng.next_u64().is_multiple_of(3) {
                    let n = 1 + (rng.next_u64() % 30) as u32;
                    frame += 1;
                    for a in [&mut pass, &mut cells] {
                        a.push(now, TxFrame { frame, vc: 1, remaining: n, flags: 0, fresh: true });
                    }
                }
                if rng.next_u64().is_multiple_of(2) {
                    count += 1 + (rng.next_u64() % 8) as u32;
                    for a in [&mut pass, &mut cells] {
                        a.on_control(now, Cell { frame: count, vc: 1, flags: F_CREDIT }, false);
                    }
                }
                let limit = now + rng.next_u64() % 60_000_000;
                assert_eq!(pass.next_send(), cells.next_send());
                while pass.next_send() < limit {
                    assert!(pass.runs_credit());
                    let (sent, eof) = pass.send_credit(limit, to_eof, &mut wp);
                    // `send` after `send` up to the same point.
                    let (mut n, mut last) = (0, None);
                    while cells.next_send() < limit {
                        let c = cells.send(&mut wc);
                        n += 1;
                        if to_eof && c.is_eof() {
                            last = Some(c);
                            break;
                        }
                    }
                    assert_eq!((sent, eof), (n, last));
                    if eof.is_some() {
                        eofs += 1;
                        assert_eq!(pass.last_slot_end(), cells.last_slot_end());
                    }
                    assert!(!to_eof || eof.is_some() || pass.next_send() >= limit);
                    runs += 1;
                }
                now = now.max(limit);
                assert_eq!(pass.next_send(), cells.next_send());
                assert_eq!((pass.clock.next(), pass.rr), (cells.clock.next(), cells.rr));
                assert_eq!(pass.ready.leaves(), cells.ready.leaves());
                let (p, c) = (&pass.controlled[0], &cells.controlled[0]);
                assert_eq!(p.stats.cells, c.stats.cells);
                assert_eq!(
                    p.credit.as_ref().map(CreditSender::balance),
                    c.credit.as_ref().map(CreditSender::balance)
                );
                assert_eq!(pass.backlog_cells(), cells.backlog_cells());
                assert_eq!(wp.channels[0].cells, wc.channels[0].cells);
                assert_eq!(wp.sched.key(0), wc.sched.key(0));
                if rng.next_u64().is_multiple_of(5) {
                    for (w, d) in [&mut wp, &mut wc].into_iter().zip(drained.iter_mut()) {
                        while let Some(x) = w.fifos[0].pop() {
                            d.push(x);
                        }
                        w.sched.set(0, NEVER);
                    }
                }
            }
            assert!(runs > 1_000, "{runs} runs");
            assert!(!to_eof || eofs > 300, "{eofs} runs to a frame's end");
            assert!(wp.channels[0].cells > 5_000, "{} cells", wp.channels[0].cells);
            drained[0].extend(wp.fifos[0].iter().copied());
            drained[1].extend(wc.fifos[0].iter().copied());
            assert_eq!(drained[0], drained[1]);
        }
    }
}
