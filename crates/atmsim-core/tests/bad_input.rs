//! Malformed and inconsistent scenarios: each must be refused with an error that names the
//! offending field (as a dotted path into the file) and says why — never a panic.
//!
//! Every case is built from a small valid scenario (`SIM`, `NODES`, `LINKS`, `PORT`, `CONN`: host
//! `a` -> switch `s` -> host `b`) with one piece replaced, or from the N-source template, plus
//! optional `--set` overrides.

use std::panic::{catch_unwind, AssertUnwindSafe};

use atmsim_core::api::ScenarioError;
use atmsim_core::scenario;

const SIM: &str = "[simulation]\nduration_s = 0.001\nseed = 1\n";

const NODES: &str = r#"
[[node]]
name = "a"
kind = "host"
[[node]]
name = "s"
kind = "switch"
[[node]]
name = "b"
kind = "host"
"#;

const LINKS: &str = r#"
[[link]]
ends = ["a", "s"]
rate_bps = 155520000
delay_us = 5.0
[[link]]
ends = ["s", "b"]
rate_bps = 155520000
delay_us = 5.0
"#;

const PORT: &str = r#"
[[port]]
node = "s"
toward = "b"
buffer_cells = 1000
policy = { kind = "epd", threshold_cells = 800 }
"#;

const CONN: &str = r#"
[[connection]]
name = "c0"
route = ["a", "s", "b"]
"#;

const NSRC: &str = r#"
[n_source]
sources = 2
config = "LAN"
buffer_cells = 1000
policy = "fba"
"#;

/// The valid general-form scenario with `sim`, `nodes`, `links`, `port`, `conn` as given.
fn net(sim: &str, nodes: &str, links: &str, port: &str, conn: &str) -> String {
    [sim, nodes, links, port, conn].concat()
}

fn base() -> String {
    net(SIM, NODES, LINKS, PORT, CONN)
}

fn with_sim(sim: &str) -> String {
    net(sim, NODES, LINKS, PORT, CONN)
}
fn with_nodes(nodes: &str) -> String {
    net(SIM, nodes, LINKS, PORT, CONN)
}
fn with_links(links: &str) -> String {
    net(SIM, NODES, links, PORT, CONN)
}
/// One `[[link]]` table replaces the first of the base's two links.
fn with_first_link(body: &str) -> String {
    let second = "[[link]]\nends = [\"s\", \"b\"]\nrate_bps = 155520000\ndelay_us = 5.0\n";
    with_links(&format!("[[link]]\n{body}\n{second}"))
}
fn with_port(port: &str) -> String {
    net(SIM, NODES, LINKS, port, CONN)
}
/// The base port with its policy (an inline table's body) and buffer replaced.
fn with_policy(buffer: &str, policy: &str) -> String {
    with_port(&format!(
        "[[port]]\nnode = \"s\"\ntoward = \"b\"\nbuffer_cells = {buffer}\npolicy = {{ {policy} }}\n"
    ))
}
fn with_conn(conn: &str) -> String {
    net(SIM, NODES, LINKS, PORT, conn)
}
/// The base scenario plus extra tables at the end (e.g. `[tcp]`, `[metrics]`).
fn plus(extra: &str) -> String {
    format!("{}\n{extra}", base())
}
/// The N-source template with extra keys in `[n_source]`, then `after` (other tables).
fn nsrc(keys: &str, after: &str) -> String {
    format!("{SIM}{NSRC}{keys}\n{after}")
}

/// The base connection with `keys` added (flow-control cases).
fn fcvc_conn(keys: &str) -> String {
    format!("{CONN}{keys}\n")
}

/// The base network with its port round-robin (plus `extra` keys) and `conn` as connection.
fn rr_port(conn: &str, extra: &str) -> String {
    let port = format!(
        "[[port]]\nnode = \"s\"\ntoward = \"b\"\nbuffer_cells = 165\npolicy = {{ kind = \"tail_drop\" }}\n\
         scheduler = \"round_robin\"\n{extra}\n"
    );
    net(SIM, NODES, LINKS, &port, conn)
}

struct Case {
    name: &'static str,
    text: String,
    sets: Vec<(String, String)>,
    field: &'static str,
    reason: &'static str,
}

fn case(name: &'static str, text: String, field: &'static str, reason: &'static str) -> Case {
    Case { name, text, sets: Vec::new(), field, reason }
}

/// A case whose text is the base scenario and whose fault is in a `--set` override.
fn set_case(
    name: &'static str,
    text: String,
    sets: &[(&str, &str)],
    field: &'static str,
    reason: &'static str,
) -> Case {
    Case {
        name,
        text,
        sets: sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        field,
        reason,
    }
}

