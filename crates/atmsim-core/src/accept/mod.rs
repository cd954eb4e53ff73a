//! Buffer-acceptance policies of a switch output port (the UBR+ paper's drop policies).
//!
//! The port calls a policy only where the policy has a say: at the first cell of each frame
//! ([`Policy::frame_decision`]), to learn whether the whole frame is refused, and after a cell is
//! lost to a full buffer ([`Policy::discards_partial_packets`]), to learn whether the rest of that
//! frame is discarded too. Counting, per-VC accounting and the frame state machine are the port's.

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
}

pub const DROP_REASONS: usize = 6;

impl DropReason {
    pub const ALL: [DropReason; DROP_REASONS] = [
        DropReason::Overflow,
        DropReason::PartialPacket,
        DropReason::EarlyPacket,
        DropReason::SelectiveDrop,
        DropReason::Fba,
        DropReason::Fault,
    ];
    pub fn name(self) -> &'static str {
        match self {
            DropReason::Overflow => "overflow",
            DropReason::PartialPacket => "partial_packet",
            DropReason::EarlyPacket => "early_packet",
            DropReason::SelectiveDrop => "selective_drop",
            DropReason::Fba => "fba",
            DropReason::Fault => "fault",
        }
    }
}

/// What a policy sees when a frame starts: the UBR+ paper's X, K, Y_i and N_a.
#[derive(Debug, Clone, Copy)]
pub struct BufferState {
    /// Cells in the buffer (X).
    pub x: u32,
    /// Buffer capacity in cells (K).
    pub k: u32,
    /// Cells of the arriving cell's VC in the buffer (Y_i).
    pub y: u32,
    /// VCs with at least one cell in the buffer (N_a).
    pub active: u32,
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
}

impl Policy {
    /// At the first cell of a frame: `Some(reason)` refuses the whole frame.
    #[inline]
    pub fn frame_decision(&self, s: &BufferState) -> Option<DropReason> {
        match *self {
            Policy::TailDrop | Policy::Ppd => None,
            Policy::Epd { threshold } => epd_refuses(s, threshold).then_some(DropReason::EarlyPacket),
            Policy::SelectiveDrop { r, z } => {
                selective_drop_refuses(s, r, z).then_some(DropReason::SelectiveDrop)
            }
            Policy::Fba { r, z } => fba_refuses(s, r, z).then_some(DropReason::Fba),
        }
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(x: u32, k: u32, y: u32, active: u32) -> BufferState {
        BufferState { x, k, y, active }
    }

    #[test]
    fn tail_drop_and_ppd_never_refuse_frames() {
        for p in [Policy::TailDrop, Policy::Ppd] {
            assert_eq!(p.frame_decision(&st(999, 1000, 999, 1)), None);
        }
        assert!(!Policy::TailDrop.discards_partial_packets());
        assert!(Policy::Ppd.discards_partial_packets());
    }

    #[test]
    fn dispatch_names_the_reason() {
        let s = st(950, 1000, 800, 2);
        assert_eq!(Policy::Epd { threshold: 800 }.frame_decision(&s), Some(DropReason::EarlyPacket));
        assert_eq!(
            Policy::SelectiveDrop { r: 900, z: 0.8 }.frame_decision(&s),
            Some(DropReason::SelectiveDrop)
        );
        assert_eq!(Policy::Fba { r: 900, z: 0.8 }.frame_decision(&s), Some(DropReason::Fba));
    }
}
