//! `citegate-world --world FILE[,FILE…] [--port N] [--unkind [--seed N]]`: serves the world on loopback.
//!
//! Prints the port it listens on (one line, so `--port 0` can be read by a
//! script), then answers HTTP/1.1 requests, one thread per connection, with
//! keep-alive. It binds 127.0.0.1 only and never reaches out. `--unkind`
//! answers as real indexes do (`citegate_world::unkind`); several world
//! files are read as one.

use citegate_world::{Unkind, World};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let Some(file) = arg("--world") else {
        eprintln!("usage: citegate-world --world FILE[,FILE…] [--port N] [--unkind [--seed N]]");
        std::process::exit(2);
    };
    let port: u16 = arg("--port").and_then(|p| p.parse().ok()).unwrap_or(0);
    let mut text = String::new();
    for file in file.split(',') {
        match std::fs::read_to_string(file) {
            Ok(t) => {
                text.push_str(&t);
                text.push('\n');
            }
            Err(e) => {
                eprintln!("cannot read {file}: {e}");
                std::process::exit(2);
            }
        }
    }
    let unkind = if args.iter().any(|a| a == "--unkind") {
        Unkind::real(arg("--seed").and_then(|s| s.parse().ok()).unwrap_or(1))
    } else {
        Unkind::kind()
    };
    let world = Arc::new(World::from_jsonl_with(&text, unkind));
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on 127.0.0.1:{port}: {e}");
            std::process::exit(1);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
    println!("{port}");
    let _ = std::io::stdout().flush();
    eprintln!(
        "citegate-world: {} records on 127.0.0.1:{port}",
        world.records().len()
    );
    for stream in listener.incoming().flatten() {
        let world = Arc::clone(&world);
        std::thread::spawn(move || {
            let _ = serve(&world, stream);
        });
    }
}

fn serve(world: &World, stream: TcpStream) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let mut parts = line.split_whitespace();
        let (method, target, version) = (
            parts.next().unwrap_or("").to_string(),
            parts.next().unwrap_or("/").to_string(),
            parts.next().unwrap_or("HTTP/1.1").to_string(),
        );
        let mut length = 0usize;
        let mut close = version == "HTTP/1.0";
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 {
                return Ok(());
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
                if k == "content-length" {
                    length = v.parse().unwrap_or(0);
                } else if k == "connection" && v.eq_ignore_ascii_case("close") {
                    close = true;
                }
            }
        }
        let mut body = vec![0u8; length.min(16 << 20)];
        reader.read_exact(&mut body)?;
        let (status, headers, body) =
            world.respond(&method, &target, &String::from_utf8_lossy(&body));
        let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!(
            "content-length: {}\r\naccess-control-allow-origin: *\r\n{}\r\n",
            body.len(),
            if close { "connection: close\r\n" } else { "" }
        ));
        out.write_all(head.as_bytes())?;
        out.write_all(body.as_bytes())?;
        out.flush()?;
        if close {
            return Ok(());
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        _ => "Status",
    }
}
