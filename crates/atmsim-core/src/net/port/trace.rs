//! Trace sampling at a port (`[trace]`): at each boundary the port stops its batch so that
//! everything before the boundary has happened and nothing at or after it, and samples that
//! state. An untraced port's next boundary is `NEVER`: one compare per batch.

use super::Port;
use crate::net::PortTrace;
use crate::time::Time;

impl Port {
    /// Record the series `trace` asks for, from its first boundary on.
    pub fn start_trace(&mut self, trace: PortTrace) {
        self.next_sample = trace.first();
        if trace.arrivals() {
            // One counter per VC label the port knows; untraced ports keep none and skip the count.
            self.vc_arrivals = vec![0; self.vcs.len()];
        }
        self.trace = Some(Box::new(trace));
    }

    /// Take the samples of every boundary up to `upto`. The caller guarantees that every event
    /// before `upto` has been processed and none at or after it, so the state is the boundary's
    /// (constant since the last event).
    #[cold]
    #[inline(never)]
    pub(super) fn sample(&mut self, upto: Time) {
        let Some(tr) = self.trace.as_deref_mut() else { return };
        while self.next_sample <= upto {
            let (classes, vcs, arrived) = (&self.classes, &self.vcs, &self.vc_arrivals);
            let queue = self.queued + self.staging.held;
            self.next_sample = tr.due(
                self.next_sample,
                queue,
                |label| classes[vcs[label as usize].class as usize].y,
                self.stats.cells_out(),
                |label| arrived.get(label as usize).copied().unwrap_or(0),
            );
        }
    }
}