fn cases() -> Vec<Case> {
    vec![
        // --- TOML itself -------------------------------------------------------------------
        case(
            "toml syntax error",
            format!("{SIM}[[node]\nname = \"a\"\n"),
            "toml",
            "line 4",
        ),
        case(
            "toml duplicate key",
            format!("[simulation]\nduration_s = 1.0\nduration_s = 2.0\n{NODES}"),
            "toml",
            "duplicate key",
        ),
        case("empty file", String::new(), "scenario", "simulation"),
        // --- Unknown keys --------------------------------------------------------------------
        case(
            "unknown top-level key",
            format!("bogus = 1\n{}", base()),
            "bogus",
            "unknown field `bogus`",
        ),
        case(
            "unknown top-level table",
            plus("[switches]\nn = 1\n"),
            "switches",
            "unknown field `switches`",
        ),
        case(
            "unknown key in [simulation]",
            with_sim("[simulation]\nduration_s = 1.0\nseeed = 3\n"),
            "simulation.seeed",
            "unknown field `seeed`",
        ),
        case(
            "unknown key in [n_source]",
            nsrc("sourcez = 3", ""),
            "n_source.sourcez",
            "unknown field `sourcez`",
        ),
        case(
            "unknown key in [[link]]",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 1000000\ndelay_us = 1.0\ndelay = 2"),
            "link[0].delay",
            "unknown field `delay`",
        ),
        case(
            "unknown key in [[node]]",
            with_nodes(
                "[[node]]\nname = \"a\"\nkind = \"host\"\n[[node]]\nname = \"s\"\nkind = \"switch\"\n\
                 [[node]]\nname = \"b\"\nkind = \"host\"\ncolour = \"red\"\n",
            ),
            "node[2].colour",
            "unknown field `colour`",
        ),
        case(
            "unknown key in a connection's tcp table",
            with_conn(
                "[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\ntcp = { msss = 512 }\n",
            ),
            "connection[0].tcp.msss",
            "unknown field `msss`",
        ),
        case(
            "unknown key in [tcp]",
            plus("[tcp]\nwindow = 1000\n"),
            "tcp.window",
            "unknown field `window`",
        ),
        case(
            "unknown key in a port's policy",
            with_policy("1000", "kind = \"epd\", threshold = 800"),
            "port[0].policy.threshold",
            "unknown field `threshold`",
        ),
        case(
            "unknown key in [metrics]",
            plus("[metrics]\nbottleneck_port = \"s->b\"\n"),
            "metrics.bottleneck_port",
            "unknown field `bottleneck_port`",
        ),
        case(
            "unknown policy kind",
            with_policy("1000", "kind = \"red\""),
            "port[0].policy.kind",
            "unknown variant `red`",
        ),
        case(
            "unknown node kind",
            with_nodes(
                "[[node]]\nname = \"a\"\nkind = \"router\"\n[[node]]\nname = \"s\"\nkind = \"switch\"\n\
                 [[node]]\nname = \"b\"\nkind = \"host\"\n",
            ),
            "node[0].kind",
            "unknown variant `router`",
        ),
        case(
            "unknown engine schedule",
            format!("{SIM}[engine]\nschedule = \"fast\"\n{NSRC}"),
            "engine.schedule",
            "unknown variant `fast`",
        ),
        case(
            "unknown engine key",
            format!("{SIM}[engine]\nthreads = 2\n{NSRC}"),
            "engine.threads",
            "unknown field `threads`",
        ),
        case(
            "engine switch not a boolean",
            format!("{SIM}[engine]\ntrain = \"no\"\n{NSRC}"),
            "engine.train",
            "expected a boolean",
        ),
        set_case("engine switch set to a number", base(), &[("engine.busy_pass", "1")], "engine.busy_pass", "expected a boolean"),
        case(
            "slotted pass switch not a boolean",
            format!("{SIM}[engine]\nslotted_pass = 1\n{NSRC}"),
            "engine.slotted_pass",
            "expected a boolean",
        ),
        case(
            "misspelt engine switch",
            format!("{SIM}[engine]\ntrains = false\n{NSRC}"),
            "engine.trains",
            "unknown field `trains`",
        ),
        case(
            "unknown n_source config",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"MAN\"\nbuffer_cells = 1000\npolicy = \"fba\"\n"),
            "n_source.config",
            "unknown variant `MAN`",
        ),
        // --- Missing keys --------------------------------------------------------------------
        case(
            "missing [simulation]",
            net("", NODES, LINKS, PORT, CONN),
            "scenario",
            "missing field `simulation`",
        ),
        case(
            "missing duration_s",
            with_sim("[simulation]\nseed = 3\n"),
            "simulation",
            "missing field `duration_s`",
        ),
        case(
            "missing link rate",
            with_first_link("ends = [\"a\", \"s\"]\ndelay_us = 1.0"),
            "link[0].rate_bps",
            "is required",
        ),
        case(
            "missing link delay",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 1000000"),
            "link[0]",
            "missing field `delay_us`",
        ),
        case(
            "missing policy",
            with_port("[[port]]\nnode = \"s\"\ntoward = \"b\"\nbuffer_cells = 1000\n"),
            "port[0]",
            "missing field `policy`",
        ),
        case(
            "missing EPD threshold",
            with_policy("1000", "kind = \"epd\""),
            "port[0].policy.threshold_cells",
            "is required",
        ),
        case(
            "missing FBA z",
            with_policy("1000", "kind = \"fba\", r_cells = 900"),
            "port[0].policy.z",
            "is required",
        ),
        case(
            "no nodes",
            format!("{SIM}{CONN}"),
            "node",
            "no nodes",
        ),
        case(
            "no connections",
            net(SIM, NODES, LINKS, PORT, ""),
            "connection",
            "no connections",
        ),
        // --- Wrong types ---------------------------------------------------------------------
        case(
            "string for duration",
            with_sim("[simulation]\nduration_s = \"10\"\n"),
            "simulation.duration_s",
            "invalid type: string",
        ),
        case(
            "string for rate",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = \"fast\"\ndelay_us = 1.0"),
            "link[0].rate_bps",
            "invalid type: string",
        ),
        case(
            "float for buffer",
            with_policy("10.5", "kind = \"tail_drop\""),
            "port[0].buffer_cells",
            "expected an integer number of cells or \"infinite\", got",
        ),
        case(
            "misspelt infinite buffer",
            with_policy("\"infinte\"", "kind = \"tail_drop\""),
            "port[0].buffer_cells",
            "expected an integer number of cells or \"infinite\", got",
        ),
        case(
            "table for [simulation]",
            format!("simulation = 5\n{NODES}"),
            "simulation",
            "invalid type: integer",
        ),
        case(
            "string for a tcp window",
            plus("[tcp]\nwindow_bytes = \"64k\"\n"),
            "tcp.window_bytes",
            "invalid type: string",
        ),
        case(
            "negative seed",
            with_sim("[simulation]\nduration_s = 1.0\nseed = -1\n"),
            "simulation.seed",
            "invalid value",
        ),
        // --- Randomness of the physical network ----------------------------------------------
        case(
            "unknown phases",
            with_sim("[simulation]\nduration_s = 1.0\nphases = \"locked\"\n"),
            "simulation.phases",
            "unknown variant `locked`, expected `random` or `aligned`",
        ),
        case(
            "phases as a number",
            with_sim("[simulation]\nduration_s = 1.0\nphases = 0\n"),
            "simulation.phases",
            "expected `random` or `aligned`, got integer 0",
        ),
        set_case("phases by --set", base(), &[("simulation.phases", "sometimes")], "simulation.phases", "unknown variant"),
        case(
            "negative start jitter",
            with_sim("[simulation]\nduration_s = 1.0\nstart_jitter_s = -0.1\n"),
            "simulation.start_jitter_s",
            "must be zero or a positive number, got -0.1",
        ),
        case(
            "nan start jitter",
            with_sim("[simulation]\nduration_s = 1.0\nstart_jitter_s = nan\n"),
            "simulation.start_jitter_s",
            "got NaN",
        ),
        case(
            "infinite start jitter",
            with_sim("[simulation]\nduration_s = 1.0\nstart_jitter_s = inf\n"),
            "simulation.start_jitter_s",
            "got inf",
        ),
        case(
            "huge start jitter",
            with_sim("[simulation]\nduration_s = 1.0\nstart_jitter_s = 2e6\n"),
            "simulation.start_jitter_s",
            "must be at most",
        ),
        case(
            "start jitter as a string",
            with_sim("[simulation]\nduration_s = 1.0\nstart_jitter_s = \"1ms\"\n"),
            "simulation.start_jitter_s",
            "invalid type: string",
        ),
        case(
            "negative clock tolerance",
            with_sim("[simulation]\nduration_s = 1.0\nclock_ppm = -5\n"),
            "simulation.clock_ppm",
            "must be zero or a positive number, got -5",
        ),
        case("nan clock tolerance", with_sim("[simulation]\nduration_s = 1.0\nclock_ppm = nan\n"), "simulation.clock_ppm", "got NaN"),
        case("infinite clock tolerance", with_sim("[simulation]\nduration_s = 1.0\nclock_ppm = inf\n"), "simulation.clock_ppm", "got inf"),
        case(
            "huge clock tolerance",
            with_sim("[simulation]\nduration_s = 1.0\nclock_ppm = 5000\n"),
            "simulation.clock_ppm",
            "must be at most 1000 ppm",
        ),
        case(
            "clock tolerance as a string",
            with_sim("[simulation]\nduration_s = 1.0\nclock_ppm = \"20ppm\"\n"),
            "simulation.clock_ppm",
            "invalid type: string",
        ),
        set_case("clock tolerance by --set", base(), &[("simulation.clock_ppm", "lots")], "simulation.clock_ppm", "invalid type"),
        // --- Cell-level UPC ------------------------------------------------------------------
        case(
            "upc with a negative rate",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nupc = { pcr_bps = -1, action = \"drop\" }\n"),
            "connection[0].upc.pcr_bps",
            "must be a rate in (0,",
        ),
        case(
            "upc with a negative cdvt",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nupc = { pcr_bps = 1e6, cdvt_us = -3, action = \"tag\" }\n"),
            "connection[0].upc.cdvt_us",
            "must be zero or a positive number, got -3",
        ),
        case(
            "upc with an unknown action",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nupc = { pcr_bps = 1e6, action = \"shape\" }\n"),
            "connection[0].upc.action",
            "unknown variant `shape`, expected `tag` or `drop`",
        ),
        case(
            "upc without an action",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nupc = { pcr_bps = 1e6 }\n"),
            "connection[0].upc",
            "missing field `action`",
        ),
        case(
            "upc at a switch off the route",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nupc = { pcr_bps = 1e6, action = \"tag\", switch = \"b\" }\n"),
            "connection[0].upc.switch",
            "`b` is not a switch on the route",
        ),
        case(
            "background upc with a zero rate",
            plus("[[background]]\nname = \"bg\"\nroute = [\"a\", \"s\", \"b\"]\nsource = { kind = \"cbr\", rate_bps = 1e6 }\nupc = { pcr_bps = 0, action = \"drop\" }\n"),
            "background[0].upc.pcr_bps",
            "must be a rate in (0,",
        ),
        // --- Durations, rates, delays --------------------------------------------------------
        case(
            "negative duration",
            with_sim("[simulation]\nduration_s = -1.0\n"),
            "simulation.duration_s",
            "must be in (0,",
        ),
        case(
            "zero duration",
            with_sim("[simulation]\nduration_s = 0\n"),
            "simulation.duration_s",
            "must be in (0,",
        ),
        case(
            "nan duration",
            with_sim("[simulation]\nduration_s = nan\n"),
            "simulation.duration_s",
            "got NaN",
        ),
        case(
            "infinite duration",
            with_sim("[simulation]\nduration_s = inf\n"),
            "simulation.duration_s",
            "got inf",
        ),
        case(
            "huge duration",
            with_sim("[simulation]\nduration_s = 1e300\n"),
            "simulation.duration_s",
            "must be in (0,",
        ),
        case(
            "negative rate",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = -155520000\ndelay_us = 1.0"),
            "link[0].rate_bps",
            "invalid value: integer `-155520000`",
        ),
        case(
            "zero rate",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 0\ndelay_us = 1.0"),
            "link[0].rate_bps",
            "must be positive",
        ),
        case(
            "zero cell rate",
            with_first_link("ends = [\"a\", \"s\"]\nrate_cells_per_s = 0\ndelay_us = 1.0"),
            "link[0].rate_cells_per_s",
            "must be positive",
        ),
        case(
            "both rates",
            with_first_link(
                "ends = [\"a\", \"s\"]\nrate_bps = 1000000\nrate_cells_per_s = 1000\ndelay_us = 1.0",
            ),
            "link[0].rate_bps",
            "not both",
        ),
        case(
            "rate beyond one cell per picosecond",
            with_first_link(
                "ends = [\"a\", \"s\"]\nrate_bps = 9223372036854775807\ndelay_us = 1.0",
            ),
            "link[0].rate_bps",
            "too high",
        ),
        case(
            "negative delay",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 1000000\ndelay_us = -5.0"),
            "link[0].delay_us",
            "zero or a positive number",
        ),
        case(
            "nan delay",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 1000000\ndelay_us = nan"),
            "link[0].delay_us",
            "got NaN",
        ),
        case(
            "infinite delay",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 1000000\ndelay_us = +inf"),
            "link[0].delay_us",
            "got inf",
        ),
        case(
            "negative infinite delay",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 1000000\ndelay_us = -inf"),
            "link[0].delay_us",
            "got -inf",
        ),
        case(
            "delay too long",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 1000000\ndelay_us = 1e12"),
            "link[0].delay_us",
            "at most",
        ),
        case(
            "negative start time",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nstart_s = -1.0\n"),
            "connection[0].start_s",
            "zero or a positive number",
        ),
        case(
            "nan start time",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nstart_s = nan\n"),
            "connection[0].start_s",
            "got NaN",
        ),
        case(
            "start time beyond any run",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nstart_s = 1e300\n"),
            "connection[0].start_s",
            "at most",
        ),
        // --- Buffers and policies ------------------------------------------------------------
        case(
            "zero buffer",
            with_policy("0", "kind = \"tail_drop\""),
            "port[0].buffer_cells",
            "must be between 1 and",
        ),
        case(
            "negative buffer",
            with_policy("-10", "kind = \"tail_drop\""),
            "port[0].buffer_cells",
            "must be between 1 and",
        ),
        case(
            "EPD threshold above the buffer",
            with_policy("1000", "kind = \"epd\", threshold_cells = 1001"),
            "port[0].policy.threshold_cells",
            "exceeds buffer_cells (1000)",
        ),
        case(
            "negative EPD threshold",
            with_policy("1000", "kind = \"epd\", threshold_cells = -1"),
            "port[0].policy.threshold_cells",
            "must be between 0 and",
        ),
        case(
            "FBA R above the buffer",
            with_policy("1000", "kind = \"fba\", r_cells = 1200, z = 0.8"),
            "port[0].policy.r_cells",
            "exceeds buffer_cells (1000)",
        ),
        case(
            "Selective Drop R above the buffer",
            with_policy("1000", "kind = \"selective_drop\", r_cells = 1001, z = 0.8"),
            "port[0].policy.r_cells",
            "exceeds buffer_cells",
        ),
        case(
            "FBA R equal to the buffer",
            with_policy("1000", "kind = \"fba\", r_cells = 1000, z = 0.8"),
            "port[0].policy.r_cells",
            "must be below buffer_cells",
        ),
        case(
            "FBA with an infinite buffer",
            with_policy("\"infinite\"", "kind = \"fba\", r_cells = 900, z = 0.8"),
            "port[0].policy.r_cells",
            "needs a finite buffer_cells",
        ),
        case(
            "Selective Drop with an infinite buffer",
            with_policy("\"infinite\"", "kind = \"selective_drop\", r_cells = 900, z = 0.8"),
            "port[0].policy.r_cells",
            "needs a finite buffer_cells",
        ),
        case(
            "EPD with an infinite buffer",
            with_policy("\"infinite\"", "kind = \"epd\", threshold_cells = 800"),
            "port[0].policy.threshold_cells",
            "needs a finite buffer_cells",
        ),
        case(
            "z on tail_drop",
            with_policy("1000", "kind = \"tail_drop\", z = 0.8"),
            "port[0].policy.z",
            "does not apply to policy TailDrop",
        ),
        case(
            "threshold on ppd",
            with_policy("1000", "kind = \"ppd\", threshold_cells = 10"),
            "port[0].policy.threshold_cells",
            "does not apply to policy Ppd",
        ),
        case(
            "r_cells on EPD",
            with_policy("1000", "kind = \"epd\", threshold_cells = 800, r_cells = 10"),
            "port[0].policy.r_cells",
            "does not apply to policy Epd",
        ),
        case(
            "threshold on FBA",
            with_policy("1000", "kind = \"fba\", r_cells = 900, z = 0.8, threshold_cells = 5"),
            "port[0].policy.threshold_cells",
            "does not apply to policy Fba",
        ),
        case(
            "zero FBA z",
            with_policy("1000", "kind = \"fba\", r_cells = 900, z = 0.0"),
            "port[0].policy.z",
            "must be a positive number",
        ),
        case(
            "nan Selective Drop z",
            with_policy("1000", "kind = \"selective_drop\", r_cells = 900, z = nan"),
            "port[0].policy.z",
            "got NaN",
        ),
        case(
            "infinite FBA z",
            with_policy("1000", "kind = \"fba\", r_cells = 900, z = inf"),
            "port[0].policy.z",
            "got inf",
        ),
        // --- Topology ------------------------------------------------------------------------
        case(
            "duplicate node names",
            with_nodes(
                "[[node]]\nname = \"a\"\nkind = \"host\"\n[[node]]\nname = \"s\"\nkind = \"switch\"\n\
                 [[node]]\nname = \"b\"\nkind = \"host\"\n[[node]]\nname = \"s\"\nkind = \"switch\"\n",
            ),
            "node[3].name",
            "duplicate node `s`",
        ),
        case(
            "empty node name",
            with_nodes(
                "[[node]]\nname = \"\"\nkind = \"host\"\n[[node]]\nname = \"s\"\nkind = \"switch\"\n\
                 [[node]]\nname = \"b\"\nkind = \"host\"\n",
            ),
            "node[0].name",
            "must be non-empty",
        ),
        case(
            "arrow in a node name",
            with_nodes(
                "[[node]]\nname = \"a->s\"\nkind = \"host\"\n[[node]]\nname = \"s\"\nkind = \"switch\"\n\
                 [[node]]\nname = \"b\"\nkind = \"host\"\n",
            ),
            "node[0].name",
            "must not contain `->`",
        ),
        case(
            "link to an unknown node",
            with_first_link("ends = [\"a\", \"x\"]\nrate_bps = 1000000\ndelay_us = 1.0"),
            "link[0].ends[1]",
            "unknown node `x`",
        ),
        case(
            "link from a node to itself",
            with_first_link("ends = [\"s\", \"s\"]\nrate_bps = 1000000\ndelay_us = 1.0"),
            "link[0].ends",
            "two different nodes",
        ),
        case(
            "link with one end",
            with_first_link("ends = [\"a\"]\nrate_bps = 1000000\ndelay_us = 1.0"),
            "link[0].ends",
            "invalid length 1",
        ),
        case(
            "duplicate link",
            format!(
                "{}{LINKS}{PORT}{CONN}",
                net(SIM, NODES, "", "", "")
                    + "[[link]]\nends = [\"b\", \"s\"]\nrate_bps = 1000000\ndelay_us = 1.0\n"
            ),
            "link[2].ends",
            "already exists",
        ),
        case(
            "host with two links",
            with_links(&format!(
                "{LINKS}[[link]]\nends = [\"a\", \"b\"]\nrate_bps = 1000000\ndelay_us = 1.0\n"
            )),
            "node[0].kind",
            "host `a` must have exactly one link, it has 2",
        ),
        case(
            "host with no link",
            with_nodes(&format!("{NODES}[[node]]\nname = \"lonely\"\nkind = \"host\"\n")),
            "node[3].kind",
            "host `lonely` must have exactly one link, it has 0",
        ),
        case(
            "port on a host",
            with_port(
                "[[port]]\nnode = \"a\"\ntoward = \"s\"\nbuffer_cells = 10\npolicy = { kind = \"tail_drop\" }\n",
            ),
            "port[0].node",
            "is a host",
        ),
        case(
            "port on an unknown node",
            with_port(
                "[[port]]\nnode = \"q\"\ntoward = \"s\"\nbuffer_cells = 10\npolicy = { kind = \"tail_drop\" }\n",
            ),
            "port[0].node",
            "unknown node `q`",
        ),
        case(
            "port toward a non-neighbour",
            net(
                SIM,
                &format!("{NODES}[[node]]\nname = \"s2\"\nkind = \"switch\"\n"),
                LINKS,
                "[[port]]\nnode = \"s\"\ntoward = \"s2\"\nbuffer_cells = 10\npolicy = { kind = \"tail_drop\" }\n",
                CONN,
            ),
            "port[0].toward",
            "no link joins `s` and `s2`",
        ),
        case(
            "port toward an unknown node",
            with_port(
                "[[port]]\nnode = \"s\"\ntoward = \"zz\"\nbuffer_cells = 10\npolicy = { kind = \"tail_drop\" }\n",
            ),
            "port[0].toward",
            "unknown node `zz`",
        ),
        case(
            "port configured twice",
            with_port(&format!(
                "{PORT}[[port]]\nnode = \"s\"\ntoward = \"b\"\nbuffer_cells = 10\npolicy = {{ kind = \"tail_drop\" }}\n"
            )),
            "port[1].toward",
            "configured twice",
        ),
        // --- Routes --------------------------------------------------------------------------
        case(
            "route through a missing link",
            net(
                SIM,
                "[[node]]\nname = \"a\"\nkind = \"host\"\n[[node]]\nname = \"s1\"\nkind = \"switch\"\n\
                 [[node]]\nname = \"s2\"\nkind = \"switch\"\n[[node]]\nname = \"s3\"\nkind = \"switch\"\n\
                 [[node]]\nname = \"b\"\nkind = \"host\"\n",
                "[[link]]\nends = [\"a\", \"s1\"]\nrate_bps = 1000000\ndelay_us = 1.0\n\
                 [[link]]\nends = [\"s1\", \"s3\"]\nrate_bps = 1000000\ndelay_us = 1.0\n\
                 [[link]]\nends = [\"s3\", \"s2\"]\nrate_bps = 1000000\ndelay_us = 1.0\n\
                 [[link]]\nends = [\"s2\", \"b\"]\nrate_bps = 1000000\ndelay_us = 1.0\n",
                "",
                "[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s1\", \"s2\", \"b\"]\n",
            ),
            "connection[0].route[2]",
            "no link joins `s1` and `s2`",
        ),
        case(
            "route naming an unknown node",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"sw\", \"b\"]\n"),
            "connection[0].route[1]",
            "unknown node `sw`",
        ),
        case(
            "route starting at a switch",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"s\", \"b\"]\n"),
            "connection[0].route[0]",
            "must be a host",
        ),
        case(
            "route ending at a switch",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\"]\n"),
            "connection[0].route[1]",
            "must be a host",
        ),
        case(
            "route through a host",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"b\", \"a\"]\n"),
            "connection[0].route[1]",
            "must be a switch",
        ),
        case(
            "route with a node twice",
            net(
                SIM,
                &format!("{NODES}[[node]]\nname = \"t\"\nkind = \"switch\"\n"),
                &format!("{LINKS}[[link]]\nends = [\"s\", \"t\"]\nrate_bps = 1000000\ndelay_us = 1.0\n"),
                PORT,
                "[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"t\", \"s\", \"b\"]\n",
            ),
            "connection[0].route[3]",
            "`s` appears twice",
        ),
        case(
            "route from a host to itself",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"a\"]\n"),
            "connection[0].route[1]",
            "`a` appears twice",
        ),
        case(
            "route of one node",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\"]\n"),
            "connection[0].route",
            "at least a sending and a receiving host",
        ),
        case(
            "duplicate connection name",
            with_conn(&format!("{CONN}{CONN}")),
            "connection[1].name",
            "unique, got `c0`",
        ),
        case(
            "unknown application",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\napp = \"ftp\"\n"),
            "connection[0].app",
            "unknown application `ftp`",
        ),
        // --- TCP -----------------------------------------------------------------------------
        case(
            "zero MSS",
            plus("[tcp]\nmss = 0\n"),
            "tcp.mss",
            "must be between 1 and 65487, got 0",
        ),
        case(
            "MSS too large for AAL5",
            plus("[tcp]\nmss = 65488\nwindow_bytes = 200000\nwindow_scaling = true\n"),
            "tcp.mss",
            "must be between 1 and 65487, got 65488",
        ),
        case(
            "zero MSS in a connection's table",
            with_conn(
                "[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\n[connection.tcp]\nmss = 0\n",
            ),
            "connection[0].tcp.mss",
            "must be between 1 and",
        ),
        case(
            "window above 65535 without scaling",
            plus("[tcp]\nwindow_bytes = 65536\n"),
            "tcp.window_bytes",
            "window_scaling = true",
        ),
        case(
            "window above 65535, scaling switched off per connection",
            net(
                SIM,
                NODES,
                LINKS,
                PORT,
                "[tcp]\nwindow_bytes = 600000\nwindow_scaling = true\n\
                 [[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\ntcp = { window_scaling = false }\n",
            ),
            "connection[0].tcp.window_bytes",
            "window_scaling = true",
        ),
        case(
            "window smaller than MSS",
            plus("[tcp]\nmss = 1460\nwindow_bytes = 1000\n"),
            "tcp.window_bytes",
            "smaller than one segment",
        ),
        case(
            "window beyond the largest scaled window",
            plus("[tcp]\nwindow_bytes = 2000000000\nwindow_scaling = true\n"),
            "tcp.window_bytes",
            "must be between 1 and 1073725440",
        ),
        case(
            "unknown TCP variant",
            plus("[tcp]\nvariant = \"cubic\"\n"),
            "tcp.variant",
            "unknown variant `cubic`",
        ),
        case(
            "out-of-order policy as text",
            plus("[tcp]\ncache_out_of_order = \"discard\"\n"),
            "tcp.cache_out_of_order",
            "invalid type: string \"discard\", expected a boolean",
        ),
        case(
            "zero tick",
            plus("[tcp]\ntick_ms = 0\n"),
            "tcp.tick_ms",
            "must be a positive number",
        ),
        case(
            "nan tick",
            plus("[tcp]\ntick_ms = nan\n"),
            "tcp.tick_ms",
            "got NaN",
        ),
        case(
            "tick that rounds to nothing",
            plus("[tcp]\ntick_ms = 1e-12\n"),
            "tcp.tick_ms",
            "rounds to zero",
        ),
        case(
            "initial RTO above the maximum",
            plus("[tcp]\ninitial_rto_s = 100.0\n"),
            "tcp.initial_rto_s",
            "exceeds max_rto_s",
        ),
        case(
            "maximum RTO below one tick",
            plus("[tcp]\nmax_rto_s = 0.01\ninitial_rto_s = 0.001\n"),
            "tcp.max_rto_s",
            "shorter than one tick",
        ),
        case(
            "infinite maximum RTO",
            plus("[tcp]\nmax_rto_s = inf\n"),
            "tcp.max_rto_s",
            "got inf",
        ),
        case(
            "minimum RTO above the maximum",
            plus("[tcp]\nmin_rto_ticks = 1000\n"),
            "tcp.min_rto_ticks",
            "exceeds max_rto_s",
        ),
        case(
            "RTO in ticks beyond 32 bits",
            plus("[tcp]\ntick_ms = 1e-9\n"),
            "tcp.max_rto_s",
            "ticks",
        ),
        case(
            "tick beyond any run",
            plus("[tcp]\ntick_ms = 1e300\nmax_rto_s = 1e300\ninitial_rto_s = 1e300\n"),
            "tcp.tick_ms",
            "at most",
        ),
        case(
            "initial window beyond the largest window",
            plus("[tcp]\nmss = 65000\nwindow_bytes = 70000\nwindow_scaling = true\ninitial_cwnd_segments = 100000\n"),
            "tcp.initial_cwnd_segments",
            "exceeds the largest TCP window",
        ),
        case(
            "iss beyond 32 bits",
            plus("[tcp]\niss = 4294967296\n"),
            "tcp.iss",
            "must be between 0 and 4294967295",
        ),
        // --- The N-source template -----------------------------------------------------------
        case(
            "n_source combined with [[node]]",
            format!("{SIM}{NSRC}{NODES}"),
            "node",
            "cannot be combined with the n_source template",
        ),
        case(
            "n_source combined with [tcp]",
            nsrc("", "[tcp]\nmss = 1000\n"),
            "tcp",
            "cannot be combined with the n_source template",
        ),
        case(
            "n_source combined with [metrics]",
            nsrc("", "[metrics]\nbottleneck = \"sw1->sw2\"\n"),
            "metrics",
            "cannot be combined with the n_source template",
        ),
        case(
            "n_source with zero sources",
            format!("{SIM}[n_source]\nsources = 0\nconfig = \"LAN\"\nbuffer_cells = 1000\npolicy = \"fba\"\n"),
            "n_source.sources",
            "must be between 1 and",
        ),
        case(
            "n_source missing sources",
            format!("{SIM}[n_source]\nconfig = \"LAN\"\nbuffer_cells = 1000\npolicy = \"fba\"\n"),
            "n_source",
            "missing field `sources`",
        ),
        case(
            "n_source r above one",
            nsrc("r = 1.5", ""),
            "n_source.r",
            "must be a fraction of the buffer in (0, 1], got 1.5",
        ),
        case(
            "n_source r nan",
            nsrc("r = nan", ""),
            "n_source.r",
            "got NaN",
        ),
        case(
            "n_source FBA with r = 1 (R = K)",
            nsrc("r = 1.0", ""),
            "n_source.r",
            "below buffer_cells",
        ),
        case(
            "n_source z zero",
            nsrc("z = 0.0", ""),
            "n_source.z",
            "must be a positive number",
        ),
        case(
            "n_source EPD with 100 cells (default threshold negative)",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"LAN\"\nbuffer_cells = 100\npolicy = \"epd\"\n"),
            "n_source.buffer_cells",
            "must exceed 200 cells",
        ),
        case(
            "n_source EPD with an infinite buffer",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"LAN\"\nbuffer_cells = \"infinite\"\npolicy = \"epd\"\n"),
            "n_source.buffer_cells",
            "finite",
        ),
        case(
            "n_source FBA with an infinite buffer",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"LAN\"\nbuffer_cells = \"infinite\"\npolicy = \"fba\"\n"),
            "n_source.buffer_cells",
            "finite",
        ),
        case(
            "n_source EPD threshold above the buffer",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"LAN\"\nbuffer_cells = 1000\npolicy = \"epd\"\nepd_threshold_cells = 1001\n"),
            "n_source.epd_threshold_cells",
            "exceeds buffer_cells (1000)",
        ),
        case(
            "n_source negative EPD threshold",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"LAN\"\nbuffer_cells = 1000\npolicy = \"epd\"\nepd_threshold_cells = -5\n"),
            "n_source.epd_threshold_cells",
            "must be between 0 and",
        ),
        case(
            "n_source EPD threshold with policy fba",
            nsrc("epd_threshold_cells = 500", ""),
            "n_source.epd_threshold_cells",
            "does not apply",
        ),
        case(
            "n_source zero buffer",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"LAN\"\nbuffer_cells = 0\npolicy = \"tail_drop\"\n"),
            "n_source.buffer_cells",
            "must be between 1 and",
        ),
        case(
            "n_source negative link delay",
            nsrc("link_delay_us = -1.0", ""),
            "n_source.link_delay_us",
            "zero or a positive number",
        ),
        case(
            "n_source link delay too long",
            nsrc("link_delay_us = 1e12", ""),
            "n_source.link_delay_us",
            "at most",
        ),
        case(
            "n_source zero rate",
            nsrc("rate_bps = 0", ""),
            "n_source.rate_bps",
            "must be positive",
        ),
        case(
            "n_source rate too high",
            nsrc("rate_bps = 9223372036854775807", ""),
            "n_source.rate_bps",
            "too high",
        ),
        case(
            "n_source zero MSS",
            nsrc("tcp = { mss = 0 }", ""),
            "n_source.tcp.mss",
            "must be between 1 and",
        ),
        case(
            "n_source LAN window above 65535",
            nsrc("tcp = { window_bytes = 100000 }", ""),
            "n_source.tcp.window_bytes",
            "window_scaling = true",
        ),
        case(
            "n_source LAN window above 65535, timers staggered",
            nsrc("stagger_timers = true\ntcp = { window_bytes = 100000 }", ""),
            "n_source.tcp.window_bytes",
            "window_scaling = true",
        ),
        case(
            "n_source unknown key in its tcp table",
            nsrc("tcp = { windw = 100000 }", ""),
            "n_source.tcp.windw",
            "unknown field `windw`",
        ),
        case(
            "n_source unknown policy",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"LAN\"\nbuffer_cells = 1000\npolicy = \"red\"\n"),
            "n_source.policy",
            "unknown variant `red`",
        ),
        // --- Source controls and background traffic -----------------------------------------
        case(
            "shaping without a rate",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nshaping = { cdvt_us = 1.0 }\n"),
            "connection[0].shaping.rate_bps",
            "is required",
        ),
        case(
            "shaping with beta on a TCP connection",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nshaping = { beta = 1.2 }\n"),
            "connection[0].shaping.beta",
            "applies to background sources",
        ),
        case(
            "shaping at a negative rate",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nshaping = { rate_bps = -5.0 }\n"),
            "connection[0].shaping.rate_bps",
            "must be a rate in (0",
        ),
        case(
            "shaping and abr together",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nshaping = { rate_bps = 1e6 }\nabr = { kind = \"prca\" }\n"),
            "connection[0].shaping",
            "cannot be combined with abr",
        ),
        case(
            "unknown abr kind",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nabr = { kind = \"erica\" }\n"),
            "connection[0].abr.kind",
            "unknown variant `erica`",
        ),
        case(
            "prca with mcr above pcr",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nabr = { kind = \"prca\", mcr_bps = 20e6 }\n"),
            "connection[0].abr.mcr_bps",
            "must not exceed pcr_bps",
        ),
        case(
            "prca with an adaptive key",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nabr = { kind = \"prca\", max_rate_bps = 1e6 }\n"),
            "connection[0].abr.max_rate_bps",
            "does not apply to kind prca",
        ),
        case(
            "adaptive with nrm 0",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nabr = { kind = \"adaptive\", nrm = 0 }\n"),
            "connection[0].abr.nrm",
            "must be",
        ),
        case(
            "adaptive with min above max",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nabr = { kind = \"adaptive\", max_rate_bps = 1e6, min_rate_bps = 2e6 }\n"),
            "connection[0].abr.min_rate_bps",
            "must not exceed max_rate_bps",
        ),
        case(
            "background with an unknown source kind",
            plus("[[background]]\nname = \"g\"\nroute = [\"a\", \"s\", \"b\"]\nsource = { kind = \"pareto\" }\n"),
            "background[0].source.kind",
            "unknown variant `pareto`",
        ),
        case(
            "background source missing its rate",
            plus("[[background]]\nname = \"g\"\nroute = [\"a\", \"s\", \"b\"]\nsource = { kind = \"poisson\" }\n"),
            "background[0].source",
            "missing field `user_bps`",
        ),
        case(
            "background burstiness below one",
            plus("[[background]]\nname = \"g\"\nroute = [\"a\", \"s\", \"b\"]\nsource = { kind = \"on_off\", peak_bps = 1e7, mean_burst_bytes = 4800, burstiness = 0.5 }\n"),
            "background[0].source.burstiness",
            "must be at least 1",
        ),
        case(
            "background mean length above the maximum",
            plus("[[background]]\nname = \"g\"\nroute = [\"a\", \"s\", \"b\"]\nsource = { kind = \"poisson\", user_bps = 1e6, mean_cells = 300, max_cells = 200 }\n"),
            "background[0].source.mean_cells",
            "must be in [1, max_cells = 200)",
        ),
        case(
            "background mean length the truncated law cannot reach",
            plus("[[background]]\nname = \"g\"\nroute = [\"a\", \"s\", \"b\"]\nsource = { kind = \"poisson\", user_bps = 1e6, mean_cells = 150, max_cells = 200 }\n"),
            "background[0].source.mean_cells",
            "must be below (max_cells + 1) / 2 = 100.5",
        ),
        case(
            "background shaping with rate and beta",
            plus("[[background]]\nname = \"g\"\nroute = [\"a\", \"s\", \"b\"]\nsource = { kind = \"cbr\", rate_bps = 1e6 }\nshaping = { rate_bps = 1e6, beta = 1.2 }\n"),
            "background[0].shaping.beta",
            "either rate_bps or beta",
        ),
        case(
            "background route through a host",
            plus("[[background]]\nname = \"g\"\nroute = [\"a\", \"b\"]\nsource = { kind = \"cbr\", rate_bps = 1e6 }\n"),
            "background[0].route[1]",
            "no link joins `a` and `b`",
        ),
        case(
            "background named like a connection",
            plus("[[background]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nsource = { kind = \"cbr\", rate_bps = 1e6 }\n"),
            "background[0].name",
            "must be non-empty and unique",
        ),
        case(
            "background count of zero",
            plus("[[background]]\nname = \"g\"\ncount = 0\nroute = [\"a\", \"s\", \"b\"]\nsource = { kind = \"cbr\", rate_bps = 1e6 }\n"),
            "background[0].count",
            "must be",
        ),
        // --- Metrics -------------------------------------------------------------------------
        case(
            "bottleneck naming no port",
            plus("[metrics]\nbottleneck = \"s->x\"\n"),
            "metrics.bottleneck",
            "no switch port named `s->x`",
        ),
        case(
            "bottleneck naming a host's output",
            plus("[metrics]\nbottleneck = \"a->s\"\n"),
            "metrics.bottleneck",
            "no switch port named `a->s`",
        ),
        // --- --set overrides -----------------------------------------------------------------
        set_case(
            "override index out of range",
            base(),
            &[("connection.5.name", "x")],
            "connection.5.name",
            "index 5 out of range (array has 1 items)",
        ),
        set_case(
            "override with an empty part",
            base(),
            &[("a..b", "1")],
            "a..b",
            "empty part",
        ),
        set_case("override with an empty key", base(), &[("", "1")], "", "empty key"),
        set_case(
            "override with a non-index into an array",
            base(),
            &[("connection.first.name", "x")],
            "connection.first.name",
            "must be an index into an array",
        ),
        set_case(
            "override through a number",
            base(),
            &[("simulation.duration_s.x", "1")],
            "simulation.duration_s.x",
            "`simulation.duration_s` is not a table or array",
        ),
        set_case(
            "override creating an unknown key",
            base(),
            &[("simulation.durations", "1")],
            "simulation.durations",
            "unknown field `durations`",
        ),
        set_case(
            "override with a value of the wrong type",
            base(),
            &[("simulation.duration_s", "ten")],
            "simulation.duration_s",
            "invalid type: string \"ten\"",
        ),
        set_case(
            "override with a bad value",
            base(),
            &[("simulation.duration_s", "-3")],
            "simulation.duration_s",
            "must be in (0,",
        ),
        set_case(
            "override of an n_source key",
            format!("{SIM}{NSRC}"),
            &[("n_source.r", "1.5")],
            "n_source.r",
            "got 1.5",
        ),
        // --- Flow control (credit/rate and CLASS studies) -------------------------------------
        case(
            "fcvc n2 zero",
            with_conn(&fcvc_conn("fcvc = { n2 = 0, n3 = 1 }")),
            "connection[0].fcvc.n2",
            "must be between 1 and",
        ),
        case(
            "fcvc without n3 or target rate",
            with_conn(&fcvc_conn("fcvc = { n2 = 10 }")),
            "connection[0].fcvc.n3",
            "is required",
        ),
        case(
            "fcvc with both n3 and a target rate",
            with_conn(&fcvc_conn("fcvc = { n2 = 10, n3 = 1, target_bps = 2.5e6 }")),
            "connection[0].fcvc.n3",
            "not both",
        ),
        case(
            "fcvc negative n3",
            with_conn(&fcvc_conn("fcvc = { n2 = 10, n3 = -1 }")),
            "connection[0].fcvc.n3",
            "must be between 0 and",
        ),
        case(
            "fcvc zero target rate",
            with_conn(&fcvc_conn("fcvc = { n2 = 10, target_bps = 0.0 }")),
            "connection[0].fcvc.target_bps",
            "must be a positive number",
        ),
        case(
            "fcvc target rate giving a huge N3",
            rr_port(&fcvc_conn("fcvc = { n2 = 10, target_bps = 1e30 }"), ""),
            "connection[0].fcvc.target_bps",
            "more than",
        ),
        case(
            "unknown key in fcvc",
            with_conn(&fcvc_conn("fcvc = { n2 = 10, n4 = 1 }")),
            "connection[0].fcvc.n4",
            "unknown field `n4`",
        ),
        case(
            "fcvc through a FIFO port",
            with_conn(&fcvc_conn("fcvc = { n2 = 10, n3 = 1 }")),
            "connection[0].fcvc",
            "port `s->b` on the route must serve VCs in turn",
        ),
        case(
            "fcvc through a priority port with a FIFO best-effort class",
            net(
                SIM,
                NODES,
                LINKS,
                "[[port]]\nnode = \"s\"\ntoward = \"b\"\nbuffer_cells = 165\npolicy = { kind = \"tail_drop\" }\n\
                 scheduler = \"priority\"\nbest_effort = \"fifo\"\n",
                &fcvc_conn("fcvc = { n2 = 10, n3 = 1 }"),
            ),
            "connection[0].fcvc",
            "must serve VCs in turn",
        ),
        case(
            "fcvc on a guaranteed connection",
            rr_port(&fcvc_conn("fcvc = { n2 = 10, n3 = 1 }\nguaranteed = true"), ""),
            "connection[0].fcvc",
            "guaranteed",
        ),
        case(
            "fcvc on a merged VC",
            rr_port(&fcvc_conn("fcvc = { n2 = 10, n3 = 1 }\nvc = \"m\""), ""),
            "connection[0].fcvc",
            "credits are per VC",
        ),
        case(
            "fcvc through a frame-merging port",
            rr_port(&fcvc_conn("fcvc = { n2 = 10, n3 = 1 }"), "merge_frames = true"),
            "connection[0].fcvc",
            "merges frames",
        ),
        case(
            "EFCI threshold above the buffer",
            with_port(&format!("{PORT}efci_threshold_cells = 1001\n")),
            "port[0].efci_threshold_cells",
            "(1001) exceeds buffer_cells (1000)",
        ),
        case(
            "negative EFCI threshold",
            with_port(&format!("{PORT}efci_threshold_cells = -1\n")),
            "port[0].efci_threshold_cells",
            "must be between 0 and",
        ),
        case(
            "RM feedback thresholds reversed",
            with_port(&format!("{PORT}rm_feedback = {{ t_low_cells = 500, t_high_cells = 10 }}\n")),
            "port[0].rm_feedback.t_low_cells",
            "(500) exceeds t_high_cells (10)",
        ),
        case(
            "RM feedback threshold above the buffer",
            with_port(&format!("{PORT}rm_feedback = {{ t_low_cells = 10, t_high_cells = 5000 }}\n")),
            "port[0].rm_feedback.t_high_cells",
            "(5000) exceeds buffer_cells (1000)",
        ),
        case(
            "fair-share interval of zero",
            with_port(&format!(
                "{PORT}rm_feedback = {{ t_low_cells = 10, t_high_cells = 500, fair_share_interval_us = 0 }}\n"
            )),
            "port[0].rm_feedback.fair_share_interval_us",
            "must be in [1, 1e7] microseconds, got 0",
        ),
        case(
            "fair-share interval not a number",
            with_port(&format!(
                "{PORT}rm_feedback = {{ t_low_cells = 10, t_high_cells = 500, fair_share_interval_us = nan }}\n"
            )),
            "port[0].rm_feedback.fair_share_interval_us",
            "got NaN",
        ),
        case(
            "fair-share interval longer than 10 s",
            with_port(&format!(
                "{PORT}rm_feedback = {{ t_low_cells = 10, t_high_cells = 500, fair_share_interval_us = 2e7 }}\n"
            )),
            "port[0].rm_feedback.fair_share_interval_us",
            "must be in [1, 1e7] microseconds",
        ),
        case(
            "fair-share interval as text",
            with_port(&format!(
                "{PORT}rm_feedback = {{ t_low_cells = 10, t_high_cells = 500, fair_share_interval_us = \"1ms\" }}\n"
            )),
            "port[0].rm_feedback.fair_share_interval_us",
            "invalid type: string \"1ms\", expected f64",
        ),
        case(
            "RM feedback without its high threshold",
            with_port(&format!("{PORT}rm_feedback = {{ t_low_cells = 10 }}\n")),
            "port[0].rm_feedback",
            "missing field `t_high_cells`",
        ),
        case(
            "best_effort on a FIFO port",
            with_port(&format!("{PORT}best_effort = \"round_robin\"\n")),
            "port[0].best_effort",
            "applies only to scheduler = \"priority\"",
        ),
        case(
            "unknown best_effort class",
            with_port(&format!("{PORT}scheduler = \"priority\"\nbest_effort = \"lifo\"\n")),
            "port[0].best_effort",
            "unknown variant `lifo`",
        ),
        // --- Issue 12: inputs that were accepted and then exhausted the machine or misspoke ---
        case(
            "messages app faster than its access link",
            with_conn(&format!("{CONN}app = {{ kind = \"messages\", mean_bytes = 1000, rate_bps = 1e12 }}\n")),
            "connection[0].app.rate_bps",
            "must be at most the access link's rate",
        ),
        case(
            "messages app of vanishing length",
            with_conn(&format!("{CONN}app = {{ kind = \"messages\", mean_bytes = 1e-300, rate_bps = 2500000 }}\n")),
            "connection[0].app.mean_bytes",
            "must be at least 1 octet",
        ),
        case(
            "messages app with more messages than cell slots",
            with_conn(&format!("{CONN}app = {{ kind = \"messages\", mean_bytes = 1, rate_bps = 1e8 }}\n")),
            "connection[0].app.mean_bytes",
            "messages per second, more than the access link's",
        ),
        case(
            "duration shorter than a cell time",
            with_sim("[simulation]\nduration_s = 5e-324\nseed = 1\n"),
            "simulation.duration_s",
            "must be at least one cell time of the slowest link",
        ),
        case(
            "duration shorter than a cell time of a slow link",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 1000\ndelay_us = 5.0"),
            "simulation.duration_s",
            "must be at least one cell time of the slowest link (0.424 s)",
        ),
        case(
            "fcvc n2 + n3 too large blames n3, not target_bps",
            rr_port(&fcvc_conn("fcvc = { n2 = 1073741824, n3 = 1073741824 }"), ""),
            "connection[0].fcvc.n3",
            "n2 + n3 = 2147483648 cells",
        ),
        case(
            "buffer size neither cells nor infinite",
            nsrc("", "").replace("buffer_cells = 1000", "buffer_cells = \"big\""),
            "n_source.buffer_cells",
            "expected an integer number of cells or \"infinite\", got string \"big\"",
        ),
        case(
            "port buffer size a float",
            with_policy("1.5", "kind = \"tail_drop\""),
            "port[0].buffer_cells",
            "expected an integer number of cells or \"infinite\", got float 1.5",
        ),
        case(
            "n_source policy a number",
            nsrc("", "").replace("policy = \"fba\"", "policy = 3"),
            "n_source.policy",
            "expected one of `tail_drop`, `ppd`, `epd`",
        ),
        case(
            "n_source not a table",
            format!("n_source = 5\n{SIM}"),
            "n_source",
            "integer `5`, expected a table",
        ),
        case(
            "traces too many in total",
            nsrc("sources = 50", "[trace]\ninterval_s = 1e-6\nqueues = true\nper_vc = true\n")
                .replace("sources = 2\n", "")
                .replace("duration_s = 0.001", "duration_s = 10.0"),
            "trace.interval_s",
            "sampled values in all",
        ),
        case(
            "trace arrivals not a boolean",
            plus("[trace]\narrivals = 1\n"),
            "trace.arrivals",
            "expected a boolean",
        ),
        case(
            "tcp timing from transmission with timestamps",
            plus("[tcp]\ntimestamps = true\ntiming_excludes_transmission = true\n"),
            "tcp.timing_excludes_transmission",
            "does not combine with timestamps",
        ),
        case(
            "tcp timing from transmission not a boolean",
            plus("[tcp]\ntiming_excludes_transmission = \"yes\"\n"),
            "tcp.timing_excludes_transmission",
            "expected a boolean",
        ),
        // --- Faults ---------------------------------------------------------------------------
        case(
            "fault cwnd threshold zero",
            plus("[[fault]]\nport = \"s->b\"\nconnection = \"c0\"\ncwnd_octets = 0\n"),
            "fault[0].cwnd_octets",
            "must be between 1 and",
        ),
        case(
            "fault cwnd threshold beyond 32 bits",
            plus("[[fault]]\nport = \"s->b\"\nconnection = \"c0\"\ncwnd_octets = 5000000000\n"),
            "fault[0].cwnd_octets",
            "must be between 1 and",
        ),
        case(
            "fault cwnd threshold on ACKs",
            plus("[[fault]]\nport = \"s->a\"\nconnection = \"c0\"\ncwnd_octets = 100000\nacks = true\n"),
            "fault[0].cwnd_octets",
            "data segments only",
        ),
        case(
            "fault cwnd threshold beside a loss rate",
            plus("[[fault]]\nport = \"s->b\"\nconnection = \"c0\"\ncwnd_octets = 100000\nloss_rate = 0.1\n"),
            "fault[0].segments",
            "exactly one of segments, between_s, loss_rate or cwnd_octets",
        ),
    ]
}

