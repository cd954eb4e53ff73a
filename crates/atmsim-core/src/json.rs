//! The report as JSON text: exactly what `serde_json::to_string_pretty` writes, except that
//! arrays nested below the report's own lists are written on one line. A trace column of
//! thousands of samples then takes one line instead of one line per number, and reports
//! without traces (which have no such arrays) are unchanged.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};

/// Nesting depth (the report object is 1, `flows`/`ports`/`hosts` are 2) from which arrays are
/// written inline, with everything inside them.
const INLINE_DEPTH: usize = 3;

/// `serde_json`'s `PrettyFormatter` with its two-space indent, byte for byte, except that a line
/// break and its indentation are one write (its own writes the indent once per level: on a
/// report of ~5000 keys, 0.1 M instructions of the run's set-up and report).
#[derive(Default)]
struct Pretty {
    indent: usize,
    has_value: bool,
}

/// A comma, a line break and 32 levels of indentation: every line break of a report is a
/// slice of it.
const LINE: &[u8; 66] = b",\n                                                                ";

impl Pretty {
    /// A line break (after a comma unless `first`) and the current indentation.
    fn line<W: ?Sized + io::Write>(&self, w: &mut W, first: bool) -> io::Result<()> {
        let from = usize::from(first);
        match LINE.get(from..2 + 2 * self.indent) {
            Some(line) => w.write_all(line),
            None => {
                w.write_all(&LINE[from..2])?;
                (0..self.indent).try_for_each(|_| w.write_all(b"  "))
            }
        }
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.indent += 1;
        self.has_value = false;
        w.write_all(b"[")
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.indent -= 1;
        if self.has_value {
            self.line(w, true)?;
        }
        w.write_all(b"]")
    }
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.line(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.indent += 1;
        self.has_value = false;
        w.write_all(b"{")
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.indent -= 1;
        if self.has_value {
            self.line(w, true)?;
        }
        w.write_all(b"}")
    }
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.line(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

struct Columns {
    pretty: Pretty,
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

impl Formatter for Columns {
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
    let fmt = Columns { pretty: Pretty::default(), depth: 0, inline_at: 0 };
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

    #[test]
    fn line_breaks_are_those_of_serde_json_at_any_depth() {
        // Objects nested past the 32 levels one write covers, empty and full, in an array of
        // the report's own depth (deeper arrays are written inline, unlike serde_json's).
        let mut v = serde_json::json!({"leaf": 1, "none": {}});
        for depth in 0..40 {
            v = serde_json::json!({"k": depth, "inner": v, "s": "x", "e": {}});
        }
        let v = serde_json::json!({"list": [v, {}, {"a": 1}], "empty": [], "n": null});
        assert_eq!(super::to_string(&v).unwrap(), serde_json::to_string_pretty(&v).unwrap());
    }
}
