//! Which rules of each game no lesson teaches: for each variant, the rule IDs of its spec file
//! (and of board.md) that no step cites. A report, not a check.
//!
//! `cargo run -p bao-learn --example coverage`

#[path = "../tests/common/spec.rs"]
#[allow(dead_code)] // the tests use all of it; this report only part
mod spec;

use bao_learn::course;
use bao_rules::Variant;
use std::collections::BTreeSet;

fn main() {
    let mut taught_anywhere = BTreeSet::new();
    for v in Variant::ALL {
        let c = course(v);
        let taught: BTreeSet<String> = c
            .lessons
            .iter()
            .flat_map(|l| &l.steps)
            .flat_map(|s| s.rules.iter().cloned())
            .collect();
        taught_anywhere.extend(taught.iter().cloned());
        let file = format!("{}.md", v.id());
        let ids = spec::ids_in(&file);
        // A heading ID (KIS-4) counts as taught when one of its sub-rules (KIS-4.2) is.
        let covered = |id: &String| {
            taught.contains(id) || taught.iter().any(|t| t.starts_with(&format!("{id}.")))
        };
        let (yes, no): (Vec<&String>, Vec<&String>) = ids.iter().partition(|id| covered(id));
        // Sections that state no rule of play: reference algorithms, worked examples, sources,
        // open research points. Listed apart, since no lesson should teach them.
        let titles = spec::titled_ids_in(&file);
        let informative = |id: &String| {
            titles.iter().any(|(i, t)| {
                (i == id || id.starts_with(&format!("{i}.")))
                    && ["algorithm", "example", "Sources", "research"]
                        .iter()
                        .any(|w| t.contains(w))
            })
        };
        let (info, no): (Vec<&String>, Vec<&String>) =
            no.into_iter().partition(|id| informative(id));
        println!(
            "{} ({file}): {} of {} IDs taught",
            v.id(),
            yes.len(),
            ids.len()
        );
        println!("  taught: {}", join(&yes));
        println!("  not taught: {}", join(&no));
        println!("  not taught, informative sections: {}", join(&info));
        let others: Vec<&String> = taught.iter().filter(|t| !ids.contains(t)).collect();
        println!("  also cited (other files): {}", join(&others));
    }
    let brd = spec::ids_in("board.md");
    let no: Vec<&String> = brd
        .iter()
        .filter(|id| {
            !taught_anywhere.contains(*id)
                && !taught_anywhere
                    .iter()
                    .any(|t| t.starts_with(&format!("{id}.")))
        })
        .collect();
    println!("board.md, all courses: not taught: {}", join(&no));
}

fn join(v: &[&String]) -> String {
    if v.is_empty() {
        "(none)".into()
    } else {
        v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    }
}
