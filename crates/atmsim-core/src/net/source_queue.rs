//! The bounded send queue a host keeps for each background source.
//!
//! A background source offers bursts (messages, ON periods, CBR cells) on its own schedule,
//! whatever its access link or shaper can carry. A real adapter's segmentation memory is
//! finite: once it is full, whole messages are refused at the source (a message missing
//! cells is useless to its receiver, so a partial one is never queued). Without this bound a
//! source faster than its link grew the host's queue by gigabytes per simulated second.
//!
//! Refused messages are counted, as a port counts its drops by reason, and appear in the
//! report as `messages_refused` / `cells_refused` of the background source.

/// Cells a background source may have waiting in its host adapter. Large enough that no
/// shipped scenario's source ever reaches it (their reports are unchanged by the bound), small
/// enough that a source offering more than its link carries costs a few MB, not the machine.
pub const SOURCE_QUEUE_CELLS: u32 = 1 << 16;

/// One source's cells waiting in the adapter, and what was refused for lack of room.
#[derive(Debug, Clone, Default)]
pub struct SourceQueue {
    /// Cells handed to the adapter and not yet sent.
    pub queued: u32,
    pub messages_refused: u64,
    pub cells_refused: u64,
}

impl SourceQueue {
    /// Whether a burst of `cells` fits; a refused burst is counted. An empty queue takes any
    /// burst (it is one frame in memory, however many cells it has), so a burst longer than
    /// the bound is delayed, not starved.
    pub fn admit(&mut self, cells: u32) -> bool {
        if self.queued > 0 && u64::from(self.queued) + u64::from(cells) > u64::from(SOURCE_QUEUE_CELLS) {
            self.messages_refused += 1;
            self.cells_refused += u64::from(cells);
            return false;
        }
        self.queued += cells;
        true
    }

    /// One of this source's cells left the adapter.
    #[inline]
    pub fn sent(&mut self) {
        self.queued -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_bursts_are_refused_once_the_queue_is_full_and_counted() {
        let mut q = SourceQueue::default();
        assert!(q.admit(SOURCE_QUEUE_CELLS - 10));
        assert!(q.admit(10));
        assert!(!q.admit(1));
        assert_eq!((q.messages_refused, q.cells_refused), (1, 1));
        q.sent();
        assert!(q.admit(1));
        assert_eq!(q.queued, SOURCE_QUEUE_CELLS);
    }

    #[test]
    fn an_empty_queue_takes_a_burst_longer_than_the_bound() {
        let mut q = SourceQueue::default();
        assert!(q.admit(SOURCE_QUEUE_CELLS * 2));
        assert!(!q.admit(1));
    }
}