fn load(c: &Case) -> Result<(), ScenarioError> {
    scenario::load(&c.text, &c.sets, None).map(|_| ())
}

#[test]
fn the_base_scenarios_load_and_run() {
    // The fixtures the cases are built from must themselves be valid, or every case is moot.
    let model = scenario::load(&base(), &[], None).expect("base scenario");
    let mut built = scenario::build::build(model);
    built.sim.run_until(atmsim_core::time::PS_PER_MS);
    scenario::load(&format!("{SIM}{NSRC}"), &[], None).expect("base n_source scenario");
    atmsim_core::api::run_scenario(&format!("{SIM}{NSRC}"), &[], None).expect("n_source run");
}

/// An edge case: what it tries, the scenario text and its `--set` overrides.
type EdgeCase = (&'static str, String, Vec<(String, String)>);

/// Scenarios at the edges of what is accepted: they must load, build and run (1 ms) without
/// panicking.
fn edge_cases() -> Vec<EdgeCase> {
    let set = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
    vec![
        (
            "random phases on a one-cell-per-second link, start jitter at its bound",
            net(
                // At least one cell time of the 1 cell/s links.
                "[simulation]\nduration_s = 2.0\nstart_jitter_s = 1e6\n",
                NODES,
                "[[link]]\nends = [\"a\", \"s\"]\nrate_cells_per_s = 1\ndelay_us = 0\n\
                 [[link]]\nends = [\"s\", \"b\"]\nrate_cells_per_s = 1\ndelay_us = 0\n",
                PORT,
                CONN,
            ),
            vec![],
        ),
        (
            "fcvc with N3 = 0 and N2 = 1, EFCI and RM thresholds at 0",
            net(
                SIM,
                NODES,
                LINKS,
                "[[port]]\nnode = \"s\"\ntoward = \"b\"\nbuffer_cells = 1\npolicy = { kind = \"tail_drop\" }\n\
                 scheduler = \"round_robin\"\nefci_threshold_cells = 0\n\
                 rm_feedback = { t_low_cells = 0, t_high_cells = 0 }\n",
                &fcvc_conn("fcvc = { n2 = 1, n3 = 0 }"),
            ),
            vec![],
        ),
        (
            "fcvc with N3 from a tiny target rate on an infinite priority port",
            net(
                SIM,
                NODES,
                LINKS,
                "[[port]]\nnode = \"s\"\ntoward = \"b\"\nbuffer_cells = \"infinite\"\n\
                 policy = { kind = \"tail_drop\" }\nscheduler = \"priority\"\nbest_effort = \"round_robin\"\n\
                 efci_threshold_cells = 4000000\n",
                &fcvc_conn("fcvc = { n2 = 1073741823, target_bps = 1e-9 }"),
            ),
            vec![],
        ),
        (
            "minimum RTO equal to the maximum",
            plus("[tcp]\nmin_rto_ticks = 640\n"),
            vec![],
        ),
        (
            "one-tick maximum RTO",
            plus("[tcp]\ntick_ms = 0.001\nmax_rto_s = 0.000001\ninitial_rto_s = 0.000001\nmin_rto_ticks = 1\n"),
            vec![],
        ),
        (
            "start after the end of the run",
            with_conn("[[connection]]\nname = \"c0\"\nroute = [\"a\", \"s\", \"b\"]\nstart_s = 1e6\n"),
            vec![],
        ),
        (
            "sequence numbers about to wrap",
            plus("[tcp]\niss = 4294967295\n"),
            vec![],
        ),
        (
            "one-cell buffer",
            with_policy("1", "kind = \"ppd\""),
            vec![],
        ),
        (
            "EPD threshold zero",
            with_policy("10", "kind = \"epd\", threshold_cells = 0"),
            vec![],
        ),
        (
            "Selective Drop with R = K",
            with_policy("10", "kind = \"selective_drop\", r_cells = 10, z = 1e300"),
            vec![],
        ),
        (
            "two hosts on one link",
            net(
                // At least one cell time of the 1 cell/s link.
                "[simulation]\nduration_s = 2.0\nseed = 1\n",
                "[[node]]\nname = \"a\"\nkind = \"host\"\n[[node]]\nname = \"b\"\nkind = \"host\"\n",
                "[[link]]\nends = [\"a\", \"b\"]\nrate_cells_per_s = 1\ndelay_us = 0.0\n",
                "",
                "[[connection]]\nname = \"c0\"\nroute = [\"a\", \"b\"]\n",
            ),
            vec![],
        ),
        (
            "longest link delay",
            with_first_link("ends = [\"a\", \"s\"]\nrate_bps = 1000000\ndelay_us = 1e7"),
            vec![],
        ),
        (
            "n_source with one source and a one-cell buffer",
            format!("{SIM}[n_source]\nsources = 1\nconfig = \"WAN\"\nbuffer_cells = 1\npolicy = \"tail_drop\"\n"),
            vec![],
        ),
        (
            "n_source Selective Drop with R rounding to zero",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"LAN\"\nbuffer_cells = 3\npolicy = \"selective_drop\"\nr = 0.01\n"),
            vec![],
        ),
        (
            "n_source EPD by override",
            format!("{SIM}{NSRC}"),
            [
                set("n_source.policy", "epd"),
                set("n_source.epd_threshold_cells", "0"),
            ]
            .concat(),
        ),
        (
            "n_source WAN with its window set smaller",
            format!("{SIM}[n_source]\nsources = 2\nconfig = \"WAN\"\nbuffer_cells = 1000\npolicy = \"fba\"\ntcp = {{ window_bytes = 512, window_scaling = false }}\n"),
            vec![],
        ),
    ]
}

