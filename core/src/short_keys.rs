//! A table of distinct strings for many lookups of short ones: the cited
//! keys of a draft against the pool, a control word against the cite
//! commands.
//!
//! A general hash map hashes every byte of the string looked up and calls
//! `memcmp` to confirm a match. Keys and command names are mostly at most
//! 16 bytes, and such a string is known whole by its length and two
//! machine words, its first and its last eight bytes (overlapping when it
//! is shorter than 16, zero-padded when shorter than 8): the table keeps
//! those three numbers in each slot, so finding such a string is a few
//! word operations and no call. Longer strings are hashed whole (FxHash)
//! and compared byte for byte, as a hash map would.

use std::hash::{BuildHasher, Hasher};

/// What a string is looked up by: its length and two words.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Probe {
    len: usize,
    first: u64,
    last: u64,
}

impl Probe {
    fn of(s: &str) -> Probe {
        let b = s.as_bytes();
        let (first, last) = match (word(b.get(..8)), word(b.get(b.len().saturating_sub(8)..))) {
            (Some(first), Some(last)) => (first, last),
            _ => (short_word(b), 0),
        };
        Probe {
            len: b.len(),
            first,
            last,
        }
    }

    /// True when the probe's numbers are the whole string (16 bytes or fewer).
    fn is_whole(&self) -> bool {
        self.len <= 16
    }

    /// The probe's numbers (or a long string's FxHash) mixed by one full
    /// multiplication whose two halves are folded together, so every input
    /// bit reaches every bit of the hash, the low ones too. (A plain
    /// multiplication reaches only the bits above each input bit: its top
    /// bits, taken before, left keys like `key1`…`key499` in clusters that
    /// cost a third of the lookups a second probe.)
    fn hash(&self, s: &str) -> u64 {
        let x = if self.is_whole() {
            self.first ^ self.last.rotate_left(29) ^ self.len as u64
        } else {
            let mut h = rustc_hash::FxBuildHasher.build_hasher();
            h.write(s.as_bytes());
            h.finish()
        };
        let m = u128::from(x) * 0x9E37_79B9_7F4A_7C15;
        (m >> 64) as u64 ^ m as u64
    }
}

fn word(b: Option<&[u8]>) -> Option<u64> {
    b.and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(u64::from_le_bytes)
}

/// The bytes of a string shorter than eight, zero-padded into a word (as
/// little-endian): two overlapping loads, no copy loop.
fn short_word(b: &[u8]) -> u64 {
    let n = b.len();
    let tail = |w: usize| b.get(n.saturating_sub(w)..);
    if n >= 4 {
        let lo = b.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok());
        let hi = tail(4).and_then(|b| <[u8; 4]>::try_from(b).ok());
        let (lo, hi) = (
            lo.map_or(0, u32::from_le_bytes),
            hi.map_or(0, u32::from_le_bytes),
        );
        u64::from(lo) | u64::from(hi) << ((n - 4) * 8)
    } else if n >= 2 {
        let lo = b.get(..2).and_then(|b| <[u8; 2]>::try_from(b).ok());
        let hi = tail(2).and_then(|b| <[u8; 2]>::try_from(b).ok());
        let (lo, hi) = (
            lo.map_or(0, u16::from_le_bytes),
            hi.map_or(0, u16::from_le_bytes),
        );
        u64::from(lo) | u64::from(hi) << ((n - 2) * 8)
    } else {
        b.first().copied().map_or(0, u64::from)
    }
}

/// Distinct strings, each with its index (the order they were added in) and
/// a value. Lookups as described in the module's documentation: an
/// open-addressed table of indices (at most a quarter full, linear
/// probing: few lookups need a second slot) over the strings' probes, kept
/// densely in the order added, so a table of a thousand keys stays in the
/// first-level cache.
#[derive(Clone)]
pub(crate) struct ShortKeys<V> {
    /// Index of an entry plus one, 0 for an empty slot.
    slots: Vec<u32>,
    probes: Vec<Probe>,
    entries: Vec<(String, V)>,
}

impl<V> Default for ShortKeys<V> {
    fn default() -> Self {
        ShortKeys {
            slots: vec![0; 16],
            probes: Vec::new(),
            entries: Vec::new(),
        }
    }
}

