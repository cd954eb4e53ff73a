//! Which fast paths the engine may take: the `[engine]` switches, one per path.
//!
//! Every fast path computes exactly what the per-cell reference computes (the same cells in
//! the same slots, the same counters, the same event counts); each is only faster where it
//! applies. Each can be turned off alone (`[engine] <name> = false`), so that a path can be
//! tested on its own and a difference bisected to one path. A switch never opens a path: a path
//! runs where it is on *and* where the component's plan (`port/plan.rs`, `host/plan.rs`, and the
//! horizons of `sim.rs`) finds it applies. All on is the default and the fastest engine; all off
//! under `schedule = "reference"` is the per-cell yardstick (`docs/engine.md`).

/// Declares [`EnginePaths`] and its list of names from one list, so that the two cannot drift
/// apart (the scenario's `[engine]` table is checked against the same list, `scenario/spec.rs`).
macro_rules! engine_paths {
    ($($(#[doc = $doc:literal])* $name:ident,)*) => {
        /// The fast paths the engine may take (`[engine]` switches; all on by default). Read at
        /// set-up only, by the plans that choose each component's paths.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct EnginePaths {
            $($(#[doc = $doc])* pub $name: bool,)*
        }

        impl EnginePaths {
            /// Every path allowed (the default engine).
            pub const ALL: EnginePaths = EnginePaths { $($name: true,)* };
            /// No fast path allowed.
            pub const NONE: EnginePaths = EnginePaths { $($name: false,)* };
            /// The switches' names, as the `[engine]` table spells them.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name),)*];

            /// The switch called `name` (`None`: there is none).
            pub fn get_mut(&mut self, name: &str) -> Option<&mut bool> {
                match name {
                    $(stringify!($name) => Some(&mut self.$name),)*
                    _ => None,
                }
            }
        }
    };
}

engine_paths! {
    /// Committed departures (`net/commit.rs`): a FIFO port or a plain host adapter sends each
    /// cell when it is queued (its slot is fixed then), keyed ports included. Off: every
    /// departure is an event at its slot, and so every path below that needs it is closed
    /// (`plain_port` and the passes, `whole_by_count`, `skip_middle`).
    commit,
    /// A committing port with none of its optional parts on takes its arrivals through
    /// `Port::enqueue_plain` / `process_plain` (`net/port/mod.rs`). Off: `Port::enqueue`.
    plain_port,
    /// Frame trains (`net/port/train.rs`): one VC's cells at an idle one-input port in a pass.
    train,
    /// Busy passes (`net/port/busy.rs`): one input's run of a VC's cells at a busy port.
    busy_pass,
    /// Interleaved passes (`net/port/interleave.rs`): several inputs' cells in merge order
    /// from a tie on.
    interleave,
    /// Paired passes (`net/port/interleave.rs`): two inputs alternating at distinct instants.
    paired_pass,
    /// A host sends the cells due before its next arrival or timer as one run
    /// (`Host::send_run`). Off: one turn of the batch loop per departure.
    send_runs,
    /// A run of a host with plain VCs only is the adapter's committing pass
    /// (`Adapter::commit_plain`). Off: cell by cell within the run.
    run_pass,
    /// A committing one-VC host without sinks finds its PDUs whole by their cell count
    /// (`Host::advance_by_count`). Off: `Host::advance_one_input`.
    whole_by_count,
    /// Such a host skips middle cells in its key (`net/mod.rs`, `work_at`). Off: it is keyed
    /// at every cell.
    skip_middle,
    /// A component with one input, from a port, runs up to that port's next unsent slot
    /// (`sim/horizon.rs`, gates).
    one_input_gate,
    /// What reaches a component only through a port is floored by that port's next unsent
    /// slot (`sim/horizon.rs`, levels).
    horizon_levels,
    /// A component with several inputs reads only those marked as holding cells
    /// (`net/merge.rs`, `InputMarks`). Off: every input at each batch.
    input_marks,
    /// A priority port (guaranteed before best effort) takes its per-cell path without its
    /// generic parts: inputs read in runs, own-buffer cells past the policy, the two classes
    /// popped directly (`net/port/priority.rs`). Off: `Port::process`.
    priority_port,
    /// A host whose one controlled VC is paced (GCRA, PRCA or adaptive shaping) sends a run of
    /// its cells in one pass (`net/adapter/paced_run.rs`). Off: cell by cell within the run.
    paced_run,
    /// A paced run of several VCs all shaped at a fixed rate (no RM cells, no credit: the
    /// background sources) keeps each VC's shaper, hop and head frame in locals
    /// (`net/adapter/fixed_run.rs`). Off: the paced run's pass (`paced_run`).
    fixed_run,
    /// A host whose arrivals are all for background sinks (background sources and sinks only)
    /// sends its runs up to its next timer, past the arrivals (`host/plan.rs`). Off: each
    /// arrival ends a run.
    runs_past_sinks,
    /// A frame-merging FIFO port commits its frames' cells when each frame, complete, is queued
    /// whole (`net/port/merged.rs`). Off: merging closes committing at that port.
    commit_merging,
    /// A Virtual Spacing port with nothing acting per slot reads its arrivals in runs and sends
    /// the departures due before each in a row (`net/port/spaced.rs`). Off: `Port::process`.
    spaced_port,
    /// A host whose one controlled VC is under FCVC credit at the line rate sends a run of its
    /// cells in one pass while it has credit, to each frame's end where a sender times from
    /// transmission (`net/adapter/credit_run.rs`). Off: cell by cell within the run.
    credit_run,
    /// A count-only plain port with a slot grid (a slotted switch) takes its inputs' cells in
    /// the arbitration's order in one pass, each service told to the merge (and under random
    /// arbitration its rank drawn) as on the per-cell path (`net/port/slotted.rs`). Off:
    /// `Port::process_plain`'s runs.
    slotted_pass,
    /// A lone-input port taking frame trains, crossed by several VCs, under a policy that
    /// admits every frame at an empty buffer unasked, takes the cells it would send at once,
    /// whatever their VCs, in one loop (`net/port/vc_train.rs`). Off: a frame train per VC and
    /// the per-cell step between.
    vc_train,
    /// A plain port with one input, no hooks and no level log is run by its receiver: the
    /// cells its sender puts in its input wake the receiver, which, when popped, first has the
    /// port take every cell of that input (`Sim`'s `pull`). Off: the port runs its own batches
    /// when the scheduler pops it.
    pull_lone_ports,
    /// With adaptive-shaping level logs, every component runs the refined schedule (`Sim::new`),
    /// the logs' writers and readers committing keyed (`net/level_log.rs`). Off: every
    /// component keeps the plain schedule there.
    refine_beside_logs,
}

/// How the simulator schedules components, chosen at set-up (`Sim::new`): the schedule and the
/// horizons' refinements, each component's own paths being its plan's (`port/plan.rs`,
/// `host/plan.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchedulePlan {
    /// Look upstream to run further ahead (`sim/horizon.rs`), and let components commit their
    /// departures (`net/commit.rs`; each decides by its plan).
    pub refine: bool,
    /// With level logs: the ports that write or read one commit keyed
    /// (`Port::commit_keyed_until`, `net/level_log.rs`), and under the plain schedule every port.
    pub keyed: bool,
    /// One-input components gated by their port's next unsent slot (with `refine`).
    pub gates: bool,
    /// Horizons floored by ports farther up (with `refine`).
    pub levels: bool,
    /// Components with several inputs read only the marked ones.
    pub marks: bool,
}

impl SchedulePlan {
    /// The schedule of a scenario: `reference` (`[engine] schedule = "reference"`: the plain
    /// lookahead only), `level_logs` (adaptive-shaping level logs: their writers and readers
    /// commit keyed; without `refine_beside_logs` every component keeps the plain schedule),
    /// with the switches `paths`.
    pub fn choose(reference: bool, level_logs: bool, paths: EnginePaths) -> SchedulePlan {
        let refine = !reference && (!level_logs || paths.refine_beside_logs);
        SchedulePlan {
            refine,
            keyed: level_logs && !reference,
            gates: refine && paths.one_input_gate,
            levels: refine && paths.horizon_levels,
            marks: paths.input_marks,
        }
    }
}

/// How a component's departures are committed at the start of each run (`Sim::commit_until`),
/// chosen for each component once, at set-up (`SchedulePlan::commit_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitMode {
    /// Nothing committed: each cell is sent at its slot (the reference schedule; a host on the
    /// plain schedule of level logs).
    PerCell,
    /// A port commits its departures up to the run's end, its key keeping the departure that
    /// moves its published level (`Port::commit_keyed_until`): a level log's writer or reader,
    /// and under the plain schedule of level logs every port.
    Keyed,
    /// Committed up to the run's end, the key an arrival or timer only: the refined schedule.
    Refined,
}

/// What `SchedulePlan::commit_mode` needs to know of a component besides the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommitRole {
    /// A switch port (else a host).
    pub port: bool,
    /// It writes or reads a level log (`Sim::new`).
    pub logs: bool,
}

