//! Which of a switch port's paths run: decided once, when the port starts committing
//! (`Port::commit_until`), from its optional parts, its policy's facts and the `[engine]`
//! switches, and read by the batch loop and the passes as plain bits.
//!
//! A port has these routes for a cell (`docs/engine.md`):
//!
//! - per cell (`Port::process`, `Port::enqueue`): every part, every policy, every scheduler;
//! - committing (`Port::process_committing`): a FIFO transmitter sends a cell when it is queued,
//!   its slot being fixed then (`net/commit.rs`), keyed or not;
//! - plain (`Port::process_plain`, `Port::enqueue_plain`): committing with no part that acts per
//!   cell, so an arrival meets only the frame state machine, the policy and the buffer limit;
//!   count-only (`CommittedRun`) where the policy reads no per-VC occupancy or there is one class
//!   (a keyed port's published level logged as its departures retire);
//! - the passes of a count-only plain port without a slot grid: frame trains (`train.rs`), busy
//!   passes (`busy.rs`), interleaved and paired passes (`interleave.rs`); with one, the slotted
//!   pass (`slotted.rs`);
//! - priority per cell (`Port::process_priority`, `priority.rs`): a priority port's per-cell
//!   path without its generic parts (it never commits), closed by UPC, faults, per-VC arrival
//!   counts, frame merging and a trace.
//!
//! Each optional part closes what it must, here and nowhere else: a scheduler other than FIFO,
//! own buffers (priority, FCVC), flow-control hooks (unless keyed and credit-free), frame
//! merging (unless `commit_merging`, `merged.rs`), a trace or a capture close committing; UPC
//! (either kind), faults, per-VC arrival counts and frame merging close the plain path; a slot
//! grid (a slotted switch) or a zero buffer close the passes, and hooks close them too but for
//! the slotted pass at a port whose hooks are a published level or fair-share metering. A Virtual Spacing port, never
//! committing, takes the spaced batch (`spaced.rs`) where no hooks, own buffers, merging, trace
//! or capture act at its slots.
//! A new per-cell mechanism declares itself in [`PortParts`] and closes the paths that would
//! skip it; a new policy states its facts in `accept/` (`Policy::facts`).

use crate::accept::PolicyFacts;
use crate::net::EnginePaths;

/// What of a port decides its paths, read at set-up.
#[derive(Debug, Clone, Copy)]
pub(super) struct PortParts {
    /// The queue serves in arrival order (FIFO; Virtual Spacing over one VC is built as one).
    pub fifo: bool,
    /// The queue is Virtual Spacing over several VCs (per-VC queues).
    pub spacing: bool,
    /// Some VC has a buffer of its own (a priority port's guaranteed class, FCVC).
    pub own_buffers: bool,
    /// Flow-control hooks act at arrivals or departures (EFCI, a published level, fair-share
    /// metering, FCVC counting or gating).
    pub hooks: bool,
    /// Among them, credit hooks (FCVC), which act at each departure.
    pub credit: bool,
    /// Among them, EFCI marking (PRCA).
    pub efci: bool,
    /// Frames are held until complete (merging VCs).
    pub merging: bool,
    /// `[trace]` samples the port, or counts its arrivals per VC.
    pub traced: bool,
    pub arrival_counts: bool,
    /// The output channel is captured (records per cell in time order).
    pub captured: bool,
    /// UPC of either kind (F-GCRA tagging, cell GCRA) polices some VC here.
    pub upc: bool,
    /// Faults drop frames here.
    pub faults: bool,
    /// Arrivals count from the next boundary of the port's slot grid (a slotted switch).
    pub slotted: bool,
    /// One accounting class (its occupancy is the port's).
    pub one_class: bool,
    /// A buffer of at least one cell.
    pub buffer: bool,
    pub policy: PolicyFacts,
    /// The queue serves a guaranteed class before best effort (`Queue::Priority`).
    pub priority: bool,
    /// One VC crosses the port (an egress port to a host with one VC).
    pub one_vc: bool,
}

