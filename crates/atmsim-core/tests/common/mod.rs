//! Fixtures shared by the integration tests.

/// Host `a` -> switch `s` -> host `b`, two 155.52 Mb/s links of 100 us. Append the
/// `[[connection]]` (route `["a", "s", "b"]`) and anything after it.
pub const PATH_A_S_B: &str = r#"
[[node]]
name = "a"
kind = "host"
[[node]]
name = "s"
kind = "switch"
[[node]]
name = "b"
kind = "host"
[[link]]
ends = ["a", "s"]
rate_bps = 155_520_000
delay_us = 100
[[link]]
ends = ["s", "b"]
rate_bps = 155_520_000
delay_us = 100
"#;
