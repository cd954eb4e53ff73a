//! Buffer-acceptance policies of a switch output port (the UBR+ paper's drop policies).
//!
//! The port calls a policy only where the policy has a say: at the first cell of each frame
//! ([`Policy::frame_decision`]), to learn whether the whole frame is refused, and after a cell is
//! lost to a full buffer ([`Policy::discards_partial_packets`]), to learn whether the rest of that
//! frame is discarded too. Counting, per-VC accounting and the frame state machine are the port's.
//!
//! What the engine's fast paths may rely on about a policy (what it reads, whether asking it is
//! an event of its own, below which occupancy it admits everything) is stated once per policy
//! in [`Policy::facts`]; a new policy states its facts there (`docs/engine.md`).

use crate::rng::Rng;

mod dfba;
mod epd;
mod fba;
mod gfr;
mod selective_drop;
mod threshold_drop;

pub use dfba::dfba_refuses;
pub use epd::epd_refuses;
pub use fba::fba_refuses;
pub use gfr::{fifo_gfr_refuses, wfq_gfr_refuses};
pub use selective_drop::selective_drop_refuses;
pub use threshold_drop::{crossing_refuses, Crossing};

/// Why a cell was dropped. Counted per port in a fixed array indexed by the discriminant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    /// The buffer was full when the cell arrived.
    Overflow = 0,
    /// Partial Packet Discard: the rest of a frame that already lost a cell.
    PartialPacket = 1,
    /// Early Packet Discard: a new frame arrived with the queue above the threshold.
    EarlyPacket = 2,
    /// Selective Drop: a new frame of a VC whose load ratio exceeds Z.
    SelectiveDrop = 3,
    /// Fair Buffer Allocation: a new frame of a VC above its dynamic share.
    Fba = 4,
    /// Fault injection (a scenario's `[[fault]]`).
    Fault = 5,
    /// GFR: a CLP=1 frame refused at the LBO threshold.
    Lbo = 6,
    /// GFR: a frame refused at the HBO threshold (FIFO-based switch).
    Hbo = 7,
    /// A frame of a VC over its own threshold (WFQ-based GFR T_i, or the single drop at a
    /// threshold crossing).
    VcThreshold = 8,
    /// Differential FBA.
    Dfba = 9,
    /// A non-conforming cell discarded by the cell-level UPC (`upc` with `action = "drop"`).
    Upc = 10,
}

pub const DROP_REASONS: usize = 11;

impl DropReason {
    pub const ALL: [DropReason; DROP_REASONS] = [
        DropReason::Overflow,
        DropReason::PartialPacket,
        DropReason::EarlyPacket,
        DropReason::SelectiveDrop,
        DropReason::Fba,
        DropReason::Fault,
        DropReason::Lbo,
        DropReason::Hbo,
        DropReason::VcThreshold,
        DropReason::Dfba,
        DropReason::Upc,
    ];
    pub fn name(self) -> &'static str {
        match self {
            DropReason::Overflow => "overflow",
            DropReason::PartialPacket => "partial_packet",
            DropReason::EarlyPacket => "early_packet",
            DropReason::SelectiveDrop => "selective_drop",
            DropReason::Fba => "fba",
            DropReason::Fault => "fault",
            DropReason::Lbo => "lbo",
            DropReason::Hbo => "hbo",
            DropReason::VcThreshold => "vc_threshold",
            DropReason::Dfba => "dfba",
            DropReason::Upc => "upc",
        }
    }
}

/// What a policy sees when a frame starts: the UBR+ paper's X, K, Y_i and N_a, and whether the
/// frame is tagged (CLP=1).
#[derive(Debug, Clone, Copy, Default)]
pub struct BufferState {
    /// Cells in the buffer (X).
    pub x: u32,
    /// Buffer capacity in cells (K).
    pub k: u32,
    /// Cells of the arriving cell's VC in the buffer (Y_i).
    pub y: u32,
    /// VCs with at least one cell in the buffer (N_a).
    pub active: u32,
    pub clp1: bool,
}

