//! `citegate batch`: a folder of papers checked offline against an index of
//! the sample dumps (index/tests/fixtures), and online against the loopback
//! world (tools/world) where every request is counted; the checkpoint
//! (resume, a torn last line, a rerun that sends nothing) and the three
//! reports.

mod common;

use common::{fast_world, index_fixture, run, stderr, tempdir, world_server, write};
use serde_json::Value;
use std::path::Path;

/// A bibliography of three: a record the index holds, the same work cited
/// with the wrong year, and a title the index lacks that is also markup.
const A_BIB: &str = r#"@article{gentry,
  author = {Craig Gentry},
  title = {Computing arbitrary functions of encrypted data},
  journal = {Commun. ACM}, year = {2010}, volume = {53}, pages = {97--105},
  doi = {10.1145/1666420.1666444}
}
@article{wrongyear,
  author = {Craig Gentry},
  title = {Computing arbitrary functions of encrypted data},
  journal = {Commun. ACM}, year = {2014}
}
@article{xss,
  author = {Nobody Real},
  title = {<script>alert(1)</script> Quantum blockchain, "synergies"},
  journal = {J. Imaginary Res.}, year = {2023}
}
"#;

/// BibTeX's `thebibliography`, as a reviewer gets it in a source archive.
const B_BBL: &str = r"\begin{thebibliography}{1}
\bibitem{vaswani}
Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Lukasz Kaiser, and Illia Polosukhin.
\newblock Attention is all you need.
\newblock {\em CoRR}, abs/1706.03762, 2017.
\end{thebibliography}
";

/// A source tree: a folder holding a `.tex` is one paper.
const TREE_BIB: &str = r"@inproceedings{yao,
 author = {Andrew Chi-Chih Yao},
 title = {Theory and Applications of Trapdoor Functions (Extended Abstract)},
 booktitle = {FOCS}, year = {1982}}
";

