//! Writing `refs.bib` from a citation pool.
