//! TCP tables: preset, then shared `[tcp]`, then the connection's own `tcp`, each overriding the
//! one before; then range checks with the path of the table that set the value.

use super::spec::{TcpPreset, TcpSpec, VariantSpec};
use super::validate::{bad, Check, MAX_DURATION_S};
use crate::aal5;
use crate::error::ScenarioError;
use crate::tcp::{config::MAX_SCALED_WINDOW, config::MAX_UNSCALED_WINDOW, TcpConfig, Variant};
use crate::time::{from_secs_f64, PS_PER_MS};

/// `over`'s fields replace `base`'s.
pub fn merge(base: &TcpSpec, over: &TcpSpec) -> TcpSpec {
    macro_rules! pick {
        ($($f:ident),*) => { TcpSpec { $($f: over.$f.or(base.$f)),* } };
    }
    pick!(
        preset,
        variant,
        mss,
        window_bytes,
        window_scaling,
        tick_ms,
        tick_phase_ms,
        min_rto_ticks,
        initial_rto_s,
        max_rto_s,
        max_backoffs,
        fast_retransmit,
        dupack_threshold,
        initial_cwnd_segments,
        initial_ssthresh_bytes,
        iss,
        delayed_ack,
        delack_ms,
        timestamps,
        mss_includes_options,
        snd_buffer_bytes,
        nodelay,
        cache_out_of_order,
        timing_excludes_transmission
    )
}

/// The configuration a preset sets (`None`: the default, `ubr_plus`).
pub fn preset(p: Option<TcpPreset>) -> TcpConfig {
    match p.unwrap_or(TcpPreset::UbrPlus) {
        TcpPreset::UbrPlus => TcpConfig::ubr_plus(),
        TcpPreset::TcpDefault => TcpConfig::tcp_default(),
        TcpPreset::TcpFast => TcpConfig::tcp_fast(),
        TcpPreset::TcpSack => TcpConfig::tcp_sack(),
        TcpPreset::RenoClass => TcpConfig::reno_class(),
    }
}

/// Range checks on one table as written (`path` is where it stands in the file).
pub fn check_table(t: &TcpSpec, path: &str) -> Result<(), ScenarioError> {
    let c = Check(path);
    // AAL5 carries at most 65535 octets: MSS + TCP/IP headers + LLC/SNAP must fit.
    let max_mss = (aal5::MAX_SDU - aal5::LLC_SNAP - aal5::IP_HEADER - aal5::TCP_HEADER) as i64;
    c.int_range("mss", t.mss, 1, max_mss)?;
    c.int_range("window_bytes", t.window_bytes, 1, MAX_SCALED_WINDOW as i64)?;
    c.positive_f64("tick_ms", t.tick_ms)?;
    if let Some(p) = t.tick_phase_ms {
        c.non_negative_f64("tick_phase_ms", p)?;
    }
    c.int_range("min_rto_ticks", t.min_rto_ticks, 1, 1_000_000)?;
    c.positive_f64("initial_rto_s", t.initial_rto_s)?;
    c.positive_f64("max_rto_s", t.max_rto_s)?;
    // Timers must stay far from the end of u64 picoseconds (timer arithmetic adds them to now).
    for (f, v) in [
        ("tick_ms", t.tick_ms.map(|ms| ms / 1e3)),
        ("initial_rto_s", t.initial_rto_s),
        ("max_rto_s", t.max_rto_s),
    ] {
        if v.is_some_and(|s| s > MAX_DURATION_S) {
            return Err(bad(path, f, format!("must be at most {MAX_DURATION_S} seconds")));
        }
    }
    c.int_range("max_backoffs", t.max_backoffs, 0, 64)?;
    c.int_range("dupack_threshold", t.dupack_threshold, 1, 1_000)?;
    c.int_range("initial_cwnd_segments", t.initial_cwnd_segments, 1, 1_000_000)?;
    c.int_range("initial_ssthresh_bytes", t.initial_ssthresh_bytes, 1, MAX_SCALED_WINDOW as i64)?;
    c.int_range("iss", t.iss, 0, u32::MAX as i64)?;
    c.positive_f64("delack_ms", t.delack_ms)?;
    c.int_range("snd_buffer_bytes", t.snd_buffer_bytes, 1, MAX_SCALED_WINDOW as i64)?;
    Ok(())
}

