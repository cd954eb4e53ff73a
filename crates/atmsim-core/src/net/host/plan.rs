//! Which of a host's paths run: decided once, when the host starts committing
//! (`Host::commit_until`), from its endpoints and adapter and the `[engine]` switches.
//!
//! A host's routes (`docs/engine.md`): per cell (`Host::advance_slots`, one departure per turn
//! of the batch loop); departures in runs (`Host::send_run`), a run of plain VCs being the
//! adapter's committing pass (`Adapter::commit_plain`); committing (`Host::advance_committing`,
//! `net/commit.rs`); one input read directly (`Host::advance_one_input`), middle cells taken in
//! a tight loop; PDUs found whole by their cell count (`Host::advance_by_count`), the host's
//! key skipping middle cells. Controlled VCs (shaping, rate or credit control), senders timing
//! from transmission, captures, background sources and RM cells anywhere in the scenario close
//! committing; taggers close the committing pass of a run; more than one VC or a background
//! sink closes the count.
//!
//! Runs of controlled VCs in one pass: paced VCs (`Adapter::send_paced`, `send_paced_rr`), and
//! one VC under FCVC credit at the line rate (`Adapter::send_credit`, `credit_runs`), whose
//! pass stops at each frame's end where a sender times from transmission.

use crate::net::EnginePaths;

/// `HostPlan::runs`: runs cell by cell only.
pub(super) const NO_RUNS: u32 = u32::MAX;
/// `HostPlan::runs`: runs in one pass, of cells no endpoint counts.
pub(super) const RUNS_PLAIN: u32 = u32::MAX - 1;

/// What of a host decides its paths, read at set-up.
#[derive(Debug, Clone, Copy)]
pub(super) struct HostParts {
    /// Some VC is shaped, rate- or credit-controlled (its cells wait for their own times).
    pub controlled: bool,
    /// Some sender times from transmission completion (it reads each frame's last slot).
    pub timing_on_tx: bool,
    /// The output channel is captured (records per cell in time order).
    pub captured: bool,
    /// Some VC's frames are tagged by the adapter (decided at a frame's first slot).
    pub tagging: bool,
    /// Some adapter of the scenario sends RM cells (a destination returns them ahead of its
    /// queued cells).
    pub rm_cells: bool,
    /// Background sources send here (their bounded queues free room at each departure).
    pub background: bool,
    /// The one endpoint that sends, if it is a background source (its index).
    pub lone_source: Option<u32>,
    /// One VC crosses the host.
    pub one_vc: bool,
    /// Background sinks end here (they count every cell).
    pub sinks: bool,
    /// The adapter's VCs are controlled, each paced without credit (GCRA, PRCA or adaptive).
    pub paced: bool,
    /// One VC is controlled here.
    pub one_controlled: bool,
    /// Several VCs are controlled here, all shaped at a fixed rate (`Adapter::all_fixed`).
    pub fixed: bool,
    /// What arrives here changes nothing the adapter sends: no TCP endpoint (only background
    /// sources and sinks: no control cell can arrive, since only TCP connections' VCs carry
    /// RM or credit cells), and the host's frames not captured.
    pub sink_arrivals: bool,
    /// The one controlled VC is under FCVC credit at the line rate (no shaper, no rate control).
    pub credit_line: bool,
}

/// The paths open at a host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct HostPlan {
    /// Departures are committed (`commit_end` is the run's end).
    pub commit: bool,
    /// PDUs found whole by their count (`Host::advance_by_count`).
    pub whole_by_count: bool,
    /// Middle cells skipped in the key (with `whole_by_count`).
    pub skip_middle: bool,
    /// How a run of departures goes: `NO_RUNS` (cell by cell), `RUNS_PLAIN` (the adapter's
    /// committing pass), or the index of the lone background source whose queue counts them.
    pub runs: u32,
    /// A run of the paced VCs' cells goes in one pass (`Adapter::send_paced`, `send_paced_rr`).
    pub paced_runs: bool,
    /// Such a run of several fixed-rate VCs goes with each VC in locals
    /// (`Adapter::send_fixed_rr`).
    pub fixed_runs: bool,
    /// A run of departures is not cut by arrivals (`Host::send_run`'s limit is the next timer
    /// or the batch's end): they are all for sinks and change nothing the adapter sends.
    pub past_sinks: bool,
    /// A run of the credit-controlled VC's cells goes in one pass (`Adapter::send_credit`), to
    /// each frame's end where a sender times from transmission.
    pub credit_runs: bool,
}

