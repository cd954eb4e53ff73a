//! Sequence-number arithmetic modulo 2^32 (RFC 793 section 3.3, RFC 1982).

#[inline]
pub fn lt(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}
#[inline]
pub fn le(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) <= 0
}
#[inline]
pub fn gt(a: u32, b: u32) -> bool {
    lt(b, a)
}
#[inline]
pub fn ge(a: u32, b: u32) -> bool {
    le(b, a)
}
#[inline]
pub fn max(a: u32, b: u32) -> u32 {
    if gt(a, b) {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_across_wrap() {
        assert!(lt(u32::MAX - 10, 5));
        assert!(gt(5, u32::MAX - 10));
        assert!(le(7, 7) && ge(7, 7));
        assert_eq!(max(u32::MAX, 3), 3);
        assert_eq!(max(1, 2), 2);
    }
}
