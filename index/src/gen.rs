//! A deterministic generator of DBLP XML that follows `dblp.dtd`: the
//! record kinds `article`, `inproceedings`, `proceedings`, `phdthesis` and
//! `www` with keys and `mdate`s shaped as DBLP's, authors with homonym
//! numbers (`Wei Wang 0007`) and names written with the DTD's entities
//! (`M&uuml;ller`), titles with markup (`<i>`, `<sub>`, `<sup>`), CoRR
//! records carrying arXiv ids, and `ee` links to DOIs. The same seed and
//! count give the same bytes. Modeled on the records DBLP's FAQ shows
//! ("What do I find in dblp.xml?"); see `index/PROVENANCE.md`.

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use std::io::Write;

const GIVEN: &[&str] = &[
    "Wei",
    "Jian",
    "Yan",
    "Anna",
    "Maria",
    "David",
    "Michael",
    "Thomas",
    "Sarah",
    "Laura",
    "Hiroshi",
    "Yuki",
    "Ahmed",
    "Fatima",
    "Olga",
    "Ivan",
    "Pierre",
    "Sophie",
    "Lars",
    "Ingrid",
    "Carlos",
    "Ana",
    "Jos&eacute;",
    "Fran&ccedil;ois",
    "J&uuml;rgen",
    "Bj&ouml;rn",
    "Ren&eacute;",
    "Zo&euml;",
    "Andr&eacute;s",
    "S&oslash;ren",
    "Priya",
    "Rahul",
    "Chen",
    "Min",
    "Seo-yeon",
    "Kwame",
    "Amara",
    "Tom&aacute;s",
    "Luk&aacute;s",
    "&Aring;sa",
];
const FAMILY: &[&str] = &[
    "Wang",
    "Li",
    "Zhang",
    "Liu",
    "Chen",
    "Smith",
    "Johnson",
    "Brown",
    "Garc&iacute;a",
    "M&uuml;ller",
    "Schr&ouml;der",
    "Nakamura",
    "Tanaka",
    "Kim",
    "Park",
    "Nguyen",
    "Rossi",
    "Dubois",
    "Petrov",
    "Ivanova",
    "Andersson",
    "Nielsen",
    "Kowalski",
    "Novak",
    "Silva",
    "Santos",
    "O'Brien",
    "van der Berg",
    "de la Cruz",
    "Gon&ccedil;alves",
    "Jim&eacute;nez",
    "Ha&szlig;",
    "&Ouml;zt&uuml;rk",
    "Sharma",
    "Gupta",
    "Okafor",
    "Mensah",
    "Cohen",
    "Levi",
    "Fischer",
    "Weber",
    "Hoffmann",
    "Dvor&aacute;k",
];
/// Title words, most frequent first (titles draw early words more often).
const WORDS: &[&str] = &[
    "learning",
    "networks",
    "neural",
    "graph",
    "data",
    "model",
    "models",
    "efficient",
    "deep",
    "analysis",
    "systems",
    "approach",
    "algorithm",
    "algorithms",
    "optimization",
    "distributed",
    "robust",
    "fast",
    "detection",
    "framework",
    "language",
    "semantic",
    "query",
    "scalable",
    "adaptive",
    "online",
    "privacy",
    "secure",
    "verification",
    "parallel",
    "estimation",
    "sparse",
    "representation",
    "reinforcement",
    "transformer",
    "attention",
    "generative",
    "adversarial",
    "federated",
    "inference",
    "bayesian",
    "probabilistic",
    "stochastic",
    "convex",
    "matrix",
    "tensor",
    "kernel",
    "clustering",
    "classification",
    "retrieval",
    "recommendation",
    "embedding",
    "embeddings",
    "knowledge",
    "reasoning",
    "planning",
    "control",
    "wireless",
    "sensor",
    "cloud",
    "edge",
    "computing",
    "storage",
    "database",
    "databases",
    "indexing",
    "compression",
    "coding",
    "channel",
    "quantum",
    "cryptographic",
    "protocol",
    "protocols",
    "consensus",
    "blockchain",
    "software",
    "testing",
    "program",
    "synthesis",
    "compiler",
    "types",
    "logic",
    "temporal",
    "spatial",
    "image",
    "video",
    "segmentation",
    "recognition",
    "speech",
    "translation",
    "dialogue",
    "summarization",
    "multimodal",
    "contrastive",
    "self-supervised",
    "pretraining",
    "fine-tuning",
    "benchmark",
    "evaluation",
    "fairness",
    "explainable",
    "interpretable",
    "uncertainty",
    "causal",
    "discovery",
    "mining",
    "streams",
    "time",
    "series",
    "forecasting",
    "anomaly",
    "molecular",
    "protein",
    "medical",
    "imaging",
    "robot",
    "navigation",
    "manipulation",
    "autonomous",
    "driving",
    "traffic",
    "routing",
    "scheduling",
    "allocation",
    "games",
    "auctions",
    "mechanism",
    "design",
    "complexity",
    "approximation",
    "bounds",
    "lower",
    "upper",
    "random",
    "walks",
    "trees",
    "hashing",
    "sketching",
    "sampling",
    "caching",
    "memory",
    "hardware",
    "accelerator",
    "FPGA",
    "energy",
    "power",
    "networks-on-chip",
    "vision",
    "point",
    "cloud",
    "3D",
    "reconstruction",
    "rendering",
    "geometry",
    "meshes",
    "shape",
    "physics-informed",
    "differential",
    "equations",
    "solvers",
    "numerical",
    "linear",
    "nonlinear",
    "dynamics",
    "spectral",
    "diffusion",
    "score-based",
    "flows",
    "variational",
    "autoencoders",
    "priors",
    "posterior",
    "sequential",
    "recurrent",
    "convolutional",
    "lightweight",
    "mobile",
    "heterogeneous",
    "multi-agent",
    "cooperative",
    "social",
    "crowdsourcing",
    "ontology",
    "web",
    "services",
    "workflow",
    "provenance",
    "visualization",
    "interactive",
    "user",
    "study",
    "accessibility",
    "education",
    "code",
    "generation",
    "repair",
    "vulnerability",
    "malware",
    "intrusion",
    "authentication",
    "zero-knowledge",
    "proofs",
    "homomorphic",
    "encryption",
    "differential",
    "privacy-preserving",
    "auditing",
];
const GLUE: &[&str] = &[
    "for", "with", "via", "of", "in", "on", "under", "towards", "and", "using",
];
const JOURNALS: &[(&str, &str)] = &[
    ("tcs", "Theor. Comput. Sci."),
    ("jacm", "J. ACM"),
    ("cacm", "Commun. ACM"),
    ("pami", "IEEE Trans. Pattern Anal. Mach. Intell."),
    ("jmlr", "J. Mach. Learn. Res."),
    ("tkde", "IEEE Trans. Knowl. Data Eng."),
    ("vldb", "VLDB J."),
    ("tods", "ACM Trans. Database Syst."),
    ("ai", "Artif. Intell."),
    ("ijcv", "Int. J. Comput. Vis."),
];
const CONFS: &[(&str, &str)] = &[
    ("nips", "NeurIPS"),
    ("icml", "ICML"),
    ("iclr", "ICLR"),
    ("cvpr", "CVPR"),
    ("acl", "ACL"),
    ("sigmod", "SIGMOD Conference"),
    ("stoc", "STOC"),
    ("focs", "FOCS"),
    ("kdd", "KDD"),
    ("www", "WWW"),
    ("aaai", "AAAI"),
    ("ccs", "CCS"),
];
const SCHOOLS: &[&str] = &[
    "Stanford University, USA",
    "ETH Zurich, Switzerland",
    "Universit&auml;t des Saarlandes, Saarbr&uuml;cken, Germany",
    "Tsinghua University, Beijing, China",
    "University of Oxford, UK",
];