impl SchedulePlan {
    /// The commit mode of a component in `role` under this plan: the one place it is chosen.
    pub fn commit_mode(&self, role: CommitRole) -> CommitMode {
        // With level logs a log's port is keyed under either schedule; unrefined, every port.
        if role.port && self.keyed && (role.logs || !self.refine) {
            CommitMode::Keyed
        } else if self.refine {
            CommitMode::Refined
        } else {
            CommitMode::PerCell
        }
    }
}

impl EnginePaths {
    /// Every path but the port's passes (trains, busy, interleaved, paired): the yardstick of
    /// their unit tests.
    #[cfg(test)]
    pub const WITHOUT_PASSES: EnginePaths = EnginePaths {
        train: false,
        busy_pass: false,
        interleave: false,
        paired_pass: false,
        ..EnginePaths::ALL
    };
}

impl Default for EnginePaths {
    fn default() -> Self {
        EnginePaths::ALL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_one_switch() {
        let mut seen = std::collections::HashSet::new();
        for &name in EnginePaths::NAMES {
            assert!(seen.insert(name), "{name} twice");
            let mut p = EnginePaths::ALL;
            *p.get_mut(name).expect("a switch") = false;
            assert_ne!(p, EnginePaths::ALL, "{name} is a field");
            // Each name turns off one field: turned back on, all are on again.
            *p.get_mut(name).expect("a switch") = true;
            assert_eq!(p, EnginePaths::ALL);
        }
        let mut none = EnginePaths::ALL;
        for &name in EnginePaths::NAMES {
            *none.get_mut(name).expect("a switch") = false;
        }
        assert_eq!(none, EnginePaths::NONE, "the names cover every field");
        let mut p = EnginePaths::ALL;
        assert!(p.get_mut("schedule").is_none(), "the schedule is not a switch");
    }

    #[test]
    fn the_schedule_plan_follows_the_schedule_and_its_switches() {
        let all = SchedulePlan { refine: true, keyed: false, gates: true, levels: true, marks: true };
        assert_eq!(SchedulePlan::choose(false, false, EnginePaths::ALL), all);
        let plain = SchedulePlan { refine: false, keyed: false, gates: false, levels: false, marks: true };
        assert_eq!(SchedulePlan::choose(true, false, EnginePaths::ALL), plain);
        assert_eq!(SchedulePlan::choose(true, true, EnginePaths::ALL), plain);
        assert_eq!(SchedulePlan::choose(false, true, EnginePaths::ALL), SchedulePlan { keyed: true, ..all });
        let mut no_beside = EnginePaths::ALL;
        no_beside.refine_beside_logs = false;
        assert_eq!(SchedulePlan::choose(false, true, no_beside), SchedulePlan { keyed: true, ..plain });
        assert_eq!(SchedulePlan::choose(false, false, no_beside), all, "only with level logs");
        let off = |name: &str| {
            let mut p = EnginePaths::ALL;
            *p.get_mut(name).expect("a switch") = false;
            SchedulePlan::choose(false, false, p)
        };
        assert_eq!(off("one_input_gate"), SchedulePlan { gates: false, ..all });
        assert_eq!(off("horizon_levels"), SchedulePlan { levels: false, ..all });
        assert_eq!(off("input_marks"), SchedulePlan { marks: false, ..all });
        // Committing is each component's choice (its plan reads `commit`).
        assert_eq!(off("commit"), all);
    }

    #[test]
    fn each_schedule_gives_each_role_its_commit_mode() {
        use CommitMode::*;
        let role = |port, logs| CommitRole { port, logs };
        let (host, port) = (role(false, false), role(true, false));
        let (log_host, log_port) = (role(false, true), role(true, true));
        let mode = |reference, logs, paths: EnginePaths, r| {
            SchedulePlan::choose(reference, logs, paths).commit_mode(r)
        };
        let all = EnginePaths::ALL;
        // The reference schedule commits nothing, with level logs or not.
        for logs in [false, true] {
            for r in [host, port, log_host, log_port] {
                assert_eq!(mode(true, logs, all, r), PerCell, "{logs} {r:?}");
            }
        }
        // Without level logs everything is refined (a component's plan may still send per cell).
        assert_eq!((mode(false, false, all, host), mode(false, false, all, port)), (Refined, Refined));
        // With level logs: the logs' ports keyed, everything else refined.
        assert_eq!((mode(false, true, all, host), mode(false, true, all, port)), (Refined, Refined));
        assert_eq!((mode(false, true, all, log_host), mode(false, true, all, log_port)), (Refined, Keyed));
        // With refine_beside_logs off every port is keyed and every host per cell.
        let mut no_beside = EnginePaths::ALL;
        no_beside.refine_beside_logs = false;
        for r in [host, log_host] {
            assert_eq!(mode(false, true, no_beside, r), PerCell, "{r:?}");
        }
        for r in [port, log_port] {
            assert_eq!(mode(false, true, no_beside, r), Keyed, "{r:?}");
        }
    }
}