/// The configuration a merged table describes, with the checks that involve several fields.
pub fn resolve(t: &TcpSpec, path: &str) -> Result<TcpConfig, ScenarioError> {
    let mut cfg = preset(t.preset);
    if let Some(v) = t.variant {
        cfg.variant = match v {
            VariantSpec::Tahoe => Variant::Tahoe,
            VariantSpec::Reno => Variant::Reno,
            VariantSpec::NewReno => Variant::NewReno,
            VariantSpec::Sack => Variant::Sack,
        };
    }
    if let Some(v) = t.delayed_ack {
        cfg.delayed_ack = v;
    }
    if let Some(v) = t.delack_ms {
        cfg.delack_tick = (v * PS_PER_MS as f64).round() as u64;
    }
    if let Some(v) = t.timestamps {
        cfg.timestamps = v;
    }
    if let Some(v) = t.mss_includes_options {
        cfg.mss_includes_options = v;
    }
    if let Some(v) = t.snd_buffer_bytes {
        cfg.snd_buffer = v as u32;
    }
    if let Some(v) = t.nodelay {
        cfg.nodelay = v;
    }
    if let Some(v) = t.cache_out_of_order {
        cfg.cache_out_of_order = v;
    }
    if let Some(v) = t.timing_excludes_transmission {
        cfg.timing_excludes_transmission = v;
    }
    if let Some(v) = t.mss {
        cfg.mss = v as u32;
    }
    if let Some(v) = t.window_bytes {
        cfg.rcv_window = v as u32;
    }
    if let Some(v) = t.window_scaling {
        cfg.window_scaling = v;
    }
    if let Some(v) = t.tick_ms {
        cfg.tick = (v * PS_PER_MS as f64).round() as u64;
    }
    if let Some(v) = t.tick_phase_ms {
        cfg.tick_phase = (v * PS_PER_MS as f64).round() as u64;
    }
    if let Some(v) = t.min_rto_ticks {
        cfg.min_rto_ticks = v as u32;
    }
    if let Some(v) = t.initial_rto_s {
        cfg.initial_rto = from_secs_f64(v);
    }
    if let Some(v) = t.max_rto_s {
        cfg.max_rto = from_secs_f64(v);
    }
    if let Some(v) = t.max_backoffs {
        cfg.max_backoffs = v as u32;
    }
    if let Some(v) = t.fast_retransmit {
        cfg.fast_retransmit = v;
    }
    if let Some(v) = t.dupack_threshold {
        cfg.dupack_threshold = v as u32;
    }
    if let Some(v) = t.initial_cwnd_segments {
        cfg.initial_cwnd_segments = v as u32;
    }
    if let Some(v) = t.initial_ssthresh_bytes {
        cfg.initial_ssthresh = v as u32;
    }
    if let Some(v) = t.iss {
        cfg.iss = v as u32;
    }
    if cfg.tick == 0 {
        return Err(bad(path, "tick_ms", "rounds to zero picoseconds"));
    }
    if cfg.timing_excludes_transmission && cfg.timestamps {
        // RFC 1323 RTT samples echo the instant the segment was sent, which the option moves.
        return Err(bad(
            path,
            "timing_excludes_transmission",
            "does not combine with timestamps = true (the echoed timestamp is the send time)",
        ));
    }
    if cfg.tick_phase >= cfg.tick {
        return Err(bad(path, "tick_phase_ms", "must be less than tick_ms"));
    }
    if cfg.rcv_window > MAX_UNSCALED_WINDOW && !cfg.window_scaling {
        return Err(bad(path, "window_bytes", "exceeds 65535 octets: set window_scaling = true (RFC 1323)"));
    }
    if cfg.delack_tick == 0 {
        return Err(bad(path, "delack_ms", "rounds to zero picoseconds"));
    }
    if cfg.mss_includes_options && cfg.mss <= cfg.data_options() {
        return Err(bad(path, "mss", "leaves no room for data after the TCP options"));
    }
    if !cfg.mss_includes_options
        && cfg.mss
            + cfg.data_options()
            + crate::aal5::LLC_SNAP
            + crate::aal5::IP_HEADER
            + crate::aal5::TCP_HEADER
            > crate::aal5::MAX_SDU
    {
        return Err(bad(
            path,
            "mss",
            "plus headers and options exceeds the largest AAL5 frame (65535 octets)",
        ));
    }
    if cfg.rcv_window < cfg.mss {
        return Err(bad(path, "window_bytes", "is smaller than one segment (mss)"));
    }
    if cfg.initial_rto > cfg.max_rto {
        return Err(bad(path, "initial_rto_s", "exceeds max_rto_s"));
    }
    if cfg.max_rto < cfg.tick {
        return Err(bad(path, "max_rto_s", "is shorter than one tick"));
    }
    // The RTO estimator counts in u32 ticks, and needs min <= max.
    let max_ticks = cfg.max_rto.div_ceil(cfg.tick);
    if max_ticks > u32::MAX as u64 {
        return Err(bad(
            path,
            "max_rto_s",
            format!("is {max_ticks} ticks of tick_ms, more than {}", u32::MAX),
        ));
    }
    if cfg.min_rto_ticks > cfg.max_rto_ticks() {
        return Err(bad(
            path,
            "min_rto_ticks",
            format!("({}) exceeds max_rto_s in ticks ({})", cfg.min_rto_ticks, cfg.max_rto_ticks()),
        ));
    }
    if (cfg.initial_cwnd_segments as u64) * (cfg.mss as u64) > MAX_SCALED_WINDOW as u64 {
        return Err(bad(path, "initial_cwnd_segments", "times mss exceeds the largest TCP window"));
    }
    Ok(cfg)
}
