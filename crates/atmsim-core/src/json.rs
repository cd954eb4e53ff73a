//! The report as JSON text: exactly what `serde_json::to_string_pretty` writes, except that
//! arrays nested below the report's own lists are written on one line. A trace column of
//! thousands of samples then takes one line instead of one line per number, and reports
//! without traces (which have no such arrays) are unchanged.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

/// Nesting depth (the report object is 1, `flows`/`ports`/`hosts` are 2) from which arrays are
/// written inline, with everything inside them.
const INLINE_DEPTH: usize = 3;

struct Columns<'a> {
    pretty: PrettyFormatter<'a>,
    depth: usize,
    /// Depth of the inline array being written; 0 when pretty-printing.
    inline_at: usize,
}

/// Send one formatting call to the compact formatter inside an inline array, else to the
/// pretty one.
macro_rules! route {
    ($self:ident, $method:ident($($arg:expr),*)) => {
        if $self.inline_at != 0 {
            CompactFormatter.$method($($arg),*)
        } else {
            $self.pretty.$method($($arg),*)
        }
    };
}

impl Formatter for Columns<'_> {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        if self.inline_at == 0 && self.depth >= INLINE_DEPTH {
            self.inline_at = self.depth;
        }
        route!(self, begin_array(w))
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        let r = route!(self, end_array(w));
        if self.inline_at == self.depth {
            self.inline_at = 0;
        }
        self.depth -= 1;
        r
    }
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        route!(self, begin_array_value(w, first))
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        route!(self, end_array_value(w))
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        route!(self, begin_object(w))
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        let r = route!(self, end_object(w));
        self.depth -= 1;
        r
    }
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        route!(self, begin_object_key(w, first))
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        route!(self, end_object_key(w))
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        route!(self, begin_object_value(w))
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        route!(self, end_object_value(w))
    }
}

/// Serialise `value` pretty-printed, with nested arrays on one line.
pub fn to_string<T: Serialize>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::new();
    let fmt = Columns { pretty: PrettyFormatter::new(), depth: 0, inline_at: 0 };
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, fmt))?;
    // serde_json writes valid UTF-8 only.
    Ok(String::from_utf8(out).expect("JSON is UTF-8"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn pretty_except_nested_arrays() {
        let v = serde_json::json!({"a": [{"b": 1, "c": {"d": [1, 2, 3]}}], "e": {"f": {"g": [[1], [2]]}}});
        let s = super::to_string(&v).unwrap();
        assert!(s.contains("\"d\": [1,2,3]"), "{s}");
        assert!(s.contains("\"g\": [[1],[2]]"), "{s}");
        assert!(s.starts_with("{\n  \"a\": [\n    {\n"), "{s}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&s).unwrap(), v);
        // Without nested arrays: byte for byte what to_string_pretty writes.
        let plain = serde_json::json!({"a": [{"b": 1.5, "c": {"d": null}}], "e": []});
        assert_eq!(super::to_string(&plain).unwrap(), serde_json::to_string_pretty(&plain).unwrap());
    }
}
