//! The credit/rate study's analytic bound on TCP goodput (its eq. 2): the fraction eta_OH of ATM
//! bandwidth an application can use when messages of exponential length (mean L octets) are cut
//! into segments of at most MSS octets, each carried with 48 octets of TCP, IP and AAL5 overhead
//! in 48-octet cell payloads under 5-octet headers: eta_OH = L / (53 * E[cells per message]).

/// Cells for a CS-PDU of `x` octets: m such that 48(m - 1) < x <= 48m.
fn n_cells(x: f64) -> f64 {
    (x / 48.0).ceil()
}

/// eta_OH for segment size `mss` and mean message length `mean` (octets), exact.
///
/// A message in ((n-1) MSS, n MSS] has n - 1 full segments and a last one of y = x - (n-1) MSS
/// octets, whose CS-PDU of y + 48 octets takes m cells, constant on y in (48(m-2), 48(m-1)].
/// With q = exp(-MSS / L) the law of y is the same for every n up to a factor q^(n-1), so the
/// sums over n are geometric: sum q^(n-1) = 1 / (1 - q) and sum (n-1) q^(n-1) = q / (1 - q)^2.
pub fn eta_oh(mss: u32, mean: f64) -> f64 {
    let mss = mss as f64;
    let full = n_cells(mss + 48.0);
    let q = (-mss / mean).exp();
    let tail = |a: f64| (-a / mean).exp();
    let mut cells = 0.0;
    let mut lo = 0.0;
    while lo < mss {
        let m = n_cells(lo + 48.0 + 1e-9);
        let hi = ((m - 1.0) * 48.0).min(mss);
        let mass = tail(lo) - tail(hi);
        cells += mass * (full * q / ((1.0 - q) * (1.0 - q)) + m / (1.0 - q));
        lo = hi;
    }
    mean / (53.0 * cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_trends() {
        // Never above the cell tax 48/53, and larger segments help (fewer headers).
        let small = eta_oh(256, 2500.0);
        let mid = eta_oh(1024, 2500.0);
        let large = eta_oh(9140, 2500.0);
        assert!(small < mid && mid < large && large < 48.0 / 53.0, "{small} {mid} {large}");
        // Very long messages in MSS-1024 segments: 1024 data octets per ceil(1072 / 48) = 23 cells.
        let long = eta_oh(1024, 1e9);
        assert!((long - 1024.0 / (53.0 * 23.0)).abs() < 1e-3, "{long}");
    }

    #[test]
    fn agrees_with_monte_carlo() {
        use crate::rng::Rng;
        let (mss, mean) = (1024.0, 2500.0);
        let mut rng = Rng::stream(9, "eta");
        let (mut octets, mut cells) = (0.0, 0.0);
        for _ in 0..400_000 {
            let x = rng.exponential(mean);
            let nseg = (x / mss).ceil().max(1.0);
            cells += (nseg - 1.0) * n_cells(mss + 48.0) + n_cells(x - mss * (nseg - 1.0) + 48.0);
            octets += x;
        }
        let mc = octets / (53.0 * cells);
        assert!((eta_oh(1024, mean) - mc).abs() < 0.003, "{} vs {mc}", eta_oh(1024, mean));
    }
}
