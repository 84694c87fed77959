# CLI tests: being written