impl<V> ShortKeys<V> {
    /// The index of `s`, if it was added.
    pub(crate) fn find(&self, s: &str) -> Option<usize> {
        let probe = Probe::of(s);
        let mask = self.slots.len() - 1;
        let mut at = self.start(probe, s);
        loop {
            let entry = *self.slots.get(at)?;
            let index = usize::try_from(entry).ok()?.checked_sub(1)?;
            if self.probes.get(index) == Some(&probe)
                && (probe.is_whole() || self.entries.get(index).is_some_and(|(k, _)| k == s))
            {
                return Some(index);
            }
            at = (at + 1) & mask;
        }
    }

    /// The value of `s`, if it was added.
    pub(crate) fn get(&self, s: &str) -> Option<&V> {
        self.find(s)
            .and_then(|i| self.entries.get(i))
            .map(|(_, v)| v)
    }

    /// Adds `s` with `value` unless it is there; its index either way.
    pub(crate) fn add(&mut self, s: &str, value: V) -> usize {
        if let Some(i) = self.find(s) {
            return i;
        }
        // Past four billion strings, further ones are not found again.
        let Ok(entry) = u32::try_from(self.entries.len() + 1) else {
            self.entries.push((s.to_string(), value));
            self.probes.push(Probe::of(s));
            return self.entries.len() - 1;
        };
        if (self.entries.len() + 1) * 4 > self.slots.len() {
            self.grow();
        }
        let probe = Probe::of(s);
        self.entries.push((s.to_string(), value));
        self.probes.push(probe);
        self.place(probe, s, entry);
        self.entries.len() - 1
    }

    /// The strings and values, in the order they were added.
    pub(crate) fn entries(&self) -> &[(String, V)] {
        &self.entries
    }

    /// The slot a probe starts at: the hash's low bits.
    fn start(&self, probe: Probe, s: &str) -> usize {
        (probe.hash(s) as usize) & (self.slots.len() - 1)
    }

    /// Puts an entry in the first free slot from its hash.
    fn place(&mut self, probe: Probe, s: &str, entry: u32) {
        let mask = self.slots.len() - 1;
        let mut at = self.start(probe, s);
        while let Some(slot) = self.slots.get_mut(at) {
            if *slot == 0 {
                *slot = entry;
                return;
            }
            at = (at + 1) & mask;
        }
    }

    /// Doubles the slots and places every entry again.
    fn grow(&mut self) {
        self.slots = vec![0; self.slots.len() * 2];
        let entries = std::mem::take(&mut self.entries);
        let probes = std::mem::take(&mut self.probes);
        for (i, ((s, _), probe)) in entries.iter().zip(&probes).enumerate() {
            if let Ok(entry) = u32::try_from(i + 1) {
                self.place(*probe, s, entry);
            }
        }
        self.entries = entries;
        self.probes = probes;
    }
}

#[cfg(test)]
mod tests {
    use super::ShortKeys;

    /// Strings of every length around the word sizes, strings equal but
    /// for one byte, and long strings sharing their first and last eight
    /// bytes: each is found at its index, and nothing else is.
    #[test]
    fn finds_exactly_what_was_added() {
        let mut strings: Vec<String> = Vec::new();
        for len in 0..=40 {
            let base: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            strings.push(base.clone());
            for at in 0..len {
                let mut b = base.clone().into_bytes();
                b[at] = b'Z';
                strings.push(String::from_utf8(b).unwrap());
            }
        }
        strings.push("é".into());
        strings.push("\0".into());
        strings.push("\0\0".into());
        // Every other string is added: each length has strings in and out.
        let added: Vec<&String> = strings.iter().step_by(2).collect();
        let absent: Vec<&String> = strings.iter().skip(1).step_by(2).collect();
        let mut t = ShortKeys::default();
        for (i, s) in added.iter().enumerate() {
            assert_eq!(t.add(s, i), i, "{s:?}");
        }
        assert_eq!(t.add(added[3], 99), 3);
        for (i, s) in added.iter().enumerate() {
            assert_eq!(t.find(s), Some(i), "{s:?}");
            assert_eq!(t.get(s), Some(&i), "{s:?}");
        }
        for s in absent {
            assert_eq!(t.find(s), None, "{s:?}");
        }
        assert_eq!(t.entries().len(), added.len());
    }
}
