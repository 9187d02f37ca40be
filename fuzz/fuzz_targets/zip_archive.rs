//! The Overleaf-project `.zip` reader: any bytes give files or an error.
#![no_main]

use citegate_core::archive;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if !archive::is_zip(data) {
        return;
    }
    if let Ok(files) = archive::unzip(data) {
        for (path, _) in &files {
            assert!(!path.is_empty(), "a file without a path");
        }
    }
});
