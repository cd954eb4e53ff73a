//! Per-VC schedulers for switch output ports.

mod virtual_spacing;

pub use virtual_spacing::VirtualSpacing;
