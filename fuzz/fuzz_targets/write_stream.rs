//! The writing step's readers: the model's streamed answer (Server-Sent
//! Events, OpenAI or Anthropic shape), fed in pieces cut where the input has
//! 0xFF bytes, and the LaTeX extraction from the whole answer.
#![no_main]

use citegate_core::write::extract_latex;
use citegate_core::write::provider::{Api, SseParser, Stream};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let api = if pick & 1 == 0 {
        Api::OpenAi
    } else {
        Api::Anthropic
    };
    let mut sse = SseParser::default();
    let mut stream = Stream::new(api, "sk-fuzz");
    let mut text = String::new();
    for piece in rest.split(|&b| b == 0xFF) {
        let _ = sse.push(piece);
        if let Ok(t) = stream.push(piece) {
            text.push_str(&t);
        }
    }
    let _ = sse.finish();
    let _ = extract_latex(&text);
    let _ = extract_latex(&String::from_utf8_lossy(rest));
});
