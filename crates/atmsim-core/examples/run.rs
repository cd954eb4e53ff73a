//! `cargo run --release --example run -- FILE [key=value]...`: run a scenario, print the JSON.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: run FILE [key=value]...");
    let text = std::fs::read_to_string(&path).expect("readable scenario");
    let overrides: Vec<(String, String)> = args
        .map(|a| a.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).expect("key=value"))
        .collect();
    match atmsim_core::api::run_scenario_json(&text, &overrides, None) {
        Ok(j) => println!("{j}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
