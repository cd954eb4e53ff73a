//! Flow control of best-effort (ABR-like) traffic: the rate-based PRCA, the credit-based FCVC,
//! and the CLASS study's adaptive shaping. Each is the per-VC state machine of one end; the
//! components that carry RM and credit cells drive them.

mod adaptive;
mod fcvc;
mod prca;

pub use adaptive::{AdaptiveShaper, Feedback};
pub use fcvc::{n3, CreditReceiver, CreditSender};
pub use prca::Prca;
