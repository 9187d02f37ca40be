//! `dblpgen --records N [--seed S] [--out FILE]`: a schema-true DBLP XML
//! of N generated records (gzip when FILE ends in `.gz`), the same bytes
//! for the same seed.

use citegate_index::gen::Generator;
use std::io::{BufWriter, Write};

fn usage() -> ! {
    eprintln!("usage: dblpgen --records N [--seed S] [--out FILE]");
    std::process::exit(2)
}

fn main() {
    let mut records: Option<u64> = None;
    let mut seed = 1u64;
    let mut out: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--records" => records = Some(value.parse().unwrap_or_else(|_| usage())),
            "--seed" => seed = value.parse().unwrap_or_else(|_| usage()),
            "--out" => out = Some(value),
            _ => usage(),
        }
    }
    let Some(records) = records else { usage() };
    let mut gen = Generator::new(seed);
    let result = match out {
        Some(path) => std::fs::File::create(&path).and_then(|f| {
            if path.ends_with(".gz") {
                let mut w =
                    flate2::write::GzEncoder::new(BufWriter::new(f), flate2::Compression::fast());
                gen.write_file(records, &mut w)?;
                w.finish()?.flush()
            } else {
                let mut w = BufWriter::new(f);
                gen.write_file(records, &mut w)?;
                w.flush()
            }
        }),
        None => {
            let stdout = std::io::stdout();
            let mut w = BufWriter::new(stdout.lock());
            gen.write_file(records, &mut w).and_then(|_| w.flush())
        }
    };
    if let Err(e) = result {
        eprintln!("error: {}", e.to_string().to_lowercase());
        std::process::exit(1);
    }
}
