//! Per-VC schedulers for switch output ports, and the port queue that chooses among them.

mod queue;
mod round_robin;
mod virtual_spacing;

pub use queue::{BestEffort, Queue};
pub use round_robin::RoundRobin;
pub use virtual_spacing::{VirtualSpacing, HEADS_HEAP, HEADS_SCAN4, HEADS_SCAN8, HEADS_TREE16};