/// An index of the DBLP and arXiv samples in `dir/ix`.
fn index(dir: &Path) -> String {
    let ix = dir.join("ix").display().to_string();
    let out = run(
        &[
            "index",
            "build",
            "--out",
            &ix,
            "--dblp",
            &index_fixture("dblp-sample.xml"),
            "--arxiv",
            &index_fixture("arxiv-snapshot.jsonl"),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    ix
}

/// The offline folder: two papers, a source tree and a PDF that is not one.
fn papers(dir: &Path) -> String {
    let input = dir.join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::create_dir_all(input.join("tree")).unwrap();
    write(&input, "a.bib", A_BIB);
    write(&input.join("sub"), "b.bbl", B_BBL);
    write(
        &input.join("tree"),
        "main.tex",
        "\\documentclass{article}\\begin{document}\\cite{yao}\\bibliography{r}\\end{document}\n",
    );
    write(&input.join("tree"), "r.bib", TREE_BIB);
    write(&input, "broken.pdf", "%PDF-1.4 not really a pdf");
    write(&input, "notes.png", "not a paper: skipped");
    input.display().to_string()
}

fn batch(args: &[&str]) -> std::process::Output {
    let mut all = vec!["batch"];
    all.extend_from_slice(args);
    run(&all, &[])
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn json(p: &Path) -> Value {
    serde_json::from_str(&read(p)).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `(file, key, class)` of every entry of report.json, in report order.
fn classes(report: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for p in report["papers"].as_array().expect("papers") {
        for e in p["entries"].as_array().expect("entries") {
            out.push((
                p["file"].as_str().unwrap_or("").to_string(),
                e["key"].as_str().unwrap_or("").to_string(),
                e["class"].as_str().unwrap_or("").to_string(),
            ));
        }
    }
    out
}

/// The rows of a CSV text (RFC 4180: quoted fields, doubled quotes).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (c, _) => field.push(c),
        }
    }
    assert!(
        field.is_empty() && row.is_empty(),
        "the last row ends in a newline"
    );
    rows
}

#[test]
fn an_offline_batch_over_a_folder_gives_each_paper_its_classes_in_three_reports() {
    let tmp = tempdir();
    let ix = index(tmp.path());
    let input = papers(tmp.path());
    let out_dir = tmp.path().join("out");
    let out = out_dir.display().to_string();
    let o = batch(&["--in", &input, "--out", &out, "--index", &ix, "--offline"]);
    // A miscited entry and a paper that could not be read: the run fails.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report = json(&out_dir.join("report.json"));
    let want: Vec<(&str, &str, &str)> = vec![
        // Most flagged first: a.bib holds the miscited entry.
        ("a.bib", "gentry", "valid"),
        ("a.bib", "wrongyear", "miscited"),
        // Offline, a title the index lacks is never called fabricated.
        ("a.bib", "xss", "unverified"),
        ("sub/b.bbl", "vaswani", "valid"),
        ("tree", "yao", "valid"),
    ];
    let got = classes(&report);
    let got: Vec<(&str, &str, &str)> = got
        .iter()
        .map(|(f, k, c)| (f.as_str(), k.as_str(), c.as_str()))
        .collect();
    assert_eq!(got, want);
    let files: Vec<&str> = report["papers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["a.bib", "broken.pdf", "sub/b.bbl", "tree"]);
    let broken = &report["papers"][1];
    assert!(
        broken["error"]
            .as_str()
            .is_some_and(|e| e.contains("broken.pdf")),
        "{broken}"
    );
    assert_eq!(report["papers"][0]["classes"]["miscited"], 1);
    assert_eq!(report["failed"], 1);

    // Each paper's entries are exactly what `check --json` gives for it.
    let a = Path::new(&input).join("a.bib").display().to_string();
    let c = run(
        &[
            "check",
            &a,
            "--online",
            "--index",
            &ix,
            "--offline",
            "--json",
        ],
        &[],
    );
    let check: Value = serde_json::from_slice(&c.stdout).expect("check --json");
    assert_eq!(report["papers"][0]["entries"], check["online"]["entries"]);

    // CSV: one row per entry, fields quoted where they must be.
    let rows = csv_rows(&read(&out_dir.join("report.csv")));
    assert_eq!(
        rows[0],
        ["file", "key", "verdict", "class", "title", "reason"]
    );
    let cells: Vec<Vec<&str>> = rows[1..]
        .iter()
        .map(|r| r[..5].iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        cells,
        vec![
            vec![
                "a.bib",
                "gentry",
                "valid",
                "valid",
                "Computing arbitrary functions of encrypted data"
            ],
            vec![
                "a.bib",
                "wrongyear",
                "hallucinated",
                "miscited",
                "Computing arbitrary functions of encrypted data"
            ],
            vec![
                "a.bib",
                "xss",
                "uncertain",
                "unverified",
                "<script>alert(1)</script> Quantum blockchain, \"synergies\""
            ],
            vec!["broken.pdf", "", "", "", ""],
            vec![
                "sub/b.bbl",
                "vaswani",
                "valid",
                "valid",
                "Attention is all you need"
            ],
            vec![
                "tree",
                "yao",
                "valid",
                "valid",
                "Theory and Applications of Trapdoor Functions (Extended Abstract)"
            ],
        ]
    );
    assert!(rows[2][5].contains("2014"), "{:?}", rows[2]);
    assert!(rows.iter().all(|r| r.len() == 6), "{rows:?}");

    // HTML: text from a file is escaped, no script, a strict policy.
    let html = read(&out_dir.join("report.html"));
    assert!(!html.to_lowercase().contains("<script"), "{html}");
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    assert!(
        html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';")
    );
    // The summary lists the papers in report order before their sections.
    let summary = &html[..html.find("<section").expect("sections")];
    let at = |name: &str| summary.find(&format!(">{name}</a>")).unwrap_or(usize::MAX);
    assert!(at("a.bib") < at("broken.pdf") && at("broken.pdf") < at("sub/b.bbl"));
    assert!(at("tree") < usize::MAX, "{summary}");
}

/// The papers the progress lines on stderr say this run checked.
fn checked(o: &std::process::Output) -> Vec<String> {
    stderr(o)
        .lines()
        .filter(|l| l.contains(" papers, ") && l.ends_with(')'))
        .filter_map(|l| {
            l.rsplit_once(" (")
                .map(|(_, n)| n.trim_end_matches(')').to_string())
        })
        .collect()
}

#[test]
fn a_resumed_batch_redoes_no_paper_the_checkpoint_holds_and_ignores_a_torn_line() {
    let tmp = tempdir();
    let ix = index(tmp.path());
    let input = papers(tmp.path());
    let clean_dir = tmp.path().join("clean");
    let clean = clean_dir.display().to_string();
    let args = |out: &str| {
        vec![
            "--in".to_string(),
            input.clone(),
            "--out".into(),
            out.to_string(),
            "--index".into(),
            ix.clone(),
            "--offline".into(),
            "--window".into(),
            "1".into(),
        ]
    };
    let run_to = |out: &str| {
        let a = args(out);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        batch(&a)
    };
    let first = run_to(&clean);
    let mut all = checked(&first);
    all.sort();
    assert_eq!(
        all,
        ["a.bib", "broken.pdf", "sub/b.bbl", "tree"],
        "{}",
        stderr(&first)
    );
    let lines: Vec<String> = read(&clean_dir.join("checkpoint.jsonl"))
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 4);

    // A run killed after two papers, in the middle of writing the third.
    let resumed_dir = tmp.path().join("resumed");
    std::fs::create_dir_all(&resumed_dir).unwrap();
    let torn = &lines[2][..lines[2].len() / 2];
    std::fs::write(
        resumed_dir.join("checkpoint.jsonl"),
        format!("{}\n{}\n{torn}", lines[0], lines[1]),
    )
    .unwrap();
    let resumed = resumed_dir.display().to_string();
    let second = run_to(&resumed);
    let done_before: Vec<String> = lines[..2]
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["file"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let mut redone = checked(&second);
    redone.sort();
    let mut rest: Vec<String> = all
        .iter()
        .filter(|f| !done_before.contains(f))
        .cloned()
        .collect();
    rest.sort();
    assert_eq!(redone, rest, "{}", stderr(&second));
    for f in ["report.json", "report.csv", "report.html"] {
        assert_eq!(read(&resumed_dir.join(f)), read(&clean_dir.join(f)), "{f}");
    }
    // The torn half is gone: every line of the checkpoint is whole JSON.
    let cp = read(&resumed_dir.join("checkpoint.jsonl"));
    assert_eq!(cp.lines().count(), 4, "{cp}");
    for l in cp.lines() {
        serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{e}: {l}"));
    }

    // A changed paper is checked again; the others are not.
    std::fs::write(
        Path::new(&input).join("sub/b.bbl"),
        B_BBL.replace("2017.", "2018."),
    )
    .unwrap();
    let third = run_to(&resumed);
    assert_eq!(checked(&third), ["sub/b.bbl"], "{}", stderr(&third));
}

const WORLD: &str = r#"{"type": "inproceedings", "fields": {"title": "Deep Residual Learning for Image Recognition", "author": "Kaiming He and Xiangyu Zhang and Shaoqing Ren and Jian Sun", "year": "2016", "doi": "10.1109/CVPR.2016.90", "url": "https://dblp.org/rec/conf/cvpr/HeZRS16", "booktitle": "CVPR"}}
{"type": "inproceedings", "fields": {"title": "Attention is All you Need", "author": "Ashish Vaswani and Noam Shazeer and Niki Parmar", "year": "2017", "url": "https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17", "booktitle": "NeurIPS"}}
"#;

/// Three papers of one reference each: a DOI the world holds, a title it
/// holds, a title nobody has.
fn online_papers(dir: &Path) -> String {
    let input = dir.join("online");
    std::fs::create_dir_all(&input).unwrap();
    write(
        &input,
        "he.bib",
        "@inproceedings{he2016, title = {Deep Residual Learning for Image Recognition}, author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, booktitle = {CVPR}, year = {2016}, doi = {10.1109/CVPR.2016.90}}\n",
    );
    write(
        &input,
        "vaswani.bib",
        "@inproceedings{vaswani2017, title = {Attention Is All You Need}, author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki}, booktitle = {NeurIPS}, year = {2017}}\n",
    );
    write(
        &input,
        "fake.bib",
        "@article{fake2023, title = {Quantum Gravitational Transformers for Protein Folding at Scale}, author = {Keller, Maria and Okafor, Chidi}, journal = {Nature}, year = {2023}}\n",
    );
    input.display().to_string()
}

fn online_batch(server: &common::Server, input: &str, out: &str) -> std::process::Output {
    let mut args: Vec<String> = ["batch", "--in", input, "--out", out, "--window", "1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(fast_world(server));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&a, &[("S2_API_KEY", "sekrit-batch-key")])
}

#[test]
fn online_a_resumed_batch_asks_nothing_for_papers_done_and_a_rerun_asks_nothing() {
    let world = citegate_world::World::from_jsonl(WORLD);
    let server = world_server(world, |_, _| None);
    let tmp = tempdir();
    let input = online_papers(tmp.path());
    let clean_dir = tmp.path().join("clean");
    let clean = clean_dir.display().to_string();
    let first = online_batch(&server, &input, &clean);
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let sent_clean = server.hits().len();
    assert!(sent_clean > 0);
    let report = json(&clean_dir.join("report.json"));
    let got = classes(&report);
    assert_eq!(
        got,
        [
            ("fake.bib".into(), "fake2023".into(), "fabricated".into()),
            ("he.bib".into(), "he2016".into(), "valid".into()),
            ("vaswani.bib".into(), "vaswani2017".into(), "valid".into()),
        ]
    );
    // The key went to Semantic Scholar, never into a file of the batch.
    for f in [
        "checkpoint.jsonl",
        "report.json",
        "report.csv",
        "report.html",
    ] {
        assert!(!read(&clean_dir.join(f)).contains("sekrit"), "{f}");
    }

    // A rerun of the finished batch sends nothing and writes the same reports.
    server.clear();
    let rerun = online_batch(&server, &input, &clean);
    assert_eq!(server.hits().len(), 0, "{:?}", server.hits());
    assert_eq!(rerun.status.code(), Some(1));
    assert_eq!(json(&clean_dir.join("report.json")), report);

    // Resumed with he.bib done: nothing about that paper is asked.
    let lines: Vec<String> = read(&clean_dir.join("checkpoint.jsonl"))
        .lines()
        .map(str::to_string)
        .collect();
    let he = lines
        .iter()
        .find(|l| l.contains("\"file\":\"he.bib\""))
        .expect("he.bib's line");
    let resumed_dir = tmp.path().join("resumed");
    std::fs::create_dir_all(&resumed_dir).unwrap();
    std::fs::write(resumed_dir.join("checkpoint.jsonl"), format!("{he}\n")).unwrap();
    server.clear();
    let resumed = online_batch(&server, &input, &resumed_dir.display().to_string());
    assert_eq!(resumed.status.code(), Some(1), "{}", stderr(&resumed));
    let hits = server.hits();
    assert!(
        !hits.is_empty() && hits.len() < sent_clean,
        "{} of {sent_clean}",
        hits.len()
    );
    for h in &hits {
        let asked = format!("{} {}", h.target, h.body).to_lowercase();
        assert!(
            !asked.contains("cvpr.2016.90") && !asked.contains("residual"),
            "he.bib was asked again: {asked}"
        );
    }
    assert_eq!(classes(&json(&resumed_dir.join("report.json"))), got);
}

#[test]
fn an_id_list_offline_records_each_paper_it_cannot_fetch_and_a_bad_path_is_named() {
    let tmp = tempdir();
    let ids = write(
        tmp.path(),
        "ids.txt",
        "# accepted papers\n2401.12345\narXiv:1706.03762v5\n\n",
    );
    let out_dir = tmp.path().join("out");
    let o = batch(&[
        "--in",
        &ids,
        "--out",
        &out_dir.display().to_string(),
        "--offline",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report = json(&out_dir.join("report.json"));
    let papers: Vec<(&str, &str)> = report["papers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["file"].as_str().unwrap(),
                p["error"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(papers.len(), 2, "{report}");
    for (file, error) in &papers {
        assert!(
            ["arXiv:1706.03762", "arXiv:2401.12345"].contains(file),
            "{file}"
        );
        assert!(error.contains("offline"), "{error}");
    }

    let missing = tmp.path().join("no-such-folder").display().to_string();
    let o = batch(&["--in", &missing, "--out", &out_dir.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("--in") && err.contains("no-such-folder"),
        "{err}"
    );
}

/// The offline folder of [`papers`] packed as a `.tar.gz` and as a `.zip`.
fn archives(input: &Path, dir: &Path) -> (String, String) {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for e in [
        "a.bib",
        "sub/b.bbl",
        "tree/main.tex",
        "tree/r.bib",
        "broken.pdf",
    ] {
        files.push((e.to_string(), std::fs::read(input.join(e)).unwrap()));
    }
    let tgz = dir.join("papers.tar.gz");
    let gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&tgz).unwrap(),
        flate2::Compression::fast(),
    );
    let mut tar = tar::Builder::new(gz);
    for (name, bytes) in &files {
        let mut h = tar::Header::new_ustar();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tar.append_data(&mut h, name, bytes.as_slice()).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
    let zip_path = dir.join("papers.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
    for (name, bytes) in &files {
        zip.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut zip, bytes).unwrap();
    }
    zip.finish().unwrap();
    (tgz.display().to_string(), zip_path.display().to_string())
}

#[test]
fn an_archive_of_papers_gives_the_report_the_folder_gives() {
    let tmp = tempdir();
    let ix = index(tmp.path());
    let input = papers(tmp.path());
    let folder_dir = tmp.path().join("folder");
    let o = batch(&[
        "--in",
        &input,
        "--out",
        &folder_dir.display().to_string(),
        "--index",
        &ix,
        "--offline",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let want = json(&folder_dir.join("report.json"));
    let (tgz, zip) = archives(Path::new(&input), tmp.path());
    for (i, archive) in [tgz, zip].iter().enumerate() {
        let out = tmp.path().join(format!("archive{i}"));
        let o = batch(&[
            "--in",
            archive,
            "--out",
            &out.display().to_string(),
            "--index",
            &ix,
            "--offline",
        ]);
        assert_eq!(o.status.code(), Some(1), "{archive}: {}", stderr(&o));
        let got = json(&out.join("report.json"));
        assert_eq!(classes(&got), classes(&want), "{archive}");
        assert_eq!(got["failed"], 1, "{archive}");
    }
}

/// `(file, key, verdict, class, reasons)` of every entry: the report but
/// the order in which the sources answered.
fn judged(report: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for p in report["papers"].as_array().expect("papers") {
        out.push(format!("{} error={}", p["file"], p["error"]));
        for e in p["entries"].as_array().expect("entries") {
            out.push(format!(
                "{} {} {} {} {} {}",
                p["file"], e["key"], e["verdict"], e["class"], e["reasons"], e["outcome"]
            ));
        }
    }
    out
}

#[test]
fn a_batch_killed_while_a_service_hangs_resumes_to_the_same_report() {
    let tmp = tempdir();
    let input = tmp.path().join("many");
    std::fs::create_dir_all(&input).unwrap();
    let he = "@inproceedings{he2016, title = {Deep Residual Learning for Image Recognition}, author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, booktitle = {CVPR}, year = {2016}, doi = {10.1109/CVPR.2016.90}}\n";
    for i in 0..6 {
        write(
            &input,
            &format!("p{i}.bib"),
            &he.replace("he2016", &format!("he{i}")),
        );
    }
    // The fifth paper cites a work whose every lookup hangs the first time.
    write(
        &input,
        "p4.bib",
        "@article{slow, title = {Hanging Title Nobody Answers}, author = {Slow, Sam}, journal = {J}, year = {2020}}\n",
    );
    let input = input.display().to_string();
    let world = || citegate_world::World::from_jsonl(WORLD);
    let clean_server = world_server(world(), |_, _| None);
    let clean_dir = tmp.path().join("clean");
    let clean = online_batch(&clean_server, &input, &clean_dir.display().to_string());
    assert_eq!(clean.status.code(), Some(1), "{}", stderr(&clean));

    let hanging = world_server(world(), |hit, _| {
        let asked = format!("{} {}", hit.target, hit.body).to_lowercase();
        (asked.contains("hanging"))
            .then(|| common::Answer::Hang(std::time::Duration::from_secs(30)))
    });
    let out_dir = tmp.path().join("killed");
    let mut args: Vec<String> = [
        "batch",
        "--in",
        &input,
        "--out",
        &out_dir.display().to_string(),
        "--window",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(fast_world(&hanging));
    // Long enough that the run is still waiting when it is killed.
    let t = args.iter().position(|a| a == "--timeout-ms").unwrap();
    args[t + 1] = "60000".into();
    let mut child = common::citegate()
        .args(&args)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let cp = out_dir.join("checkpoint.jsonl");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::fs::read_to_string(&cp).map_or(0, |t| t.lines().count()) < 4 {
        assert!(
            std::time::Instant::now() < deadline,
            "the first papers never finished"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !out_dir.join("report.json").exists(),
        "killed before the report"
    );
    let lines = read(&cp).lines().count();
    assert_eq!(lines, 4, "p0–p3 done, p4 hanging");

    clean_server.clear();
    let resumed = online_batch(&clean_server, &input, &out_dir.display().to_string());
    assert_eq!(resumed.status.code(), Some(1), "{}", stderr(&resumed));
    let report = json(&out_dir.join("report.json"));
    assert_eq!(
        judged(&report),
        judged(&json(&clean_dir.join("report.json")))
    );
    // Only p4 and p5 were asked about.
    let mut redone = checked(&resumed);
    redone.sort();
    assert_eq!(redone, ["p4.bib", "p5.bib"]);
}

#[test]
fn shares_check_every_paper_once_and_their_checkpoints_merge_into_the_one_report() {
    let tmp = tempdir();
    let ix = index(tmp.path());
    let input = papers(tmp.path());
    let whole_dir = tmp.path().join("whole");
    let common_args = |out: &Path| {
        vec![
            "--in".to_string(),
            input.clone(),
            "--out".into(),
            out.display().to_string(),
            "--index".into(),
            ix.clone(),
            "--offline".into(),
        ]
    };
    let go = |mut args: Vec<String>| {
        let a: Vec<&str> = args.iter_mut().map(|s| s.as_str()).collect();
        batch(&a)
    };
    go(common_args(&whole_dir));
    let mut merged = String::new();
    let mut seen: Vec<String> = Vec::new();
    for i in 0..3 {
        let dir = tmp.path().join(format!("share{i}"));
        let mut args = common_args(&dir);
        args.extend(["--share".to_string(), format!("{i}/3")]);
        let o = go(args);
        assert!(o.status.code().is_some_and(|c| c < 2), "{}", stderr(&o));
        seen.extend(checked(&o));
        merged.push_str(&read(&dir.join("checkpoint.jsonl")));
    }
    seen.sort();
    assert_eq!(seen, ["a.bib", "broken.pdf", "sub/b.bbl", "tree"]);
    // The shares' checkpoints in one DIR: a run over the whole input does no
    // work and writes the whole run's report.
    let merged_dir = tmp.path().join("merged");
    std::fs::create_dir_all(&merged_dir).unwrap();
    std::fs::write(merged_dir.join("checkpoint.jsonl"), merged).unwrap();
    let o = go(common_args(&merged_dir));
    assert!(checked(&o).is_empty(), "{}", stderr(&o));
    assert_eq!(
        read(&merged_dir.join("report.json")),
        read(&whole_dir.join("report.json"))
    );
    let mut bad = common_args(&merged_dir);
    bad.extend(["--share".to_string(), "3/3".to_string()]);
    let o = go(bad);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--share"), "{}", stderr(&o));
}