/// What a policy's decision at a frame's first cell depends on and does, for the engine's fast
/// paths (`docs/engine.md`): each path reads these, never the policy's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PolicyFacts {
    /// It reads the VC's occupancy or the count of active VCs (Y_i, N_a), not only the
    /// buffer's total X and K and the CLP: a port must keep them per departure.
    pub reads_vc_occupancy: bool,
    /// It keeps memory of the frames it is asked about (`VcPolicy::crossing`): asking it is an
    /// event, so no path may ask it where the per-cell path would not, nor twice.
    pub keeps_state: bool,
    /// It draws from the port's random stream: the same, as each draw moves the stream.
    pub draws_random: bool,
    /// It admits every frame while the buffer holds fewer cells than this, whatever else its
    /// inputs hold (0: no such bound is stated, and the paths ask it at every first cell). A
    /// bound may be lower than the true one (a path then asks more often); never higher.
    pub admits_below: u32,
}

impl PolicyFacts {
    /// Asking it changes nothing and gives the same answer again: no memory, no draw.
    #[inline]
    pub fn pure(&self) -> bool {
        !self.keeps_state && !self.draws_random
    }

    /// A pass may ask it at a first cell from the buffer's total alone, and a frame it refuses
    /// be asked again, to the same answer, by the per-cell path.
    #[inline]
    pub fn decides_from_total(&self) -> bool {
        self.pure() && !self.reads_vc_occupancy
    }

    /// The occupancy below which a path may admit a frame without asking: `admits_below` for a
    /// pure policy, 0 for one whose asking is itself an event.
    #[inline]
    pub fn unasked_below(&self) -> u32 {
        if self.pure() {
            self.admits_below
        } else {
            0
        }
    }

    /// Whether a frame starting at occupancy `x` needs no asking (`unasked_below`).
    #[inline]
    pub fn admits_unasked(&self, x: u32) -> bool {
        x < self.unasked_below()
    }
}

/// A VC's own parameters and memory at a port, for the per-VC policies.
#[derive(Debug, Clone, Copy, Default)]
pub struct VcPolicy {
    /// T_i (WFQ-based GFR), R_i (DFBA) or r_i (single drop per crossing), in cells.
    pub threshold: u32,
    /// W_i (DFBA).
    pub weight: f64,
    pub crossing: Crossing,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    /// Plain UBR: a cell is dropped when the buffer is full, nothing more.
    TailDrop,
    /// Tail drop, then the rest of the damaged frame is discarded (its EOF cell kept).
    Ppd,
    /// Early Packet Discard (Romanov & Floyd): new frames refused while X > threshold; PPD.
    Epd { threshold: u32 },
    /// Selective Drop (UBR+ paper section 6): new frames refused when X > R and
    /// Y_i * N_a / X > Z; PPD.
    SelectiveDrop { r: u32, z: f64 },
    /// Fair Buffer Allocation (Heinanen & Kilkki; UBR+ paper section 7): new frames refused when
    /// X > R and Y_i * N_a / X > Z * (K - R) / (X - R); PPD.
    Fba { r: u32, z: f64 },
    /// The GFR study's FIFO-based switch: CLP=1 frames only below LBO, all refused above HBO; PPD.
    FifoGfr { lbo: u32, hbo: u32 },
    /// The GFR study's WFQ-based switch acceptance: CLP=1 frames only below LBO, CLP=0 frames
    /// above HBO only while the VC is below its T_i; PPD.
    WfqGfr { lbo: u32, hbo: u32 },
    /// Differential FBA (rate-guarantee study section 4) with per-VC R_i and W_i; PPD.
    Dfba { r: u32, z: f64 },
    /// One frame dropped each time a VC's occupancy crosses its r_i (rate-guarantee study
    /// section 3); PPD.
    ThresholdDrop,
}

impl Policy {
    /// At the first cell of a frame: `Some(reason)` refuses the whole frame. `vc` is the
    /// frame's VC's parameters and memory; `rng` is drawn from only by DFBA's probabilistic band.
    #[inline(always)]
    pub fn frame_decision(&self, s: &BufferState, vc: &mut VcPolicy, rng: &mut Rng) -> Option<DropReason> {
        match *self {
            Policy::TailDrop | Policy::Ppd => None,
            Policy::Epd { threshold } => epd_refuses(s, threshold).then_some(DropReason::EarlyPacket),
            Policy::SelectiveDrop { r, z } => {
                selective_drop_refuses(s, r, z).then_some(DropReason::SelectiveDrop)
            }
            Policy::Fba { r, z } => fba_refuses(s, r, z).then_some(DropReason::Fba),
            Policy::FifoGfr { lbo, hbo } => fifo_gfr_refuses(s.x, s.clp1, lbo, hbo).then_some({
                if s.x > hbo {
                    DropReason::Hbo
                } else {
                    DropReason::Lbo
                }
            }),
            Policy::WfqGfr { lbo, hbo } => wfq_gfr_refuses(s.x, s.clp1, lbo, hbo, s.y, vc.threshold)
                .then_some(if s.clp1 { DropReason::Lbo } else { DropReason::VcThreshold }),
            Policy::Dfba { r, z } => {
                dfba_refuses(s.x, r, s.y, vc.threshold, z, vc.weight, s.clp1, || rng.uniform())
                    .then_some(DropReason::Dfba)
            }
            Policy::ThresholdDrop => {
                crossing_refuses(&mut vc.crossing, s.y, vc.threshold).then_some(DropReason::VcThreshold)
            }
        }
    }

