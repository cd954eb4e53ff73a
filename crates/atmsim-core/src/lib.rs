pub mod aal5;
pub mod accept;
pub mod api;
pub mod cell;
pub mod frame;
pub mod rng;
pub mod tcp;
pub mod time;