/// One record as written, for tests and generators built on this one.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// The record's key.
    pub key: String,
    /// The record element (`article`, …).
    pub kind: &'static str,
}

/// The generator's state.
pub struct Generator {
    rng: XorShiftRng,
    written: u64,
}

impl Generator {
    /// A generator whose output depends only on `seed`.
    pub fn new(seed: u64) -> Generator {
        Generator {
            rng: XorShiftRng::seed_from_u64(seed),
            written: 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % (n.max(1) as u64)) as usize
    }

    /// An index skewed to the start of a list of `n` (early words are common).
    fn skewed(&mut self, n: usize) -> usize {
        let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        ((u * u * n as f64) as usize).min(n.saturating_sub(1))
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list.get(self.below(list.len())).copied().unwrap_or("")
    }

    fn person(&mut self) -> String {
        let given = self.pick(GIVEN);
        let family = self.pick(FAMILY);
        // About one name in eight is a homonym DBLP tells apart by number.
        if self.below(8) == 0 {
            format!("{given} {family} {:04}", 1 + self.below(40))
        } else {
            format!("{given} {family}")
        }
    }

    fn title(&mut self) -> String {
        let n = 4 + self.below(9);
        let mut words: Vec<String> = Vec::with_capacity(n + 2);
        for i in 0..n {
            if i > 0 && i + 1 < n && self.below(5) == 0 {
                words.push(self.pick(GLUE).to_string());
            }
            let w = WORDS
                .get(self.skewed(WORDS.len()))
                .copied()
                .unwrap_or("data");
            words.push(w.to_string());
        }
        // Markup as DBLP writes it: an italic variable, a subscript, a superscript.
        match self.below(20) {
            0 => words.insert(
                1,
                format!(
                    "<i>k</i>-{}",
                    self.pick(&["means", "anonymity", "NN", "SAT"])
                ),
            ),
            1 => words.push(format!("in H<sub>{}</sub>", 1 + self.below(4))),
            2 => words.push(format!("with O(n<sup>{}</sup>) Time", 2 + self.below(3))),
            3 => words.push(format!(
                "for {}",
                self.pick(&[
                    "Schr&ouml;dinger Bridges",
                    "Erd&ouml;s Graphs",
                    "M&ouml;bius Functions"
                ])
            )),
            _ => {}
        }
        let mut t = words.join(" ");
        if let Some(first) = t.get(..1) {
            t = first.to_uppercase() + t.get(1..).unwrap_or("");
        }
        // A number keeps titles apart in a large file, as versions and parts do.
        if self.below(3) == 0 {
            t.push_str(&format!(" {}", self.below(1000)));
        }
        t.push('.');
        t
    }

