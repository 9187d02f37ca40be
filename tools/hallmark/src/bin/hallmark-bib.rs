//! `hallmark-bib --split FILE`: the split's entries as a `.bib` on stdout (no labels).

use citegate_hallmark::{arg, read_split, to_bib};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(split) = arg(&args, "--split") else {
        eprintln!("usage: hallmark-bib --split FILE > out.bib");
        std::process::exit(2);
    };
    match std::fs::read_to_string(&split) {
        Ok(text) => print!("{}", to_bib(&read_split(&text))),
        Err(e) => {
            eprintln!("cannot read {split}: {e}");
            std::process::exit(2);
        }
    }
}
