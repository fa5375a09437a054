//! The Rust side of bench/scripts/binding_overhead.py: runs `custodian <verb>` on a workspace
//! COUNT times through the binding and prints the mean microseconds per call.
//! Usage: call_overhead ROOT VERB COUNT
use std::time::Instant;

use memkit::{Clock, Workspace};

fn main() -> memkit::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: call_overhead ROOT VERB COUNT");
        std::process::exit(2);
    }
    let (root, verb, count) = (&args[1], &args[2], &args[3]);
    let count: u32 = count.parse().expect("COUNT: a number");
    let now = Clock::parse("2026-11-30T10:00:00+00:00")?;
    let ws = Workspace::open(root)?;
    let _ = ws.run(&now, "custodian", verb, &[])?; // warms the caches; not timed
    let start = Instant::now();
    for _ in 0..count {
        let result = ws.run(&now, "custodian", verb, &[])?;
        let _ = result.plan_id();
    }
    println!(
        "{:.1}",
        start.elapsed().as_secs_f64() / f64::from(count) * 1e6
    );
    Ok(())
}
