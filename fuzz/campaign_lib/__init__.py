"""fuzz/campaign: run the fuzzers, triage and archive what they find (fuzz/README.md)."""
