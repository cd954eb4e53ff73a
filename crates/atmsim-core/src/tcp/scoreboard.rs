//! The sender's SACK scoreboard (RFC 2018, RFC 6675 section 3): which ranges above `snd_una`
//! the receiver has reported holding, kept as sorted disjoint ranges.

use super::seq;

#[derive(Debug, Clone, Default)]
pub struct Scoreboard {
    ranges: Vec<(u32, u32)>,
}

impl Scoreboard {
    pub fn clear(&mut self) {
        self.ranges.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// Record an ACK: forget what `una` covers, add the reported blocks (those inside
    /// (una, snd_max] only: anything else is stale or bogus).
    pub fn update(&mut self, una: u32, snd_max: u32, blocks: &[(u32, u32)]) {
        for &(s, e) in blocks {
            if seq::lt(s, e) && seq::gt(e, una) && seq::le(e, snd_max) {
                let s = seq::max(s, una);
                let i = self.ranges.partition_point(|&(a, _)| seq::lt(a, s));
                self.ranges.insert(i, (s, e));
            }
        }
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(self.ranges.len());
        for &(s, e) in &self.ranges {
            if seq::le(e, una) {
                continue;
            }
            let s = seq::max(s, una);
            match out.last_mut() {
                Some(last) if seq::le(s, last.1) => last.1 = seq::max(last.1, e),
                _ => out.push((s, e)),
            }
        }
        self.ranges = out;
    }

    /// Octets SACKed at or above `from`.
    pub fn sacked_above(&self, from: u32) -> u64 {
        self.ranges
            .iter()
            .filter(|&&(_, e)| seq::gt(e, from))
            .map(|&(s, e)| e.wrapping_sub(seq::max(s, from)) as u64)
            .sum()
    }

    /// End of the highest SACKed range.
    pub fn highest(&self) -> Option<u32> {
        self.ranges.last().map(|&(_, e)| e)
    }

    /// The first un-SACKed range starting at or after `from` and below the highest SACKed
    /// octet: a hole the receiver is missing.
    pub fn next_hole(&self, from: u32) -> Option<(u32, u32)> {
        let mut at = from;
        for &(s, e) in &self.ranges {
            if seq::lt(at, s) {
                return Some((at, s));
            }
            at = seq::max(at, e);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_prunes_and_finds_holes() {
        let mut sb = Scoreboard::default();
        sb.update(100, 1000, &[(300, 400), (500, 600)]);
        sb.update(100, 1000, &[(400, 450), (2000, 2100), (50, 80)]);
        assert_eq!(sb.ranges(), &[(300, 450), (500, 600)]);
        assert_eq!(sb.sacked_above(100), 250);
        assert_eq!(sb.sacked_above(420), 130);
        assert_eq!(sb.next_hole(100), Some((100, 300)));
        assert_eq!(sb.next_hole(300), Some((450, 500)));
        assert_eq!(sb.next_hole(550), None);
        sb.update(350, 1000, &[]);
        assert_eq!(sb.ranges(), &[(350, 450), (500, 600)]);
        sb.update(600, 1000, &[]);
        assert!(sb.is_empty());
    }

    #[test]
    fn works_across_sequence_wrap() {
        let mut sb = Scoreboard::default();
        let una = u32::MAX - 100;
        sb.update(una, 500, &[(10, 20), (u32::MAX - 50, 5)]);
        assert_eq!(sb.ranges(), &[(u32::MAX - 50, 5), (10, 20)]);
        assert_eq!(sb.next_hole(una), Some((una, u32::MAX - 50)));
        assert_eq!(sb.sacked_above(una), 56 + 10);
    }
}
