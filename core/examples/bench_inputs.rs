//! Writes the benchmark inputs (see `benches/inputs/`) to a folder, for the
//! JavaScript and Python runs of BENCHMARKS.md:
//! `cargo run -p citegate-core --example bench_inputs -- DIR`.

#[path = "../benches/inputs/mod.rs"]
mod inputs;

use std::fs;
use std::path::Path;

fn main() -> std::io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "bench-inputs".into());
    let dir = Path::new(&dir);
    fs::create_dir_all(dir.join("tex/sections"))?;
    let pairs: String = inputs::title_pairs(10_000)
        .iter()
        .map(|(a, b)| format!("{a}\t{b}\n"))
        .collect();
    fs::write(dir.join("title_pairs.tsv"), pairs)?;
    for n in [1_000, 10_000] {
        fs::write(
            dir.join(format!("candidates_{n}.json")),
            inputs::candidates_json(n),
        )?;
    }
    for (name, text) in inputs::tex_tree(5_000_000) {
        fs::write(dir.join("tex").join(name), text)?;
    }
    fs::write(dir.join("pool.json"), inputs::pool_json())?;
    fs::write(
        dir.join("single_5mb.tex"),
        inputs::tex_single(5_000_000, 100_000),
    )?;
    fs::write(dir.join("refs_5000.bib"), inputs::bib(5_000))?;
    fs::write(dir.join("fusion_3x100.json"), inputs::fusion_json(100))?;
    println!("wrote {}", dir.display());
    Ok(())
}
