//! Where the model's clocks start: slot-grid phases, timer-tick phases and start jitter.
//!
//! A real network is not phase-locked. Every transmitter (a switch output port, a host adapter,
//! in both directions of every link, so also the ports and adapters that carry only ACKs back)
//! times its cell slots from its own free-running oscillator: SONET/SDH framers and ATM line
//! cards at the same nominal rate are plesiochronous, so where one link's slot boundaries fall
//! relative to another's is arbitrary. Hosts boot at unrelated times, so their TCP slow-timer
//! ticks (4.3BSD's 500 ms `tcp_slowtimo`, the papers' 100 ms ticks) and delayed-ACK ticks are not
//! in step either. A model that starts every slot grid and every tick at t = 0 instead makes
//! cells from equal links reach a switch at the same picosecond, so the tie-breaking rule of the
//! port decides who is queued first, every time, in the same order; and all retransmission timers
//! of a run fire in the same instant.
//!
//! `phases = "random"` (the default) models the independent oscillators: each channel's slot
//! grid starts at a phase drawn uniformly in [0, one cell period) and each host's timer ticks at
//! a phase drawn uniformly in [0, tick), both once per run, from the component's own stream
//! ([`Rng::stream`] named `phase/<from>-><to>` and `ticks/<host>`), so adding a link or a host
//! never moves another's draw. The rates stay exact and equal: this is the model of equipment
//! frequency-locked to one reference (SONET/SDH timed from the network) with unrelated phases.
//! Free-running oscillators (SONET allows +-20 ppm) would also drift against each other, by up
//! to 40 us of phase per second, about 15 cell times at 155.52 Mb/s: that drift is NOT modelled,
//! so with continuous arrivals the order of two inputs' cells within a slot never changes during
//! a run, and a full buffer's freed places go to the same input every time (a lock-out that
//! drifting clocks would break up). An explicit
//! `tcp.tick_phase_ms` (or the N-source template's `stagger_timers`) wins over the draw.
//! A slotted port (`arrivals = "slotted"`) counts arrivals from its own, phased, grid.
//!
//! `phases = "aligned"` starts every grid and tick at 0: the phase-locked model of earlier
//! releases, bit for bit. It is there for the deterministic cases: hand-computed tests, and
//! comparing with a study whose simulator was itself phase-locked.
//!
//! `start_jitter_s = X` delays each connection's and background source's start by a uniform draw
//! in [0, X) from its own stream (`start/<name>`): hosts started "at the same time" by an
//! experimenter start within some interval, not at one picosecond. It is independent of `phases`.

use serde::Deserialize;

use super::validate::Model;
use crate::rng::Rng;
use crate::time::{CellPeriod, Time};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phases {
    /// Independent oscillators: every grid and tick at a random phase.
    #[default]
    Random,
    /// Every grid and tick from t = 0 (the phase-locked model).
    Aligned,
}

/// The phase of slot 0 of the channel named `channel` ("from->to"), in [0, period).
pub fn slot_phase(model: &Model, channel: &str, period: CellPeriod) -> Time {
    match model.phases {
        Phases::Aligned => 0,
        Phases::Random => {
            let u = Rng::stream(model.seed, &format!("phase/{channel}")).uniform();
            // floor(u * num / den) < num / den: always inside the first slot.
            (u * period.num as f64 / period.den as f64) as Time
        }
    }
}

/// The position of host `host`'s timer ticks as a fraction of a tick, in [0, 1) (`None`: the
/// ticks start at 0).
pub fn tick_fraction(model: &Model, host: &str) -> Option<f64> {
    match model.phases {
        Phases::Aligned => None,
        Phases::Random => Some(Rng::stream(model.seed, &format!("ticks/{host}")).uniform()),
    }
}

/// The timer phase of a host whose ticks last `tick`, at `fraction` of a tick.
pub fn tick_phase(tick: Time, fraction: f64) -> Time {
    ((fraction * tick as f64) as Time).min(tick - 1)
}

/// The start of the component named `name` that the scenario starts at `start`.
pub fn jittered_start(model: &Model, name: &str, start: Time) -> Time {
    if model.start_jitter == 0 {
        return start;
    }
    let u = Rng::stream(model.seed, &format!("start/{name}")).uniform();
    start + ((u * model.start_jitter as f64) as Time).min(model.start_jitter - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_phases_stay_inside_the_tick() {
        assert_eq!(tick_phase(100, 0.0), 0);
        assert_eq!(tick_phase(100, 0.999_999_999_999), 99);
        assert_eq!(tick_phase(500_000_000_000, 0.5), 250_000_000_000);
    }
}
