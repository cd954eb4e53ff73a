//! The CLASS study's adaptive shaping (its section 3): RM cells carry ternary feedback, set only
//! on the backward trip and only ever made more pessimistic; the source's rate is C / N_S with
//! N_S moved by one per RM cell.

/// Feedback carried by an RM cell, from optimistic to pessimistic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Feedback {
    Increase,
    Keep,
    Decrease,
}

impl Feedback {
    /// What a switch whose forward buffer holds `q` cells makes of an RM cell passing back:
    /// below T_l unchanged, between T_l and T_h at least Keep, above T_h Decrease.
    pub fn at_switch(self, q: u32, t_low: u32, t_high: u32) -> Feedback {
        let here = if q > t_high {
            Feedback::Decrease
        } else if q >= t_low {
            Feedback::Keep
        } else {
            Feedback::Increase
        };
        self.max(here)
    }
}

/// The source shaper: rate C / N_S, `min_n_s <= N_S <= max_n_s` (the fastest allowed rate is
/// C / min_n_s: the paper's "maximum allowed transmission rate", 50 Mb/s in the two-node runs).
#[derive(Debug, Clone)]
pub struct AdaptiveShaper {
    pub n_s: u32,
    pub min_n_s: u32,
    pub max_n_s: u32,
}

impl AdaptiveShaper {
    /// Starting at `n_s`, any rate up to the link's.
    pub fn new(n_s: u32, max_n_s: u32) -> Self {
        AdaptiveShaper { n_s: n_s.clamp(1, max_n_s), min_n_s: 1, max_n_s }
    }

    /// Starting at the fastest allowed rate C / `min_n_s`.
    pub fn bounded(min_n_s: u32, max_n_s: u32) -> Self {
        let min_n_s = min_n_s.clamp(1, max_n_s);
        AdaptiveShaper { n_s: min_n_s, min_n_s, max_n_s }
    }

    pub fn on_rm(&mut self, f: Feedback) {
        self.n_s = match f {
            Feedback::Increase => self.n_s.saturating_sub(1).max(self.min_n_s),
            Feedback::Keep => self.n_s,
            Feedback::Decrease => (self.n_s + 1).min(self.max_n_s),
        };
    }

    /// The shaped rate for a link of capacity `c`.
    pub fn rate(&self, c: f64) -> f64 {
        c / self.n_s as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feedback_only_gets_more_pessimistic() {
        let (tl, th) = (10, 500);
        assert_eq!(Feedback::Increase.at_switch(5, tl, th), Feedback::Increase);
        assert_eq!(Feedback::Increase.at_switch(10, tl, th), Feedback::Keep);
        assert_eq!(Feedback::Increase.at_switch(501, tl, th), Feedback::Decrease);
        assert_eq!(Feedback::Decrease.at_switch(0, tl, th), Feedback::Decrease);
        assert_eq!(Feedback::Keep.at_switch(0, tl, th), Feedback::Keep);
    }

    #[test]
    fn rate_moves_by_one_divisor_per_rm_cell() {
        let mut s = AdaptiveShaper::new(3, 150);
        s.on_rm(Feedback::Increase);
        assert_eq!(s.rate(150e6), 75e6);
        s.on_rm(Feedback::Increase);
        s.on_rm(Feedback::Increase);
        assert_eq!(s.n_s, 1, "never faster than the link");
        s.on_rm(Feedback::Decrease);
        s.on_rm(Feedback::Keep);
        assert_eq!(s.rate(150e6), 75e6);
    }

    #[test]
    fn increase_stops_at_the_maximum_allowed_rate() {
        // 150 Mb/s access, at most 50 Mb/s: N_S never below 3.
        let mut s = AdaptiveShaper::bounded(3, 10);
        s.on_rm(Feedback::Increase);
        assert_eq!(s.n_s, 3);
        s.on_rm(Feedback::Decrease);
        s.on_rm(Feedback::Increase);
        s.on_rm(Feedback::Increase);
        assert_eq!(s.rate(150e6), 50e6);
    }
}