    /// What the engine's fast paths may rely on about `frame_decision` (see [`PolicyFacts`]).
    /// A new policy states its facts here, and every path reads them from here: a path that
    /// asks the policy in a pass, or skips asking it, does so only as these facts allow.
    pub fn facts(&self) -> PolicyFacts {
        const PLAIN: PolicyFacts = PolicyFacts {
            reads_vc_occupancy: false,
            keeps_state: false,
            draws_random: false,
            admits_below: 0,
        };
        let per_vc = PolicyFacts { reads_vc_occupancy: true, ..PLAIN };
        match *self {
            Policy::TailDrop | Policy::Ppd => PolicyFacts { admits_below: u32::MAX, ..PLAIN },
            // `epd_refuses`: X above the threshold.
            Policy::Epd { threshold } => PolicyFacts { admits_below: threshold.saturating_add(1), ..PLAIN },
            Policy::FifoGfr { .. } => PLAIN,
            Policy::SelectiveDrop { .. } | Policy::Fba { .. } | Policy::WfqGfr { .. } => per_vc,
            Policy::Dfba { .. } => PolicyFacts { draws_random: true, ..per_vc },
            Policy::ThresholdDrop => PolicyFacts { keeps_state: true, ..per_vc },
        }
    }

    /// Whether `frame_decision` reads the VC's occupancy or the count of active VCs (Y_i, N_a):
    /// a port under a policy that does not need not keep them per departure (`CommittedRun`).
    pub fn reads_vc_occupancy(&self) -> bool {
        self.facts().reads_vc_occupancy
    }

    /// Whether a frame that lost a cell to overflow loses the rest of its cells too.
    #[inline]
    pub fn discards_partial_packets(&self) -> bool {
        !matches!(self, Policy::TailDrop)
    }