    fn mdate(&mut self) -> String {
        let year = 2010 + self.below(17);
        let month = 1 + self.below(if year == 2026 { 11 } else { 12 });
        format!("{year}-{month:02}-{:02}", 1 + self.below(28))
    }

    /// A key suffix unique per record: the record number in base 26.
    fn suffix(&self) -> String {
        let mut n = self.written;
        let mut s = Vec::new();
        loop {
            s.push(b'a' + (n % 26) as u8);
            n /= 26;
            if n == 0 {
                break;
            }
        }
        s.reverse();
        String::from_utf8(s).unwrap_or_default()
    }

    /// The family name as DBLP puts it in keys (letters only, entities dropped).
    fn key_name(person: &str) -> String {
        let family = person
            .split_whitespace()
            .rfind(|w| !w.chars().all(|c| c.is_ascii_digit()))
            .unwrap_or("X");
        // An entity stands for its base letter (`&eacute;` is `e`).
        let mut out = String::new();
        let mut entity: Option<bool> = None;
        for c in family.chars() {
            match (c, entity) {
                ('&', _) => entity = Some(true),
                (';', Some(_)) => entity = None,
                (c, Some(true)) => {
                    out.push(c);
                    entity = Some(false);
                }
                (_, Some(false)) => {}
                (c, None) if c.is_ascii_alphabetic() => out.push(c),
                _ => {}
            }
        }
        out
    }

