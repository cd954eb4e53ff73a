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
//! (`Rng::stream` named `phase/<from>-><to>` and `ticks/<host>`), so adding a link or a host
//! never moves another's draw.
//!
//! The oscillators also differ in rate. A free-running SONET clock may be off its nominal
//! frequency by up to +-20 ppm (the SONET Minimum Clock's free-run accuracy, Telcordia
//! GR-253-CORE section 5.4 and ANSI T1.105.09; ITU-T G.813 clause 5, option 2; the ATM Forum's
//! 155.52 Mb/s SONET STS-3c UNI (UNI 3.1 section 2.1) takes its line rate from such a clock when
//! it is not loop-timed). Two equal links then slip against each other by up to 40 us of phase
//! per second, about 15 cell times at 155.52 Mb/s, so which input's cell reaches a port just
//! after a departure changes over a run. Without that slip a fixed phase offset repeats forever:
//! with continuous arrivals a full buffer's freed place goes to the same input every time, and
//! one source locks the others out of a tail-drop port. `clock_ppm` models the slip: each
//! transmitter's cell period is the nominal one scaled by `1 + e`, `e` drawn once per run
//! uniformly in [-clock_ppm, +clock_ppm] x 1e-6 from its own stream (`drift/<from>-><to>`), and
//! kept as an exact fraction ([`CellPeriod::scaled`]), so each clock's long-run rate is exact and
//! the slot clock stays division-free. The rate error is constant for the run: wander and
//! temperature drift (far slower than a run) are left out. Default: 20 ppm with
//! `phases = "random"`, 0 with `"aligned"`; an explicit `clock_ppm` applies under either (with
//! `"aligned"`, every grid still starts at 0). `clock_ppm = 0` with `phases = "random"` is the
//! frequency-locked model of the previous release (random phases, equal rates), bit for bit.
//!
//! An explicit `tcp.tick_phase_ms` (or the N-source template's `stagger_timers`) wins over the
//! timer-phase draw.
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

/// The cell period of the transmitter on channel `channel` ("from->to"), on a link of nominal
/// period `nominal`: off by its oscillator's rate error (the nominal period when `clock_ppm` is 0).
pub fn slot_period(model: &Model, channel: &str, nominal: CellPeriod) -> CellPeriod {
    if model.clock_ppm == 0.0 {
        return nominal;
    }
    let u = Rng::stream(model.seed, &format!("drift/{channel}")).uniform();
    nominal.scaled(rate_error(model.clock_ppm, u))
}

/// The relative rate error of an oscillator within +-`ppm` at uniform draw `u` in [0, 1).
pub fn rate_error(ppm: f64, u: f64) -> f64 {
    (2.0 * u - 1.0) * ppm * 1e-6
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
    fn rate_errors_cover_the_tolerance_symmetrically() {
        assert!((rate_error(20.0, 0.0) + 20e-6).abs() < 1e-18);
        assert_eq!(rate_error(20.0, 0.5), 0.0);
        assert!(rate_error(20.0, 0.999_999_999) < 20e-6);
        // Drawn from the channel's own stream: deterministic per seed, different per channel and
        // per seed, spread over the whole tolerance.
        let draw =
            |seed: u64, ch: &str| rate_error(20.0, Rng::stream(seed, &format!("drift/{ch}")).uniform());
        assert_eq!(draw(1, "a->s"), draw(1, "a->s"));
        assert_ne!(draw(1, "a->s"), draw(1, "s->a"));
        assert_ne!(draw(1, "a->s"), draw(2, "a->s"));
        let e: Vec<f64> = (0..2000).map(|i| draw(7, &format!("h{i}->s"))).collect();
        assert!(e.iter().all(|x| x.abs() <= 20e-6));
        let mean = e.iter().sum::<f64>() / e.len() as f64;
        let fast = e.iter().filter(|&&x| x < -10e-6).count();
        assert!(mean.abs() < 1e-6 && (400..600).contains(&fast), "{mean} {fast}");
        // And independent of the phase drawn for the same channel.
        let phase = |seed: u64| Rng::stream(seed, "phase/a->s").uniform();
        let pairs: Vec<(f64, f64)> = (0..2000).map(|s| (phase(s), draw(s, "a->s"))).collect();
        let cov = pairs.iter().map(|(x, y)| (x - 0.5) * y).sum::<f64>() / 2000.0;
        // |corr| < 0.1: sd(x) = 0.29, sd(y) = 11.5e-6.
        assert!(cov.abs() < 0.1 * 0.29 * 11.5e-6, "{cov}");
    }

    #[test]
    fn tick_phases_stay_inside_the_tick() {
        assert_eq!(tick_phase(100, 0.0), 0);
        assert_eq!(tick_phase(100, 0.999_999_999_999), 99);
        assert_eq!(tick_phase(500_000_000_000, 0.5), 250_000_000_000);
    }
}