impl Default for HostPlan {
    fn default() -> Self {
        HostPlan {
            commit: false,
            whole_by_count: false,
            skip_middle: false,
            runs: NO_RUNS,
            paced_runs: false,
            fixed_runs: false,
            past_sinks: false,
            credit_runs: false,
        }
    }
}

impl HostPlan {
    /// The paths of a host with `parts`, committing up to a run's end if `commit` (the
    /// schedule lets it) and `[engine] commit` is on, with the switches `paths`.
    pub fn choose(parts: &HostParts, commit: bool, paths: EnginePaths) -> HostPlan {
        // Tagging decides at a frame's first slot, which a committed frame knows
        // (`Adapter::commit_frame`): a tagging adapter may commit.
        // The lookahead schedule (which lets components commit): long batches.
        let long_batches = commit;
        let committable = !parts.controlled && !parts.timing_on_tx && !parts.captured;
        // What a departure does besides its transmit: nothing for these (see `send_cell`).
        let plain_departures = committable && !parts.tagging;
        let commit = commit && paths.commit && committable && !parts.rm_cells && !parts.background;
        let whole_by_count = paths.whole_by_count && commit && parts.one_vc && !parts.sinks;
        // A background source's queue frees a cell at each departure: in a run it frees the
        // run's cells, if they are all its own (no other endpoint here sends).
        let runs = match (plain_departures && paths.run_pass, parts.background, parts.lone_source) {
            (false, _, _) => NO_RUNS,
            (true, false, _) => RUNS_PLAIN,
            (true, true, Some(i)) => i,
            (true, true, None) => NO_RUNS,
        };
        // A paced VC's departures do nothing but their transmit (and a background source's
        // count) here if no sender times from them and the channel is not captured (`send_cell`).
        // Arrivals for sinks only count and release their frames: a run of departures may go
        // on past them (they are taken after it, in their order, with the same events). A
        // committing host has no runs.
        let past_sinks = paths.runs_past_sinks && parts.sink_arrivals && !commit;
        // Several VCs' pass pays only on runs longer than the cell or two between arrivals or
        // the short batches of the plain schedule (`refine_beside_logs` off).
        let paced_runs = paths.paced_run
            && parts.paced
            && !parts.timing_on_tx
            && !parts.captured
            && (parts.one_controlled || (past_sinks && long_batches));
        // A credit-controlled VC at the line rate: its departures do nothing but their transmit
        // and, where a sender times from transmission, tell it at a frame's end (the pass stops
        // there); the channel not captured.
        let credit_runs = paths.credit_run && parts.credit_line && !parts.captured;
        HostPlan {
            commit,
            whole_by_count,
            skip_middle: whole_by_count && paths.skip_middle,
            runs,
            paced_runs,
            fixed_runs: paced_runs && paths.fixed_run && parts.fixed && !parts.one_controlled,
            past_sinks,
            credit_runs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_and_switch_closes_its_paths() {
        let tcp = HostParts {
            controlled: false,
            timing_on_tx: false,
            captured: false,
            tagging: false,
            rm_cells: false,
            background: false,
            lone_source: None,
            one_vc: true,
            sinks: false,
            paced: false,
            one_controlled: false,
            fixed: false,
            sink_arrivals: false,
            credit_line: false,
        };
        let all = HostPlan {
            commit: true,
            whole_by_count: true,
            skip_middle: true,
            runs: RUNS_PLAIN,
            paced_runs: false,
            fixed_runs: false,
            past_sinks: false,
            credit_runs: false,
        };
        assert_eq!(HostPlan::choose(&tcp, true, EnginePaths::ALL), all);
        assert_eq!(
            HostPlan::choose(&tcp, false, EnginePaths::ALL),
            HostPlan { runs: RUNS_PLAIN, ..Default::default() }
        );
        let with = |f: &dyn Fn(&mut HostParts)| {
            let mut p = tcp;
            f(&mut p);
            HostPlan::choose(&p, true, EnginePaths::ALL)
        };
        for f in [
            &(|p: &mut HostParts| p.controlled = true) as &dyn Fn(&mut HostParts),
            &|p: &mut HostParts| p.timing_on_tx = true,
            &|p: &mut HostParts| p.captured = true,
        ] {
            assert_eq!(with(f), HostPlan::default());
        }
        assert_eq!(with(&|p| p.tagging = true), HostPlan { runs: NO_RUNS, ..all });
        assert_eq!(with(&|p| p.rm_cells = true), HostPlan { runs: RUNS_PLAIN, ..Default::default() });
        assert_eq!(
            with(&|p| p.one_vc = false),
            HostPlan { whole_by_count: false, skip_middle: false, ..all }
        );
        assert_eq!(with(&|p| p.sinks = true), HostPlan { whole_by_count: false, skip_middle: false, ..all });
        let source = with(&|p| (p.background, p.lone_source) = (true, Some(3)));
        assert_eq!(source, HostPlan { runs: 3, ..Default::default() });
        assert_eq!(with(&|p| p.background = true).runs, NO_RUNS, "other senders beside the source");
        let off = |name: &str| {
            let mut paths = EnginePaths::ALL;
            *paths.get_mut(name).expect("a switch") = false;
            HostPlan::choose(&tcp, true, paths)
        };
        assert_eq!(off("commit"), HostPlan { runs: RUNS_PLAIN, ..Default::default() });
        assert_eq!(off("whole_by_count"), HostPlan { whole_by_count: false, skip_middle: false, ..all });
        assert_eq!(off("skip_middle"), HostPlan { skip_middle: false, ..all });
        assert_eq!(off("run_pass"), HostPlan { runs: NO_RUNS, ..all });
        for name in [
            "plain_port",
            "train",
            "busy_pass",
            "send_runs",
            "input_marks",
            "paced_run",
            "fixed_run",
            "runs_past_sinks",
            "credit_run",
        ] {
            assert_eq!(off(name), all, "{name} is not chosen here");
        }
    }

    #[test]
    fn a_paced_run_needs_one_paced_vc_whose_departures_only_transmit() {
        // A shaped TCP source of the CLASS study: one controlled VC, nothing committed.
        let shaped = HostParts {
            controlled: true,
            timing_on_tx: false,
            captured: false,
            tagging: false,
            rm_cells: true,
            background: false,
            lone_source: None,
            one_vc: true,
            sinks: false,
            paced: true,
            one_controlled: true,
            fixed: false,
            sink_arrivals: false,
            credit_line: false,
        };
        let paced = HostPlan { paced_runs: true, ..Default::default() };
        assert_eq!(HostPlan::choose(&shaped, true, EnginePaths::ALL), paced);
        assert_eq!(HostPlan::choose(&shaped, false, EnginePaths::ALL), paced);
        let with = |f: &dyn Fn(&mut HostParts)| {
            let mut p = shaped;
            f(&mut p);
            HostPlan::choose(&p, true, EnginePaths::ALL)
        };
        // Tagging is decided in the pass, at a frame's first slot, as `send` does.
        assert_eq!(with(&|p| p.tagging = true), paced);
        assert_eq!(with(&|p| p.sinks = true), paced);
        // A shaped background source: its queue counts the pass's cells.
        assert_eq!(with(&|p| (p.background, p.lone_source) = (true, Some(0))), paced);
        assert_eq!(with(&|p| (p.background, p.one_vc) = (true, false)), paced);
        for f in [
            &(|p: &mut HostParts| p.paced = false) as &dyn Fn(&mut HostParts),
            &|p: &mut HostParts| p.timing_on_tx = true,
            &|p: &mut HostParts| p.captured = true,
        ] {
            assert_eq!(with(f), HostPlan::default());
        }
        let mut paths = EnginePaths::ALL;
        paths.paced_run = false;
        assert_eq!(HostPlan::choose(&shaped, true, paths), HostPlan::default());
    }

    #[test]
    fn runs_go_past_arrivals_only_where_all_are_for_sinks() {
        // The CLASS study's background host: nine shaped sources and the sinks of the other
        // direction's, no TCP endpoint, no RM cell anywhere.
        let background = HostParts {
            controlled: true,
            timing_on_tx: false,
            captured: false,
            tagging: false,
            rm_cells: false,
            background: true,
            lone_source: None,
            one_vc: false,
            sinks: true,
            paced: true,
            one_controlled: false,
            fixed: false,
            sink_arrivals: true,
            credit_line: false,
        };
        let past = HostPlan { past_sinks: true, paced_runs: true, ..Default::default() };
        assert_eq!(HostPlan::choose(&background, true, EnginePaths::ALL), past);
        // Under the plain schedule (short batches) the runs go past sinks cell by cell.
        assert_eq!(
            HostPlan::choose(&background, false, EnginePaths::ALL),
            HostPlan { paced_runs: false, ..past }
        );
        let with = |f: &dyn Fn(&mut HostParts)| {
            let mut p = background;
            f(&mut p);
            HostPlan::choose(&p, true, EnginePaths::ALL)
        };
        // Several paced VCs' runs go in one pass only where they go past arrivals.
        assert_eq!(with(&|p| p.sink_arrivals = false), HostPlan::default());
        assert_eq!(with(&|p| p.paced = false), HostPlan { paced_runs: false, ..past });
        // RM cells elsewhere (the adaptive two-node scenario) never reach a host of sinks.
        assert_eq!(with(&|p| p.rm_cells = true), past);
        let mut paths = EnginePaths::ALL;
        paths.paced_run = false;
        assert_eq!(HostPlan::choose(&background, true, paths), HostPlan { paced_runs: false, ..past });
        // Fixed-rate sources (the credit/rate study's background host): their lanes in locals,
        // only within a paced run, and not for one VC (`send_paced` reads its hop once).
        let fixed = HostPlan { fixed_runs: true, ..past };
        assert_eq!(with(&|p| p.fixed = true), fixed);
        assert_eq!(with(&|p| (p.fixed, p.one_controlled) = (true, true)), past);
        assert_eq!(with(&|p| (p.fixed, p.sink_arrivals) = (true, false)), HostPlan::default());
        paths.fixed_run = false;
        paths.paced_run = true;
        assert_eq!(with(&|p| p.fixed = true), fixed);
        let mut fixed_parts = background;
        fixed_parts.fixed = true;
        assert_eq!(HostPlan::choose(&fixed_parts, true, paths), past);
        paths.paced_run = false;
        assert_eq!(HostPlan::choose(&fixed_parts, true, paths), HostPlan { paced_runs: false, ..past });
        // A committing host (plain, no background source) sends no runs.
        let plain = with(&|p| {
            (p.controlled, p.background, p.sinks) = (false, false, false);
        });
        assert!(plain.commit && !plain.past_sinks);
        paths = EnginePaths::ALL;
        paths.runs_past_sinks = false;
        assert_eq!(HostPlan::choose(&background, true, paths), HostPlan::default());
    }

    #[test]
    fn a_credit_run_needs_one_credit_vc_at_the_line_rate_on_an_uncaptured_channel() {
        // A TCP source of the credit/rate study: one VC under FCVC, its sender timing from
        // transmission, RM cells nowhere (FCVC sends none).
        let fcvc = HostParts {
            controlled: true,
            timing_on_tx: true,
            captured: false,
            tagging: false,
            rm_cells: false,
            background: false,
            lone_source: None,
            one_vc: true,
            sinks: false,
            paced: false,
            one_controlled: true,
            fixed: false,
            sink_arrivals: false,
            credit_line: true,
        };
        let credit = HostPlan { credit_runs: true, ..Default::default() };
        assert_eq!(HostPlan::choose(&fcvc, true, EnginePaths::ALL), credit);
        assert_eq!(HostPlan::choose(&fcvc, false, EnginePaths::ALL), credit, "under any schedule");
        let with = |f: &dyn Fn(&mut HostParts)| {
            let mut p = fcvc;
            f(&mut p);
            HostPlan::choose(&p, true, EnginePaths::ALL)
        };
        // The pass tells a transmission-timed sender at each frame's end, and decides tagging
        // at a frame's first slot; RM cells elsewhere and sinks here cut runs as arrivals.
        for f in [
            &(|p: &mut HostParts| p.timing_on_tx = false) as &dyn Fn(&mut HostParts),
            &|p: &mut HostParts| p.tagging = true,
            &|p: &mut HostParts| p.rm_cells = true,
            &|p: &mut HostParts| (p.one_vc, p.sinks) = (false, true),
        ] {
            assert_eq!(with(f), credit);
        }
        // Paced or rate-controlled credit VCs, several controlled VCs, a captured channel.
        for f in
            [&(|p: &mut HostParts| p.credit_line = false) as &dyn Fn(&mut HostParts), &|p: &mut HostParts| {
                p.captured = true
            }]
        {
            assert_eq!(with(f), HostPlan::default());
        }
        let mut paths = EnginePaths::ALL;
        paths.credit_run = false;
        assert_eq!(HostPlan::choose(&fcvc, true, paths), HostPlan::default());
        for name in ["paced_run", "commit", "send_runs", "runs_past_sinks", "run_pass"] {
            let mut paths = EnginePaths::ALL;
            *paths.get_mut(name).expect("a switch") = false;
            assert_eq!(HostPlan::choose(&fcvc, true, paths), credit, "{name} is not chosen for it");
        }
    }
}