    /// Writes the next record to `out`.
    pub fn record(&mut self, out: &mut impl Write) -> std::io::Result<Generated> {
        let roll = self.below(100);
        let mdate = self.mdate();
        let year = 1990 + self.below(36);
        let yy = year % 100;
        let authors: Vec<String> = (0..1 + self.below(6)).map(|_| self.person()).collect();
        let first = Self::key_name(authors.first().map(String::as_str).unwrap_or("X"));
        let sfx = self.suffix();
        let title = self.title();
        let author_xml: String = authors
            .iter()
            .map(|a| format!("<author>{a}</author>\n"))
            .collect();
        let g = if roll < 30 {
            let (short, name) = *JOURNALS
                .get(self.below(JOURNALS.len()))
                .unwrap_or(&JOURNALS[0]);
            let key = format!("journals/{short}/{first}{yy:02}{sfx}");
            let vol = year - 1980;
            let page = 1 + self.below(900);
            writeln!(
                out,
                "<article mdate=\"{mdate}\" key=\"{key}\">\n{author_xml}<title>{title}</title>\n<pages>{page}-{}</pages>\n<year>{year}</year>\n<volume>{vol}</volume>\n<journal>{name}</journal>\n<number>{}</number>\n<ee>https://doi.org/10.{}/{short}.{year}.{sfx}</ee>\n<url>db/journals/{short}/{short}{vol}.html#{first}{yy:02}{sfx}</url>\n</article>",
                page + 10 + self.below(20),
                1 + self.below(12),
                1000 + self.below(9000),
            )?;
            Generated {
                key,
                kind: "article",
            }
        } else if roll < 45 {
            // CoRR: arXiv's papers as DBLP lists them.
            let month = 1 + self.below(12);
            let yy = 15 + self.below(12);
            let num = self.written % 100_000;
            let id = format!("{yy:02}{month:02}.{num:05}");
            let key = format!("journals/corr/abs-{yy:02}{month:02}-{num:05}");
            writeln!(
                out,
                "<article mdate=\"{mdate}\" key=\"{key}\" publtype=\"informal\">\n{author_xml}<title>{title}</title>\n<year>20{yy:02}</year>\n<volume>abs/{id}</volume>\n<journal>CoRR</journal>\n<ee type=\"oa\">https://arxiv.org/abs/{id}</ee>\n<url>db/journals/corr/corr{yy:02}{month:02}.html#abs-{yy:02}{month:02}-{num:05}</url>\n<stream>streams/journals/corr</stream>\n</article>"
            )?;
            Generated {
                key,
                kind: "article",
            }
        } else if roll < 85 {
            let (short, name) = *CONFS.get(self.below(CONFS.len())).unwrap_or(&CONFS[0]);
            let key = format!("conf/{short}/{first}{yy:02}{sfx}");
            let page = 1 + self.below(900);
            writeln!(
                out,
                "<inproceedings mdate=\"{mdate}\" key=\"{key}\">\n{author_xml}<title>{title}</title>\n<pages>{page}-{}</pages>\n<year>{year}</year>\n<booktitle>{name}</booktitle>\n<ee>https://doi.org/10.1145/{}.{}</ee>\n<crossref>conf/{short}/{year}</crossref>\n<url>db/conf/{short}/{short}{year}.html#{first}{yy:02}{sfx}</url>\n</inproceedings>",
                page + 8 + self.below(12),
                3_000_000 + self.below(700_000),
                3_000_000 + self.written,
            )?;
            Generated {
                key,
                kind: "inproceedings",
            }
        } else if roll < 88 {
            let (short, name) = *CONFS.get(self.below(CONFS.len())).unwrap_or(&CONFS[0]);
            let key = format!("conf/{short}/{year}{sfx}");
            let editors: String = authors
                .iter()
                .map(|a| format!("<editor>{a}</editor>\n"))
                .collect();
            writeln!(
                out,
                "<proceedings mdate=\"{mdate}\" key=\"{key}\">\n{editors}<title>Proceedings of the {} {name} {year}</title>\n<booktitle>{name}</booktitle>\n<publisher>ACM</publisher>\n<year>{year}</year>\n<isbn>978-1-4503-{:04}-{}</isbn>\n<ee>https://doi.org/10.1145/{}</ee>\n<url>db/conf/{short}/{short}{year}.html</url>\n</proceedings>",
                year - 1980,
                self.below(10_000),
                self.below(10),
                3_000_000 + self.written,
            )?;
            Generated {
                key,
                kind: "proceedings",
            }
        } else if roll < 90 {
            let key = format!("phd/{first}{yy:02}{sfx}");
            let author = authors.first().cloned().unwrap_or_default();
            let school = self.pick(SCHOOLS);
            writeln!(
                out,
                "<phdthesis mdate=\"{mdate}\" key=\"{key}\">\n<author>{author}</author>\n<title>{title}</title>\n<school>{school}</school>\n<year>{year}</year>\n<ee>https://doi.org/10.25560/{}</ee>\n</phdthesis>",
                10_000 + self.written,
            )?;
            Generated {
                key,
                kind: "phdthesis",
            }
        } else {
            let author = authors.first().cloned().unwrap_or_default();
            let initial = first.get(..1).unwrap_or("x").to_ascii_lowercase();
            let key = format!("homepages/{initial}/{first}{sfx}");
            writeln!(
                out,
                "<www mdate=\"{mdate}\" key=\"{key}\">\n<author>{author}</author>\n<title>Home Page</title>\n<url>https://example.org/~{}</url>\n</www>",
                first.to_ascii_lowercase(),
            )?;
            Generated { key, kind: "www" }
        };
        self.written += 1;
        Ok(g)
    }