/// The paths open at a port (all closed: the per-cell path only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct PortPlan {
    /// Departures are committed (`commit_end` is the run's end).
    pub commit: bool,
    /// Committed as a level log's writer or reader: the key keeps the committed departure that
    /// moves a published level (`Port::commit_keyed_until`).
    pub keyed: bool,
    /// Arrivals by `enqueue_plain`.
    pub plain: bool,
    /// Committed departures only counted (`CommittedRun`), the policy handed the port's
    /// occupancy as the class's.
    pub count_only: bool,
    /// Frame trains, busy, interleaved and paired passes.
    pub train: bool,
    pub busy: bool,
    pub interleave: bool,
    pub paired: bool,
    /// The priority port's per-cell path (`priority.rs`).
    pub priority: bool,
    /// A Virtual Spacing port's batch without the heap per event (`spaced.rs`).
    pub spaced: bool,
    /// The slotted pass of a count-only plain port with a slot grid (`slotted.rs`).
    pub slotted: bool,
    /// Trains across VCs at a lone-input port taking frame trains whose policy admits every
    /// frame at an empty buffer unasked (`vc_train.rs`).
    pub vc_train: bool,
    /// Plain, not keyed and without hooks: nothing it does reads or writes another
    /// component's state but its output, so with one input it may take every cell there at
    /// any time, and its receiver may run it (`Sim`'s `pull`, `[engine] pull_lone_ports`).
    pub pulled: bool,
}