    pub fn name(&self) -> &'static str {
        match self {
            Policy::TailDrop => "tail_drop",
            Policy::Ppd => "ppd",
            Policy::Epd { .. } => "epd",
            Policy::SelectiveDrop { .. } => "selective_drop",
            Policy::Fba { .. } => "fba",
            Policy::FifoGfr { .. } => "fifo_gfr",
            Policy::WfqGfr { .. } => "wfq_gfr",
            Policy::Dfba { .. } => "dfba",
            Policy::ThresholdDrop => "threshold_drop",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(x: u32, k: u32, y: u32, active: u32) -> BufferState {
        BufferState { x, k, y, active, clp1: false }
    }

    fn decide(p: Policy, s: &BufferState) -> Option<DropReason> {
        p.frame_decision(s, &mut VcPolicy::default(), &mut Rng::stream(0, "t"))
    }

    #[test]
    fn tail_drop_and_ppd_never_refuse_frames() {
        for p in [Policy::TailDrop, Policy::Ppd] {
            assert_eq!(decide(p, &st(999, 1000, 999, 1)), None);
        }
        assert!(!Policy::TailDrop.discards_partial_packets());
        assert!(Policy::Ppd.discards_partial_packets());
    }

    /// Every policy, with parameters around its bounds.
    fn every_policy() -> Vec<Policy> {
        vec![
            Policy::TailDrop,
            Policy::Ppd,
            Policy::Epd { threshold: 0 },
            Policy::Epd { threshold: 1 },
            Policy::Epd { threshold: 800 },
            Policy::SelectiveDrop { r: 100, z: 0.8 },
            Policy::Fba { r: 100, z: 0.8 },
            Policy::FifoGfr { lbo: 300, hbo: 800 },
            Policy::WfqGfr { lbo: 300, hbo: 800 },
            Policy::Dfba { r: 100, z: 0.8 },
            Policy::ThresholdDrop,
        ]
    }

    #[test]
    fn below_unasked_below_every_policy_admits_every_frame() {
        // A busy pass admits a first cell without the exact occupancy when its count (an upper
        // bound) is below `unasked_below`, and a train asks nothing at X = 0 or 1 when the
        // policy admits there: every occupancy below the bound must be admitted by the policy
        // itself, CLP 0 or 1, whatever Y_i and N_a. Fails with EPD's bound one higher (checked).
        for policy in every_policy() {
            let facts = policy.facts();
            let below = facts.unasked_below();
            let (mut vc, mut rng) =
                (VcPolicy { threshold: 5, weight: 1.0, ..Default::default() }, Rng::stream(5, "t"));
            for x in (0..3000).filter(|&x| x < below) {
                for (clp1, y, active) in [(false, x, 1), (true, x, 1), (false, 0, 0), (true, x / 2, 3)] {
                    let state = BufferState { x, k: 3000, y, active, clp1 };
                    assert_eq!(policy.frame_decision(&state, &mut vc, &mut rng), None, "{policy:?} x {x}");
                }
            }
        }
        assert_eq!(Policy::Epd { threshold: 800 }.facts().unasked_below(), 801);
    }

    #[test]
    fn a_policy_that_reads_no_vc_state_decides_from_x_alone() {
        // `reads_vc_occupancy` false: Y_i and N_a may be anything (a count-only port hands the
        // policy the total as the VC's); `pure`: asked twice, the same answer and the same
        // memory and stream after.
        for policy in every_policy() {
            let facts = policy.facts();
            for x in [0, 1, 2, 150, 299, 300, 301, 799, 800, 801, 2000, 2999] {
                for clp1 in [false, true] {
                    let ask = |y: u32, active: u32| {
                        let (mut vc, mut rng) = (
                            VcPolicy { threshold: 5, weight: 1.0, ..Default::default() },
                            Rng::stream(5, "t"),
                        );
                        let s = BufferState { x, k: 3000, y, active, clp1 };
                        let first = policy.frame_decision(&s, &mut vc, &mut rng);
                        let second = policy.frame_decision(&s, &mut vc, &mut rng);
                        (first, second, vc.crossing.armed, rng.uniform())
                    };
                    let (a, b, crossing, draw) = ask(x, u32::from(x > 0));
                    if facts.pure() {
                        assert_eq!(a, b, "{policy:?} x {x}: asked twice");
                        assert_eq!(draw, Rng::stream(5, "t").uniform(), "{policy:?} draws");
                        assert!(!crossing, "{policy:?} keeps state");
                    }
                    if !facts.reads_vc_occupancy {
                        for (y, active) in [(0, 0), (x / 3, 4), (x, 1), (7, 2)] {
                            assert_eq!(ask(y, active).0, a, "{policy:?} x {x} y {y} n_a {active}");
                        }
                    }
                }
            }
        }
        // The facts are not vacuous: the stateful and random policies are told apart.
        assert!(!Policy::ThresholdDrop.facts().pure() && !Policy::Dfba { r: 1, z: 0.5 }.facts().pure());
    }

    #[test]
    fn dispatch_names_the_reason() {
        let s = st(950, 1000, 800, 2);
        assert_eq!(decide(Policy::Epd { threshold: 800 }, &s), Some(DropReason::EarlyPacket));
        assert_eq!(decide(Policy::SelectiveDrop { r: 900, z: 0.8 }, &s), Some(DropReason::SelectiveDrop));
        assert_eq!(decide(Policy::Fba { r: 900, z: 0.8 }, &s), Some(DropReason::Fba));
        let tagged = BufferState { clp1: true, ..st(7000, 8192, 10, 2) };
        assert_eq!(decide(Policy::FifoGfr { lbo: 6144, hbo: 7168 }, &tagged), Some(DropReason::Lbo));
        assert_eq!(
            decide(Policy::FifoGfr { lbo: 6144, hbo: 7168 }, &st(7169, 8192, 1, 1)),
            Some(DropReason::Hbo)
        );
        let mut vc = VcPolicy { threshold: 10, ..Default::default() };
        let mut rng = Rng::stream(0, "t");
        let wfq = Policy::WfqGfr { lbo: 6144, hbo: 7168 };
        assert_eq!(
            wfq.frame_decision(&st(7169, 8192, 10, 2), &mut vc, &mut rng),
            Some(DropReason::VcThreshold)
        );
        assert_eq!(wfq.frame_decision(&st(7169, 8192, 9, 2), &mut vc, &mut rng), None);
    }
}