    /// Writes a whole file of `records` records: the XML declaration, the
    /// DOCTYPE naming `dblp.dtd`, `<dblp>`, the records, `</dblp>`.
    pub fn write_file(&mut self, records: u64, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>")?;
        writeln!(out, "<!DOCTYPE dblp SYSTEM \"dblp.dtd\">")?;
        writeln!(out, "<dblp>")?;
        for _ in 0..records {
            self.record(out)?;
        }
        writeln!(out, "</dblp>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dblp::DblpReader;

    fn file(seed: u64, n: u64) -> Vec<u8> {
        let mut out = Vec::new();
        Generator::new(seed)
            .write_file(n, &mut out)
            .expect("writes");
        out
    }

    #[test]
    fn the_same_seed_gives_the_same_bytes_and_another_seed_others() {
        assert_eq!(file(7, 300), file(7, 300));
        assert_ne!(file(7, 300), file(8, 300));
    }

    #[test]
    fn every_record_reads_back_with_a_unique_key_title_and_only_known_entities() {
        let bytes = file(1, 3000);
        assert!(
            bytes.is_ascii(),
            "non-ASCII is written as the DTD's entities"
        );
        let works: Vec<_> = DblpReader::new(&bytes[..])
            .collect::<Result<Vec<_>, _>>()
            .expect("reads");
        assert_eq!(works.len(), 3000);
        let keys: std::collections::HashSet<_> = works.iter().map(|w| w.key.as_str()).collect();
        assert_eq!(keys.len(), 3000);
        assert!(works
            .iter()
            .all(|w| !w.title.is_empty() && !w.title.contains('&')));
        assert!(works
            .iter()
            .all(|w| w.authors.iter().all(|a| !a.contains('&'))));
        for kind in [
            "article",
            "inproceedings",
            "proceedings",
            "phdthesis",
            "www",
        ] {
            assert!(works.iter().any(|w| w.kind == kind), "{kind}");
        }
        assert!(works.iter().any(|w| w.arxiv.is_some()));
        assert!(works.iter().any(|w| w.doi.is_some()));
        assert!(works.iter().any(|w| {
            w.authors.iter().any(|a| {
                a.ends_with(" 0001") || a.chars().last().is_some_and(|c| c.is_ascii_digit())
            })
        }));
        assert!(works
            .iter()
            .any(|w| w.title.contains("H2") || w.title.contains("k-")));
    }
}