impl PortPlan {
    /// The paths of a port with `parts`, committing up to a run's end if `commit` (the
    /// schedule lets it: not the reference schedule) and `[engine] commit` is on, `keyed` if
    /// it must keep the per-cell path's key, with the switches `paths`.
    pub fn choose(parts: &PortParts, commit: bool, keyed: bool, paths: EnginePaths) -> PortPlan {
        // Credit hooks act at each departure (a credit cell, a gated pop): never committed.
        // Other hooks act at arrivals or can be logged at retirement: committed when keyed.
        let hooks = parts.hooks && (parts.credit || !keyed);
        // Frame merging queues a frame whole at its EOF, behind every cell queued before it, so
        // its cells' slots are fixed then (`merged.rs`); its arrivals need the staging, which
        // only `Port::enqueue` has: never plain.
        let merging = parts.merging && !paths.commit_merging;
        let committable =
            parts.fifo && !parts.own_buffers && !hooks && !merging && !parts.traced && !parts.captured;
        let consent = commit;
        let commit = commit && paths.commit && committable;
        let plain = paths.plain_port
            && commit
            && !parts.upc
            && !parts.faults
            && !parts.arrival_counts
            && !parts.merging;
        // A committing port with hooks is keyed: its arrivals' hooks act as they are taken, its
        // published level's departures are logged as they retire, from the slot of the first
        // counted on (`Congestion::departures_left`).
        let count_only = commit && (!parts.policy.reads_vc_occupancy || parts.one_class);
        // The trains, busy, interleaved and paired passes log no level.
        let passes = plain && count_only && !parts.slotted && parts.buffer && !parts.hooks;
        // Under a slot grid arrivals count at the grid's boundaries: the passes above read
        // cells at their own times; the slotted pass takes them at the merge's keys. It logs a
        // published level and meters fair shares (`slotted.rs`), but marks no EFCI.
        let slotted = plain
            && count_only
            && parts.slotted
            && parts.buffer
            && !(parts.hooks && parts.efci)
            && paths.slotted_pass;
        // Per-VC queues whose departures only pop and send: nothing reads the transmitter at
        // its slots but the queue itself.
        let spaced = consent
            && paths.spaced_port
            && parts.spacing
            && !parts.own_buffers
            && !parts.hooks
            && !parts.merging
            && !parts.traced
            && !parts.captured;
        PortPlan {
            commit,
            keyed: keyed && commit,
            plain,
            count_only,
            train: passes && paths.train,
            busy: passes && paths.busy_pass,
            interleave: passes && paths.interleave,
            paired: passes && paths.paired_pass,
            priority: paths.priority_port
                && consent
                && parts.priority
                && !parts.upc
                && !parts.faults
                && !parts.arrival_counts
                && !parts.merging
                && !parts.traced,
            spaced,
            slotted,
            vc_train: passes
                && paths.train
                && paths.vc_train
                && !parts.one_vc
                && parts.policy.admits_unasked(0),
            pulled: plain && !keyed && !parts.hooks && paths.pull_lone_ports,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accept::Policy;

    fn plain_parts() -> PortParts {
        PortParts {
            fifo: true,
            spacing: false,
            own_buffers: false,
            hooks: false,
            credit: false,
            efci: false,
            merging: false,
            traced: false,
            arrival_counts: false,
            captured: false,
            upc: false,
            faults: false,
            slotted: false,
            one_class: false,
            buffer: true,
            policy: Policy::Epd { threshold: 10 }.facts(),
            priority: false,
            one_vc: false,
        }
    }

    #[test]
    fn each_part_and_switch_closes_its_paths() {
        let all = PortPlan::choose(&plain_parts(), true, false, EnginePaths::ALL);
        assert_eq!(
            all,
            PortPlan {
                commit: true,
                keyed: false,
                plain: true,
                count_only: true,
                train: true,
                busy: true,
                interleave: true,
                paired: true,
                priority: false,
                spaced: false,
                slotted: false,
                vc_train: true,
                pulled: true,
            }
        );
        let with = |f: &dyn Fn(&mut PortParts)| {
            let mut p = plain_parts();
            f(&mut p);
            PortPlan::choose(&p, true, false, EnginePaths::ALL)
        };
        // Parts that close committing.
        for (name, part) in [
            ("scheduler", &(|p: &mut PortParts| p.fifo = false) as &dyn Fn(&mut PortParts)),
            ("own buffers", &|p: &mut PortParts| p.own_buffers = true),
            ("hooks", &|p: &mut PortParts| p.hooks = true),
            ("trace", &|p: &mut PortParts| p.traced = true),
            ("capture", &|p: &mut PortParts| p.captured = true),
        ] {
            assert_eq!(with(part), PortPlan::default(), "{name}");
        }
        // Parts that close the plain path (and so the passes).
        for part in [
            &(|p: &mut PortParts| p.upc = true) as &dyn Fn(&mut PortParts),
            &|p: &mut PortParts| p.faults = true,
            &|p: &mut PortParts| p.arrival_counts = true,
            &|p: &mut PortParts| p.merging = true,
        ] {
            let plan = with(part);
            assert!(
                plan.commit && plan.count_only && !plan.plain && !plan.train && !plan.busy && !plan.paired
            );
            assert!(!plan.pulled, "only a plain port is pulled");
        }
        let slotted = with(&|p| p.slotted = true);
        assert!(slotted.plain && !slotted.train && !slotted.busy && !slotted.interleave && !slotted.paired);
        // A slot grid opens the slotted pass instead, on the same conditions as the passes.
        assert_eq!(
            slotted,
            PortPlan {
                train: false,
                busy: false,
                interleave: false,
                paired: false,
                slotted: true,
                vc_train: false,
                ..all
            }
        );
        let slotted_with = |f: &dyn Fn(&mut PortParts), paths: EnginePaths| {
            let mut p = PortParts { slotted: true, ..plain_parts() };
            f(&mut p);
            PortPlan::choose(&p, true, false, paths).slotted
        };
        assert!(!slotted_with(&|p| p.buffer = false, EnginePaths::ALL), "a zero buffer");
        assert!(!slotted_with(&|p| p.upc = true, EnginePaths::ALL), "not plain");
        assert!(
            !slotted_with(&|p| p.policy = Policy::Fba { r: 1, z: 0.5 }.facts(), EnginePaths::ALL),
            "not count-only"
        );
        assert!(slotted_with(
            &|p| {
                p.policy = Policy::Fba { r: 1, z: 0.5 }.facts();
                p.one_class = true
            },
            EnginePaths::ALL
        ));
        for name in ["slotted_pass", "plain_port", "commit"] {
            let mut paths = EnginePaths::ALL;
            *paths.get_mut(name).expect("a switch") = false;
            assert!(!slotted_with(&|_| {}, paths), "{name}");
        }
        for name in ["train", "busy_pass", "interleave", "paired_pass", "spaced_port", "priority_port"] {
            let mut paths = EnginePaths::ALL;
            *paths.get_mut(name).expect("a switch") = false;
            assert!(slotted_with(&|_| {}, paths), "{name} is not the slotted pass's");
        }
        assert!(
            !PortPlan::choose(&PortParts { slotted: true, ..plain_parts() }, false, false, EnginePaths::ALL)
                .slotted
        );
        // Keyed (a level log's reader or writer): the slotted pass logs a published level and
        // meters, but marks no EFCI.
        let keyed_slotted = |hooks, efci| {
            let p = PortParts { slotted: true, hooks, efci, ..plain_parts() };
            PortPlan::choose(&p, true, true, EnginePaths::ALL)
        };
        for hooks in [false, true] {
            let plan = keyed_slotted(hooks, false);
            assert!(plan.keyed && plan.plain && plan.count_only && plan.slotted, "keyed, hooks {hooks}");
        }
        let arrivals = keyed_slotted(true, true);
        assert!(arrivals.keyed && arrivals.count_only && !arrivals.slotted, "EFCI");
        // A policy reading per-VC occupancy counts only at a port of one class.
        assert!(!with(&|p| p.policy = Policy::Fba { r: 1, z: 0.5 }.facts()).count_only);
        assert!(
            with(&|p| {
                p.policy = Policy::Fba { r: 1, z: 0.5 }.facts();
                p.one_class = true;
            })
            .train
        );
        // Keyed: hooks other than credit commit and count only, without the passes that log no
        // level; credit hooks never commit.
        let keyed = |credit| {
            let mut p = plain_parts();
            (p.hooks, p.credit) = (true, credit);
            PortPlan::choose(&p, true, true, EnginePaths::ALL)
        };
        assert_eq!(
            keyed(false),
            PortPlan { commit: true, keyed: true, plain: true, count_only: true, ..PortPlan::default() }
        );
        assert_eq!(keyed(true), PortPlan::default());
        // Not committing (the reference schedule): nothing opens.
        assert_eq!(PortPlan::choose(&plain_parts(), false, false, EnginePaths::ALL), PortPlan::default());
        // Each switch closes its own path and what needs it, nothing else.
        let off = |name: &str| {
            let mut paths = EnginePaths::ALL;
            *paths.get_mut(name).expect("a switch") = false;
            PortPlan::choose(&plain_parts(), true, false, paths)
        };
        assert_eq!(off("plain_port"), PortPlan { commit: true, count_only: true, ..PortPlan::default() });
        assert_eq!(off("train"), PortPlan { train: false, vc_train: false, ..all }, "trains across VCs too");
        assert_eq!(off("vc_train"), PortPlan { vc_train: false, ..all });
        assert_eq!(off("pull_lone_ports"), PortPlan { pulled: false, ..all });
        // Trains across VCs: only under a policy that admits every frame at an empty buffer
        // unasked (FIFO GFR with LBO = 0 asks there).
        let gfr = with(&|p| p.policy = Policy::FifoGfr { lbo: 0, hbo: 20 }.facts());
        assert!(gfr.train && !gfr.vc_train);
        assert!(with(&|p| p.policy = Policy::TailDrop.facts()).vc_train);
        assert_eq!(with(&|p| p.one_vc = true), PortPlan { vc_train: false, ..all }, "one VC");
        assert_eq!(off("busy_pass"), PortPlan { busy: false, ..all });
        assert_eq!(off("interleave"), PortPlan { interleave: false, ..all });
        assert_eq!(off("paired_pass"), PortPlan { paired: false, ..all });
        assert_eq!(off("commit"), PortPlan::default());
        // Merging commits only with its own switch on.
        let merging_off = {
            let mut paths = EnginePaths::ALL;
            paths.commit_merging = false;
            PortPlan::choose(&PortParts { merging: true, ..plain_parts() }, true, false, paths)
        };
        assert_eq!(merging_off, PortPlan::default());
        assert_eq!(off("commit_merging"), all, "no merging here");
        // Virtual Spacing: never committed; spaced unless a part acts at its slots, the
        // schedule is the reference or the switch is off.
        let spacing = |f: &dyn Fn(&mut PortParts), paths: EnginePaths, consent: bool| {
            let mut p = PortParts { fifo: false, spacing: true, ..plain_parts() };
            f(&mut p);
            PortPlan::choose(&p, consent, false, paths)
        };
        let spaced = PortPlan { spaced: true, ..PortPlan::default() };
        assert_eq!(spacing(&|_| {}, EnginePaths::ALL, true), spaced);
        assert_eq!(spacing(&|p| (p.upc, p.faults) = (true, true), EnginePaths::ALL, true), spaced);
        assert_eq!(spacing(&|_| {}, EnginePaths::ALL, false), PortPlan::default());
        let mut no_spaced = EnginePaths::ALL;
        no_spaced.spaced_port = false;
        assert_eq!(spacing(&|_| {}, no_spaced, true), PortPlan::default());
        assert_eq!(spacing(&|_| {}, EnginePaths::NONE, true), PortPlan::default());
        for (name, part) in [
            ("own buffers", &(|p: &mut PortParts| p.own_buffers = true) as &dyn Fn(&mut PortParts)),
            ("hooks", &|p: &mut PortParts| p.hooks = true),
            ("merging", &|p: &mut PortParts| p.merging = true),
            ("trace", &|p: &mut PortParts| p.traced = true),
            ("capture", &|p: &mut PortParts| p.captured = true),
        ] {
            assert_eq!(spacing(part, EnginePaths::ALL, true), PortPlan::default(), "{name}");
        }
        assert!(!all.spaced && !off("spaced_port").spaced, "a FIFO port is never spaced");
        assert_eq!(off("spaced_port"), all);
        assert_eq!(off("slotted_pass"), all, "no slot grid here");
        for name in
            ["send_runs", "run_pass", "whole_by_count", "skip_middle", "one_input_gate", "priority_port"]
        {
            assert_eq!(off(name), all, "{name} is not the port's");
        }
        // A priority port (with its own buffers and hooks, FCVC) never commits; its per-cell
        // path opens with the schedule's consent, and each part acting per cell closes it.
        let atom = || {
            let mut p = plain_parts();
            (p.fifo, p.priority, p.own_buffers, p.hooks, p.credit) = (false, true, true, true, true);
            p
        };
        let priority = PortPlan { priority: true, ..PortPlan::default() };
        assert_eq!(PortPlan::choose(&atom(), true, false, EnginePaths::ALL), priority);
        assert_eq!(PortPlan::choose(&atom(), true, true, EnginePaths::ALL), priority, "keyed");
        assert_eq!(PortPlan::choose(&atom(), false, false, EnginePaths::ALL), PortPlan::default());
        for (name, part) in [
            ("upc", &(|p: &mut PortParts| p.upc = true) as &dyn Fn(&mut PortParts)),
            ("faults", &|p: &mut PortParts| p.faults = true),
            ("arrival counts", &|p: &mut PortParts| p.arrival_counts = true),
            ("merging", &|p: &mut PortParts| p.merging = true),
            ("trace", &|p: &mut PortParts| p.traced = true),
        ] {
            let mut p = atom();
            part(&mut p);
            assert_eq!(PortPlan::choose(&p, true, false, EnginePaths::ALL), PortPlan::default(), "{name}");
        }
        let mut paths = EnginePaths::ALL;
        paths.priority_port = false;
        assert_eq!(PortPlan::choose(&atom(), true, false, paths), PortPlan::default());
        for name in ["commit", "plain_port", "train", "busy_pass", "send_runs", "input_marks"] {
            let mut paths = EnginePaths::ALL;
            *paths.get_mut(name).expect("a switch") = false;
            assert_eq!(PortPlan::choose(&atom(), true, false, paths), priority, "{name}");
        }
    }
}
