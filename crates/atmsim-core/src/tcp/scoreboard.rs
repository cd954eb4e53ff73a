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
        // Merged in place: the kept ranges are written at `w`, never ahead of the one read.
        let mut w: usize = 0;
        for r in 0..self.ranges.len() {
            let (s, e) = self.ranges[r];
            if seq::le(e, una) {
                continue;
            }
            let s = seq::max(s, una);
            match w.checked_sub(1).map(|l| &mut self.ranges[l]) {
                Some(last) if seq::le(s, last.1) => last.1 = seq::max(last.1, e),
                _ => {
                    self.ranges[w] = (s, e);
                    w += 1;
                }
            }
        }
        self.ranges.truncate(w);
    }

    /// Octets SACKed at or above `from`.
    pub fn sacked_above(&self, from: u32) -> u64 {
        self.ranges
            .iter()
            .filter(|&&(_, e)| seq::gt(e, from))
            .map(|&(s, e)| e.wrapping_sub(seq::max(s, from)) as u64)
            .sum()
    }

    /// The holes [`Scoreboard::next_hole`] finds from `from` on, in order, each with the
    /// octets SACKed above its start ([`Scoreboard::sacked_above`]): one pass over the ranges,
    /// where asking for each hole and its SACKed octets apart costs a pass per hole (RFC 6675
    /// SetPipe asks at every transmission of a recovery, over windows with a hundred holes).
    pub fn holes(&self, from: u32) -> Holes<'_> {
        let above = self.ranges.iter().map(|&(s, e)| e.wrapping_sub(s) as u64).sum();
        Holes { ranges: &self.ranges, at: from, above }
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

/// See [`Scoreboard::holes`].
pub struct Holes<'a> {
    /// The ranges not yet passed.
    ranges: &'a [(u32, u32)],
    at: u32,
    /// Octets in `ranges`. Every range passed ends at or below `at` and every range left
    /// starts above any hole's start, so for a hole starting at `at` this is all that is
    /// SACKed above it.
    above: u64,
}

impl Iterator for Holes<'_> {
    /// (start, end, octets SACKed above start)
    type Item = (u32, u32, u64);

    fn next(&mut self) -> Option<Self::Item> {
        while let Some((&(s, e), rest)) = self.ranges.split_first() {
            let hole = seq::lt(self.at, s).then_some((self.at, s, self.above));
            self.ranges = rest;
            self.above -= e.wrapping_sub(s) as u64;
            self.at = seq::max(self.at, e);
            if hole.is_some() {
                return hole;
            }
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

    /// The one-pass walk against its definition (`next_hole` from each hole's end, and
    /// `sacked_above` each hole's start), and the in-place update against a fresh merge, on
    /// random scoreboards near the sequence wrap.
    #[test]
    fn holes_walk_as_next_hole_and_sacked_above_define_them() {
        fn merged(ranges: &[(u32, u32)], una: u32) -> Vec<(u32, u32)> {
            let mut out: Vec<(u32, u32)> = Vec::new();
            for &(s, e) in ranges {
                if seq::le(e, una) {
                    continue;
                }
                let s = seq::max(s, una);
                match out.last_mut() {
                    Some(last) if seq::le(s, last.1) => last.1 = seq::max(last.1, e),
                    _ => out.push((s, e)),
                }
            }
            out
        }
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut holes_seen = 0;
        for _ in 0..300 {
            let base = u32::MAX - (next() % 20_000) as u32;
            let mut sb = Scoreboard::default();
            let mut una = base;
            let snd_max = base.wrapping_add(40_000);
            for _ in 0..30 {
                let blocks: Vec<(u32, u32)> = (0..next() % 4)
                    .map(|_| {
                        let s = una.wrapping_add((next() % 300) as u32 * 100);
                        (s, s.wrapping_add(100 * (1 + next() % 5) as u32))
                    })
                    .collect();
                if next() % 4 == 0 {
                    una = una.wrapping_add((next() % 20) as u32 * 100);
                }
                let mut inserted = sb.ranges.clone();
                for &(s, e) in &blocks {
                    if seq::lt(s, e) && seq::gt(e, una) && seq::le(e, snd_max) {
                        let s = seq::max(s, una);
                        let i = inserted.partition_point(|&(a, _)| seq::lt(a, s));
                        inserted.insert(i, (s, e));
                    }
                }
                sb.update(una, snd_max, &blocks);
                assert_eq!(sb.ranges, merged(&inserted, una));
                for from in [una, una.wrapping_add((next() % 30_000) as u32)] {
                    let mut want = Vec::new();
                    let mut at = from;
                    while let Some((a, b)) = sb.next_hole(at) {
                        want.push((a, b, sb.sacked_above(a)));
                        at = b;
                    }
                    holes_seen += want.len();
                    assert_eq!(sb.holes(from).collect::<Vec<_>>(), want, "from {from} in {:?}", sb.ranges);
                }
            }
        }
        assert!(holes_seen > 10_000, "{holes_seen} holes compared");
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
