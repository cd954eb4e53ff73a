//! FCVC, Flow-Controlled Virtual Channels (Kung & Chapman; credit/rate study section II.B):
//! hop-by-hop credits. Each node gives every VC a buffer of N2 + N3 cells; the downstream node
//! counts the cells it forwards and, every N2 of them, sends a credit cell carrying the count C;
//! the upstream node adds C_new - C_old to its credit balance and may send only while the
//! balance is positive, so the downstream buffer can never overflow.

use crate::time::{Time, CELL_BITS};

/// N3 = ceil(RTT * B_VC / 424): cells that arrive in one link round trip at the target rate
/// (credit/rate study, eq. 1). `rtt` in picoseconds, `b_vc` in bit/s.
pub fn n3(rtt: Time, b_vc: f64) -> u32 {
    (rtt as f64 * 1e-12 * b_vc / CELL_BITS as f64).ceil() as u32
}

/// Upstream end of a VC on one link.
#[derive(Debug, Clone)]
pub struct CreditSender {
    balance: u32,
    /// The count carried by the last credit cell received.
    c_old: u64,
}

impl CreditSender {
    /// Start with the whole downstream buffer (N2 + N3 cells) as credit.
    pub fn new(buffer: u32) -> Self {
        CreditSender { balance: buffer, c_old: 0 }
    }

    pub fn can_send(&self) -> bool {
        self.balance > 0
    }

    pub fn balance(&self) -> u32 {
        self.balance
    }

    pub fn sent(&mut self) {
        debug_assert!(self.balance > 0, "sent without credit");
        self.balance -= 1;
    }

    /// A credit cell carrying the downstream count `c`.
    pub fn credit(&mut self, c: u64) {
        self.balance += (c - self.c_old) as u32;
        self.c_old = c;
    }

    /// A credit cell carrying only the low 32 bits of the count (what `Cell::frame` holds):
    /// counts only grow, so the difference modulo 2^32 is the number of cells credited.
    pub fn credit_low32(&mut self, c: u32) {
        let delta = c.wrapping_sub(self.c_old as u32);
        self.credit(self.c_old + u64::from(delta));
    }
}

/// Downstream end: counts forwarded cells and says when a credit cell is due.
#[derive(Debug, Clone)]
pub struct CreditReceiver {
    pub n2: u32,
    count: u64,
}

impl CreditReceiver {
    pub fn new(n2: u32) -> Self {
        CreditReceiver { n2, count: 0 }
    }

    /// A cell of this VC left the node: `Some(C)` when a credit cell with count C is due.
    pub fn forwarded(&mut self) -> Option<u64> {
        self.count += 1;
        self.count.is_multiple_of(self.n2 as u64).then_some(self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::PS_PER_US;

    #[test]
    fn n3_of_the_study() {
        // 70 us each way, 2.5 Mb/s: 140 us * 2.5e6 / 424 = 0.83 -> 1 cell (the study's N3 = 1).
        assert_eq!(n3(140 * PS_PER_US, 2.5e6), 1);
        // 10 ms round trip at OC-3: 3667.9 cells -> 3668.
        assert_eq!(n3(10_000 * PS_PER_US, 155.52e6), 3668);
    }

    #[test]
    fn credits_bound_the_cells_in_flight_to_the_buffer() {
        let (n2, buf) = (10, 11);
        let mut up = CreditSender::new(buf);
        let mut down = CreditReceiver::new(n2);
        let mut queued = 0u32; // at the downstream node
        let mut pending_credit: Option<u64> = None;
        for step in 0..10_000u32 {
            if up.can_send() {
                up.sent();
                queued += 1;
                assert!(queued <= buf, "downstream buffer overflow at step {step}");
            }
            // The downstream node forwards one cell every other step (a slower link).
            if step % 2 == 0 && queued > 0 {
                queued -= 1;
                if let Some(c) = down.forwarded() {
                    pending_credit = Some(c);
                }
            }
            if let Some(c) = pending_credit.take() {
                up.credit(c);
            }
        }
        assert!(up.balance() <= buf);
    }

    #[test]
    fn a_32_bit_count_wraps_without_losing_credit() {
        // A sender that has already been credited 2^32 - 3 cells in all (and spent them).
        let mut up = CreditSender { balance: 5, c_old: u64::from(u32::MAX) - 2 };
        let before = up.balance();
        up.credit_low32(7); // the count went from 2^32 - 3 to 2^32 + 7: ten more cells
        assert_eq!(up.balance(), before + 10);
    }
}