#[test]
fn accepted_edge_cases_build_and_run() {
    let mut failures = Vec::new();
    for (name, text, sets) in edge_cases() {
        let r = catch_unwind(AssertUnwindSafe(|| {
            scenario::load(&text, &sets, None).map(|model| {
                let duration = model.duration;
                let mut built = scenario::build::build(model);
                built.sim.run_until(duration);
            })
        }));
        match r {
            Err(_) => failures.push(format!("{name}: PANICKED")),
            Ok(Err(e)) => failures.push(format!("{name}: refused: {e}")),
            Ok(Ok(())) => {}
        }
    }
    assert!(failures.is_empty(), "\n  {}", failures.join("\n  "));
}

#[test]
fn bad_scenarios_are_refused_with_field_and_reason() {
    let mut failures = Vec::new();
    let cases = cases();
    let mut names = std::collections::HashSet::new();
    for c in &cases {
        assert!(names.insert(c.name), "duplicate case name `{}`", c.name);
        match catch_unwind(AssertUnwindSafe(|| load(c))) {
            Err(_) => failures.push(format!("{}: PANICKED", c.name)),
            Ok(Ok(())) => failures.push(format!("{}: loaded without error", c.name)),
            Ok(Err(e)) => {
                if e.field != c.field || !e.reason.contains(c.reason) {
                    failures.push(format!(
                        "{}: got `{e}`, want field `{}` with reason containing `{}`",
                        c.name, c.field, c.reason
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
}

#[test]
fn every_shipped_scenario_loads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/atmsim/scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("scenarios directory") {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if let Err(e) = scenario::load(&text, &[], None) {
            panic!("{}: {e}", path.display());
        }
        n += 1;
    }
    assert!(n > 0, "no scenarios found in {}", dir.display());
}
