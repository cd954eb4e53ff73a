//! Traffic conformance: GCRA (ITU-T I.371 / ATM Forum TM 4.0 section 4.5), the frame-based
//! F-GCRA of the GFR service category, and the GFR study's adapter tagging algorithm.
//!
//! All times are picoseconds; a rate's increment T = 1/rate is rounded to the nearest
//! picosecond (at OC-3 rates that is an error below 1e-7 per cell, never accumulated into
//! a drift of the link's own slot grid, which stays exact).

mod fgcra;
mod gcra;
mod tagger;

pub use fgcra::FGcra;
pub use gcra::Gcra;
pub use tagger::AdapterTagger;

use crate::time::{Time, PS_PER_S};

/// T = 1/rate in picoseconds, for a rate in cells per second; `NEVER` for a rate of 0.
pub fn increment(cells_per_s: f64) -> Time {
    if cells_per_s <= 0.0 {
        return crate::time::NEVER;
    }
    (PS_PER_S as f64 / cells_per_s).round() as Time
}
