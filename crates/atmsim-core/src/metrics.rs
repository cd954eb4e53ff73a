//! The studies' performance metrics.

/// Jain's fairness index (Jain, Chiu & Hawe 1984): (sum x)^2 / (n * sum x^2), in (0, 1].
/// `None` when there is nothing to compare (no flows, or every flow got zero).
pub fn jain(xs: &[f64]) -> Option<f64> {
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    if xs.is_empty() || sq == 0.0 {
        return None;
    }
    Some(sum * sum / (xs.len() as f64 * sq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_index_cases() {
        assert_eq!(jain(&[3.0, 3.0, 3.0]), Some(1.0));
        // One of n flows gets everything: 1/n.
        assert_eq!(jain(&[5.0, 0.0, 0.0, 0.0]), Some(0.25));
        // (1+2+3)^2 / (3 * 14) = 36/42.
        assert!((jain(&[1.0, 2.0, 3.0]).unwrap() - 36.0 / 42.0).abs() < 1e-12);
        assert_eq!(jain(&[]), None);
        assert_eq!(jain(&[0.0, 0.0]), None);
    }
}
