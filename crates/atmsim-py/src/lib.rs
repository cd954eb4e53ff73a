//! Python bindings: the `atmsim._core` extension module.
//!
//! Deliberately thin. The engine takes scenario text and returns a JSON document (and, when
//! asked, pcap files as bytes), so the only job here is moving strings and bytes across the
//! boundary, releasing the GIL while the engine runs (so threads, notebooks and signal
//! handlers stay responsive) and turning the core's `ScenarioError` into a Python exception
//! that keeps its `field` and `reason`.

use atmsim_core::api;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

// A ValueError subclass so callers that already catch ValueError for bad input keep working.
create_exception!(
    atmsim,
    ScenarioError,
    PyValueError,
    "A scenario that cannot be run. str(err) is 'field: reason'; err.field is the dotted path \
     of the offending field and err.reason says why."
);

/// Build the Python exception, attaching the two halves as attributes so programs can test
/// the field without parsing the message.
fn to_py_error(py: Python<'_>, err: api::ScenarioError) -> PyErr {
    let py_err = ScenarioError::new_err(err.to_string());
    let value = py_err.value(py);
    let attached =
        value.setattr("field", err.field.as_str()).and_then(|_| value.setattr("reason", err.reason.as_str()));
    match attached {
        Ok(()) => py_err,
        Err(setattr_failed) => setattr_failed,
    }
}

/// Run one scenario (TOML text) and return the engine's report as a JSON string.
///
/// `overrides` are `(dotted.key, value)` pairs applied on top of the scenario (values are
/// TOML literals); `seed`, when given, replaces `simulation.seed`.
#[pyfunction]
#[pyo3(signature = (toml_text, overrides = Vec::new(), seed = None))]
fn run_json(
    py: Python<'_>,
    toml_text: String,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
) -> PyResult<String> {
    // Owned arguments only: nothing borrowed from Python objects may cross detach.
    let outcome = py.detach(|| api::run_scenario_json(&toml_text, &overrides, seed));
    outcome.map_err(|err| to_py_error(py, err))
}

/// (file stem, pcap file) per capture point.
type PcapFiles = Vec<(String, Py<PyBytes>)>;

/// Run one scenario and also record its packet captures: the points of the scenario's
/// `[capture]` table plus `captures` (link `"from->to"` or host names, as `--capture`).
///
/// Returns `(report_json, [(file_stem, pcap_bytes), ...])`, one pcap file per capture point.
#[pyfunction]
#[pyo3(signature = (toml_text, overrides = Vec::new(), seed = None, captures = Vec::new()))]
fn run_with_captures(
    py: Python<'_>,
    toml_text: String,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
    captures: Vec<String>,
) -> PyResult<(String, PcapFiles)> {
    let outcome = py.detach(|| {
        let (report, files) = api::run_scenario_with_captures(&toml_text, &overrides, seed, &captures)?;
        Ok::<_, api::ScenarioError>((api::report_json(&report)?, files))
    });
    let (text, files) = outcome.map_err(|err| to_py_error(py, err))?;
    // As `bytes`, not a list of ints (what a Vec<u8> would become).
    let files = files.into_iter().map(|(stem, data)| (stem, PyBytes::new(py, &data).unbind())).collect();
    Ok((text, files))
}

/// What running the scenario would cost, from the scenario alone (nothing is run): a JSON
/// object `{"cells", "cell_hops", "events", "memory_bytes", "wall_s"}`.
#[pyfunction]
#[pyo3(signature = (toml_text, overrides = Vec::new(), seed = None))]
fn estimate_json(
    py: Python<'_>,
    toml_text: String,
    overrides: Vec<(String, String)>,
    seed: Option<u64>,
) -> PyResult<String> {
    let outcome = py.detach(|| api::estimate_json(&toml_text, &overrides, seed));
    outcome.map_err(|err| to_py_error(py, err))
}

/// Version of the simulation engine (recorded in every report as `engine_version`).
#[pyfunction]
fn version() -> &'static str {
    api::version()
}

/// The credit/rate study's analytic bound eta_OH (its eq. 2): the fraction of the ATM bandwidth
/// an application can use with segments of at most `mss` octets and exponential messages of
/// mean `mean_bytes` octets (48 octets of TCP, IP and AAL5 overhead per segment, 53-octet cells).
#[pyfunction]
fn eta_oh(mss: u32, mean_bytes: f64) -> PyResult<f64> {
    if mss == 0 || !mean_bytes.is_finite() || mean_bytes <= 0.0 {
        return Err(PyValueError::new_err("eta_oh: mss must be > 0 and mean_bytes a positive finite number"));
    }
    Ok(atmsim_core::overhead::eta_oh(mss, mean_bytes))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(run_with_captures, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(estimate_json, m)?)?;
    m.add_function(wrap_pyfunction!(eta_oh, m)?)?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    // One definition of the bits in a cell for the studies' rate conversions.
    m.add("CELL_BITS", atmsim_core::time::CELL_BITS)?;
    Ok(())
}
